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

/** CONTRACT §7: the requested language, else the account default, else en, else null. */
export function resolveText(map: unknown, ctx: Pick<RequestContext, 'account' | 'languageCode'>): string | null {
  if (!isPlainObject(map)) return null;
  for (const lang of [ctx.languageCode, ctx.account?.defaultLanguageCode, 'en']) {
    const text = lang ? map[lang] : undefined;
    if (typeof text === 'string') return text;
  }
  return null;
}

/** The language a write without `languageCode` goes to. */
export const writeLanguage = (ctx: Pick<RequestContext, 'account' | 'languageCode'>): string =>
  ctx.languageCode ?? ctx.account?.defaultLanguageCode ?? 'en';
