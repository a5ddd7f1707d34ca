import type pg from 'pg';

/**
 * The worker empties the payloads of order and customer webhooks GUEST_ORDER_DAYS after they came
 * (earning/inbox.server.ts): this finds those still to empty without reading the table whole.
 */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query(
    "create index shopify_webhooks_payload_kept_idx on shopify_webhooks (created_at) where status in ('done', 'failed') and payload <> '{}'::jsonb",
  );
}
