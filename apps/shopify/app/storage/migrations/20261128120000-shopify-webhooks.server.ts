import type pg from 'pg';

/**
 * Shopify's order and customer webhooks (CONTRACT §17), kept as they arrive before Shopify gets its
 * 200 and worked off by the worker role: unique per webhook id and per subject (`order:<id>`,
 * `refund:<id>`, `cancel:<id>`, `customer:<id>`), so a redelivery adds nothing. A refund or a
 * cancellation whose order has not been earned yet waits (`waiting`) until the order's row wakes it.
 */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query(`create table shopify_webhooks (
    id bigserial primary key,
    shop text not null,
    webhook_id text not null,
    topic text not null,
    subject text not null,
    order_id text,
    payload jsonb not null,
    status text not null default 'pending',
    attempts integer not null default 0,
    next_attempt_at timestamptz not null default now(),
    last_error text,
    created_at timestamptz not null default now(),
    done_at timestamptz,
    unique (shop, webhook_id),
    unique (shop, subject)
  )`);
  await db.query("create index shopify_webhooks_due_idx on shopify_webhooks (next_attempt_at) where status = 'pending'");
  await db.query("create index shopify_webhooks_waiting_idx on shopify_webhooks (shop, order_id) where status = 'waiting'");
}
