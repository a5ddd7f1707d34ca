import type { AccountInfo, Flow } from '../auth/authenticate.js';
import { isPlainObject } from '../db/json.js';
import type { LanguageCode } from '../formats.js';

export type Op = 'list' | 'get' | 'create' | 'update' | 'delete';

/** Who is asking, for which account, in which language. Built by the auth middleware. */
export interface RequestContext {
  flow: Flow;
  /** Unknown only for a guest reading a record by id without `x-account-id`. */
  account: AccountInfo | undefined;
  memberId?: string;
  apiKeyId?: string;
  languageCode: LanguageCode | undefined;
  requestId: string;
}

/** Guests and end users see the public face of records; API keys see everything. */
export const isPublicFlow = (ctx: Pick<RequestContext, 'flow'>) => ctx.flow !== 'apikey';

/** CONTRACT §7: the language a localisable text is read in: the requested one, else the account default, else en; null when it has none of them. */
export function textLanguage(map: unknown, ctx: Pick<RequestContext, 'account' | 'languageCode'>): LanguageCode | null {
  if (!isPlainObject(map)) return null;
  for (const lang of [ctx.languageCode, ctx.account?.defaultLanguageCode, 'en'] as const)
    if (lang && typeof map[lang] === 'string') return lang;
  return null;
}

/** CONTRACT §7: the requested language's text, else the account default's, else en's, else null. */
export function resolveText(map: unknown, ctx: Pick<RequestContext, 'account' | 'languageCode'>): string | null {
  const lang = textLanguage(map, ctx);
  return lang && (map as Record<string, string>)[lang]!;
}

/** The language a write without `languageCode` goes to. */
export const writeLanguage = (ctx: Pick<RequestContext, 'account' | 'languageCode'>): string =>
  ctx.languageCode ?? ctx.account?.defaultLanguageCode ?? 'en';
