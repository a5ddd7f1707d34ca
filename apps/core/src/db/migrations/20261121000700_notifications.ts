import type { Knex } from 'knex';
import { createdIndex, recordColumns, statusColumn } from './columns.js';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('email_template', (t) => {
    recordColumns(db, t);
    t.text('name').notNullable();
    t.text('description');
    t.text('status').notNullable();
    t.uuid('email_header_id');
    t.uuid('email_footer_id');
    t.text('sample_event_code').notNullable();
    t.jsonb('subject').notNullable();
    t.jsonb('html_content').notNullable();
    createdIndex(t, 'email_template');
  });
  await db.schema.createTable('email_theme', (t) => {
    recordColumns(db, t);
    t.text('name').notNullable();
    t.text('description');
    t.text('status').notNullable();
    t.text('style');
    t.unique(['account_id', 'name'], { indexName: 'email_theme_name_unique' });
    createdIndex(t, 'email_theme');
  });
  for (const table of ['email_header', 'email_footer']) {
    await db.schema.createTable(table, (t) => {
      recordColumns(db, t);
      t.text('name').notNullable();
      statusColumn(t, 'live');
      t.jsonb('html_content').notNullable();
      createdIndex(t, table);
    });
  }
  await db.schema.createTable('push_notification_template', (t) => {
    recordColumns(db, t);
    t.text('name').notNullable();
    statusColumn(t, 'live');
    t.jsonb('title').notNullable();
    t.jsonb('body').notNullable();
    t.text('image_url');
    t.jsonb('data');
    createdIndex(t, 'push_notification_template');
  });
  await db.schema.createTable('sms_template', (t) => {
    recordColumns(db, t);
    t.text('name').notNullable();
    statusColumn(t, 'live');
    t.jsonb('body').notNullable();
    createdIndex(t, 'sms_template');
  });
  await db.schema.createTable('chat_message_template', (t) => {
    recordColumns(db, t);
    t.text('name').notNullable();
    statusColumn(t, 'live');
    t.text('template_name').notNullable();
    t.text('template_language_code').notNullable();
    t.jsonb('body_parameters').notNullable().defaultTo('[]');
    createdIndex(t, 'chat_message_template');
  });
  await db.schema.createTable('service_email', (t) => {
    recordColumns(db, t);
    t.text('name').notNullable();
    t.text('description');
    statusColumn(t, 'draft');
    t.boolean('use_gamopanda_domain').notNullable().defaultTo(true);
    t.text('reply_to_email_address').notNullable();
    t.text('domain');
    t.text('mail_from');
    t.text('sender_email_address');
    t.boolean('is_verified').notNullable().defaultTo(false);
    t.boolean('is_domain_verified').notNullable().defaultTo(false);
    t.boolean('is_dkim_verified').notNullable().defaultTo(false);
    t.boolean('is_mail_from_verified').notNullable().defaultTo(false);
    t.jsonb('dns_records').notNullable().defaultTo('[]');
    t.text('dkim_selector');
    t.text('dkim_private_key_enc');
    createdIndex(t, 'service_email');
  });
  await db.schema.createTable('push_cloud_messaging', (t) => {
    recordColumns(db, t);
    t.text('name').notNullable();
    t.text('description');
    statusColumn(t, 'draft');
    t.text('service_account_json_enc').notNullable();
    t.text('project_id').notNullable();
    t.text('client_email').notNullable();
    t.text('private_key_id').notNullable();
    createdIndex(t, 'push_cloud_messaging');
  });
  for (const table of ['cloud_sms', 'cloud_chat']) {
    await db.schema.createTable(table, (t) => {
      recordColumns(db, t);
      t.text('name').notNullable();
      t.text('description');
      statusColumn(t, 'draft');
      t.text('access_key_id').notNullable();
      t.text('secret_access_key_enc').notNullable();
      t.text('region').notNullable();
      if (table === 'cloud_sms') {
        t.text('sender_id').notNullable();
      } else {
        t.text('messaging_business_account_id').notNullable();
        t.text('messaging_phone_number_id').notNullable();
      }
      createdIndex(t, table);
    });
  }
  await db.schema.createTable('notification', (t) => {
    recordColumns(db, t);
    t.text('name').notNullable();
    t.text('description');
    statusColumn(t, 'draft');
    t.specificType('event_codes', 'text[]').notNullable();
    t.text('integration_provider').notNullable();
    t.uuid('integration_id').notNullable();
    t.uuid('template_id').notNullable();
    createdIndex(t, 'notification');
  });
  await db.schema.createTable('notification_log', (t) => {
    recordColumns(db, t);
    t.uuid('notification_id').notNullable();
    t.uuid('event_log_id').notNullable();
    t.uuid('owned_by_id');
    t.text('channel').notNullable();
    t.text('notification_log_status').notNullable().defaultTo('pending');
    t.text('provider_message_id');
    t.text('error');
    t.integer('attempt_count').notNullable().defaultTo(0);
    t.timestamp('next_attempt_at', { useTz: true, precision: 3 }).notNullable().defaultTo(db.fn.now());
    t.timestamp('lease_until', { useTz: true, precision: 3 });
    t.timestamp('sent_at', { useTz: true, precision: 3 });
    createdIndex(t, 'notification_log');
  });
  await db.raw(`create index notification_log_due_idx on notification_log (next_attempt_at) where notification_log_status = 'pending'`);
}

export async function down(db: Knex): Promise<void> {
  for (const table of [
    'notification_log',
    'notification',
    'cloud_chat',
    'cloud_sms',
    'push_cloud_messaging',
    'service_email',
    'chat_message_template',
    'sms_template',
    'push_notification_template',
    'email_footer',
    'email_header',
    'email_theme',
    'email_template',
  ]) {
    await db.schema.dropTable(table);
  }
}
