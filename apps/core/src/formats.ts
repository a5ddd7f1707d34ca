/**
 * Value formats every layer checks, kept at the bottom so that none has to import them from a
 * layer above: record ids, the service's languages and IANA time zones.
 */

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
