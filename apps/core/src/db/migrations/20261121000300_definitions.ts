import type { Knex } from 'knex';
import { createdIndex, eud, guestIdIndex, recordColumns, statusColumn } from './columns.js';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('streak', (t) => {
    recordColumns(db, t);
    t.text('name').notNullable();
    t.text('description');
    statusColumn(t, 'live');
    t.text('aggregation_period').notNullable();
    t.text('aggregation_method').notNullable();
    t.double('aggregation_target_value').notNullable();
    t.double('completion_target_value');
    t.double('to_be_broken_warning_hours').notNullable();
    eud(t);
    t.jsonb('eud_completed_message');
    t.jsonb('eud_milestone_achieved_message');
    createdIndex(t, 'streak');
    guestIdIndex(t, 'streak');
  });
  await db.schema.createTable('challenge', (t) => {
    recordColumns(db, t);
    t.text('name').notNullable();
    t.text('description');
    statusColumn(t, 'live');
    t.text('aggregation_period').notNullable();
    t.text('aggregation_method').notNullable();
    t.double('completion_target_value').notNullable();
    t.timestamp('start_at', { useTz: true, precision: 3 });
    t.timestamp('end_at', { useTz: true, precision: 3 });
    t.double('to_be_failed_warning_hours').notNullable();
    eud(t);
    t.jsonb('eud_completed_message');
    t.jsonb('eud_milestone_achieved_message');
    createdIndex(t, 'challenge');
    guestIdIndex(t, 'challenge');
  });
  await db.schema.createTable('mission', (t) => {
    recordColumns(db, t);
    t.text('name').notNullable();
    t.text('description');
    statusColumn(t, 'live');
    t.text('aggregation_period').notNullable();
    t.uuid('reward_id');
    t.boolean('is_repeatable').notNullable().defaultTo(false);
    t.jsonb('tasks').notNullable();
    eud(t);
    t.jsonb('eud_completed_message');
    createdIndex(t, 'mission');
    guestIdIndex(t, 'mission');
  });
  await db.schema.createTable('milestone', (t) => {
    recordColumns(db, t);
    t.text('linked_schema_slug').notNullable();
    t.uuid('linked_schema_record_id').notNullable();
    t.text('name').notNullable();
    t.text('description').notNullable();
    t.double('milestone_target_value').notNullable();
    t.text('status').notNullable();
    t.uuid('reward_id');
    eud(t);
    t.jsonb('eud_milestone_reward_title');
    t.jsonb('eud_milestone_reward_instruction_message');
    t.unique(['account_id', 'linked_schema_record_id', 'milestone_target_value'], {
      indexName: 'milestone_target_unique',
    });
    t.index(['account_id', 'reward_id'], 'milestone_reward_idx');
    createdIndex(t, 'milestone');
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['milestone', 'mission', 'challenge', 'streak']) await db.schema.dropTable(table);
}
