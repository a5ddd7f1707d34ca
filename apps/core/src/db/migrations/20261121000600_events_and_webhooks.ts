import type { Knex } from 'knex';
import { createdIndex, recordColumns, statusColumn } from './columns.js';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('event_log', (t) => {
    recordColumns(db, t);
    t.text('event_code').notNullable();
    t.uuid('owned_by_id');
    t.text('linked_schema_slug');
    t.uuid('linked_schema_record_id');
    t.jsonb('payload').notNullable().defaultTo('{}');
    t.timestamp('dispatched_at', { useTz: true, precision: 3 });
    createdIndex(t, 'event_log');
  });
  // The dispatcher scans undispatched events across accounts in order; the index holds only those.
  await db.raw(`create index event_log_undispatched_idx on event_log (created_at) where dispatched_at is null`);
  await db.schema.createTable('webhook', (t) => {
    recordColumns(db, t);
    t.text('name').notNullable();
    t.text('description');
    statusColumn(t, 'draft');
    t.text('endpoint_url').notNullable();
    t.specificType('event_codes', 'text[]').notNullable();
    t.text('webhook_secret_enc').notNullable();
    createdIndex(t, 'webhook');
  });
  await db.schema.createTable('webhook_log', (t) => {
    recordColumns(db, t);
    t.uuid('webhook_id').notNullable();
    t.specificType('event_log_ids', 'uuid[]').notNullable();
    t.text('webhook_log_status').notNullable().defaultTo('pending');
    t.text('status').notNullable().defaultTo('live');
    t.integer('retry_count').notNullable().defaultTo(0);
    t.timestamp('last_retried_at', { useTz: true, precision: 3 });
    t.timestamp('next_retry_at', { useTz: true, precision: 3 });
    t.integer('last_response_status');
    t.text('last_error');
    t.timestamp('delivered_at', { useTz: true, precision: 3 });
    // A worker holds a delivery until this time; after a crash another worker takes it over.
    t.timestamp('lease_until', { useTz: true, precision: 3 });
    t.index(['account_id', 'webhook_id', 'created_at'], 'webhook_log_webhook_idx');
    createdIndex(t, 'webhook_log');
  });
  await db.raw(`create index webhook_log_due_idx on webhook_log (next_retry_at) where webhook_log_status in ('pending', 'errored')`);
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['webhook_log', 'webhook', 'event_log']) await db.schema.dropTable(table);
}
