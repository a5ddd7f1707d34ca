import { createHash } from 'node:crypto';
import type { Knex } from 'knex';

/*
 * Named prepared statements, so each connection parses and plans a statement once: on the
 * per-log hot path planning costs as much as executing. The name follows the SQL text.
 * Only for statements whose result columns cannot change with the schema (explicit columns or
 * JSON: a prepared `select *` fails once a migration adds a column), and whose plan cannot go
 * stale as tables grow: lookups by primary or unique key. A generic plan made while a table was
 * small (a seq scan) would otherwise stay with the connection.
 */

/** Names by SQL text: the hot path's statements are few and repeat. */
const names = new Map<string, string>();

/** The statement's name on every connection: the same SQL text, the same name. */
export function statementName(sql: string): string {
  let name = names.get(sql);
  if (!name) {
    name = `loyalty_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
    names.set(sql, name);
  }
  return name;
}

/** A knex query run as a named prepared statement. */
export function prepared<TRecord extends {}, TResult>(query: Knex.QueryBuilder<TRecord, TResult>): Knex.QueryBuilder<TRecord, TResult> {
  const name = statementName(query.toSQL().toNative().sql);
  return query.options({ name });
}

/** SQL with `$n` placeholders and its values. */
export interface Sql {
  text: string;
  values: unknown[];
}

interface Connection {
  query<R>(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: R[] }>;
  query<R>(text: string, values: unknown[]): Promise<{ rows: R[] }>;
}

interface PoolClient {
  acquireConnection(): Promise<Connection>;
  releaseConnection(connection: Connection): Promise<void>;
  emit(event: 'query', query: { sql: string; bindings: unknown[] }): boolean;
}

/**
 * Runs SQL as a named prepared statement straight on a connection of knex's pool, or on the
 * transaction's own connection when `db` is one. For the per-log hot path, where knex's raw
 * formatting and runner cost the service more CPU than PostgreSQL spends on the statements. `R`
 * is the row type the statement selects, as pg's own `query<R>` takes it.
 */
export function run<R = Record<string, unknown>>(db: Knex, sql: Sql): Promise<R[]> {
  return onConnection<R>(db, sql, statementName(sql.text));
}

/**
 * Runs SQL as `run` does, without naming it: parsed and planned each time, for what must not be
 * prepared (`returning *`, whose columns a migration may change, or a plan that depends on the data).
 */
export function runOnce<R = Record<string, unknown>>(db: Knex, sql: Sql): Promise<R[]> {
  return onConnection<R>(db, sql);
}

async function onConnection<R>(db: Knex, { text, values }: Sql, name?: string): Promise<R[]> {
  const client = db.client as PoolClient;
  // As knex's own runner does: its `query` listeners see every statement.
  client.emit('query', { sql: text, bindings: values });
  const connection = await client.acquireConnection();
  try {
    // Unnamed as text and values: pg copies a query object property by property first.
    const result = name ? await connection.query<R>({ name, text, values }) : await connection.query<R>(text, values);
    return result.rows;
  } finally {
    void client.releaseConnection(connection);
  }
}

/** Builds `$n` SQL: each `param(value)` appends a value and returns its placeholder. */
export class SqlBuilder {
  readonly values: unknown[] = [];

  param(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  /** Knex-style SQL with `?` placeholders, numbered after the values already taken. */
  numbered(sql: string, values: readonly unknown[]): string {
    const text = numbered(sql, this.values.length);
    this.values.push(...values);
    return text;
  }

  sql(text: string): Sql {
    return { text, values: this.values };
  }
}

/**
 * Knex-style `?` placeholders as `$n`, from `$offset+1`: our own static SQL, which has no `?`
 * operator or literal.
 */
export function numbered(sql: string, offset = 0): string {
  let n = offset;
  return sql.replace(/\?/g, () => `$${++n}`);
}

/** A quoted identifier; ours are table and column names from code, never from input. */
export const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
