import { randomInt } from 'node:crypto';
import type pg from 'pg';
import { applyCodeLink, REFERRAL_CODE } from '@loyalty/view-model';
import { type AccountClient, CoreError } from '../core/client.server';
import { records, type RecordOf } from '../core/records.server';
import type { JsonObject } from '../json';
import { type AdminGraphql, codeTaken, createCodeDiscount, ordersByEmail } from '../shopify/admin-api.server';
import { shopifyCustomerId } from '../shopify/customer-ids.server';
import { discountReach, type IssuingSpec, rewardEndsAt, takesNoAmount } from '../shopify/reward-issuing';
import { inTransaction } from '../storage/transaction.server';
import { referrerOf, sameEmail } from './referrals.server';

/**
 * A referred friend's gift (points_setting.referralRewardId): someone who follows a member's link
 * claims, with their e-mail, a one-time Shopify discount code for their first order, made from the
 * reward the merchant picked (one the app issues as a Shopify discount). One code per e-mail and
 * shop, asked again: the same code. Not for an e-mail that has ordered from the shop, nor the
 * referrer's own. An order using the code names its referrer even where the cart carried no link,
 * and so does the first order of the e-mail that claimed it, with neither code nor link.
 */

/** A member's link gives at most this many friends their gift a day: a link posted to a coupon site does not empty the shop. */
export const CLAIMS_PER_DAY = 50;
/** A claim still without its discount after this long was left by a request that died; the next claim finishes it. */
const ABANDONED_SECONDS = 30;
/** How long a claim waits for a racing claim of the same e-mail to make the code. */
const RACE_WAIT_MS = 5_000;
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';

/** The reward the friend gets, as a discount the app can make. */
interface Gift {
  rewardId: string;
  title: string;
  reward: RecordOf<'reward'>;
  issuing: IssuingSpec | undefined;
}

/** What the gift needs of the app's own records (loop/outbox.server.ts). */
export interface GiftRewards {
  shopifyDiscountRewards(shop: string): Promise<Set<string>>;
  issuingSpecs(shop: string): Promise<Map<string, IssuingSpec>>;
  /** Queues the Flow trigger "Referral gift claimed" in `db`'s transaction, when the shop's Flow uses it. */
  giftClaimed(db: pg.ClientBase, shop: string, referrerCustomerId: number, fields: JsonObject): Promise<void>;
}

export interface Refusal {
  status: number;
  code: string;
  message: string;
}

export interface Claimed {
  code: string;
  title: string;
  /** Shopify's link that puts the code on the shopper's cart and goes on to it. */
  applyUrl: string;
}

export const isRefusal = (v: object): v is Refusal => 'status' in v && 'message' in v;

const refusal = (status: number, code: string, message: string): Refusal => ({ status, code, message });
const NO_OFFER = refusal(404, 'not_found', 'This link gives no gift.');
const CAPPED = refusal(429, 'rate_limited', 'This link has given all its gifts for today.');

async function giftOf(api: AccountClient, shop: string, rewards: GiftRewards): Promise<Gift | null> {
  const setting = await records(api, 'points_setting').list({ limit: 1 });
  if (!setting.ok) throw new CoreError(setting.failure.status);
  const rewardId = setting.data[0]?.status === 'live' ? setting.data[0].referralRewardId : null;
  if (!rewardId) return null;
  const [reward, asDiscount, specs] = await Promise.all([
    records(api, 'reward').get(rewardId),
    rewards.shopifyDiscountRewards(shop),
    rewards.issuingSpecs(shop),
  ]);
  if (!reward.ok) {
    if (reward.failure.status === 404) return null;
    throw new CoreError(reward.failure.status);
  }
  if (!canGift(reward.data, asDiscount, specs)) return null;
  return {
    rewardId,
    title: (reward.data.eudTitle ?? '').trim() || reward.data.name || '',
    reward: reward.data,
    issuing: specs.get(rewardId),
  };
}

/** A reward the app issues as a Shopify discount (store credit needs a customer, which a friend is not yet). */
const canGift = (reward: RecordOf<'reward'>, asDiscount: Set<string>, specs: Map<string, IssuingSpec>) =>
  reward.status === 'live' && reward.rewardKind !== 'points' && asDiscount.has(reward.id) && specs.get(reward.id)?.kind !== 'store_credit';

/** The rewards the Points page offers as the friend's gift, by name, newest first. */
export async function giftChoices(api: AccountClient, shop: string, rewards: GiftRewards): Promise<{ id: string; name: string }[]> {
  const [listed, asDiscount, specs] = await Promise.all([
    records(api, 'reward').list({ limit: 250, sortBy: [{ fieldSlug: 'createdAt', order: 'DESC' }] }),
    rewards.shopifyDiscountRewards(shop),
    rewards.issuingSpecs(shop),
  ]);
  if (!listed.ok) throw new CoreError(listed.failure.status);
  return listed.data.filter((r) => canGift(r, asDiscount, specs)).map((r) => ({ id: r.id, name: r.name ?? '' }));
}

