import type pg from 'pg';

export const formerly = '003_sessions';

/** Shopify sessions; `data` is the session's property list, encrypted (it holds the access token). */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query(`create table shopify_sessions (
    id text primary key,
    shop text not null,
    data text not null,
    updated_at timestamptz not null default now()
  )`);
  await db.query('create index shopify_sessions_shop_idx on shopify_sessions (shop)');
}
