import type pg from 'pg';

export const formerly = '002_data_requests';

/** customers/data_request exports, kept for the merchant to hand over (GDPR access requests). */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query(`create table data_requests (
    shop text not null,
    request_id text not null,
    customer_external_id text not null,
    export jsonb not null,
    created_at timestamptz not null default now(),
    primary key (shop, request_id)
  )`);
}
