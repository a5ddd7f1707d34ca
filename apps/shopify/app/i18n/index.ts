import { de } from './de';
import { en } from './en';
import type { Messages } from './messages';

export type { Messages };

/** The admin's texts, one folder per language and one file per page area (messages.ts types them by English). */
export const ADMIN_MESSAGES = { en, de } satisfies Record<string, Messages>;

export type AdminLanguage = keyof typeof ADMIN_MESSAGES;

export const isAdminLanguage = (code: string): code is AdminLanguage => Object.hasOwn(ADMIN_MESSAGES, code);

/**
 * The language the admin is shown in: Shopify's `locale` parameter on the embedded admin's first
 * load (e.g. `de` or `de-DE`), else the browser's preference, else English.
 */
export function adminLanguage(request: Request): AdminLanguage {
  const candidates = [
    new URL(request.url).searchParams.get('locale') ?? '',
    ...(request.headers.get('accept-language') ?? '').split(',').map((part) => part.split(';')[0]!.trim()),
  ];
  for (const candidate of candidates) {
    const base = candidate.toLowerCase().split('-')[0]!;
    if (isAdminLanguage(base)) return base;
  }
  return 'en';
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
