import type { Knex } from 'knex';

/**
 * A bonus points event on the points setting (an addition to CONTRACT §19): orders paid within its
 * times earn their rates times the multiplier; 1, the default, is no event.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`alter table points_setting add column bonus_multiplier double precision not null default 1,
    add column bonus_starts_at timestamptz, add column bonus_ends_at timestamptz`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table points_setting drop column bonus_multiplier, drop column bonus_starts_at, drop column bonus_ends_at');
}
