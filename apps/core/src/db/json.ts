import type { Row } from './rows.js';

/**
 * A row that PostgreSQL returned as JSON (row_to_json), with its timestamps back as Dates:
 * every timestamp column is named `*_at`. Lets one statement fetch several rows at once.
 */
export function rowFromJson(json: unknown): Row | undefined {
  if (!json || typeof json !== 'object') return undefined;
  const row: Row = { ...(json as Row) };
  for (const [key, value] of Object.entries(row)) {
    if (key.endsWith('_at') && typeof value === 'string') row[key] = new Date(value);
  }
  return row;
}

export function rowsFromJson(json: unknown): Row[] {
  return Array.isArray(json) ? json.map((r) => rowFromJson(r)!) : [];
}
