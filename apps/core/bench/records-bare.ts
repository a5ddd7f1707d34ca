import { ident } from '../src/db/prepared.js';
import { heldOutOf, heldOutOfSql, holdoutsSql } from '../src/engine/holdout.js';
import type { BareRoute } from './bare-http.js';

/** The SQL of `bench:records`, and the bare HTTP server's routes that run it (see bare-http.ts). */

export const API = '/api/v1.0/schema/account_user/record';
export const LIST_LIMIT = 50;
export const LIST_LAST_NAME = 'Garcia';

export interface Statement {
  sql: string;
  values: unknown[];
}

// Written out as RecordService builds them (checked against the service's own queries before measuring).
export const listStatement = (accountId: string): Statement => ({
  sql:
    'select "account_user".* from "account_user" where "account_user"."account_id" = $1' +
    ' and (("account_user"."status" = $2) and ("account_user"."last_name" = $3))' +
    ' order by "account_user"."created_at" DESC, "account_user"."id" desc limit $4',
  values: [accountId, 'live', LIST_LAST_NAME, LIST_LIMIT + 1],
});

/** A member's `heldOutOf` (CONTRACT §18): a list reads the account's holdouts once for its page. */
export const holdoutsStatement = (accountId: string): Statement => ({ sql: holdoutsSql('$1'), values: [accountId] });

/** `columns`: the table's columns as the service names them (selectList); a get reads `heldOutOf` with them. */
export const getStatement = ({ accountId, columns }: RecordsContext, id: string): Statement => ({
  sql:
    `select ${columns}, ${heldOutOfSql('"account_user".account_id', '"account_user".external_id')} as "heldOutOf"` +
    ` from "account_user" where "account_user"."account_id" = $1 and "account_user"."id" = $2 limit $3`,
  values: [accountId, id, 1],
});

/** The columns `select *` returns, named, as the service's get names them. */
export async function selectList(pool: { query(sql: string): Promise<{ fields: { name: string }[] }> }): Promise<string> {
  const { fields } = await pool.query('select * from "account_user" limit 0');
  return fields.map((f) => ident(f.name)).join(', ');
}

/**
 * The one account the benchmark reads (the service finds it from the API key, the bare server is
 * told), the get's select list, and whether the get is sent as a named prepared statement, as the
 * service sends it, or unnamed.
 */
export interface RecordsContext {
  accountId: string;
  columns: string;
  prepareGet?: boolean;
}

// The same paths as the API's, so one load generator setup serves both; the query string is not parsed
// because the statement is fixed (the service's parsing of it is part of what the ratio measures).
export const routes: BareRoute<RecordsContext>[] = [
  {
    method: 'GET',
    path: API,
    async handle(pool, { context }) {
      const list = listStatement(context.accountId);
      const { rows } = await pool.query(list.sql, list.values);
      const page = rows.slice(0, LIST_LIMIT);
      const holdouts = holdoutsStatement(context.accountId);
      const { rows: held } = await pool.query({ name: 'records_holdouts', text: holdouts.sql, values: holdouts.values });
      const data = page.map((row) => ({ ...row, heldOutOf: heldOutOf(held, row.external_id) }));
      return { body: { data, hasMore: rows.length > LIST_LIMIT } };
    },
  },
  {
    method: 'GET',
    path: `${API}/:id`,
    async handle(pool, { context, params }) {
      const get = getStatement(context, params.id!);
      const { rows } = await (context.prepareGet
        ? pool.query({ name: 'records_get', text: get.sql, values: get.values })
        : pool.query(get.sql, get.values));
      return rows[0] ? { body: { data: rows[0] } } : { status: 404, body: { error: 'not_found' } };
    },
  },
];
