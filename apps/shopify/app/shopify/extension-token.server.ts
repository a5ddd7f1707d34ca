/** What UI extension session tokens (customer account, checkout, thank-you and order status pages) say, read the same way by each route. */

// A host name's characters: anything else (a NUL, which PostgreSQL's text refuses, among them) names no shop.
const HOST = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/i;

/** The shop's domain from `dest`, which Shopify's extension tokens give with or without the scheme; null when it names none. */
export function shopOfDest(dest: unknown): string | null {
  const host = typeof dest === 'string' ? dest.replace(/^https:\/\//, '').replace(/\/.*$/, '') : '';
  return HOST.test(host) ? host : null;
}

// Shopify's ids are 64-bit: twenty digits at most.
const CUSTOMER_GID = /^gid:\/\/shopify\/Customer\/([1-9]\d{0,19})$/;

/** The signed-in customer's numeric id from `sub`; null for a guest (Shopify then sets no `sub`) or anything that is not a customer. */
export function customerOfSub(sub: unknown): string | null {
  return (typeof sub === 'string' && CUSTOMER_GID.exec(sub)?.[1]) || null;
}

// A POS session token's `sub` is the numeric id of the user signed into POS. Customer account and
// checkout tokens are signed with the same secret but name a customer gid (or nobody).
const STAFF_USER = /^[1-9]\d{0,19}$/;

/** Whether `sub` names a staff member signed into POS; a claim of another type (an object, which a pattern would turn into text) names none. */
export const isStaffSub = (sub: unknown): boolean => typeof sub === 'string' && STAFF_USER.test(sub);
