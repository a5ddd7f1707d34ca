import type { Knex } from 'knex';

/** What members call one point ("Star" beside "Stars"), per language; null: the plural name for every amount. */
export async function up(db: Knex): Promise<void> {
  await db.raw('alter table points_setting add column eud_currency_name_one jsonb');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('alter table points_setting drop column eud_currency_name_one');
}
