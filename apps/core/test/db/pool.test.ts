import { createServer, type Server } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/knex.js';
import { ConnectionPool, type PooledConnection, type PoolOptions, PoolTimeoutError } from '../../src/db/pool.js';
import { createTestDatabase } from '../support/harness.js';

/** The connection pool under knex: bounded, first come first served, rid of broken connections. */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase({ empty: true });
});
afterAll(async () => {
  await database.drop();
});

const settings = () => ({ connectionString: database.url, application_name: 'pool-test' });
const pidOf = async (connection: PooledConnection) =>
  (await connection.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;

/** Runs `use` on a pool of the test database with these options, and ends the pool afterwards. */
async function withPool(options: PoolOptions, use: (pool: ConnectionPool) => Promise<void>): Promise<void> {
  const pool = new ConnectionPool(settings(), options);
  try {
    await use(pool);
  } finally {
    await pool.destroy();
  }
}

/** Answers when `check` holds, polling (the pool learns of a dropped connection by an event). */
async function until(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('ConnectionPool', () => {
  it('opens at most `max` connections, and a waiter gets the next one given back, in order of asking', () =>
    withPool({ max: 2, acquireTimeoutMs: 5_000 }, async (pool) => {
      const waits: number[] = [];
      pool.onAcquired = (seconds) => waits.push(seconds);
      const a = await pool.acquire().promise;
      const b = await pool.acquire().promise;
      expect(a).not.toBe(b);
      const served: string[] = [];
      const third = pool.acquire().promise.then((c) => (served.push('third'), c));
      const fourth = pool.acquire().promise.then((c) => (served.push('fourth'), c));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect({ used: pool.numUsed(), free: pool.numFree(), waiting: pool.numPendingAcquires() }).toEqual({ used: 2, free: 0, waiting: 2 });
      pool.release(b);
      expect(await third).toBe(b);
      pool.release(a);
      expect(await fourth).toBe(a);
      expect(served).toEqual(['third', 'fourth']);
      pool.release(a);
      pool.release(b);
      expect({ used: pool.numUsed(), free: pool.numFree(), waiting: pool.numPendingAcquires() }).toEqual({ used: 0, free: 2, waiting: 0 });
      // The two who waited were told how long (about 50 ms); the first two's figures are the time to connect.
      expect(waits).toHaveLength(4);
      expect(waits.slice(2).every((s) => s >= 0.04)).toBe(true);
      // A free connection is the one given back last: the warmest.
      expect(await pool.acquire().promise).toBe(b);
    }));

  it('fails a wait that outlasts the timeout with PoolTimeoutError, and forgets the waiter', () =>
    // Long enough for the first acquire to open its connection on a loaded CI host (100 ms was not).
    withPool({ max: 1, acquireTimeoutMs: 1_000 }, async (pool) => {
      const held = await pool.acquire().promise;
      await expect(pool.acquire().promise).rejects.toBeInstanceOf(PoolTimeoutError);
      expect(pool.numPendingAcquires()).toBe(0);
      pool.release(held);
      expect(await pool.acquire().promise).toBe(held);
    }));

  it('closes a connection given back as broken, and opens another for the next', () =>
    withPool({ max: 1, acquireTimeoutMs: 5_000 }, async (pool) => {
      const first = await pool.acquire().promise;
      const firstPid = await pidOf(first);
      const waiter = pool.acquire().promise;
      first.__knex__disposed = new Error('rollback failed');
      pool.release(first);
      const second = await waiter;
      expect(second).not.toBe(first);
      expect(await pidOf(second)).not.toBe(firstPid);
      pool.release(second);
    }));

  it('drops an idle connection the server ends, and hands out a working one', async () => {
    const pool = new ConnectionPool(settings(), { max: 2, acquireTimeoutMs: 5_000 });
    const admin = new pg.Client(settings());
    await admin.connect();
    try {
      const [a, b] = [await pool.acquire().promise, await pool.acquire().promise];
      const killed = await pidOf(a);
      pool.release(a);
      pool.release(b);
      await admin.query('select pg_terminate_backend($1)', [killed]);
      await until(() => pool.numFree() === 1);
      const next = await pool.acquire().promise;
      expect(await pidOf(next)).not.toBe(killed);
      pool.release(next);
    } finally {
      await admin.end();
      await pool.destroy();
    }
  });

  it('closes connections idle longer than the idle timeout', () =>
    withPool({ max: 2, acquireTimeoutMs: 5_000, idleTimeoutMs: 200 }, async (pool) => {
      const connection = await pool.acquire().promise;
      pool.release(connection);
      expect(pool.numFree()).toBe(1);
      await until(() => pool.numFree() === 0);
      expect(pool.numUsed()).toBe(0);
    }));

  it('rejects the waiter a connection failed to open for, and tries again for the next', async () => {
    // A server that accepts and hangs up: every connection attempt fails.
    const refusing: Server = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    const port = (refusing.address() as { port: number }).port;
    const pool = new ConnectionPool({ host: '127.0.0.1', port, user: 'x', database: 'x' }, { max: 1, acquireTimeoutMs: 5_000 });
    try {
      await expect(pool.acquire().promise).rejects.toThrow();
      await expect(pool.acquire().promise).rejects.toThrow();
      expect({ used: pool.numUsed(), free: pool.numFree(), waiting: pool.numPendingAcquires() }).toEqual({ used: 0, free: 0, waiting: 0 });
    } finally {
      await pool.destroy();
      await new Promise((resolve) => refusing.close(resolve));
    }
  });

  it('on destroy fails its waiters, closes its idle connections, and closes the busy ones as they come back', async () => {
    const pool = new ConnectionPool(settings(), { max: 2, acquireTimeoutMs: 5_000 });
    const [busy, idle] = [await pool.acquire().promise, await pool.acquire().promise];
    pool.release(idle);
    await pool.destroy();
    expect({ used: pool.numUsed(), free: pool.numFree() }).toEqual({ used: 1, free: 0 });
    expect(idle.__knex__disposed).toBeTruthy();
    pool.release(busy);
    expect(busy.__knex__disposed).toBeTruthy();
    expect({ used: pool.numUsed(), free: pool.numFree() }).toEqual({ used: 0, free: 0 });
    await expect(pool.acquire().promise).rejects.toThrow(/closed/);

    const full = new ConnectionPool(settings(), { max: 1, acquireTimeoutMs: 5_000 });
    const held = await full.acquire().promise;
    const waiter = full.acquire().promise;
    await full.destroy();
    await expect(waiter).rejects.toThrow(/closed/);
    full.release(held);
  });

  it('is the pool of the service’s knex instance, which ends it on destroy', async () => {
    const db = createDb(database.url, 3);
    const pool = (db.client as { pool: ConnectionPool }).pool;
    expect(pool).toBeInstanceOf(ConnectionPool);
    const rows = await Promise.all(
      Array.from({ length: 6 }, (_, n) => db.raw<{ rows: { n: number }[] }>('select ?::int as n, pg_sleep(0.05)', [n])),
    );
    expect(rows.map((r) => r.rows[0]!.n)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(pool.numUsed() + pool.numFree()).toBeLessThanOrEqual(3);
    await db.destroy();
    expect(pool.numFree()).toBe(0);
    await expect(pool.acquire().promise).rejects.toThrow(/closed/);
  });
});
