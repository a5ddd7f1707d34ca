import type { Knex } from 'knex';

const tables = [
  { table: 'streak_progress', parent: 'streak_id', started: 'streak_started_at' },
  { table: 'mission_progress', parent: 'mission_id', started: 'mission_started_at' },
] as const;

/**
 * The member's latest closed run is the one that started last, not the one written last: a
 * reversal that splits a run writes the earlier part's new record after the later one (CONTRACT
 * §17). The member's index orders by start so that read stays one index descent.
 */
export async function up(db: Knex): Promise<void> {
  for (const { table, parent, started } of tables) {
    await db.raw(`drop index ${table}_owner_idx`);
    await db.raw(`create index ${table}_owner_idx on ${table} (account_id, owned_by_id, ${parent}, ${started}, created_at)`);
  }
}

export async function down(db: Knex): Promise<void> {
  for (const { table, parent } of tables) {
    await db.raw(`drop index ${table}_owner_idx`);
    await db.raw(`create index ${table}_owner_idx on ${table} (account_id, owned_by_id, ${parent}, created_at)`);
  }
}
