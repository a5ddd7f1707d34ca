import type pg from 'pg';
import { type AccountClient, CoreError } from '../core/client.server';
import { type LogInput, memberOf } from '../core/logs.server';
import { findMember } from '../core/member-data.server';
import { customerGid } from '../shopify/customer-ids.server';
import { type OrderCustomer, tagKey } from '../shopify/order-payloads.server';
import { lockCustomer } from './customer-lock.server';
import { memberId } from './points.server';

/**
 * Customers left out of the program by their Shopify tags (wholesale buyers, staff), as Smile.io
 * and LoyaltyLion let a shop leave them out. A customer with any of the shop's excluded tags earns
 * nothing the app earns for (orders, signing up, the newsletter, referrals), and their member is
 * paused in the core, which then refuses them everything else (logs from Flow, birthdays, follows)
 * and every redemption; the tag gone, or no longer excluded, their member is live again. The app
 * learns a customer's tags from the webhooks it works off, and the shop's customers already tagged
 * when the tags change from a sweep through the Admin API (exclusions-sweep.server.ts).
 */

/** The channel a change of a shop's excluded tags is announced on, so a worker sweeps its customers at once. */
export const EXCLUSIONS_CHANNEL = 'loyalty_shopify_exclusions';

/** At most this many excluded tags, each at most Shopify's 255 characters. */
export const MAX_EXCLUDED_TAGS = 20;
export const MAX_TAG_LENGTH = 255;

/** The shop's excluded tags as the merchant typed them (compared by `tagKey`); none when it has not set any. */
export async function excludedTags(db: pg.Pool, shop: string): Promise<string[]> {
  const { rows } = await db.query<{ tags: string[] }>('select tags from shop_exclusions where shop = $1', [shop]);
  return rows[0]?.tags ?? [];
}

/** A list of tags as the app compares it: each once, by `tagKey`, sorted. */
const tagSet = (tags: string[]) => JSON.stringify([...new Set(tags.map(tagKey))].sort());

/**
 * Keeps the shop's excluded tags as typed; when they change (by `tagKey`), the shop's customers
 * are swept again, announced to the workers.
 */
export async function saveExcludedTags(db: pg.Pool, shop: string, tags: string[]): Promise<void> {
  const changed = tagSet(await excludedTags(db, shop)) !== tagSet(tags);
  await db.query(
    `insert into shop_exclusions (shop, tags) values ($1, $2)
     on conflict (shop) do update set tags = excluded.tags, changed_at = case when $3 then now() else shop_exclusions.changed_at end`,
    [shop, tags, changed],
  );
  if (changed) await db.query('select pg_notify($1, $2)', [EXCLUSIONS_CHANNEL, shop]);
}

/**
 * Whether a shop's customers are still to be swept since its tags last changed, over
 * `shop_exclusions e left join exclusion_sweeps s`: the sweep's own test and the Points page's.
 */
export const SWEEP_DUE = 's.swept_at is null or s.swept_at < e.changed_at';

/**
 * What the Points page says under the tags: how many customers the app has paused for them, and
 * whether a sweep after their last change is still to finish (the count then still moves).
 */
export async function exclusionsNow(db: pg.Pool, shop: string): Promise<{ leftOut: number; sweeping: boolean }> {
  const { rows } = await db.query<{ left_out: number; sweeping: boolean }>(
    `select (select count(*)::int from customer_exclusions where shop = $1 and paused) left_out,
            exists (select 1 from shop_exclusions e left join exclusion_sweeps s on s.shop = e.shop
                     where e.shop = $1 and (${SWEEP_DUE})) sweeping`,
    [shop],
  );
  return { leftOut: rows[0]!.left_out, sweeping: rows[0]!.sweeping };
}

