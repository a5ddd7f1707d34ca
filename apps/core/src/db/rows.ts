import type { Knex } from 'knex';

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
