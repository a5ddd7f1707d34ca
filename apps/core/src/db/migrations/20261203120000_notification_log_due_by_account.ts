import type { Knex } from 'knex';

/**
 * Due notifications by account: a worker claims each account's oldest few in turn, so one
 * account's backlog (a provider that hangs) never stands in front of another's. The retention
 * job's "events still to notify" reads one account's pending rows too.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(
    `create index notification_log_due_account_idx on notification_log (account_id, next_attempt_at) where notification_log_status = 'pending'`,
  );
  await db.raw('drop index notification_log_due_idx');
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`create index notification_log_due_idx on notification_log (next_attempt_at) where notification_log_status = 'pending'`);
  await db.raw('drop index notification_log_due_account_idx');
}
