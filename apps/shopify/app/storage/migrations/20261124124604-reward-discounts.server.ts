import type pg from 'pg';

export const formerly = '005_shopify_loop';

/** One Shopify discount per reward log, its code reserved before Shopify is asked, then stamped on the log. */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query(`create table reward_discounts (
    shop text not null,
    reward_log_id uuid not null,
    reward_id uuid not null,
    customer_gid text not null,
    code text not null,
    discount jsonb not null,
    status text not null default 'pending',
    attempts integer not null default 0,
    next_attempt_at timestamptz not null default now(),
    last_error text,
    discount_gid text,
    created_at timestamptz not null default now(),
    stamped_at timestamptz,
    primary key (shop, reward_log_id),
    unique (shop, code)
  )`);
  await db.query("create index reward_discounts_due_idx on reward_discounts (next_attempt_at) where status = 'pending'");
}
