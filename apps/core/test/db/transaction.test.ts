import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/knex.js';
import { run } from '../../src/db/prepared.js';
import { transaction } from '../../src/db/transaction.js';
import { createTestDatabase } from '../support/harness.js';

/** The service's transaction: knex's interface on one connection, committed or rolled back as a whole. */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Db;
beforeAll(async () => {
  database = await createTestDatabase({ empty: true });
  db = createDb(database.url, 2);
  await db.raw('create table item (id int primary key, name text not null)');
});
beforeEach(() => db('item').delete());
afterAll(async () => {
  await db.destroy();
  await database.drop();
});

const names = async () => (await db('item').orderBy('id').pluck('name')) as string[];

describe('transaction', () => {
  it('commits what the work wrote through query builders, raw SQL and prepared statements, and answers its result', async () => {
    const result = await transaction(db, async (trx) => {
      expect(trx.isTransaction).toBe(true);
      await trx('item').insert({ id: 1, name: 'builder' });
      await trx.raw('insert into item (id, name) values (?, ?)', [2, 'raw']);
      await run(trx, { text: 'insert into item (id, name) values ($1, $2)', values: [3, 'prepared'] });
      await trx.insert({ id: 4, name: 'interface' }).into('item');
      // Every query saw the ones before it: one connection, one transaction.
      const [counted] = await trx('item').count<{ n: number }[]>({ n: '*' });
      const { rows } = await trx.raw<{ rows: { now: Date; same: boolean }[] }>('select ?::timestamptz = now() as same', [trx.fn.now()]);
      return { n: Number(counted!.n), same: rows[0]!.same };
    });
    expect(result).toEqual({ n: 4, same: true });
    expect(await names()).toEqual(['builder', 'raw', 'prepared', 'interface']);
  });

  it('rolls everything back when the work throws, and rethrows its error', async () => {
    const failure = new Error('refused');
    await expect(
      transaction(db, async (trx) => {
        await trx('item').insert({ id: 1, name: 'gone' });
        throw failure;
      }),
    ).rejects.toBe(failure);
    // A statement's own error rolls back too.
    await expect(
      transaction(db, async (trx) => {
        await trx('item').insert({ id: 1, name: 'first' });
        await trx('item').insert({ id: 1, name: 'again' });
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await names()).toEqual([]);
  });

  it('runs every query on the one connection it holds, and none after it has ended', async () => {
    let kept: ((sql: string) => Promise<unknown>) | undefined;
    const pids = await transaction(db, async (trx) => {
      kept = (sql) => trx.raw(sql);
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) ids.push((await trx.raw<{ rows: { pid: number }[] }>('select pg_backend_pid() as pid')).rows[0]!.pid);
      const { rows } = await trx.raw<{ rows: { xid: string }[] }>('select pg_current_xact_id_if_assigned() as xid');
      expect(rows[0]!.xid).toBeNull();
      return new Set(ids);
    });
    expect(pids.size).toBe(1);
    await expect(kept!('select 1')).rejects.toThrow('after its transaction had ended');
  });

  it('takes the isolation level and read-only mode it is given', async () => {
    await db('item').insert({ id: 1, name: 'before' });
    await expect(
      transaction(
        db,
        async (trx) => {
          const { rows } = await trx.raw<{ rows: { level: string }[] }>("select current_setting('transaction_isolation') as level");
          expect(rows[0]!.level).toBe('repeatable read');
          const first = await trx('item').pluck('name');
          // Another connection's commit is not seen: one snapshot for the whole transaction.
          await db('item').insert({ id: 2, name: 'meanwhile' });
          expect(await trx('item').pluck('name')).toEqual(first);
          await trx('item').insert({ id: 3, name: 'written' });
        },
        { isolationLevel: 'repeatable read', readOnly: true },
      ),
    ).rejects.toMatchObject({ code: '25006' });
    expect(await names()).toEqual(['before', 'meanwhile']);
  });

  it('refuses a nested transaction', async () => {
    await expect(transaction(db, (trx) => trx.transaction(async () => undefined))).rejects.toThrow('Nested transactions are not supported');
  });

  it('holds one pooled connection per transaction and returns it, also when the connection breaks', async () => {
    // With a pool of two, ten transactions at once wait for one another and all commit.
    await Promise.all(
      Array.from({ length: 10 }, (_, i) => transaction(db, async (trx) => void (await trx('item').insert({ id: i, name: `n${i}` })))),
    );
    expect(await names()).toHaveLength(10);
    // A connection terminated mid-transaction: the work's error comes back, and the pool drops the connection.
    const admin = createDb(database.url, 1);
    try {
      await expect(
        transaction(db, async (trx) => {
          const { rows } = await trx.raw<{ rows: { pid: number }[] }>('select pg_backend_pid() as pid');
          await admin.raw('select pg_terminate_backend(?)', [rows[0]!.pid]);
          await trx('item').insert({ id: 99, name: 'lost' });
        }),
      ).rejects.toThrow();
    } finally {
      await admin.destroy();
    }
    for (let i = 0; i < 4; i++) await transaction(db, async (trx) => void (await trx.raw('select 1')));
    expect(await names()).toHaveLength(10);
  });
});
