import type { LanguageCode } from './records.server';

/** The languages the core keeps texts and members in (CONTRACT §3), each of which the widget speaks. */
export const CORE_LANGUAGES = ['en', 'es', 'fr', 'de', 'zh-CN', 'ja', 'pt', 'it', 'ko'] as const satisfies readonly LanguageCode[];
export type CoreLanguage = (typeof CORE_LANGUAGES)[number];

/**
 * The core's language for a Shopify locale (`de`, `fr-CA`, `pt-BR`, `zh-CN`): the exact tag, else
 * its base language; null when the core has none (`nl`; `zh-TW`, the core having simplified Chinese only).
 */
export function coreLanguage(locale: string | null | undefined): CoreLanguage | null {
  if (!locale) return null;
  const exact = CORE_LANGUAGES.find((l) => l.toLowerCase() === locale.toLowerCase());
  if (exact) return exact;
  const base = locale.split('-')[0]!.toLowerCase();
  return CORE_LANGUAGES.find((l) => l === base) ?? null;
}
