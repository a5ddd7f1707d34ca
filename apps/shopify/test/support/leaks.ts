import { execFileSync } from 'node:child_process';
import { BUILT_CLI } from '../../../core/test/support/processes';

/** What an admin page must never show a merchant: an id, a Shopify gid, an ISO date or period key, or the core's API words. */

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
const GID = /gid:\/\/shopify\/\S*/;
/** An ISO date or one of the core's period keys (`2026-11-21`, `2026-W47`, `2026-11`): dates read in the admin's language. */
const ISO_DATE = /\b\d{4}-(?:\d{2}-\d{2}|W\d{2}|\d{2})\b/;

/** Property names and enum values anywhere in an OpenAPI document. */
export function apiVocabulary(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) apiVocabulary(item, into);
  else if (node && typeof node === 'object') {
    const object = node as Record<string, unknown>;
    if (object.properties && typeof object.properties === 'object') for (const name of Object.keys(object.properties)) into.add(name);
    if (Array.isArray(object.enum)) for (const value of object.enum) if (typeof value === 'string') into.add(value);
    for (const value of Object.values(object)) apiVocabulary(value, into);
  }
  // Plain words ("daily", "live", "name") read as English; only the API's compound words give it away.
  return new Set([...into].filter((w) => /^[a-z]+(?:[A-Z][a-z0-9]*)+$/.test(w) || /^[a-z0-9]+(?:_[a-z0-9]+)+$/.test(w)));
}

/** The API words of the core as built (`loyalty openapi`), without a server or a database. */
export function coreApiWords(): Set<string> {
  const document = execFileSync(process.execPath, [BUILT_CLI, 'openapi'], {
    env: { ...process.env, DATABASE_URL: '', LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return apiVocabulary(JSON.parse(document));
}

/** The lines of a text that give an id or an API word away. */
export function leaks(text: string, apiWords: Set<string>): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => {
      if (UUID.test(line) || GID.test(line) || ISO_DATE.test(line)) return true;
      return line.split(/[^A-Za-z0-9_]+/).some((word) => apiWords.has(word));
    });
}

export { UUID };
