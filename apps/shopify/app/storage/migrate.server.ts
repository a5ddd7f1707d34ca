import type pg from 'pg';

/**
 * The app's tables, changed only by the timestamped files of ./migrations (one concern each), like
 * the core's: applied in file order, each once, recorded in `shopify_app_migrations`, under an
 * advisory lock so that processes starting together take turns. It runs as an explicit step (the
 * `migrate` command, first in `start`), never as a side effect of loading the app.
 */
export interface Migration {
  name: string;
  /**
   * The name a database migrated before the files existed recorded for this change (the former
   * list's `001_shops` … `007_onboarding_checklists`): such a database has it, so it is recorded, not run.
   */
  formerly?: string;
  up(db: pg.ClientBase): Promise<void>;
}

const FILE = /\/(\d{14}-[a-z0-9-]+)\.server\.ts$/;
// The same lock the former list took, so a process of either version waits for the other.
const LOCK = 'loyalty_shopify_migrations';

/** Every file of ./migrations in timestamp order: adding a migration is adding its file. */
export function migrations(): Migration[] {
  const files = import.meta.glob<Omit<Migration, 'name'>>('./migrations/*.ts', { eager: true });
  return Object.entries(files)
    .map(([path, module]) => {
      const name = FILE.exec(path)?.[1];
      if (!name) throw new Error(`${path}: a migration is named <14-digit timestamp>-<concern>.server.ts`);
      return { ...module, name };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** The migrations a database has not applied, given what it recorded. */
function unapplied(all: Migration[], recorded: Set<string>): Migration[] {
  return all.filter((m) => !recorded.has(m.name) && !(m.formerly && recorded.has(m.formerly)));
}

async function recorded(db: pg.ClientBase | pg.Pool): Promise<Set<string>> {
  const { rows } = await db.query<{ name: string }>('select name from shopify_app_migrations');
  return new Set(rows.map((r) => r.name));
}

/**
 * Applies what the database lacks, each file in a transaction of its own; returns the names applied.
 * A change the database has under its former name is recorded under its file's name without running.
 */
export async function migrate(pool: pg.Pool, all: Migration[] = migrations()): Promise<string[]> {
  const client = await pool.connect();
  let unlocked: Error | undefined;
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', [LOCK]);
    await client.query(
      'create table if not exists shopify_app_migrations (name text primary key, applied_at timestamptz not null default now())',
    );
    const done = await recorded(client);
    const applied: string[] = [];
    for (const migration of all) {
      if (done.has(migration.name)) continue;
      const known = migration.formerly !== undefined && done.has(migration.formerly);
      await client.query('begin');
      try {
        if (!known) await migration.up(client);
        await client.query('insert into shopify_app_migrations (name) values ($1)', [migration.name]);
        await client.query('commit');
      } catch (err) {
        await client.query('rollback');
        throw err;
      }
      if (!known) applied.push(migration.name);
    }
    return applied;
  } finally {
    await client.query('select pg_advisory_unlock(hashtext($1))', [LOCK]).catch((err: Error) => (unlocked = err));
    // A connection that may still hold the lock is closed rather than pooled, which releases it.
    client.release(unlocked);
  }
}

/** The names of the migrations the database still lacks (all of them before the first run). */
export async function pendingMigrations(pool: pg.Pool, all: Migration[] = migrations()): Promise<string[]> {
  const { rows } = await pool.query<{ present: boolean }>("select to_regclass('shopify_app_migrations') is not null as present");
  const done = rows[0]?.present ? await recorded(pool) : new Set<string>();
  return unapplied(all, done).map((m) => m.name);
}
