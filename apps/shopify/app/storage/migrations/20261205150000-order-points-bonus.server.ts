import type pg from 'pg';

/** The bonus points event's multiplier an order's points were earned with (1: none), which the member page says beside them. */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query('alter table shopify_order_points add column bonus double precision not null default 1');
}
