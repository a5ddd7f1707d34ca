import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

/**
 * Runs a statement as a named prepared statement, so each connection parses and plans it once:
 * on the per-log hot path planning costs as much as executing. The name follows the SQL text.
 * Only for statements whose result columns cannot change with the schema (explicit columns or
 * JSON: a prepared `select *` fails once a migration adds a column), and whose plan cannot go
 * stale as tables grow: lookups by primary or unique key. A generic plan made while a table was
 * small (a seq scan) would otherwise stay with the connection.
 */
export function prepared<T extends Knex.QueryBuilder | Knex.Raw>(query: T): T {
  const sql = query.toSQL().toNative().sql;
  let name = names.get(sql);
  if (!name) {
    name = `loyalty_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    names.set(sql, name);
  }
  return (query as unknown as { options(o: object): T }).options({ name });
}

/** Names by SQL text: the hot path's statements are few and repeat. */
const names = new Map<string, string>();
