import type { Knex } from 'knex';

/**
 * Every point entry updates its member's row (balance, window, last entry), and none of those
 * columns is indexed: with room left on the row's page, PostgreSQL updates it in place (a HOT
 * update) instead of writing a new entry into each of the member's indexes. Pages filled to 90 %
 * keep that room; it applies to pages written from now on.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('alter table account_user set (fillfactor = 90)');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table account_user reset (fillfactor)');
}
