import type pg from 'pg';

/** The order that used a referred friend's gift, so the Points page can say how many gifts became orders. */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query('alter table shopify_referral_gifts add column order_id text');
}
