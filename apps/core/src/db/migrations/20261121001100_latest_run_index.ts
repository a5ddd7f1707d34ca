import type { Knex } from 'knex';

const tables = [
  { table: 'streak_progress', parent: 'streak_id' },
  { table: 'mission_progress', parent: 'mission_id' },
] as const;

/**
 * Every log that starts a run reads the member's latest closed run on the definition. With
 * created_at in the member's index that is one index descent; without, the planner may walk the
 * whole created_at index backwards looking for the member's rows.
 */
export async function up(db: Knex): Promise<void> {
  for (const { table, parent } of tables) {
    await db.raw(`drop index ${table}_owner_idx`);
    await db.raw(`create index ${table}_owner_idx on ${table} (account_id, owned_by_id, ${parent}, created_at)`);
  }
}

export async function down(db: Knex): Promise<void> {
  for (const { table, parent } of tables) {
    await db.raw(`drop index ${table}_owner_idx`);
    await db.raw(`create index ${table}_owner_idx on ${table} (account_id, owned_by_id, ${parent})`);
  }
}
