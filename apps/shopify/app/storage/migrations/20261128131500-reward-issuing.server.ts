import type pg from 'pg';

/**
 * What the rewards editor sets beyond the core's reward fields, for the rewards the app issues
 * itself: the kind (percentage, fixed amount, free shipping, store credit), the minimum purchase,
 * the collections, which discounts it combines with, and the shop's currency. The outbox copies it
 * into each reserved row, so a later change does not alter a reward already reserved.
 */
export async function up(db: pg.ClientBase): Promise<void> {
  await db.query(`create table reward_issuing (
    shop text not null,
    reward_id uuid not null,
    spec jsonb not null,
    updated_at timestamptz not null default now(),
    primary key (shop, reward_id)
  )`);
  // A store credit's transaction once known, so a credit found while reconciling is not claimed twice.
  await db.query('alter table reward_discounts add column credit_transaction_gid text');
  // Written (and committed) before each storeCreditAccountCredit is sent: a row with an attempt may
  // already be credited at Shopify, so the sender reconciles before sending again.
  await db.query(`create table store_credit_attempts (
    shop text not null,
    reward_log_id uuid not null,
    attempted_at timestamptz not null default now()
  )`);
  await db.query('create index store_credit_attempts_idx on store_credit_attempts (shop, reward_log_id)');
}
