import type { Knex } from 'knex';
import pg from 'pg';
import type { Row } from '../db/rows.js';

interface QueryConfig {
  name?: string;
  text: string;
  values: unknown[];
  types?: { getTypeParser(oid: number, format?: string): (value: string) => unknown };
}

interface Connection {
  query(config: QueryConfig): Promise<{ rows: Row[] }>;
}

interface PoolClient {
  acquireConnection(): Promise<Connection>;
  releaseConnection(connection: Connection): Promise<void>;
  emit(event: 'query', query: { sql: string; bindings: unknown[] }): boolean;
}

const TIMESTAMPTZ = 1184;
/** PostgreSQL's text for a timestamptz in a UTC session, e.g. `2026-11-25 22:11:55.12+00`. */
const UTC_TEXT = /^(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?\+00$/;

/**
 * A timestamptz as the API shows it (`toISOString`'s form, milliseconds truncated as Date truncates
 * them), taken from the text without a Date in between; any other form (another session time zone,
 * a year past 9999, BC, infinity) goes through pg's own parser.
 */
function isoTimestamp(text: string): unknown {
  const m = UTC_TEXT.exec(text);
  if (!m) return pg.types.getTypeParser(TIMESTAMPTZ)(text);
  return `${m[1]}T${m[2]}.${(m[3] ?? '').padEnd(3, '0').slice(0, 3)}Z`;
}

const isoTypes: NonNullable<QueryConfig['types']> = {
  getTypeParser: (oid, format) => (oid === TIMESTAMPTZ ? isoTimestamp : pg.types.getTypeParser(oid, format as 'text')),
};

export interface QueryOptions {
  /**
   * Timestamps as ISO strings rather than Dates, for rows that are only serialised: a list's 50
   * rows spent more CPU parsing dates and formatting them back than on anything else of the service's.
   */
  isoTimestamps?: boolean;
  /**
   * As a prepared statement of this name (db/prepared.ts's statementName), parsed and planned once
   * per connection: for lookups by primary key that name their columns, where planning costs
   * PostgreSQL more than executing.
   */
  name?: string;
}

/**
 * Runs `$n` SQL straight on a connection of knex's pool, or on the transaction's own connection
 * when `db` is one: for the read path of every API call, where knex's builder and runner cost the
 * service more CPU than the round trip to PostgreSQL. Listeners of knex's `query` event still see
 * the statement. Unnamed unless `name` is given: a list's plan depends on its values.
 */
export async function queryRows(db: Knex, text: string, values: unknown[], options: QueryOptions = {}): Promise<Row[]> {
  const client = db.client as PoolClient;
  client.emit('query', { sql: text, bindings: values });
  const config: QueryConfig = { text, values };
  if (options.name) config.name = options.name;
  if (options.isoTimestamps) config.types = isoTypes;
  const connection = await client.acquireConnection();
  try {
    return (await connection.query(config)).rows;
  } finally {
    await client.releaseConnection(connection);
  }
}
