import { coreLanguage } from '../core/languages';
import { memberOf } from '../core/logs.server';
import type { CustomerInfo } from './admin-api.server';

/**
 * A Shopify customer as a loyalty member: its GID is the member's `externalId`, the form Flow
 * (`customer_id`) and the app proxy (`logged_in_customer_id`) both map to, so one shopper is one member.
 */
export function customerGid(numericId: string | number): string {
  return `gid://shopify/Customer/${numericId}`;
}

/** The numeric customer id of a member whose externalId is a Shopify Customer GID; null for any other member. */
export function shopifyCustomerId(externalId: unknown): number | null {
  if (typeof externalId !== 'string') return null;
  const m = /^gid:\/\/shopify\/Customer\/([1-9]\d{0,19})$/.exec(externalId);
  return m ? Number(m[1]) : null;
}

/**
 * The signed-in shopper of an app proxy request: Shopify's `logged_in_customer_id`, null for a
 * guest. The proxy's signature joins a repeated parameter's values, so a shopper's own
 * `?logged_in_customer_id=…` beside Shopify's (empty for a guest) would still verify: a request
 * with more than one names no one.
 */
export function proxyCustomerId(request: Request): string | null {
  const given = new URL(request.url).searchParams.getAll('logged_in_customer_id');
  return given.length === 1 && /^[1-9]\d{0,19}$/.test(given[0]!) ? given[0]! : null;
}

/** The customer's member as a log or a create names it: names, e-mail and the language they use the store in. */
export const memberOfCustomer = (customer: string, found: CustomerInfo) =>
  memberOf(customer, { ...found, languageCode: coreLanguage(found.locale) });
