import type pg from 'pg';

/** The days a signed-in shopper's storefront visit was counted, so a day counts once (CONTRACT §17 Visits). */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query(`create table storefront_visits (
    shop text not null,
    customer_id text not null,
    day date not null,
    created_at timestamptz not null default now(),
    primary key (shop, customer_id, day)
  )`);
}
