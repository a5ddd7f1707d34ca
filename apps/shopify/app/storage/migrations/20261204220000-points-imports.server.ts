import type pg from 'pg';

/**
 * Balances a merchant brings from another loyalty app (app/points-import): one import per file a
 * shop uploaded (its hash, so the same file twice imports once), and its rows, worked off by the
 * worker role one at a time with retries, as the webhooks are.
 */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query(`create table points_imports (
    id bigserial primary key,
    shop text not null,
    file_hash text not null,
    file_name text not null,
    note text not null,
    created_at timestamptz not null default now(),
    unique (shop, file_hash)
  )`);
  await db.query(`create table points_import_rows (
    import_id bigint not null references points_imports on delete cascade,
    line integer not null,
    shop text not null,
    email text,
    customer_id text,
    points integer not null,
    note text,
    status text not null default 'pending',
    attempts integer not null default 0,
    next_attempt_at timestamptz not null default now(),
    last_error text,
    entry_id text,
    done_at timestamptz,
    primary key (import_id, line)
  )`);
  await db.query("create index points_import_rows_due_idx on points_import_rows (next_attempt_at) where status = 'pending'");
  await db.query('create index points_import_rows_customer_idx on points_import_rows (shop, customer_id)');
}
