import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { safeEqual } from '../../auth/crypto.js';
import { invalidInput, methodNotAllowed, notFound, unauthenticated } from '../../errors.js';
import { LANGUAGE_CODES } from '../../records/fields.js';
import { issueDetails } from '../../records/validate.js';
import type { Services } from '../../services.js';
import { provisionAccount, deleteAccount } from '../../tenancy.js';
import { readBody } from '../body.js';

const newAccount = z.strictObject({
  organizationName: z.string().min(1).max(256),
  accountName: z.string().min(1).max(256),
  timezone: z
    .string()
    .max(64)
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'Expected an IANA time zone')
    .optional(),
  defaultLanguageCode: z.enum(LANGUAGE_CODES).optional(),
  externalRef: z.string().min(1).max(256).optional(),
});

/** The platform API (CONTRACT §4), for whoever holds LOYALTY_PLATFORM_TOKEN. */
export function platformRoutes(router: Router, s: Services): void {
  const authorise = (ctx: Context) => {
    const token = s.config.platformToken;
    const given = /^Bearer (.+)$/.exec(ctx.get('authorization'))?.[1];
    if (!token || !given || !safeEqual(given, token)) throw unauthenticated('A valid platform token is required.');
  };

  router.all('/platform/accounts', async (ctx) => {
    authorise(ctx);
    if (ctx.method !== 'POST') throw methodNotAllowed();
    const { json } = await readBody(ctx);
    const parsed = newAccount.safeParse(json ?? {});
    if (!parsed.success) throw invalidInput('The body has invalid fields.', issueDetails('', parsed.error).map(stripDot));
    ctx.body = { data: await provisionAccount(s.db, s.box, parsed.data) };
  });

  router.all('/platform/accounts/:id', async (ctx) => {
    authorise(ctx);
    if (ctx.method !== 'DELETE') throw methodNotAllowed();
    if (!(await deleteAccount(s.db, ctx.params.id!))) throw notFound(`No account ${ctx.params.id}.`);
    // Other processes hear of it by notification; this one must not accept the keys even once more.
    s.auth.forget();
    ctx.status = 204;
  });
}

const stripDot = <T extends { field?: string }>(d: T): T => ({ ...d, field: d.field?.replace(/^\./, '') || undefined });