/** The title of the gift the shop gives referred friends, for a member's own page; null for none, or when it cannot be read now. */
export async function friendGiftTitle(api: AccountClient, shop: string, rewards: GiftRewards): Promise<string | null> {
  return (await giftOf(api, shop, rewards).catch(() => null))?.title ?? null;
}

/** The gift a link's code offers: its title, or a refusal when the code is no member's or the shop gives no gift. */
export async function offerOf(api: AccountClient, shop: string, rewards: GiftRewards, code: string): Promise<{ title: string } | Refusal> {
  if (!REFERRAL_CODE.test(code)) return NO_OFFER;
  const [gift, referrer] = await Promise.all([giftOf(api, shop, rewards), referrerOf(api, code)]);
  return gift && referrer ? { title: gift.title } : NO_OFFER;
}

interface GiftRow {
  code: string;
  title: string;
  discount_gid: string | null;
}

const claimedAnswer = (row: GiftRow): Claimed => ({
  code: row.code,
  title: row.title,
  applyUrl: applyCodeLink(row.code),
});

/** The code the e-mail claimed, once its discount exists. */
async function madeGift(pool: pg.Pool, shop: string, email: string): Promise<Claimed | null> {
  const { rows } = await pool.query<GiftRow>(
    'select code, title, discount_gid from shopify_referral_gifts where shop = $1 and email = $2',
    [shop, email],
  );
  return rows[0]?.discount_gid ? claimedAnswer(rows[0]) : null;
}

const giftCode = () => `FRIEND-${Array.from({ length: 8 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('')}`;

/**
 * The friend's claim: the code the e-mail already has, or a new one made at Shopify. A claim owns
 * making its code by the row it inserted (or took over from a claim that died); a racing claim of
 * the same e-mail waits for that code instead of making another.
 */
export async function claimGift(
  deps: { pool: pg.Pool; api: AccountClient; admin: AdminGraphql; rewards: GiftRewards },
  shop: string,
  input: { code: unknown; email: unknown },
): Promise<Claimed | Refusal> {
  const code = typeof input.code === 'string' ? input.code : '';
  const email = typeof input.email === 'string' ? input.email.trim().toLowerCase() : '';
  if (!REFERRAL_CODE.test(code)) return refusal(400, 'invalid_input', 'The body must carry the link’s referral code.');
  if (email.length > 254 || !EMAIL.test(email)) return refusal(400, 'invalid_input', 'Enter a valid e-mail address.');
  const { pool, api, admin } = deps;
  const existing = await madeGift(pool, shop, email);
  if (existing) return existing;
  const [gift, referrer] = await Promise.all([giftOf(api, shop, deps.rewards), referrerOf(api, code)]);
  if (!gift || !referrer) return NO_OFFER;
  if (sameEmail(referrer.email, email)) return refusal(409, 'own_referral', 'This is your own link: share it with a friend.');
  // Checked again under the link's lock below; here so that a link past its cap costs the shop no Admin API call.
  if ((await claimsToday(pool, shop, code)) >= CLAIMS_PER_DAY) return CAPPED;
  if ((await ordersByEmail(admin, email)) > 0) return refusal(409, 'not_new_customer', 'This gift is for a customer’s first order.');
  const row = await reserveGift(pool, shop, email, code, gift);
  if (!row) return racingClaim(pool, shop, email);
  if (isRefusal(row)) return row;
  const made = await makeDiscount(admin, gift, row.code);
  if (typeof made !== 'string') {
    // Shopify refused the discount itself: the next claim starts afresh rather than waiting for this row.
    await pool.query('delete from shopify_referral_gifts where shop = $1 and email = $2 and discount_gid is null', [shop, email]);
    return made;
  }
  // The code made is recorded with its trigger, so the referrer's workflow (sending the friend their code) runs once.
  await inTransaction(pool, async (db) => {
    await db.query('update shopify_referral_gifts set discount_gid = $3 where shop = $1 and email = $2', [shop, email, made]);
    const referrerId = shopifyCustomerId(referrer.externalId);
    if (referrerId !== null)
      await deps.rewards.giftClaimed(db, shop, referrerId, { friend_email: email, gift_code: row.code, gift_title: row.title });
  });
  return claimedAnswer(row);
}

