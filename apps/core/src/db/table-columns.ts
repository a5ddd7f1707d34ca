import type { Knex } from 'knex';

const cache = new Map<string, string[]>();

/**
 * A table's column names, as PostgreSQL describes them (read once per process). On the caller's
 * connection: a transaction holding one must not wait for another.
 */
export async function tableColumns(db: Knex, table: string): Promise<string[]> {
  let columns = cache.get(table);
  if (!columns) {
    const { fields } = await db.raw<{ fields: { name: string }[] }>('select * from ?? limit 0', [table]);
    columns = fields.map((f) => f.name);
    cache.set(table, columns);
  }
  return columns;
}
