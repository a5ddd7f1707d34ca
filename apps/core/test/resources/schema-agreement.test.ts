import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { columnOf, type FieldDef } from '../../src/records/fields.js';
import { createResources } from '../../src/resources/index.js';
import { createTestDatabase } from '../support/harness.js';

/**
 * Every stored field of every resource against the migrated table: a migration that forgets a
 * column, or a field that forgets its migration, fails here rather than as a 500 at run time.
 */

interface Column {
  type: string;
  nullable: boolean;
  hasDefault: boolean;
}

/** The PostgreSQL types a field's values may be stored in. */
function storedTypes(f: FieldDef): string[] {
  if (f.sealed) return ['text', 'bytea'];
  if (f.localisable || f.codec) return ['jsonb'];
  switch (f.valueType) {
    case 'string':
    case 'enum':
      return ['text', 'character varying'];
    case 'uuid':
      return ['uuid'];
    case 'number':
      return ['double precision', 'integer', 'bigint', 'numeric'];
    case 'boolean':
      return ['boolean'];
    case 'datetime':
      return ['timestamp with time zone'];
    case 'stringArray':
      return ['jsonb', 'ARRAY'];
    case 'opaque':
      // Arrays only the service writes (webhook_log.event_log_ids) are native arrays.
      return f.readOnly ? ['jsonb', 'ARRAY'] : ['jsonb'];
  }
}

/** Optional alone but required with another field: a log names its member by id or inline. */
const REQUIRED_ONE_OF = new Set(['streak_log.ownedById', 'challenge_log.ownedById', 'mission_log.ownedById']);

const config = loadConfig({
  DATABASE_URL: 'postgres://unused',
  LOYALTY_MASTER_KEY: randomBytes(32).toString('base64'),
  PLATFORM_TOKEN: 'schema-agreement-token-0123456789',
});
const resources = createResources(config);
let db: Awaited<ReturnType<typeof createTestDatabase>>;
const tables = new Map<string, Map<string, Column>>();

beforeAll(async () => {
  db = await createTestDatabase();
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const { rows } = await client.query<{
    table_name: string;
    column_name: string;
    data_type: string;
    is_nullable: string;
    column_default: string | null;
  }>(
    `select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns where table_schema = 'public'`,
  );
  await client.end();
  for (const r of rows) {
    const table = tables.get(r.table_name) ?? new Map<string, Column>();
    table.set(r.column_name, { type: r.data_type, nullable: r.is_nullable === 'YES', hasDefault: r.column_default !== null });
    tables.set(r.table_name, table);
  }
});
afterAll(() => db?.drop());

describe.each(resources.map((r) => [r.slug, r] as const))('%s', (_slug, resource) => {
  const stored = Object.entries(resource.fields).filter(([, f]) => !f.virtual);

  it('has its table with the record columns every table starts with', () => {
    const table = tables.get(resource.table);
    expect(table, `table ${resource.table}`).toBeDefined();
    expect(table!.get('id')?.type).toBe('uuid');
    expect(table!.get('account_id')).toMatchObject({ type: 'uuid', nullable: false });
    expect(table!.get('created_at')).toMatchObject({ type: 'timestamp with time zone', nullable: false });
    expect(table!.get('updated_at')).toMatchObject({ type: 'timestamp with time zone', nullable: false });
  });

  it.each(stored)('stores %s in a column of its type and nullability', (name, f) => {
    const column = tables.get(resource.table)?.get(columnOf(name, f));
    expect(column, `${resource.table}.${columnOf(name, f)} for ${name}`).toBeDefined();
    expect(storedTypes(f)).toContain(column!.type);
    // A field every record has (required, defaulted on create, or always set by the service) is
    // NOT NULL, so a row written around the API (migrations, hooks) cannot lack it, and its row
    // type is not nullable; an optional field must accept null.
    if (f.required || f.alwaysSet || (f.default !== undefined && f.default !== null))
      expect(column!.nullable, `${name} NOT NULL`).toBe(false);
    else if (!f.readOnly && !REQUIRED_ONE_OF.has(`${resource.slug}.${name}`)) expect(column!.nullable, `${name} nullable`).toBe(true);
  });
});
