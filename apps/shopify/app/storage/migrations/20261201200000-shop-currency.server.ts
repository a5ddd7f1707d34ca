import type pg from 'pg';

/**
 * The shop's currency (ISO 4217), as its Admin API reports it: the customer account page names it
 * in its earning rate ("For every €1 spent"), which it cannot read from Shopify itself. Null until
 * the shop's admin is next opened (admin/authenticate.server.ts reads it there).
 */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query('alter table shops add column currency_code text');
}