/** The gifts claimed through the link in the last day. */
async function claimsToday(db: pg.Pool | pg.ClientBase, shop: string, code: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from shopify_referral_gifts where shop = $1 and referrer_code = $2 and created_at > now() - interval '1 day'`,
    [shop, code],
  );
  return rows[0]?.n ?? 0;
}

/**
 * Reserves the e-mail's code under the link's daily cap. Claims through one link take turns at the
 * count and the insert (a lock on the link for the transaction), so racing claims of different
 * e-mails cannot pass the cap together. Null: a live claim of the same e-mail owns the code.
 */
function reserveGift(pool: pg.Pool, shop: string, email: string, code: string, gift: Gift): Promise<GiftRow | Refusal | null> {
  return inTransaction(pool, async (db) => {
    await db.query('select pg_advisory_xact_lock(hashtext($1))', [`loyalty_referral_claims:${shop}:${code}`]);
    if ((await claimsToday(db, shop, code)) >= CLAIMS_PER_DAY) return CAPPED;
    const owned = await db.query<GiftRow>(
      `insert into shopify_referral_gifts (shop, email, code, referrer_code, reward_id, title) values ($1, $2, $3, $4, $5, $6)
       on conflict (shop, email) do update set claimed_at = now()
         where shopify_referral_gifts.discount_gid is null and shopify_referral_gifts.claimed_at < now() - make_interval(secs => $7)
       returning code, title, discount_gid`,
      [shop, email, giftCode(), code, gift.rewardId, gift.title.slice(0, 255), ABANDONED_SECONDS],
    );
    return owned.rows[0] ?? null;
  });
}

/** The code a racing claim of the same e-mail is making, once it exists. */
async function racingClaim(pool: pg.Pool, shop: string, email: string): Promise<Claimed | Refusal> {
  const until = Date.now() + RACE_WAIT_MS;
  while (Date.now() < until) {
    const made = await madeGift(pool, shop, email);
    if (made) return made;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return refusal(503, 'unavailable', 'Your code is still being made: try again in a moment.');
}

/**
 * Makes the gift's discount at Shopify under the row's code: usable once, by anyone (the friend is
 * no customer yet), from the reward's amount, expiry and the editor's settings. A code Shopify
 * says is taken was made by an earlier claim of this row that died before recording it.
 */
async function makeDiscount(admin: AdminGraphql, gift: Gift, code: string): Promise<string | Refusal> {
  const { reward, issuing } = gift;
  const now = new Date().toISOString();
  const created = await createCodeDiscount(admin, {
    title: `Referral gift: ${(reward.name ?? gift.title).slice(0, 200)}`,
    code,
    discountType:
      issuing && takesNoAmount(issuing.kind) ? issuing.kind : reward.discountType === 'fixed_amount' ? 'fixed_amount' : 'percentage',
    discountValue: Number(reward.discountValue ?? 0),
    startsAt: now,
    endsAt: rewardEndsAt(reward, Date.parse(now)),
    ...(issuing ? discountReach(issuing) : {}),
  });
  if (created.userErrors.length && !codeTaken(created.userErrors)) {
    console.error(`[loyalty-referrals] Shopify refused a referral gift: ${created.userErrors.map((e) => e.message).join('; ')}`);
    return refusal(503, 'unavailable', 'The shop could not make your code: try again later.');
  }
  return created.id ?? 'existing';
}

/**
 * Marks the friends' gifts among the order's codes as used by it (once: a redelivered order finds
 * them its own) and answers the referral code of the member whose gift it was, if one of them is.
 */
export async function useGiftCodes(
  db: pg.ClientBase,
  shop: string,
  orderId: string,
  codes: readonly { code: string }[],
): Promise<string | null> {
  if (!codes.length) return null;
  const { rows } = await db.query<{ referrer_code: string }>(
    `update shopify_referral_gifts set order_id = $3
     where shop = $1 and code = any($2) and (order_id is null or order_id = $3)
     returning referrer_code`,
    [shop, codes.map((c) => c.code), orderId],
  );
  return rows[0]?.referrer_code ?? null;
}

/**
 * The referral code of the member whose gift the e-mail claimed: a friend who claimed a gift and
 * then orders without its code or the link (another device, the code forgotten) is still theirs.
 */
export async function claimedBy(db: pg.ClientBase, shop: string, email: string | null): Promise<string | null> {
  if (!email) return null;
  const { rows } = await db.query<{ referrer_code: string }>(
    'select referrer_code from shopify_referral_gifts where shop = $1 and email = $2 and discount_gid is not null',
    [shop, email.trim().toLowerCase()],
  );
  return rows[0]?.referrer_code ?? null;
}

/** The friends' gifts claimed in the last `days` days, and how many of those an order has used. */
export async function giftFigures(db: pg.Pool, shop: string, days: number): Promise<{ claimed: number; used: number }> {
  const { rows } = await db.query<{ claimed: number; used: number }>(
    `select count(*)::int as claimed, count(order_id)::int as used from shopify_referral_gifts
     where shop = $1 and discount_gid is not null and created_at > now() - make_interval(days => $2)`,
    [shop, days],
  );
  return rows[0] ?? { claimed: 0, used: 0 };
}
