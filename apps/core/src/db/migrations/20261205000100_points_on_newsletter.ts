import type { Knex } from 'knex';

/** Points once for subscribing to the shop's e-mail marketing (an earning rate beside sign-up's, CONTRACT §19). */
export async function up(db: Knex): Promise<void> {
  await db.raw('alter table points_setting add column points_on_newsletter integer not null default 0');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table points_setting drop column points_on_newsletter');
}
