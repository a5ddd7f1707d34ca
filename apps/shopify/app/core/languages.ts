import { languageIn } from '../i18n';
import type { LanguageCode } from './records.server';

/** The languages the core keeps texts and members in (CONTRACT §3), each of which the widget speaks. */
export const CORE_LANGUAGES = ['en', 'es', 'fr', 'de', 'zh-CN', 'ja', 'pt', 'it', 'ko'] as const satisfies readonly LanguageCode[];
export type CoreLanguage = (typeof CORE_LANGUAGES)[number];

/**
 * The core's language for a Shopify locale (`de`, `fr-CA`, `pt-BR`, `zh-CN`): the exact tag, else
 * its base language; null when the core has none (`nl`; `zh-TW`, the core having simplified Chinese only).
 */
export function coreLanguage(locale: string | null | undefined): CoreLanguage | null {
  return languageIn(CORE_LANGUAGES, locale);
}
