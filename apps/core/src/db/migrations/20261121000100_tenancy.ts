import type { Knex } from 'knex';
import { createdIndex, recordColumns } from './columns.js';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('organization', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.text('name').notNullable();
    t.timestamps(true, true, false);
  });
  await db.schema.createTable('account', (t) => {
    t.uuid('id').primary().defaultTo(db.raw('gen_random_uuid()'));
    t.uuid('organization_id').notNullable().references('id').inTable('organization').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('timezone').notNullable().defaultTo('UTC');
    t.text('default_language_code').notNullable().defaultTo('en');
    t.text('external_ref').unique();
    t.timestamps(true, true, false);
  });
  await db.schema.createTable('apikey', (t) => {
    recordColumns(db, t);
    t.text('name').notNullable();
    t.text('description');
    t.text('status').notNullable();
    t.text('api_key').notNullable();
    t.text('api_secret_enc').notNullable();
    t.unique(['account_id', 'name'], { indexName: 'apikey_name_unique' });
    // Authentication finds a key by its value alone; keys are random, so this is a tiny lookup table
    // that a distributed deployment keeps as a reference table.
    t.unique(['api_key'], { indexName: 'apikey_key_unique' });
    createdIndex(t, 'apikey');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('apikey');
  await db.schema.dropTable('account');
  await db.schema.dropTable('organization');
}
