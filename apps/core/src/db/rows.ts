import type { Knex } from 'knex';
import { ident } from './prepared.js';

/** A database row by column name; the lowest layer that reads rows declares it. */
export type Row = Record<string, unknown>;

/** Updates one account-owned row by its key and returns it as it now is (a row of the same type). */
export async function updateRow<R extends { account_id: unknown; id: unknown }>(
  db: Knex,
  table: string,
  row: R,
  patch: Partial<R>,
): Promise<R> {
  const [updated] = (await db(table).where({ account_id: row.account_id, id: row.id }).update(patch).returning('*')) as R[];
  return updated!;
}

/**
 * Writes whole account-owned rows over the stored ones with the same key, in one statement: every
 * column but the key and `created_at` takes the row's value (a column the row lacks becomes null).
 */
export async function overwriteRows(db: Knex, table: string, rows: Row[], columns: readonly string[]): Promise<void> {
  if (!rows.length) return;
  const set = columns.filter((c) => c !== 'account_id' && c !== 'id' && c !== 'created_at').map(ident);
  await db.raw(
    `update ${ident(table)} t set (${set.join(', ')}) = row(${set.map((c) => `v.${c}`).join(', ')})
       from json_populate_recordset(null::${ident(table)}, ?::json) v
      where t.account_id = v.account_id and t.id = v.id`,
    [JSON.stringify(rows)],
  );
}
