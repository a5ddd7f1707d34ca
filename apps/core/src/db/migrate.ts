import type { Knex } from 'knex';
import { migrations } from './migrations/index.js';

/** knex migrations from an explicit, ordered list, so compiled and source trees behave the same. */
const source: Knex.MigrationSource<(typeof migrations)[number]> = {
  getMigrations: async () => migrations,
  getMigrationName: (m) => m.name,
  getMigration: async (m) => m,
};

const config = { migrationSource: source, tableName: 'knex_migrations' };

export async function migrateLatest(db: Knex): Promise<void> {
  await db.migrate.latest(config);
}

export async function pendingMigrations(db: Knex): Promise<number> {
  const [, pending] = (await db.migrate.list(config)) as [unknown[], unknown[]];
  return pending.length;
}
