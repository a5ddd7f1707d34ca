import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import { CONNECT_TIMEOUT_MS, ConnectionPool, type PooledConnection } from './pool.js';

// numeric and bigint arrive as strings by default; every value we store fits a double.
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export type Db = Knex;

/** The parts of knex's client that take connections from its pool and end it. */
interface PoolUser {
  acquireConnection(): Promise<PooledConnection>;
  releaseConnection(connection: PooledConnection): Promise<void>;
  destroy(callback?: unknown): Promise<void>;
}

const released = Promise.resolve();

export function createDb(connectionString: string, poolMax = 10): Db {
  const pool = new ConnectionPool(
    // A query on a connection the server dropped without a word (a restart) fails instead of hanging,
    // and so does opening one on a server that does not answer (a failover, a partition): a connection
    // left opening would hold its place in the pool for good.
    {
      connectionString,
      application_name: 'loyalty',
      query_timeout: 60_000,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    },
    { max: poolMax, acquireTimeoutMs: 10_000 },
  );
  const db = knexFactory({ client: 'pg', connectionPool: pool });
  const client = db.client as PoolUser;
  // knex's own turn around the pool (an async wrapper each way) costs every statement more
  // promises than the pool itself; the pool's errors need no translation.
  client.acquireConnection = () => pool.acquire().promise;
  client.releaseConnection = (connection) => {
    pool.release(connection);
    return released;
  };
  // knex ends only a pool it made itself; this one ends with the instance.
  const destroyClient = client.destroy.bind(client);
  client.destroy = async (callback) => {
    await pool.destroy();
    return destroyClient(callback);
  };
  return db;
}
