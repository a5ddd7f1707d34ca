import type pg from 'pg';

export const formerly = '005_shopify_loop';

/** The Flow triggers each shop's workflows use, as Flow's lifecycle callbacks tell (the newest wins). */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query(`create table flow_trigger_usage (
    shop text not null,
    handle text not null,
    enabled boolean not null,
    notified_at timestamptz not null,
    primary key (shop, handle)
  )`);
}
