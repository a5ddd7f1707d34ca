import type { Knex } from 'knex';

/**
 * Birthday points (an earning rate beside sign-up's, CONTRACT §19): a member's birthday as month and
 * day (no year: the program needs no age), the local year whose birthday points they were given, and
 * the index the daily birthday pass finds the few days' birthdays by.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('alter table account_user add column birthday text, add column birthday_points_year integer');
  // With the year, so the pass reads only members not yet given this year's.
  await db.raw(
    'create index account_user_birthday_idx on account_user (account_id, birthday, birthday_points_year) where birthday is not null',
  );
  await db.raw('alter table points_setting add column points_on_birthday integer not null default 0');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table points_setting drop column points_on_birthday');
  await db.raw('alter table account_user drop column birthday, drop column birthday_points_year');
}
