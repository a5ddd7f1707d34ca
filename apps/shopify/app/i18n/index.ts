import type { Messages } from './messages';

export type { Messages };

/**
 * The admin speaks the languages the core and the widget speak, so a merchant reads their program
 * in the language their shoppers do. Their texts live in one folder per language (English the
 * reference, `messages.ts` types the rest by it) and reach the browser one language at a time,
 * through the layout's loader (`bundles.server.ts`).
 */
export const ADMIN_LANGUAGES = ['en', 'es', 'fr', 'de', 'zh-CN', 'ja', 'pt', 'it', 'ko'] as const;

export type AdminLanguage = (typeof ADMIN_LANGUAGES)[number];

export const isAdminLanguage = (code: string): code is AdminLanguage => (ADMIN_LANGUAGES as readonly string[]).includes(code);

/**
 * The language the admin is shown in: Shopify's `locale` parameter on the embedded admin's first
 * load (`de`, `fr-CA`, `pt-BR`, `zh-CN`), else the browser's preference, else English.
 */
export function adminLanguage(request: Request): AdminLanguage {
  const candidates = [
    new URL(request.url).searchParams.get('locale') ?? '',
    ...(request.headers.get('accept-language') ?? '').split(',').map((part) => part.split(';')[0]!.trim()),
  ];
  for (const candidate of candidates) {
    const language = languageIn(ADMIN_LANGUAGES, candidate);
    if (language) return language;
  }
  return 'en';
}

/**
 * The language of `languages` a locale names (`de`, `fr-CA`, `pt-BR`, `zh-CN`): the exact tag, else
 * its base language; null when there is none (`nl`; `zh-TW` beside simplified Chinese only).
 */
export function languageIn<L extends string>(languages: readonly L[], locale: string | null | undefined): L | null {
  if (!locale) return null;
  const exact = languages.find((l) => l.toLowerCase() === locale.toLowerCase());
  if (exact) return exact;
  const base = locale.split('-')[0]!.toLowerCase();
  return languages.find((l) => l === base) ?? null;
}

/** Fills `{name}` placeholders; a placeholder without a value stays as written, so a gap shows. */
export function format(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}

/**
 * The language of an action's answer: the one the page says it shows (the layout keeps the first
 * load's language, which later requests no longer carry), else the request's own.
 */
export function claimedLanguage(claimed: unknown, request: Request): AdminLanguage {
  return typeof claimed === 'string' && isAdminLanguage(claimed) ? claimed : adminLanguage(request);
}

/** The admin's words for a value the core names (a status, a kind), when it has them. */
export function textFor(texts: Readonly<Record<string, string>>, key: string): string | undefined {
  return Object.hasOwn(texts, key) ? texts[key] : undefined;
}
