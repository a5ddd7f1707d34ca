import type { Knex } from 'knex';
import pg from 'pg';
import type { Row } from '../db/rows.js';

interface QueryConfig {
  name?: string;
  text: string;
  values: unknown[];
  types?: { getTypeParser(oid: number, format?: 'text' | 'binary'): (value: string) => unknown };
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
// text[]: pg-types names no array types, so the OIDs are plain numbers here.
const TEXT_ARRAY: number = 1009;
const SPACE = 32;
const DASH = 45;

/**
 * A timestamptz as the API shows it (`toISOString`'s form, milliseconds truncated as Date truncates
 * them), taken from the text without a Date in between. PostgreSQL writes one in a UTC session as
 * `2026-11-25 22:11:55.12+00`: 22 characters, or 24 to 29 with one to six fraction digits. Any
 * other form (another session time zone, a year past 9999, BC, infinity) goes through pg's own
 * parser. Positions are checked rather than matched with a regular expression: a match's array and
 * groups were most of what a list's timestamps allocated.
 */
function isoTimestamp(text: string): unknown {
  const n = text.length;
  if (n < 22 || n > 29 || n === 23 || text.charCodeAt(4) !== DASH || text.charCodeAt(10) !== SPACE || !text.endsWith('+00')) {
    return pg.types.getTypeParser(TIMESTAMPTZ)(text);
  }
  const ms = n === 22 ? '000' : n >= 26 ? text.slice(20, 23) : text.slice(20, n - 3).padEnd(3, '0');
  return `${text.slice(0, 10)}T${text.slice(11, 19)}.${ms}Z`;
}

const parseTextArray = pg.types.getTypeParser(TEXT_ARRAY);

/** Most members' text arrays (push tokens, unsubscribed channels) are empty: no array parser is made for those. */
const textArray = (text: string): unknown => (text === '{}' ? [] : parseTextArray(text));

const rowTypes: NonNullable<QueryConfig['types']> = {
  getTypeParser: (oid, format) => (oid === TEXT_ARRAY ? textArray : pg.types.getTypeParser(oid, format)),
};

const isoTypes: NonNullable<QueryConfig['types']> = {
  getTypeParser: (oid, format) => (oid === TIMESTAMPTZ ? isoTimestamp : rowTypes.getTypeParser(oid, format)),
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
  const config: QueryConfig = { text, values, types: options.isoTimestamps ? isoTypes : rowTypes };
  if (options.name) config.name = options.name;
  const connection = await client.acquireConnection();
  try {
    return (await connection.query(config)).rows;
  } finally {
    void client.releaseConnection(connection);
  }
}
