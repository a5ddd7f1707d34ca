import type pg from 'pg';

export const formerly = '005_shopify_loop';

/** The Flow triggers to send, unique per event (and subject), so a redelivered event queues nothing twice. */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query(`create table flow_trigger_outbox (
    id bigserial primary key,
    shop text not null,
    event_id text not null,
    handle text not null,
    subject text not null default '',
    payload jsonb not null,
    status text not null default 'pending',
    attempts integer not null default 0,
    next_attempt_at timestamptz not null default now(),
    last_error text,
    created_at timestamptz not null default now(),
    sent_at timestamptz,
    unique (shop, event_id, handle, subject)
  )`);
  await db.query("create index flow_trigger_outbox_due_idx on flow_trigger_outbox (next_attempt_at) where status = 'pending'");
}
