import pg from 'pg';

/**
 * The app's own tables, beside the session table that the Shopify session storage manages.
 * Migrations are applied in order, once each, under an advisory lock so that several app
 * processes starting together do not race.
 */
const MIGRATIONS: { name: string; sql: string }[] = [
  {
    name: '001_shops',
    sql: `create table shops (
      shop text primary key,
      organization_id uuid not null,
      account_id uuid not null,
      api_key_id uuid not null,
      api_key_encrypted text not null,
      api_secret_encrypted text not null,
      installed_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`,
  },
  {
    name: '002_data_requests',
    // customers/data_request exports, kept for the merchant to hand over (GDPR access requests).
    sql: `create table data_requests (
      shop text not null,
      request_id text not null,
      customer_external_id text not null,
      export jsonb not null,
      created_at timestamptz not null default now(),
      primary key (shop, request_id)
    )`,
  },
  {
    name: '003_sessions',
    // Shopify sessions; `data` is the session's property list, encrypted (it holds the access token).
    sql: `create table shopify_sessions (
      id text primary key,
      shop text not null,
      data text not null,
      updated_at timestamptz not null default now()
    );
    create index shopify_sessions_shop_idx on shopify_sessions (shop)`,
  },
  {
    name: '004_shops_uninstalled_at',
    // Set by app/uninstalled: the account is kept, but the next install provisions it again.
    sql: 'alter table shops add column uninstalled_at timestamptz',
  },
];

export function createPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 5 });
  // An idle connection the server drops (restart, failover) must not crash the process; the pool
  // replaces it on the next query.
  pool.on('error', () => undefined);
  return pool;
}

export async function migrate(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', ['loyalty_shopify_migrations']);
    await client.query('create table if not exists shopify_app_migrations (name text primary key, applied_at timestamptz not null default now())');
    const { rows } = await client.query<{ name: string }>('select name from shopify_app_migrations');
    const applied = new Set(rows.map((r) => r.name));
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.name)) continue;
      await client.query('begin');
      try {
        await client.query(migration.sql);
        await client.query('insert into shopify_app_migrations (name) values ($1)', [migration.name]);
        await client.query('commit');
      } catch (err) {
        await client.query('rollback');
        throw err;
      }
    }
  } finally {
    await client.query('select pg_advisory_unlock(hashtext($1))', ['loyalty_shopify_migrations']).catch(() => undefined);
    client.release();
  }
}
