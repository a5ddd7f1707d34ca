import type { Knex } from 'knex';

/** A database row by column name; the lowest layer that reads rows declares it. */
export type Row = Record<string, unknown>;

/** Updates one account-owned row by its key and returns it as it now is. */
export async function updateRow(db: Knex, table: string, row: Row, patch: Row): Promise<Row> {
  const [updated] = (await db(table).where({ account_id: row.account_id, id: row.id }).update(patch).returning('*')) as Row[];
  return updated!;
}
