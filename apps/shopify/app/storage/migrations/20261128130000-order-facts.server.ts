import type pg from 'pg';

/**
 * What the program earns (CONTRACT §18). `order_facts`: per paid order of a customer only its id, the
 * customer, its processing time, its amount and what refunds and a cancellation took back (shop's
 * currency), and the discount codes used (upper-cased, with the amount each took off). A refund that
 * arrives before its order leaves a row with only its refunded amount, which the order fills in.
 * `program_members`: customers the program has earned a log for. `program_codes`: the codes the
 * program issued (its Shopify discounts and the core's reward logs' codes), for attribution. The
 * shop's retention of order facts in months.
 */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query(`create table order_facts (
    shop text not null,
    order_id text not null,
    customer_id text,
    processed_at timestamptz,
    amount numeric,
    refunded numeric not null default 0,
    discount_codes jsonb not null default '[]',
    primary key (shop, order_id)
  )`);
  // The dashboard reads a period's orders from the index alone.
  await db.query(
    'create index order_facts_period_idx on order_facts (shop, processed_at) include (customer_id, amount, refunded) where processed_at is not null',
  );
  await db.query("create index order_facts_coded_idx on order_facts (shop, processed_at) where discount_codes <> '[]'");
  await db.query('create index order_facts_customer_idx on order_facts (shop, customer_id)');
  await db.query(`create table program_members (
    shop text not null,
    customer_id text not null,
    joined_at timestamptz not null,
    primary key (shop, customer_id)
  )`);
  await db.query(`create table program_codes (
    shop text not null,
    code text not null,
    issued_at timestamptz not null,
    primary key (shop, code)
  )`);
  await db.query('create index program_codes_issued_idx on program_codes (shop, issued_at)');
  await db.query('alter table shops add column order_retention_months integer not null default 24');
}
