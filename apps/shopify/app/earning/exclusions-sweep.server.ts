import type pg from 'pg';
import { type AccountClient, accountClient } from '../core/client.server';
import { type AdminGraphql, customersTagged, customersWithTags, type TaggedCustomer } from '../shopify/admin-api.server';
import { customerGid, memberOfCustomer, shopifyCustomerId } from '../shopify/customer-ids.server';
import { tagKey, tagsOf } from '../shopify/order-payloads.server';
import { inTransaction } from '../storage/transaction.server';
import { WorkLoop } from '../storage/work-loop.server';
import { EXCLUSIONS_CHANNEL, settleExclusion, SWEEP_DUE } from './exclusions.server';
import type { EarningDeps } from './worker.server';

/**
 * The sweep after a shop's excluded tags change (exclusions.server.ts): every customer Shopify finds
 * with one of the tags is left out (their member paused), and every customer the app had paused
 * is read again and, no longer excluded, made live. Webhooks tell the app of later changes to a
 * customer's tags; this covers the customers tagged before. One shop at a time per process, under
 * an advisory lock, so processes never sweep one shop together; a save during a sweep asks for
 * another. A sweep that fails (Shopify or the core unreachable) is tried again a minute later.
 */

export type SweepDeps = Pick<EarningDeps, 'databaseUrl' | 'shops' | 'coreUrl' | 'adminFor'> & {
  /** The process's pool: a sweep holds the shop's lock and a customer's transaction on it, and reads from it besides. */
  pool: pg.Pool;
};

const RETRY_SECONDS = 60;

/** How many shops due are looked at for one whose lock is free. */
const CANDIDATES = 20;

export function exclusionsSweepLoop(deps: SweepDeps): WorkLoop {
  return new WorkLoop({
    databaseUrl: deps.databaseUrl,
    channel: EXCLUSIONS_CHANNEL,
    name: 'loyalty-exclusions',
    step: () => sweepOne(deps),
  });
}

/** Sweeps one shop whose excluded tags changed since its last sweep; false when none is due. */
export function sweepOne(deps: SweepDeps): Promise<boolean> {
  return inTransaction(deps.pool, async (client) => {
    const { rows } = await client.query<{ shop: string }>(
      `select e.shop from shop_exclusions e left join exclusion_sweeps s on s.shop = e.shop
       where (${SWEEP_DUE}) and coalesce(s.sweep_again_at, '-infinity') <= now()
       order by e.changed_at limit $1`,
      [CANDIDATES],
    );
    for (const { shop } of rows) {
      const locked = await client.query<{ got: boolean }>('select pg_try_advisory_xact_lock(hashtext($1)) got', [
        `loyalty-exclusions:${shop}`,
      ]);
      if (!locked.rows[0]!.got) continue;
      // changed_at as text: a Date would lose its microseconds, and the shop would never be swept up to it.
      const { rows: due } = await client.query<{ tags: string[]; changed_at: string }>(
        `select e.tags, e.changed_at::text from shop_exclusions e left join exclusion_sweeps s on s.shop = e.shop
         where e.shop = $1 and (s.swept_at is null or s.swept_at < e.changed_at)`,
        [shop],
      );
      if (!due[0]) continue;
      const account = await deps.shops.findInstalled(shop);
      try {
        if (account) await sweep(deps, shop, due[0].tags, accountClient(deps.coreUrl, account), await deps.adminFor(shop));
      } catch (err) {
        console.error(`[loyalty-exclusions] sweeping ${shop} failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
        await client.query(
          `insert into exclusion_sweeps (shop, sweep_again_at) values ($1, now() + make_interval(secs => $2))
           on conflict (shop) do update set sweep_again_at = excluded.sweep_again_at`,
          [shop, RETRY_SECONDS],
        );
        return true;
      }
      // As of the tags it swept for: a save meanwhile leaves the shop due again.
      await client.query(
        `insert into exclusion_sweeps (shop, swept_at) values ($1, $2)
         on conflict (shop) do update set swept_at = excluded.swept_at, sweep_again_at = null`,
        [shop, due[0].changed_at],
      );
      return true;
    }
    return false;
  });
}

async function sweep(deps: SweepDeps, shop: string, tags: string[], api: AccountClient, admin: AdminGraphql): Promise<void> {
  const swept = new Set<string>();
  // Each customer once, though Shopify finds them by several of the tags.
  const settle = async (customer: TaggedCustomer) => {
    const id = String(shopifyCustomerId(customer.id));
    if (swept.has(id)) return;
    swept.add(id);
    const seen = { id, tags: tagsOf(customer.tags), tagsAt: customer.updatedAt, member: memberOfCustomer(customer.id, customer) };
    await inTransaction(deps.pool, (client: pg.PoolClient) => settleExclusion(client, api, shop, seen));
  };
  for (const tag of new Set(tags.map(tagKey))) {
    for (let after: string | null = null; ;) {
      const page = await customersTagged(admin, tag, after);
      for (const customer of page.customers) await settle(customer);
      if (!page.next) break;
      after = page.next;
    }
  }
  // Paused for tags the shop no longer excludes, or no longer has: their tags now.
  const { rows } = await deps.pool.query<{ customer_id: string }>(
    'select customer_id from customer_exclusions where shop = $1 and paused',
    [shop],
  );
  const left = rows.map((r) => r.customer_id).filter((id) => !swept.has(id));
  for (let i = 0; i < left.length; i += 250) {
    for (const customer of await customersWithTags(admin, left.slice(i, i + 250).map(customerGid))) await settle(customer);
  }
}
