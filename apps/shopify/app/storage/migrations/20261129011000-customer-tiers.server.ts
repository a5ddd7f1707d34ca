import type pg from 'pg';

/**
 * Customers whose loyalty tier the shop should show anew (CONTRACT §19): a customer tag and the
 * customer metafield `$app:loyalty.tier`, kept by the loop's sender. A tier_changed event marks the
 * customer; the sender reads their tier from the core when it syncs, so deliveries arriving in any
 * order end with the tier the member has. `synced_tag` is the tag it last set, which it removes.
 */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query(`create table customer_tiers (
    shop text not null,
    customer_id text not null,
    synced_tag text,
    status text not null default 'pending',
    attempts integer not null default 0,
    next_attempt_at timestamptz not null default now(),
    last_error text,
    primary key (shop, customer_id)
  )`);
  await db.query(`create index customer_tiers_due_idx on customer_tiers (next_attempt_at) where status = 'pending'`);
}
