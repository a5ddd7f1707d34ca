import type Router from '@koa/router';
import { SignJWT } from 'jose';
import { z } from 'zod';
import { type AccountInfo, type UserData, userData } from '../../auth/authenticate.js';
import { upsertMember } from '../../engine/members.js';
import { invalidInput } from '../../errors.js';
import { dataResponse, errorResponses, jsonSchema, security } from '../../records/openapi.js';
import { checkPlainQuery } from '../../records/query.js';
import type { Records } from '../../records/resource.js';
import { bodyOrEmpty, issueDetails } from '../../records/validate.js';
import type { Services } from '../../services.js';
import { allow, authenticate, only } from '../auth.js';
import { readBody } from '../body.js';

/** The member's details as a token carries them, and the token's lifetime. */
const tokenRequest = z.strictObject({
  ...userData.shape,
  expiresInSeconds: z.number().int().min(1).max(86_400).default(1800),
});

/** The route's entry in the OpenAPI document, from the schema that validates its body. */
export const enduserPaths = {
  '/enduser/token': {
    post: {
      tags: ['auth'],
      operationId: 'createEnduserToken',
      summary: 'Mint an end-user access token (HS256 JWT signed with the calling key)',
      security: security(['apikey']),
      requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(tokenRequest, 'input') } } },
      responses: {
        200: dataResponse('Token', {
          type: 'object',
          required: ['accessToken', 'expiresAt', 'accountId', 'memberId'],
          properties: {
            accessToken: { type: 'string' },
            expiresAt: { type: 'string', format: 'date-time' },
            accountId: { type: 'string', format: 'uuid' },
            memberId: { type: 'string', format: 'uuid' },
          },
        }),
        ...errorResponses(400, 401, 403, 415, 429),
      },
    },
  },
};

/** Mints an end-user token signed with the calling API key, exactly as a merchant backend would. */
export function enduserRoutes(router: Router, s: Services): void {
  router.all('/enduser/token', authenticate(s), allow(only('POST', ['apikey'])), async (ctx) => {
    const identity = ctx.state.identity;
    checkPlainQuery(ctx.query);
    const { json } = await readBody(ctx);
    const parsed = tokenRequest.safeParse(bodyOrEmpty(json));
    if (!parsed.success) {
      throw invalidInput('The body has invalid fields.', issueDetails('', parsed.error));
    }
    const { expiresInSeconds, ...user } = parsed.data;
    ctx.body = { data: await mintEndUserToken(s.records, identity.account!, identity.apiKey!, user, expiresInSeconds) };
  });
}

/** Resolves the member and signs its token with an API key of the account (also used by the demo page). */
export async function mintEndUserToken(
  records: Records,
  account: AccountInfo,
  apiKey: { key: string; secret: string },
  user: UserData,
  expiresInSeconds = 1800,
) {
  const accountId = account.id;
  const memberId = await upsertMember(records, account, user);
  const iat = Math.floor(Date.now() / 1000);
  const exp = iat + expiresInSeconds;
  const accessToken = await new SignJWT({ userData: user })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: apiKey.key })
    .setSubject(accountId)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(apiKey.secret));
  return { accessToken, expiresAt: new Date(exp * 1000).toISOString(), accountId, memberId };
}
