import type { Knex } from 'knex';
import { createdIndex, recordColumns, statusColumn } from './columns.js';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('account_user', (t) => {
    recordColumns(db, t);
    t.text('external_id').notNullable();
    t.text('first_name');
    t.text('last_name');
    t.text('email');
    t.text('phone_number');
    t.text('timezone');
    t.text('language_code');
    t.specificType('push_device_tokens', 'text[]').notNullable().defaultTo('{}');
    statusColumn(t, 'live');
    // Set by the unsubscribe link; opted-out members are skipped by notification rules.
    t.timestamp('unsubscribed_at', { useTz: true, precision: 3 });
    t.unique(['account_id', 'external_id'], { indexName: 'account_user_external_id_unique' });
    createdIndex(t, 'account_user');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('account_user');
}
