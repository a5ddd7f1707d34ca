import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/knex.js';
import { queryRows } from '../../src/records/direct.js';
import { createTestDatabase } from '../support/harness.js';
import { asHolder, guardPool, poolViolations } from '../support/pool-guard.js';

/** The guard every suite runs under (test/support/pool-guard.ts) must itself catch what it is for. */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(database.url, 2);
  guardPool(db);
});
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

/** Runs `work` as a request would, and takes back what the guard recorded of it. */
async function asRequest(work: () => Promise<unknown>): Promise<{ error: unknown; recorded: string[] }> {
  const before = poolViolations.length;
  let error: unknown;
  await asHolder('test request', () => work().catch((err: unknown) => (error = err)));
  return { error, recorded: poolViolations.splice(before) };
}

describe('the pool guard', () => {
  it('refuses a query on the pool from inside a transaction, and records it', async () => {
    const { error, recorded } = await asRequest(() =>
      db.transaction(async (trx) => {
        await trx.raw('select 1');
        await db.raw('select 2');
      }),
    );
    expect(String(error)).toContain('second pooled connection');
    expect(recorded).toHaveLength(1);
  });

  it('refuses two queries of one request waiting on the pool at once', async () => {
    const { error, recorded } = await asRequest(() => Promise.all([queryRows(db, 'select 1', []), db.raw('select 2')]));
    expect(String(error)).toContain('second pooled connection');
    expect(recorded).toHaveLength(1);
  });

  it('lets a request use the pool one query after another, and its transaction as it likes', async () => {
    const { error, recorded } = await asRequest(async () => {
      await db.raw('select 1');
      await queryRows(db, 'select 2', []);
      await db.transaction(async (trx) => {
        await trx.raw('select 3');
        await queryRows(trx, 'select 4', []);
      });
      await db.raw('select 5');
    });
    expect(error).toBeUndefined();
    expect(recorded).toEqual([]);
  });

  it('lets separate requests hold a connection each', async () => {
    const both = await Promise.all([asRequest(() => db.raw('select pg_sleep(0.05)')), asRequest(() => db.raw('select pg_sleep(0.05)'))]);
    expect(both.flatMap((r) => r.recorded)).toEqual([]);
  });
});
