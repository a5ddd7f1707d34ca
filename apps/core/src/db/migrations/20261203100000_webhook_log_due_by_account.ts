import type { Knex } from 'knex';

/**
 * Due deliveries by account: a worker claims each account's oldest few in turn, so one account's
 * backlog (a receiver that hangs) never stands in front of another's. The retention job's
 * "events still to deliver" reads one account's due deliveries too.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(
    `create index webhook_log_due_account_idx on webhook_log (account_id, next_retry_at) where webhook_log_status in ('pending', 'errored')`,
  );
  await db.raw('drop index webhook_log_due_idx');
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`create index webhook_log_due_idx on webhook_log (next_retry_at) where webhook_log_status in ('pending', 'errored')`);
  await db.raw('drop index webhook_log_due_account_idx');
}
