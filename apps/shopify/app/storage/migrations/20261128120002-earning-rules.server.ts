import type pg from 'pg';

/**
 * What feeds a streak or a challenge by itself (CONTRACT §17): paid orders or storefront visits,
 * with the collections a challenge's order amounts are limited to. Missions need no row: a task
 * whose activity is a built-in one (order_paid, first_order, account_created) is fed.
 */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query(`create table earning_rules (
    shop text not null,
    kind text not null,
    definition_id uuid not null,
    source text not null,
    collection_ids jsonb not null default '[]',
    updated_at timestamptz not null default now(),
    primary key (shop, definition_id)
  )`);
}
