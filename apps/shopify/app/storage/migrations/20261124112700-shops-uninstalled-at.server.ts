import type pg from 'pg';

export const formerly = '004_shops_uninstalled_at';

/** Set by app/uninstalled: the account is kept, but the next install provisions it again. */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query('alter table shops add column uninstalled_at timestamptz');
}
