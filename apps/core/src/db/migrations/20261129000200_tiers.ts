import type { Knex } from 'knex';
import { createdIndex, recordColumns } from './columns.js';

/**
 * Tiers (CONTRACT §19): the account's tiers, each member's tier beside its balance (set in the
 * entry's transaction under the member's lock), and the entry rewards given, one per member and
 * tier ever, so re-entering a tier after a downgrade gives nothing again.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('tier', (t) => {
    recordColumns(db, t);
    t.text('name').notNullable();
    t.text('description');
    t.text('status').notNullable().defaultTo('draft');
    t.integer('points_threshold').notNullable();
    t.double('earn_multiplier').notNullable().defaultTo(1);
    t.uuid('entry_reward_id');
    t.jsonb('eud_title');
    t.jsonb('eud_description');
    t.text('eud_icon');
    t.index(['account_id', 'points_threshold'], 'tier_threshold_idx');
    createdIndex(t, 'tier');
  });
  await db.raw('alter table account_user add column tier_id uuid');
  await db.schema.createTable('tier_entry_reward', (t) => {
    t.uuid('account_id').notNullable();
    t.uuid('member_id').notNullable();
    t.uuid('tier_id').notNullable();
    t.uuid('reward_log_id');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(db.fn.now());
    t.primary(['account_id', 'member_id', 'tier_id']);
    // Goes with its member (an erasure) and its account.
    t.foreign(['account_id', 'member_id']).references(['account_id', 'id']).inTable('account_user').onDelete('CASCADE');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('tier_entry_reward');
  await db.raw('alter table account_user drop column tier_id');
  await db.schema.dropTable('tier');
}
