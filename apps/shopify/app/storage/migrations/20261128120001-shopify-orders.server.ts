import type pg from 'pg';

/**
 * What each paid order earned (CONTRACT §17): the order with its lines and what of them has been
 * refunded, one row per log it wrote (the lines' share of a sum log, so a refund takes back exactly
 * its lines' part; what has been reversed), and each customer's first paid order.
 */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query(`create table shopify_orders (
    shop text not null,
    order_id text not null,
    customer_id text,
    name text not null,
    processed_at timestamptz not null,
    amount numeric not null,
    currency text,
    lines jsonb not null,
    refunded jsonb not null default '{}',
    cancelled_at timestamptz,
    status text not null,
    skip_reason text,
    created_at timestamptz not null default now(),
    primary key (shop, order_id)
  )`);
  await db.query('create index shopify_orders_customer_idx on shopify_orders (shop, customer_id, processed_at desc)');
  await db.query(`create table shopify_order_logs (
    shop text not null,
    order_id text not null,
    kind text not null,
    definition_id uuid not null,
    activity_id text not null,
    definition_name text not null,
    method text not null,
    value_milli bigint not null,
    line_milli jsonb not null,
    unique_identifier text not null,
    log_id uuid,
    refused text,
    reward_log_ids jsonb not null default '[]',
    reversed_milli bigint not null default 0,
    reversals jsonb not null default '[]',
    created_at timestamptz not null default now(),
    primary key (shop, order_id, kind, definition_id, activity_id)
  )`);
  await db.query(`create table shopify_first_orders (
    shop text not null,
    customer_id text not null,
    order_id text not null,
    primary key (shop, customer_id)
  )`);
}
