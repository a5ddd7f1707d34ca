import type pg from 'pg';

/**
 * The points an order earned (CONTRACT §19: points per unit of the shop's currency spent and per
 * order): the core's `earned` entry, the base the shop's rates gave (its unit and order parts, so a
 * partial refund takes back only the spent part's share) and what refunds and a cancellation took
 * back, each as in `shopify_order_logs`.
 */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query(`create table shopify_order_points (
    shop text not null,
    order_id text not null,
    entry_id text,
    unit_points integer not null,
    order_points integer not null,
    points integer not null default 0,
    reversed integer not null default 0,
    reversals jsonb not null default '[]',
    refused text,
    primary key (shop, order_id)
  )`);
}
