import { type AccountClient, CoreError } from '../core/client.server';
import { type LogInput, transient } from '../core/logs.server';
import { whereEquals } from '../core/records.server';
import { customerGid } from '../shopify/customer-ids.server';
import type { OrderCustomer, PaidOrder } from '../shopify/order-payloads.server';
import { earnPoints, memberId, type PointsRates } from './points.server';

/**
 * Referrals (points_setting.pointsOnReferral and pointsOnReferredOrder): a new customer's first
 * paid order (the caller knows it is the first) that carries a member's referral code (the theme embed puts a `?loyalty_ref=` link's
 * code on the cart) earns that member and the customer their points, once. Never for the member's
 * own orders, nor for a customer the shop had before the app came (they may have ordered before).
 */

/** What a referral earned: each side's entry, none where its rate is 0 or the core refused it (then `refused` says why). */
export interface Referral {
  referrer: Earned | null;
  friend: Earned | null;
  refused: string | null;
}

/** An entry the referral wrote, with its points after the member's tier multiplied them. */
interface Earned {
  entryId: string;
  points: number;
}

interface Referrer {
  id: string;
  externalId: string;
  email: string | null;
  /** Whether their member is live: one paused (a customer the shop leaves out by tag) earns nothing for it. */
  live: boolean;
}

/** The member whose referral code this is, when they have a Shopify customer. */
export async function referrerOf(api: AccountClient, code: string): Promise<Referrer | null> {
  const found = await api
    .GET('/schema/account_user/record', { params: { query: { filters: JSON.stringify(whereEquals('referralCode', code)), limit: 1 } } })
    .catch(() => {
      throw new CoreError(0);
    });
  if (!found.data) throw new CoreError(found.response.status, found.error);
  const member = found.data.data[0];
  return member?.externalId
    ? { id: member.id, externalId: member.externalId, email: member.email ?? null, live: member.status === 'live' }
    : null;
}

/** Records who referred the customer's member; a refusal that may pass retries the job. */
async function markReferred(api: AccountClient, id: string, referredById: string): Promise<void> {
  const patched = await api.PATCH('/schema/account_user/record/{id}', { params: { path: { id } }, body: { referredById } }).catch(() => {
    throw new CoreError(0);
  });
  if (!patched.data && transient(patched.response.status)) throw new CoreError(patched.response.status, patched.error);
}

/** Two e-mail addresses are one, whatever their case and surrounding spaces. */
export const sameEmail = (a: string | null, b: string | null) => !!a && !!b && a.trim().toLowerCase() === b.trim().toLowerCase();

/**
 * The referral a customer's first paid order names by its code: none for a customer from before
 * the install, a code no member has, or the customer's own (their member, or one with their e-mail).
 */
export async function earnReferral(
  api: AccountClient,
  order: PaidOrder & { customer: OrderCustomer; referralCode: string },
  ownedBy: LogInput['ownedBy'],
  rates: PointsRates,
  installedAt: Date,
): Promise<Referral | null> {
  const { customer } = order;
  if (!customer.createdAt || Date.parse(customer.createdAt) < installedAt.getTime()) return null;
  const referrer = await referrerOf(api, order.referralCode);
  if (!referrer) return null;
  if (referrer.externalId === customerGid(customer.id) || sameEmail(referrer.email, customer.email ?? order.email)) return null;
  const friendId = await memberId(api, ownedBy);
  await markReferred(api, friendId, referrer.id);
  const orderGid = `gid://shopify/Order/${order.id}`;
  const earn = async (who: LogInput['ownedBy'], points: number, key: string, linkedSchemaSlug: string) => {
    if (points <= 0) return null;
    return earnPoints(api, who, { points, uniqueIdentifier: key, linkedSchemaSlug, linkedSchemaRecordId: orderGid });
  };
  const forReferrer = referrer.live
    ? await earn({ externalId: referrer.externalId }, rates.onReferral, `referral:${order.id}`, 'shopify_referral')
    : null;
  const forFriend = await earn(ownedBy, rates.onReferredOrder, `referral:${order.id}:friend`, 'shopify_referred_order');
  const refused = [forReferrer, forFriend].flatMap((o) => (o && !o.earned ? [o.refused] : []));
  const entry = (o: typeof forReferrer): Earned | null => (o?.earned ? { entryId: o.entryId, points: o.points } : null);
  return { referrer: entry(forReferrer), friend: entry(forFriend), refused: refused.length ? refused.join('; ') : null };
}
