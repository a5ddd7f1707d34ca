/** Narrowing what arrives as JSON (webhook payloads, Flow properties, event payloads) before it is read. */

export type JsonObject = Record<string, unknown>;

export const isJsonObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The value if it is an object, else an empty one, so optional nesting reads as absent. */
export const objectOf = (value: unknown): JsonObject => (isJsonObject(value) ? value : {});

/** Years 1 to 9999: what an ISO 8601 four-digit year writes and PostgreSQL's timestamptz holds. */
const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00Z');
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/** The instant a text names, if PostgreSQL can keep it; null for anything else (JavaScript also reads years 0 and before, and up to 275760). */
export function instantOf(value: unknown): Date | null {
  const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  return time >= FIRST_INSTANT && time <= LAST_INSTANT ? new Date(time) : null;
}
