import type pg from 'pg';

export const formerly = '001_shops';

/** Each shop's loyalty account and the API key the app uses for it, the key encrypted. */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query(`create table shops (
    shop text primary key,
    organization_id uuid not null,
    account_id uuid not null,
    api_key_id uuid not null,
    api_key_encrypted text not null,
    api_secret_encrypted text not null,
    installed_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`);
}
