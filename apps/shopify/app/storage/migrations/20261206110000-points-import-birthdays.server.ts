import type pg from 'pg';

/** An imported customer's birthday (MM-DD) from the file's birthday column, and whether their row gave it. */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query('alter table points_import_rows add column birthday text, add column gave_birthday boolean not null default false');
}
