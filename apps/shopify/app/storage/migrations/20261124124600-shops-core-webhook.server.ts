import type pg from 'pg';

export const formerly = '005_shopify_loop';

/** The core webhook the app registered for the shop (CONTRACT §16), its secret encrypted like the API key. */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query('alter table shops add column core_webhook_id uuid, add column core_webhook_secret_encrypted text');
}
