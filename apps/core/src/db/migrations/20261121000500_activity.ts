import type { Knex } from 'knex';
import { createdIndex, recordColumns } from './columns.js';

const kinds = [
  { log: 'streak_log', parent: 'streak_id' },
  { log: 'challenge_log', parent: 'challenge_id' },
  { log: 'mission_log', parent: 'mission_id' },
] as const;

export async function up(db: Knex): Promise<void> {
  for (const { log, parent } of kinds) {
    await db.schema.createTable(log, (t) => {
      recordColumns(db, t);
      t.uuid(parent).notNullable();
      t.uuid('owned_by_id').notNullable();
      t.text('activity_id').notNullable();
      t.timestamp('activity_at', { useTz: true, precision: 3 }).notNullable();
      t.text('unique_identifier').notNullable();
      t.double('activity_value');
      t.text('status').notNullable().defaultTo('live');
      t.boolean('is_aggregated').notNullable().defaultTo(false);
      t.text('period_key');
      // Replays are decided by this constraint, not by a read before the insert.
      t.unique(['account_id', parent, 'unique_identifier'], { indexName: `${log}_unique_identifier_unique` });
      t.index(['account_id', 'owned_by_id', parent, 'activity_at'], `${log}_owner_idx`);
      createdIndex(t, log);
    });
  }

  await db.schema.createTable('streak_progress', (t) => {
    recordColumns(db, t);
    t.uuid('streak_id').notNullable();
    t.uuid('owned_by_id').notNullable();
    t.text('unique_identifier').notNullable();
    t.text('streak_progress_status').notNullable().defaultTo('in_progress');
    t.double('current_progress_value').notNullable().defaultTo(0);
    t.timestamp('streak_started_at', { useTz: true, precision: 3 }).notNullable();
    t.timestamp('streak_completed_at', { useTz: true, precision: 3 });
    t.timestamp('streak_broken_at', { useTz: true, precision: 3 });
    t.timestamp('streak_to_be_broken_at', { useTz: true, precision: 3 });
    t.text('last_completed_period_key');
    t.text('current_period_key');
    // The deadline a to_be_broken warning was sent for: one warning per required period.
    t.timestamp('warned_to_be_broken_at', { useTz: true, precision: 3 });
    t.index(['account_id', 'owned_by_id', 'streak_id'], 'streak_progress_owner_idx');
    createdIndex(t, 'streak_progress');
  });
  await db.raw(
    `create unique index streak_progress_active_unique on streak_progress (account_id, unique_identifier)
     where streak_progress_status = 'in_progress'`,
  );
  // Sweeps scan due work across accounts by time, so these lead with the deadline, not account_id.
  await db.raw(
    `create index streak_progress_due_idx on streak_progress (streak_to_be_broken_at) where streak_progress_status = 'in_progress'`,
  );

  await db.schema.createTable('challenge_progress', (t) => {
    recordColumns(db, t);
    t.uuid('challenge_id').notNullable();
    t.uuid('owned_by_id').notNullable();
    t.text('period_key').notNullable();
    t.text('challenge_progress_status').notNullable().defaultTo('in_progress');
    t.double('current_progress_value').notNullable().defaultTo(0);
    t.timestamp('challenge_started_at', { useTz: true, precision: 3 }).notNullable();
    t.timestamp('challenge_completed_at', { useTz: true, precision: 3 });
    t.timestamp('challenge_failed_at', { useTz: true, precision: 3 });
    t.timestamp('challenge_to_be_failed_at', { useTz: true, precision: 3 });
    t.boolean('is_warned').notNullable().defaultTo(false);
    t.unique(['account_id', 'challenge_id', 'owned_by_id', 'period_key'], { indexName: 'challenge_progress_window_unique' });
    createdIndex(t, 'challenge_progress');
  });

  await db.schema.createTable('mission_progress', (t) => {
    recordColumns(db, t);
    t.uuid('mission_id').notNullable();
    t.uuid('owned_by_id').notNullable();
    t.text('unique_identifier').notNullable();
    t.text('mission_progress_status').notNullable().defaultTo('in_progress');
    t.boolean('is_mission_to_be_failed_processed').notNullable().defaultTo(false);
    t.timestamp('mission_started_at', { useTz: true, precision: 3 }).notNullable();
    t.timestamp('mission_completed_at', { useTz: true, precision: 3 });
    t.timestamp('mission_failed_at', { useTz: true, precision: 3 });
    t.timestamp('mission_to_be_failed_at', { useTz: true, precision: 3 });
    t.index(['account_id', 'mission_id'], 'mission_progress_mission_idx');
    t.index(['account_id', 'owned_by_id', 'mission_id'], 'mission_progress_owner_idx');
    createdIndex(t, 'mission_progress');
  });
  await db.raw(
    `create unique index mission_progress_active_unique on mission_progress (account_id, unique_identifier)
     where mission_progress_status = 'in_progress'`,
  );
  await db.raw(
    `create index mission_progress_due_idx on mission_progress (mission_to_be_failed_at) where mission_progress_status = 'in_progress'`,
  );
  await db.raw(
    `create index challenge_progress_due_idx on challenge_progress (challenge_to_be_failed_at) where challenge_progress_status = 'in_progress'`,
  );

  await db.schema.createTable('task_progress', (t) => {
    recordColumns(db, t);
    t.uuid('owned_by_id').notNullable();
    t.text('linked_schema_slug').notNullable();
    t.uuid('linked_schema_record_id').notNullable();
    t.uuid('task_id');
    t.text('period_key');
    t.double('current_progress_value').notNullable().defaultTo(0);
    t.double('target_value').notNullable();
    t.text('task_progress_status').notNullable().defaultTo('in_progress');
    t.timestamp('completed_at', { useTz: true, precision: 3 });
    t.index(['account_id', 'linked_schema_record_id'], 'task_progress_parent_idx');
    createdIndex(t, 'task_progress');
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['task_progress', 'mission_progress', 'challenge_progress', 'streak_progress', ...kinds.map((k) => k.log)]) {
    await db.schema.dropTable(table);
  }
}
