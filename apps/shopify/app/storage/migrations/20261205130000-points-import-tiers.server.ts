import type pg from 'pg';

/**
 * A balances file may bring each customer's VIP tier (app/points-import): the shop's tier the row's
 * name matched at upload, and the `earned` entry that placed the customer in it, beside the row's
 * balance entry; the import keeps that entry's note in the merchant's language.
 */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query('alter table points_import_rows add column tier_id text, add column tier_entry_id text');
  await db.query('alter table points_imports add column tier_note text');
}
