import type { Knex } from 'knex';

/**
 * An entry's points as wide as the balance they move: an expired entry takes the whole balance,
 * which may pass what an integer holds, and the daily pass failed on it.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('alter table point_entry alter column points type bigint');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table point_entry alter column points type integer');
}
