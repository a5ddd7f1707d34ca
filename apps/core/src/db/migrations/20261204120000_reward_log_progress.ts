import type { Knex } from 'knex';

/**
 * The progress record (streak run, challenge window, mission run) a reward log was given for: a
 * milestone whose target was raised since it was reached gives nothing twice in one run. Not shown;
 * null for logs from before this column.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('alter table reward_log add column progress_id uuid');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table reward_log drop column progress_id');
}
