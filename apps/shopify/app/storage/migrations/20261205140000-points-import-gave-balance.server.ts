import type pg from 'pg';

/**
 * Whether an import row gave its customer their balance: a customer given theirs by an earlier
 * import is still placed in the tier a later file names, and only the rows that gave a balance
 * count as having given one (to that rule, and to the points an import says it gave).
 */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query('alter table points_import_rows add column gave_balance boolean not null default true');
}
