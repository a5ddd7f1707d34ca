import type { Knex } from 'knex';

/**
 * Columns every account-owned table starts with. The primary key leads with account_id so a
 * distributed PostgreSQL (Citus) can shard each table by account without a schema change.
 */
/**
 * Timestamps keep milliseconds (precision 3): the API shows milliseconds, so a filter on a value a
 * record was returned with finds that record, and datetime filters can use plain indexes.
 */
export function recordColumns(db: Knex, t: Knex.CreateTableBuilder): void {
  t.uuid('id').notNullable().defaultTo(db.raw('gen_random_uuid()'));
  t.uuid('account_id').notNullable().references('id').inTable('account').onDelete('CASCADE');
  t.timestamp('created_at', { useTz: true, precision: 3 }).notNullable().defaultTo(db.fn.now());
  t.timestamp('updated_at', { useTz: true, precision: 3 }).notNullable().defaultTo(db.fn.now());
  t.primary(['account_id', 'id']);
}

/** The default list order (createdAt DESC, id) for every table. */
export function createdIndex(t: Knex.CreateTableBuilder, table: string): void {
  t.index(['account_id', 'created_at', 'id'], `${table}_created_idx`);
}

/** Guests may get some records by id alone; this index serves that fan-out lookup. */
export function guestIdIndex(t: Knex.CreateTableBuilder, table: string): void {
  t.index(['id'], `${table}_guest_id_idx`);
}

export const statusColumn = (t: Knex.CreateTableBuilder, fallback: 'draft' | 'live') => t.text('status').notNullable().defaultTo(fallback);

/** The end-user texts every definition shows (streak, challenge, mission, milestone). */
export function eud(t: Knex.CreateTableBuilder): void {
  t.jsonb('eud_title');
  t.jsonb('eud_description');
  t.text('eud_icon');
}
