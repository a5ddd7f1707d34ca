import type { Knex } from 'knex';

/**
 * An entry's source is found through its member's index (`point_entry_owner_idx`): a revoked reward
 * log and an entry being taken back both know their member. Until now every earned entry also paid
 * for a leaf insert at a random place of a source index, only so that the rare reversal would not
 * look through one member's entries.
 */
export async function up(db: Knex): Promise<void> {
  await db.raw('drop index point_entry_source_idx');
}

export async function down(db: Knex): Promise<void> {
  await db.raw('create index point_entry_source_idx on point_entry (account_id, linked_schema_record_id)');
}
