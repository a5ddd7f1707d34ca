import type pg from 'pg';

/**
 * Runs `work` on one of the pool's connections in a transaction (`begin` opens it: a plain one by
 * default): committed when it returns, rolled back when it throws, which it rethrows.
 */
export async function inTransaction<T>(db: pg.Pool, work: (client: pg.PoolClient) => Promise<T>, begin = 'begin'): Promise<T> {
  const client = await db.connect();
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
