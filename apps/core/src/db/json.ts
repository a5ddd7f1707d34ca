import type { Row } from './rows.js';

/** A JSON object (not null, not an array), whose properties read as unknown. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A row that PostgreSQL returned as JSON (row_to_json), with its timestamps back as Dates:
 * every timestamp column is named `*_at`, or `*_until` (a lease). Lets one statement fetch several rows at once. The
 * caller names the row type its statement selects (`R`), as it would of a query's result.
 */
export function rowFromJson<R extends object = Row>(json: unknown): R | undefined {
  if (!json || typeof json !== 'object') return undefined;
  const row: Row = { ...json };
  for (const [key, value] of Object.entries(row)) {
    if ((key.endsWith('_at') || key.endsWith('_until')) && typeof value === 'string') row[key] = new Date(value);
  }
  return row as R;
}

export function rowsFromJson<R extends object = Row>(json: unknown): R[] {
  return Array.isArray(json) ? json.map((r) => rowFromJson<R>(r)!) : [];
}
