import type { Knex } from 'knex';

/**
 * The target a milestone had when it gave a reward log: a reversal judges the log by it, so a
 * merchant raising the milestone since does not take back what a member earned under the old one.
 * Null for logs from before this column and for a mission's completion.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('alter table reward_log add column milestone_target_value double precision');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table reward_log drop column milestone_target_value');
}