/** The shop's excluded tags (as typed) the customer has, when the app has paused their member for them; null otherwise. */
export async function leftOutBy(db: pg.Pool, shop: string, customerId: string): Promise<string[] | null> {
  const { rows } = await db.query<{ tags: string[]; shop_tags: string[] }>(
    `select c.tags, e.tags shop_tags from customer_exclusions c join shop_exclusions e on e.shop = c.shop
     where c.shop = $1 and c.customer_id = $2 and c.paused`,
    [shop, customerId],
  );
  const row = rows[0];
  return row ? row.shop_tags.filter((t) => row.tags.includes(tagKey(t))) : null;
}

/** What a webhook or the Admin API said of a customer: their tags (null: it did not say) and as of when. */
export interface SeenCustomer {
  id: string;
  tags: string[] | null;
  /** Shopify's `updated_at` of what said them; null: now. */
  tagsAt: string | null;
  /** The customer as a member is made, for a member paused before the program made them one. */
  member: LogInput['ownedBy'];
}

/** A customer as a webhook names them. */
export const seenOf = (customer: OrderCustomer): SeenCustomer => ({
  id: customer.id,
  tags: customer.tags,
  tagsAt: customer.updatedAt,
  member: memberOf(customerGid(customer.id), customer),
});

interface Known {
  shop_tags: string[] | null;
  tags: string[] | null;
  tags_at: Date | null;
  paused: boolean | null;
}

/**
 * Whether the customer is left out of the program, by the newest tags the app has seen of them
 * and the shop's excluded tags now; their member's status in the core is made to follow (paused,
 * made first if need be, or live again). Under the customer's lock, in the caller's transaction,
 * so a crash before the commit only repeats the core's idempotent change.
 */
export async function settleExclusion(client: pg.PoolClient, api: AccountClient, shop: string, seen: SeenCustomer): Promise<boolean> {
  await lockCustomer(client, shop, seen.id);
  const { rows } = await client.query<Known>(
    `select e.tags shop_tags, c.tags, c.tags_at, c.paused from (select 1) one
     left join shop_exclusions e on e.shop = $1 left join customer_exclusions c on c.shop = $1 and c.customer_id = $2`,
    [shop, seen.id],
  );
  const known = rows[0]!;
  const excludedBy = new Set((known.shop_tags ?? []).map(tagKey));
  const at = seen.tagsAt ? new Date(seen.tagsAt) : new Date();
  // An older payload worked off after a newer one says nothing new.
  const newer = seen.tags !== null && (!known.tags_at || known.tags_at <= at);
  const tags = newer ? seen.tags! : (known.tags ?? []);
  const excluded = tags.some((t) => excludedBy.has(t));
  const paused = known.paused === true;
  if (excluded !== paused) await setStatus(api, seen.member, excluded ? 'paused' : 'live');
  // Kept for the shops that exclude, and for the customers whose member is paused; not for every customer of every shop.
  if ((newer && excludedBy.size) || excluded !== paused || known.tags)
    await client.query(
      `insert into customer_exclusions (shop, customer_id, tags, tags_at, paused) values ($1, $2, $3, $4, $5)
       on conflict (shop, customer_id) do update set tags = excluded.tags, tags_at = excluded.tags_at, paused = excluded.paused`,
      [shop, seen.id, tags, newer ? at : (known.tags_at ?? at), excluded],
    );
  return excluded;
}

/** Pauses the customer's member (made first when the core has none) or makes it live again (none: nothing to do). */
async function setStatus(api: AccountClient, member: LogInput['ownedBy'], status: 'live' | 'paused'): Promise<void> {
  const id =
    status === 'paused'
      ? await memberId(api, member)
      : (
          await findMember(api, member.externalId).catch(() => {
            throw new CoreError(0);
          })
        )?.id;
  if (!id) return;
  const patched = await api.PATCH('/schema/account_user/record/{id}', { params: { path: { id } }, body: { status } }).catch(() => {
    throw new CoreError(0);
  });
  if (!patched.data) throw new CoreError(patched.response.status, patched.error);
}
