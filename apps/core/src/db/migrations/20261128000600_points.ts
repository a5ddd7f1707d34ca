import type { Knex } from 'knex';
import { createdIndex, recordColumns } from './columns.js';

/**
 * Points (CONTRACT §19): the account's points setting (one row per account, made here for the
 * accounts already there), the point entries, each member's balance beside its row (so a read is
 * O(1) and a redemption locks that row), and what a reward is worth or costs in points.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('points_setting', (t) => {
    recordColumns(db, t);
    t.text('status').notNullable().defaultTo('draft');
    t.jsonb('eud_currency_name');
    t.integer('expiry_months_of_inactivity').notNullable().defaultTo(0);
    t.integer('tier_window_months').notNullable().defaultTo(12);
    t.unique(['account_id'], { indexName: 'points_setting_account_unique' });
  });
  await db.raw('insert into points_setting (account_id) select id from account');
  await db.schema.createTable('point_entry', (t) => {
    recordColumns(db, t);
    t.uuid('owned_by_id').notNullable();
    t.integer('points').notNullable();
    t.text('reason').notNullable();
    t.text('note');
    t.text('unique_identifier');
    t.text('linked_schema_slug');
    t.text('linked_schema_record_id');
    t.index(['account_id', 'owned_by_id', 'created_at'], 'point_entry_owner_idx');
    // A revoked reward log finds the entry it earned.
    t.index(['account_id', 'linked_schema_record_id'], 'point_entry_source_idx');
    createdIndex(t, 'point_entry');
  });
  await db.raw('alter table point_entry add constraint point_entry_points_non_zero check (points <> 0)');
  await db.raw(
    `create unique index point_entry_unique_identifier_unique on point_entry (account_id, unique_identifier)
      where unique_identifier is not null`,
  );
  await db.raw(`alter table account_user add column points_balance bigint not null default 0,
    add column points_earned_in_tier_window bigint not null default 0`);
  await db.raw(`alter table reward add column status text not null default 'live',
    add column reward_kind text not null default 'code', add column points_value integer, add column points_cost integer`);
  await db.raw('alter table reward alter column discount_type drop not null, alter column discount_value drop not null');
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`update reward set discount_type = 'fixed_amount' where discount_type is null`);
  await db.raw('update reward set discount_value = 0 where discount_value is null');
  await db.raw('alter table reward alter column discount_type set not null, alter column discount_value set not null');
  await db.raw('alter table reward drop column status, drop column reward_kind, drop column points_value, drop column points_cost');
  await db.raw('alter table account_user drop column points_balance, drop column points_earned_in_tier_window');
  await db.schema.dropTable('point_entry');
  await db.schema.dropTable('points_setting');
}
