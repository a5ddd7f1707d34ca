/**
 * Value formats every layer checks, kept at the bottom so that none has to import them from a
 * layer above: record ids, the service's languages and IANA time zones.
 */

/** A UUID as pattern text, for patterns that hold one (upload paths). */
export const UUID_TEXT = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
export const UUID = new RegExp(`^${UUID_TEXT}$`, 'i');

/**
 * An e-mail address as every reader of the document checks it: a dot-atom local part of RFC 5322's
 * characters (JSON Schema's `email` format takes them; shops have customers at `tom&jerry@…`), and
 * domain labels that neither start nor end with a hyphen (RFC 1035, as that format has them; zod
 * alone accepts `a@ab-.co`), ending in a top-level domain of letters.
 */
export const EMAIL =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

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

export type TextFlaw = 'nul_character' | 'lone_surrogate';

/**
 * What PostgreSQL text cannot store as sent: NUL, which it refuses, and a lone surrogate, which
 * JSON's escapes allow and UTF-8 turns into U+FFFD (so two texts would become one).
 */
export function textFlaw(text: string): TextFlaw | undefined {
  if (text.includes('\0')) return 'nul_character';
  if (/[\uD800-\uDFFF]/u.test(text)) return 'lone_surrogate';
  return undefined;
}
