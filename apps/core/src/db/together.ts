import type { Knex } from 'knex';
import type { Row } from '../records/resource.js';
import { rowFromJson } from './json.js';

/**
 * Runs several data-modifying statements in one round trip, as CTEs of one statement, and returns
 * the first row each one returned. They share one snapshot: use it for writes to different rows
 * whose values are already decided. Each query must end in `.returning('*')`.
 */
export async function together(trx: Knex, queries: Record<string, Knex.QueryBuilder>): Promise<Record<string, Row | undefined>> {
  const names = Object.keys(queries);
  const parts = names.map((name) => {
    if (!/^[a-z_]+$/.test(name)) throw new Error(`bad CTE name ${name}`);
    return { name, ...queries[name]!.toSQL() };
  });
  const sql = `with ${parts.map((p) => `${p.name} as (${p.sql})`).join(', ')} select ${parts
    .map((p) => `(select row_to_json(${p.name}) from ${p.name} limit 1) as ${p.name}`)
    .join(', ')}`;
  const result = await trx.raw(sql, parts.flatMap((p) => p.bindings) as Knex.RawBinding[]);
  const row = result.rows[0] as Record<string, unknown>;
  return Object.fromEntries(names.map((name) => [name, rowFromJson(row[name])]));
}
