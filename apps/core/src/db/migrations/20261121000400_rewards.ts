import type { Knex } from 'knex';
import { createdIndex, recordColumns } from './columns.js';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('reward', (t) => {
    recordColumns(db, t);
    t.text('name').notNullable();
    t.text('description').notNullable();
    t.text('discount_type').notNullable();
    t.double('discount_value').notNullable();
    t.text('reward_expiry_type').notNullable();
    t.double('reward_expiry_in_days');
    t.timestamp('reward_expiry_at', { useTz: true, precision: 3 });
    t.boolean('handle_coupon').notNullable().defaultTo(false);
    t.boolean('handle_coupon_auto_generation').notNullable().defaultTo(false);
    t.text('coupon_code_prefix');
    t.integer('coupon_code_length').notNullable().defaultTo(10);
    t.jsonb('eud_title');
    t.jsonb('eud_redeem_instruction_message');
    createdIndex(t, 'reward');
  });
  await db.schema.createTable('coupon', (t) => {
    recordColumns(db, t);
    t.uuid('reward_id').notNullable();
    t.text('coupon_code').notNullable();
    t.boolean('is_coupon_issued').notNullable().defaultTo(false);
    t.text('status').notNullable();
    t.uuid('reward_log_id');
    // Insertion order, also within one multi-row import: "oldest first" issues by it.
    t.bigIncrements('issue_order', { primaryKey: false });
    t.unique(['account_id', 'coupon_code'], { indexName: 'coupon_code_unique' });
    createdIndex(t, 'coupon');
  });
  // Issuance takes the oldest unissued live coupon of a reward; this index finds it directly.
  await db.raw(
    `create index coupon_pool_idx on coupon (account_id, reward_id, issue_order)
     where not is_coupon_issued and status = 'live'`,
  );
  await db.schema.createTable('reward_log', (t) => {
    recordColumns(db, t);
    t.uuid('reward_id');
    t.uuid('milestone_id');
    t.text('linked_schema_slug').notNullable();
    t.uuid('linked_schema_record_id').notNullable();
    t.uuid('owned_by_id').notNullable();
    t.text('coupon_code');
    t.timestamp('reward_issued_at', { useTz: true, precision: 3 });
    t.timestamp('reward_expiry_at', { useTz: true, precision: 3 });
    t.text('period_key');
    t.text('status').notNullable().defaultTo('live');
    t.index(['account_id', 'owned_by_id', 'created_at'], 'reward_log_owner_idx');
    createdIndex(t, 'reward_log');
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['reward_log', 'coupon', 'reward']) await db.schema.dropTable(table);
}
