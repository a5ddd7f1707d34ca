import type { Knex } from 'knex';

/**
 * The points setting's earning rates (CONTRACT §19 "earning rules"): points per unit of the shop's
 * currency spent, per order and on sign-up. The Shopify app's earning worker applies them; the
 * widget shows them as ways to earn.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw(`alter table points_setting add column points_per_currency_unit double precision not null default 0,
    add column points_per_order integer not null default 0, add column points_on_sign_up integer not null default 0`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(
    'alter table points_setting drop column points_per_currency_unit, drop column points_per_order, drop column points_on_sign_up',
  );
}
