import type { Knex } from 'knex';
import type { Flow } from '../auth/authenticate.js';
import type { Op } from '../records/context.js';
import type { KnownRows, LoadedRow } from '../records/fields.js';

export { EVENT_CODES } from '../events/codes.js';

/** Full CRUD for API keys only. */
export const ADMIN: Partial<Record<Op, Flow[]>> = {
  list: ['apikey'],
  get: ['apikey'],
  create: ['apikey'],
  update: ['apikey'],
  delete: ['apikey'],
};
/** Full CRUD for API keys; end users and guests read live records. */
export const ADMIN_PUBLIC_READ: Partial<Record<Op, Flow[]>> = {
  ...ADMIN,
  list: ['apikey', 'enduser', 'guest'],
  get: ['apikey', 'enduser', 'guest'],
};
/** System-written records: API keys read all, end users read their own. */
export const OWN_READ: Partial<Record<Op, Flow[]>> = { list: ['apikey', 'enduser'], get: ['apikey', 'enduser'] };
export const ADMIN_READ: Partial<Record<Op, Flow[]>> = { list: ['apikey'], get: ['apikey'] };

/* The field helpers every resource uses are declared with the stored fields, in schema/. */
export { anyObject, description, eudIcon, eudText, eudTitle, jsonObject, name, requiredDescription } from '../schema/common.js';

/** The rows of `table` with these ids in these accounts: those the caller holds, and the rest read. */
export async function readRows<T extends LoadedRow>(
  db: Knex,
  table: string,
  accountIds: readonly string[],
  ids: readonly string[],
  known: KnownRows,
): Promise<T[]> {
  const held = (known.get(table) ?? []).filter((r) => ids.includes(r.id) && accountIds.includes(r.account_id)) as T[];
  const missing = ids.filter((id) => !held.some((r) => r.id === id));
  const read = missing.length
    ? await db<T>(table)
        .whereIn('account_id', [...accountIds])
        .whereIn('id', missing)
    : [];
  return [...held, ...(read as T[])];
}

/** A joined record read through the caller's view of its resource (null once deleted), from the rows' own accounts. */
export async function joinOne(
  rows: LoadedRow[],
  idColumn: string,
  as: string,
  db: Knex,
  table: string,
  serialize: (rows: LoadedRow[]) => Promise<Record<string, unknown>[]>,
  known: KnownRows,
): Promise<void> {
  const idOf = (row: LoadedRow) => (typeof row[idColumn] === 'string' ? row[idColumn] : undefined);
  const ids = [...new Set(rows.map(idOf).filter((v) => v !== undefined))];
  if (!ids.length) return;
  const accounts = [...new Set(rows.map((r) => r.account_id))];
  const found = await readRows<LoadedRow>(db, table, accounts, ids, known);
  const serialized = await serialize(found);
  const byId = new Map(serialized.map((r) => [r.id, r]));
  for (const row of rows) {
    const id = idOf(row);
    row[as] = (id !== undefined && byId.get(id)) || null;
  }
}
