import type { Knex } from 'knex';

/**
 * Streak freezes (CONTRACT §14): a streak's `max_freezes` (0 = off) and the progress's earn rate;
 * each progress's freezes left, freezes spent and the periods they covered (ascending keys).
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('alter table streak add column max_freezes integer not null default 0, add column freeze_earn_every_periods integer');
  await db.raw(`alter table streak_progress add column freezes_available integer not null default 0,
    add column freezes_used integer not null default 0, add column frozen_period_keys text[] not null default '{}'`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table streak_progress drop column freezes_available, drop column freezes_used, drop column frozen_period_keys');
  await db.raw('alter table streak drop column max_freezes, drop column freeze_earn_every_periods');
}
