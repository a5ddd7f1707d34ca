import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../core/test/support/harness';
import { migrate, migrations, pendingMigrations } from '../app/storage/migrate.server';

/**
 * The app's one migration mechanism (app/storage/migrate.server.ts) on real, empty databases: the
 * timestamped files applied once each, under concurrency, and the databases migrated before the
 * files existed, which recorded the former list's names.
 */
const FORMER_NAMES = [
  '001_shops',
  '002_data_requests',
  '003_sessions',
  '004_shops_uninstalled_at',
  '005_shopify_loop',
  '006_flow_action_runs',
  '007_onboarding_checklists',
];

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function database(): Promise<() => pg.Pool> {
  const db = await createTestDatabase({ empty: true });
  const pools: pg.Pool[] = [];
  cleanups.push(async () => {
    await Promise.all(pools.map((p) => p.end()));
    await db.drop();
  });
  return () => {
    const pool = new pg.Pool({ connectionString: db.url, max: 2 });
    pools.push(pool);
    return pool;
  };
}

const recorded = async (pool: pg.Pool) =>
  (await pool.query<{ name: string }>('select name from shopify_app_migrations order by name')).rows.map((r) => r.name);

const tables = async (pool: pg.Pool) =>
  (await pool.query<{ name: string }>("select tablename as name from pg_tables where schemaname = 'public' order by 1")).rows.map(
    (r) => r.name,
  );

describe('the migration files', () => {
  it('are discovered from the folder in timestamp order, one concern each, every former name covered', () => {
    const all = migrations();
    expect(all.map((m) => m.name)).toEqual([...all.map((m) => m.name)].sort());
    for (const m of all) expect(m.name).toMatch(/^\d{14}-[a-z0-9-]+$/);
    // Files added since the former list have no former name.
    expect(new Set(all.flatMap((m) => m.formerly ?? []))).toEqual(new Set(FORMER_NAMES));
  });
});

describe('migrate', () => {
  it('applies every file once, records each, and applies nothing the second time', async () => {
    const pool = (await database())();
    const names = migrations().map((m) => m.name);
    expect(await pendingMigrations(pool)).toEqual(names);
    expect(await migrate(pool)).toEqual(names);
    expect(await recorded(pool)).toEqual(names);
    expect(await tables(pool)).toEqual(
      expect.arrayContaining(['shops', 'shopify_sessions', 'flow_trigger_outbox', 'reward_discounts', 'onboarding_checklists']),
    );
    expect(await migrate(pool)).toEqual([]);
    expect(await pendingMigrations(pool)).toEqual([]);
  });

  it('two processes starting together on an empty database take turns: each file runs once', async () => {
    const pools = await database();
    const [a, b] = [pools(), pools()];
    const applied = await Promise.all([migrate(a), migrate(b)]);
    const names = migrations().map((m) => m.name);
    expect([...applied[0]!, ...applied[1]!].sort()).toEqual(names);
    // One of them found the other's work done.
    expect(applied.some((list) => list.length === 0)).toBe(true);
    expect(await recorded(a)).toEqual(names);
  });

  it("recognises a database migrated by the former list's names: nothing runs twice, the files are recorded", async () => {
    const pool = (await database())();
    await formerDatabase(pool, FORMER_NAMES);
    const before = await tables(pool);
    // Only the files written since the former list run.
    const since = migrations()
      .filter((m) => !m.formerly)
      .map((m) => m.name);
    expect(await pendingMigrations(pool)).toEqual(since);
    // A former file run again would fail on its table, which exists.
    expect(await migrate(pool)).toEqual(since);
    expect(await tables(pool)).toEqual(expect.arrayContaining(before));
    expect(await recorded(pool)).toEqual([...migrations().map((m) => m.name), ...FORMER_NAMES].sort());
  });

  it('a database the former list left part-way gets only what it lacks', async () => {
    const pool = (await database())();
    const done = FORMER_NAMES.slice(0, 4);
    await formerDatabase(pool, done);
    const rest = migrations()
      .filter((m) => !done.includes(m.formerly ?? ''))
      .map((m) => m.name);
    expect(await pendingMigrations(pool)).toEqual(rest);
    expect(await migrate(pool)).toEqual(rest);
    expect(await pendingMigrations(pool)).toEqual([]);
  });

  it('a file that fails is rolled back and not recorded, and stops the run', async () => {
    const pool = (await database())();
    const broken = [
      { name: '20990101000000-good', up: async (db: pg.ClientBase) => void (await db.query('create table good (id int)')) },
      { name: '20990101000100-bad', up: async (db: pg.ClientBase) => void (await db.query('create table bad (id int); select 1/0')) },
      { name: '20990101000200-after', up: async (db: pg.ClientBase) => void (await db.query('create table after (id int)')) },
    ];
    await expect(migrate(pool, broken)).rejects.toThrow(/division by zero/);
    expect(await recorded(pool)).toEqual(['20990101000000-good']);
    expect(await tables(pool)).toEqual(['good', 'shopify_app_migrations']);
  });
});

/** A database as the former list left it: its changes made and its names recorded, as deployed apps have. */
async function formerDatabase(pool: pg.Pool, names: string[]): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('create table shopify_app_migrations (name text primary key, applied_at timestamptz not null default now())');
    for (const m of migrations()) if (m.formerly && names.includes(m.formerly)) await m.up(client);
    for (const name of names) await client.query('insert into shopify_app_migrations (name) values ($1)', [name]);
  } finally {
    client.release();
  }
}
