import type { Knex } from 'knex';
import type { Row } from '../db/rows.js';

interface Connection {
  query(config: { text: string; values: unknown[] }): Promise<{ rows: Row[] }>;
}

interface PoolClient {
  acquireConnection(): Promise<Connection>;
  releaseConnection(connection: Connection): Promise<void>;
  emit(event: 'query', query: { sql: string; bindings: unknown[] }): boolean;
}

/**
 * Runs `$n` SQL straight on a connection of knex's pool, or on the transaction's own connection
 * when `db` is one: for the read path of every API call, where knex's builder and runner cost the
 * service more CPU than the round trip to PostgreSQL. Listeners of knex's `query` event still see
 * the statement. Unnamed, unlike db/prepared.ts's `run`: records are read with `select *`, whose
 * prepared form would fail once a migration adds a column.
 */
export async function queryRows(db: Knex, text: string, values: unknown[]): Promise<Row[]> {
  const client = db.client as PoolClient;
  client.emit('query', { sql: text, bindings: values });
  const connection = await client.acquireConnection();
  try {
    return (await connection.query({ text, values })).rows;
  } finally {
    await client.releaseConnection(connection);
  }
}
