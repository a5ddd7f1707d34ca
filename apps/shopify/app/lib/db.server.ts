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
  {
    name: '005_shopify_loop',
    // CONTRACT §16. The core webhook the app registered (its secret encrypted like the API key);
    // the Flow triggers each shop uses (lifecycle callbacks); the outbox of triggers to send, unique
    // per event so a redelivery queues nothing twice; rewards issued as Shopify discounts; and one
    // discount per reward log, its code reserved before Shopify is asked.
    sql: `alter table shops add column core_webhook_id uuid, add column core_webhook_secret_encrypted text;
    create table flow_trigger_usage (
      shop text not null,
      handle text not null,
      enabled boolean not null,
      notified_at timestamptz not null,
      primary key (shop, handle)
    );
    create table flow_trigger_outbox (
      id bigserial primary key,
      shop text not null,
      event_id text not null,
      handle text not null,
      subject text not null default '',
      payload jsonb not null,
      status text not null default 'pending',
      attempts integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      last_error text,
      created_at timestamptz not null default now(),
      sent_at timestamptz,
      unique (shop, event_id, handle, subject)
    );
    create index flow_trigger_outbox_due_idx on flow_trigger_outbox (next_attempt_at) where status = 'pending';
    create table shopify_discount_rewards (
      shop text not null,
      reward_id uuid not null,
      created_at timestamptz not null default now(),
      primary key (shop, reward_id)
    );
    create table reward_discounts (
      shop text not null,
      reward_log_id uuid not null,
      reward_id uuid not null,
      customer_gid text not null,
      code text not null,
      discount jsonb not null,
      status text not null default 'pending',
      attempts integer not null default 0,
      next_attempt_at timestamptz not null default now(),
      last_error text,
      discount_gid text,
      created_at timestamptz not null default now(),
      stamped_at timestamptz,
      primary key (shop, reward_log_id),
      unique (shop, code)
    );
    create index reward_discounts_due_idx on reward_discounts (next_attempt_at) where status = 'pending'`,
  },
  {
    name: '006_flow_action_runs',
    // Flow actions the core cannot deduplicate itself (grant-streak-freezes): the answer of each run,
    // so a retried action_run_id is answered without granting again.
    sql: `create table flow_action_runs (
      shop text not null,
      run_key text not null,
      answer jsonb,
      created_at timestamptz not null default now(),
      primary key (shop, run_key)
    )`,
  },
  {
    name: '007_onboarding_checklists',
    // The dashboard's first-run checklist: the steps a merchant ticks (automate, preview) and whether
    // the merchant folded or reopened it (null: shown until every step is done).
    sql: `create table onboarding_checklists (
      shop text primary key,
      automate_done boolean not null default false,
      preview_done boolean not null default false,
      checklist_open boolean,
      updated_at timestamptz not null default now()
    )`,
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
    await client.query(
      'create table if not exists shopify_app_migrations (name text primary key, applied_at timestamptz not null default now())',
    );
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
