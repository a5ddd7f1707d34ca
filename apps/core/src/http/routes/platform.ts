import type Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { safeEqual } from '../../auth/crypto.js';
import { invalidInput, methodNotAllowed, notFound, unauthenticated } from '../../errors.js';
import { isTimeZone, LANGUAGE_CODES } from '../../formats.js';
import { dataResponse, errorResponses, ID, jsonSchema } from '../../records/openapi.js';
import { checkPlainQuery } from '../../records/query.js';
import { bodyOrEmpty, issueDetails } from '../../records/validate.js';
import type { Services } from '../../services.js';
import { provisionAccount, deleteAccount } from '../../tenancy.js';
import { charge } from '../auth.js';
import { readBody, readNoBody } from '../body.js';

const newAccount = z.strictObject({
  organizationName: z.string().min(1).max(256),
  accountName: z.string().min(1).max(256),
  timezone: z.string().max(64).refine(isTimeZone, 'Expected an IANA time zone').optional(),
  defaultLanguageCode: z.enum(LANGUAGE_CODES).optional(),
  externalRef: z.string().min(1).max(256).optional(),
});

const platformSecurity = [{ platformToken: [] }];

const uuid = { type: 'string', format: 'uuid' };
const time = { type: 'string', format: 'date-time' };
/** What provisioning answers inside the envelope. */
const provisioned = {
  type: 'object',
  required: ['organization', 'account', 'apiKey'],
  properties: {
    organization: {
      type: 'object',
      required: ['id', 'name', 'createdAt', 'updatedAt'],
      properties: { id: uuid, name: { type: 'string' }, createdAt: time, updatedAt: time },
    },
    account: {
      type: 'object',
      required: ['id', 'organizationId', 'name', 'timezone', 'defaultLanguageCode', 'externalRef', 'createdAt', 'updatedAt'],
      properties: {
        id: uuid,
        organizationId: uuid,
        name: { type: 'string' },
        timezone: { type: 'string' },
        defaultLanguageCode: { type: 'string', enum: [...LANGUAGE_CODES] },
        externalRef: { type: ['string', 'null'] },
        createdAt: time,
        updatedAt: time,
      },
    },
    apiKey: {
      type: 'object',
      required: ['id', 'name', 'apiKey', 'apiSecret', 'status'],
      properties: {
        id: uuid,
        name: { type: 'string' },
        apiKey: { type: 'string' },
        apiSecret: { type: 'string' },
        status: { const: 'live' },
      },
    },
  },
};

/** The routes' entries in the OpenAPI document, the request body's from the schema that validates it. */
export const platformPaths = {
  '/platform/accounts': {
    post: {
      tags: ['platform'],
      operationId: 'createAccount',
      summary: 'Create an organization, account and live API key (idempotent on externalRef)',
      security: platformSecurity,
      requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(newAccount, 'input') } } },
      responses: {
        200: dataResponse('Provisioned', provisioned),
        ...errorResponses(400, 401, 415, 429),
      },
    },
  },
  '/platform/accounts/{id}': {
    delete: {
      tags: ['platform'],
      operationId: 'deleteAccount',
      summary: 'Erase an account and all its data',
      security: platformSecurity,
      parameters: [ID],
      responses: { 204: { description: 'Erased' }, ...errorResponses(400, 401, 404, 429) },
    },
  },
};

/** The platform API (CONTRACT §4), for whoever holds LOYALTY_PLATFORM_TOKEN. */
export function platformRoutes(router: Router, s: Services): void {
  const authorise = (ctx: Context) => {
    // Before the token is compared: guesses cost tokens like any request.
    charge(ctx, s, `platform:${ctx.ip}`, s.config.rateLimitPerSecond, 'platform');
    const token = s.config.platformToken;
    const given = /^Bearer +(.+)$/i.exec(ctx.get('authorization'))?.[1];
    if (!token || !given || !safeEqual(given, token)) throw unauthenticated('A valid platform token is required.');
  };

  router.all('/platform/accounts', async (ctx) => {
    authorise(ctx);
    if (ctx.method !== 'POST') throw methodNotAllowed(['POST']);
    checkPlainQuery(ctx.query);
    const { json } = await readBody(ctx);
    const parsed = newAccount.safeParse(bodyOrEmpty(json));
    if (!parsed.success) throw invalidInput('The body has invalid fields.', issueDetails('', parsed.error));
    ctx.body = { data: await provisionAccount(s.db, s.box, parsed.data) };
  });

  router.all('/platform/accounts/:id', async (ctx) => {
    authorise(ctx);
    if (ctx.method !== 'DELETE') throw methodNotAllowed(['DELETE']);
    checkPlainQuery(ctx.query);
    await readNoBody(ctx);
    if (!(await deleteAccount(s.db, ctx.params.id!))) throw notFound(`No account ${ctx.params.id}.`);
    // Other processes hear of it by notification; this one must not accept the keys even once more.
    s.auth.forget();
    ctx.status = 204;
  });
}
