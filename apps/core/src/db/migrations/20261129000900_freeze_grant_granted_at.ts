import type { Knex } from 'knex';

/**
 * A freeze grant's moment on the scheduler's clock, beside `created_at` (the wall clock its logs'
 * rows are ordered by): a reversal's recompute settles the deadlines due by then before it gives
 * the grant, as the scheduler had. The two are the same in production; grants made before this
 * migration take their `created_at`.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('alter table freeze_grant add column granted_at timestamptz(3)');
  await db.raw('update freeze_grant set granted_at = created_at');
  await db.raw('alter table freeze_grant alter column granted_at set not null');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table freeze_grant drop column granted_at');
}
