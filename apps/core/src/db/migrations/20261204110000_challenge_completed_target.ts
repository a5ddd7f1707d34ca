import type { Knex } from 'knex';

/**
 * The completion target a challenge window was completed under: a reversal keeps the window
 * completed while it stays at or above it, so a merchant raising the target since does not reopen
 * it (and complete it a second time). Null for windows not completed, or completed before this column.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('alter table challenge_progress add column completed_target_value double precision');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table challenge_progress drop column completed_target_value');
}
