import type { Knex } from 'knex';
import { recordColumns } from './columns.js';

const LOGS = ['streak_log', 'challenge_log', 'mission_log'];
const DEFINITIONS = ['streak', 'challenge', 'mission'];

/**
 * Reversals and holds (CONTRACT §17): what each log has had taken back and the reversals that did
 * it (their uniqueIdentifier in a namespace of their own), the grants a streak recompute replays,
 * each definition's hold, and a reward log's status with the moment it is confirmed.
 */
export async function up(db: Knex): Promise<void> {
  for (const log of LOGS) await db.raw(`alter table ?? add column reversed_value double precision not null default 0`, [log]);
  await db.schema.createTable('log_reversal', (t) => {
    recordColumns(db, t);
    t.text('log_kind').notNullable();
    t.uuid('definition_id').notNullable();
    t.uuid('log_id').notNullable();
    t.uuid('owned_by_id').notNullable();
    t.double('activity_value').notNullable();
    t.text('unique_identifier');
    t.text('reason');
    t.index(['account_id', 'log_id', 'created_at'], 'log_reversal_log_idx');
  });
  await db.raw(
    `create unique index log_reversal_unique_identifier_unique on log_reversal (account_id, log_kind, definition_id, unique_identifier)
      where unique_identifier is not null`,
  );
  await db.schema.createTable('freeze_grant', (t) => {
    recordColumns(db, t);
    t.uuid('streak_id').notNullable();
    t.uuid('owned_by_id').notNullable();
    t.uuid('streak_progress_id').notNullable();
    t.integer('count').notNullable();
    t.index(['account_id', 'streak_id', 'owned_by_id', 'created_at'], 'freeze_grant_member_idx');
  });
  for (const definition of DEFINITIONS) await db.raw(`alter table ?? add column reward_hold_days integer not null default 0`, [definition]);
  await db.raw(`alter table reward_log add column reward_log_status text not null default 'issued',
    add column confirm_at timestamptz(3), add column revoked_at timestamptz(3), add column revoked_reason text`);
  await db.raw(`create index reward_log_confirm_idx on reward_log (confirm_at) where reward_log_status = 'pending'`);
  await db.raw(`create index reward_log_source_idx on reward_log (account_id, linked_schema_record_id, owned_by_id)`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop index reward_log_source_idx');
  await db.raw('drop index reward_log_confirm_idx');
  await db.raw(
    'alter table reward_log drop column reward_log_status, drop column confirm_at, drop column revoked_at, drop column revoked_reason',
  );
  for (const definition of DEFINITIONS) await db.raw('alter table ?? drop column reward_hold_days', [definition]);
  await db.schema.dropTable('freeze_grant');
  await db.schema.dropTable('log_reversal');
  for (const log of LOGS) await db.raw('alter table ?? drop column reversed_value', [log]);
}
