/**
 * Value formats every layer checks, kept at the bottom so that none has to import them from a
 * layer above: record ids, the service's languages and IANA time zones.
 */

/** A UUID as pattern text, for patterns that hold one (upload paths). */
export const UUID_TEXT = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
export const UUID = new RegExp(`^${UUID_TEXT}$`, 'i');

export const LANGUAGE_CODES = ['en', 'es', 'fr', 'de', 'zh-CN', 'ja', 'pt', 'it', 'ko'] as const;
export type LanguageCode = (typeof LANGUAGE_CODES)[number];

export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
