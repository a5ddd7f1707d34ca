import { readdir } from 'node:fs/promises';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Knex } from 'knex';

interface Migration {
  name: string;
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

const DIRECTORY = new URL('./migrations/', import.meta.url);
/** A migration file: its timestamp, an underscore and its concern, named like this module (.ts under tsx, .js built). */
const MIGRATION_FILE = new RegExp(`^(\\d{14}_[a-z0-9_]+)\\${extname(fileURLToPath(import.meta.url))}$`);

/**
 * Every timestamped file of the migrations directory, in timestamp order: adding a migration is
 * adding its file. Read once; the source and built trees hold the same files.
 */
let found: Promise<Migration[]> | undefined;
function migrations(): Promise<Migration[]> {
  found ??= readdir(DIRECTORY).then((files) =>
    Promise.all(
      files
        .map((file) => MIGRATION_FILE.exec(file))
        .filter((m): m is RegExpExecArray => m !== null)
        .sort((a, b) => a[1]!.localeCompare(b[1]!))
        .map(async ([file, name]) => ({ ...((await import(new URL(file, DIRECTORY).href)) as Omit<Migration, 'name'>), name: name! })),
    ),
  );
  return found;
}

const source: Knex.MigrationSource<Migration> = {
  getMigrations: () => migrations(),
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
