import type pg from 'pg';

/**
 * Reward logs a reversal revoked (CONTRACT §17), as the core's events name them, so that no Shopify
 * discount is created for one and the one already created is deactivated once (or found used and left).
 */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query(`create table reward_log_revocations (
    shop text not null,
    reward_log_id uuid not null,
    created_at timestamptz not null default now(),
    primary key (shop, reward_log_id)
  )`);
  // What became of a revoked reward log's discount: deactivated, found used (left), or not at Shopify.
  await db.query(
    'alter table reward_discounts add column deactivation text, add column deactivation_attempts integer not null default 0, add column deactivated_at timestamptz',
  );
}
