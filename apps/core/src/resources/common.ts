import type { Knex } from 'knex';
import type { Flow } from '../auth/authenticate.js';
import type { Op } from '../records/context.js';

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

/** A joined record read through the caller's view of its resource (null once deleted). */
export async function joinOne(
  rows: Record<string, unknown>[],
  idColumn: string,
  as: string,
  db: Knex,
  table: string,
  accountId: (row: Record<string, unknown>) => string,
  serialize: (rows: Record<string, unknown>[]) => Promise<Record<string, unknown>[]>,
): Promise<void> {
  const ids = [...new Set(rows.map((r) => r[idColumn]).filter((v): v is string => typeof v === 'string'))];
  if (!ids.length) return;
  const accounts = [...new Set(rows.map(accountId))];
  const found = await db(table).whereIn('account_id', accounts).whereIn('id', ids);
  const serialized = await serialize(found);
  const byId = new Map(serialized.map((r) => [r.id as string, r]));
  for (const row of rows) row[as] = byId.get(row[idColumn] as string) ?? null;
}
