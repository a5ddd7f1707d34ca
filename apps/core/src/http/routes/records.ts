import type Router from '@koa/router';
import type { Knex } from 'knex';
import type { Context, Next } from 'koa';
import { z } from 'zod';
import { type AccountInfo, loadAccount } from '../../auth/authenticate.js';
import { birthdayAlreadySet, invalidInput, notFound, unauthenticated } from '../../errors.js';
import type { Op, RequestContext } from '../../records/context.js';
import { dataResponse, errorResponses, fieldsParam, jsonSchema, LANGUAGE, ref, security } from '../../records/openapi.js';
import { parseQuery, type ListQuery, type QueryShape } from '../../records/query.js';
import type { Resource } from '../../records/resource.js';
import { bodyOrEmpty, issueDetails } from '../../records/validate.js';
import { birthdayTooNear } from '../../scheduler/birthdays.js';
import { accountUserFields } from '../../schema/members.js';
import type { Services } from '../../services.js';
import { allow, authenticate, type FlowsOf, only, requestContext } from '../auth.js';
import { readBody, readNoBody, refuseBodyFields } from '../body.js';

/** What an end user may write of their own record: their birthday, once, checked as the field checks it. */
const ownBirthday = z.strictObject({ birthday: accountUserFields.birthday.schema as z.ZodType<string> });

/** The entry of the one record route that is not generic, for the OpenAPI document. */
export const memberPaths = {
  '/schema/account_user/me': {
    get: {
      tags: ['account_user'],
      operationId: 'getMe',
      summary: "The calling end user's own member record",
      security: security(['enduser']),
      parameters: [fieldsParam('AccountUser', true), LANGUAGE],
      responses: {
        200: dataResponse('Success', ref('AccountUser')),
        // 400: a malformed end-user token, or API-key headers that are malformed, as on every route.
        ...errorResponses(400, 401, 403, 429),
      },
    },
    patch: {
      tags: ['account_user'],
      operationId: 'setMyBirthday',
      summary: 'The calling end user sets their birthday, once; the shop (an API key) changes it',
      description:
        'Body `{"birthday": "MM-DD"}`. Answers the member as GET does. The same birthday again changes nothing; another one once a birthday is set → 409 `birthday_already_set`. A birthday entered less than 30 days before it (or within the week after it) earns its points from the next year on; one the shop sets earns at once.',
      security: security(['enduser']),
      parameters: [LANGUAGE],
      requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(ownBirthday, 'input') } } },
      responses: {
        200: dataResponse('Success', ref('AccountUser')),
        ...errorResponses(400, 401, 403, 409, 415, 429),
      },
    },
  },
};

// HEAD is GET without the body (RFC 9110 §9.3.2), which Koa leaves out of the answer.
const COLLECTION_OPS: Record<string, Op> = { GET: 'list', HEAD: 'list', POST: 'create' };
const ITEM_OPS: Record<string, Op> = { GET: 'get', HEAD: 'get', PATCH: 'update', DELETE: 'delete' };

/** The flows the resource accepts for the operation a method names on a collection or a record. */
const flowsFor =
  (ops: Record<string, Op>): FlowsOf =>
  (ctx, method) => {
    const op = Object.hasOwn(ops, method) ? ops[method] : undefined;
    return op ? ctx.state.resource.access[op] : undefined;
  };

function parse(s: Services, ctx: Context, resource: Resource, shape: QueryShape): { rc: RequestContext; q: ListQuery } {
  const rc = requestContext(ctx);
  const q = parseQuery(shape, ctx.query, s.records.queryFields(resource, rc), s.records.selectable(resource, rc));
  rc.languageCode = q.languageCode;
  return { rc, q };
}

export function recordRoutes(router: Router, s: Services): void {
  const auth = authenticate(s);
  const resolve = async (ctx: Context, next: Next) => {
    const resource = s.registry.get(ctx.params.slug!);
    if (!resource) throw notFound(`No resource "${ctx.params.slug}".`);
    ctx.state.resource = resource;
    await next();
  };

  const meFlows: FlowsOf = (_ctx, method) => (['GET', 'HEAD', 'PATCH'].includes(method) ? ['enduser'] : undefined);
  router.all('/schema/account_user/me', auth, allow(meFlows), async (ctx) => {
    const resource = s.registry.require('account_user');
    const memberId = ctx.state.identity.memberId!;
    // The member's own record as an API key reads it, less what only staff see (§18's heldOutOf).
    const own: RequestContext = { ...requestContext(ctx), flow: 'apikey' };
    const staff = new Set(s.records.visibleFields(resource, own).flatMap(([name, f]) => (f.staffOnly ? [name] : [])));
    const selectable = new Set([...s.records.selectable(resource, own)].filter((name) => !staff.has(name)));
    const q = parseQuery('get', ctx.query, s.records.queryFields(resource, own), selectable);
    own.languageCode = q.languageCode;
    if (ctx.method === 'PATCH') {
      const { json } = await readBody(ctx);
      const parsed = ownBirthday.safeParse(bodyOrEmpty(json));
      if (!parsed.success) throw invalidInput('The body has invalid fields.', issueDetails('', parsed.error));
      await setOwnBirthday(s.db, own.account!, memberId, parsed.data.birthday, new Date());
    } else await readNoBody(ctx);
    const row = await s.records.findRow(resource, own, memberId);
    ctx.body = { data: (await s.records.serialize(resource, [row], own, { fields: q.fields ?? [...selectable] }))[0] };
  });

  router.all('/schema/:slug/record', resolve, auth, allow(flowsFor(COLLECTION_OPS)), async (ctx) => {
    const resource = ctx.state.resource;
    const op = COLLECTION_OPS[ctx.method];
    if (op === 'list') {
      const identity = ctx.state.identity;
      if (identity.flow === 'guest' && identity.guestAccount !== 'known')
        throw unauthenticated('x-account-id naming an account is required.');
      const { rc, q } = parse(s, ctx, resource, 'list');
      await readNoBody(ctx);
      ctx.body = await s.records.list(resource, rc, q);
      return;
    }
    const { rc } = parse(s, ctx, resource, 'other');
    if (resource.createRaw) {
      const { accepts, maxBytes, run } = resource.createRaw;
      const { raw } = await readBody(ctx, { accepts, maxBytes });
      if (!raw) throw invalidInput(`The body must be ${accepts.join(' or ')}.`);
      ctx.body = { data: await run({ db: s.db, ctx: rc, raw, contentTypeHeader: ctx.get('content-type') }) };
      return;
    }
    const { json } = await readBody(ctx);
    ctx.body = { data: await s.records.create(resource, rc, json) };
  });

  router.all('/schema/:slug/record/:id', resolve, auth, allow(flowsFor(ITEM_OPS)), async (ctx) => {
    const resource = ctx.state.resource;
    const op = ITEM_OPS[ctx.method];
    const identity = ctx.state.identity;
    const { rc, q } = parse(s, ctx, resource, op === 'get' ? 'get' : 'other');
    if (identity.flow === 'guest' && identity.guestAccount === 'unknown')
      throw notFound(`No ${resource.slug} record with id ${ctx.params.id}.`);
    const row =
      op === 'get' ? await s.records.readRow(resource, rc, ctx.params.id!) : await s.records.findRow(resource, rc, ctx.params.id!);
    if (op !== 'update') await readNoBody(ctx);
    if (op === 'get') {
      rc.account ??= await loadAccount(s.db, row.account_id as string);
      ctx.body = { data: (await s.records.serialize(resource, [row], rc, { fields: q.fields }))[0] };
    } else if (op === 'update') {
      const { json } = await readBody(ctx);
      ctx.body = { data: await s.records.update(resource, rc, ctx.params.id!, json) };
    } else {
      await s.records.delete(resource, rc, ctx.params.id!);
      ctx.status = 204;
    }
  });

  router.all('/schema/:slug/record/:id/action/:action', resolve, async (ctx) => {
    const resource = ctx.state.resource;
    const name = ctx.params.action!;
    const action = resource.actions && Object.hasOwn(resource.actions, name) ? resource.actions[name] : undefined;
    if (!action) throw notFound(`No action "${ctx.params.action}" on ${resource.slug}.`);
    await auth(ctx, () =>
      allow(only('POST', action.flows ?? ['apikey']))(ctx, async () => {
        const { rc } = parse(s, ctx, resource, 'other');
        const lookup: RequestContext = action.flows ? { ...rc, flow: 'apikey' } : rc;
        // Read before the body, so that a missing record is 404 whatever was sent.
        const found = await s.records.findRow(resource, lookup, ctx.params.id!);
        const body = await readBody(ctx, { accepts: action.accepts, maxBytes: action.maxBodyBytes });
        // An action without a body shape takes none: an empty object at most, each other field named (CONTRACT §2).
        if (!action.body && !action.accepts) refuseBodyFields(body.json, 'This action takes no body fields.');
        const data = await s.records.write(resource, async (trx) => {
          // An action that does not lock its record acts on the read above: an unlocked read here would see no more.
          const row = action.locksRecord === false ? found : await s.records.findRow(resource, lookup, ctx.params.id!, trx, true);
          return action.run({
            trx,
            ctx: rc,
            records: s.records,
            row,
            body: body.json,
            rawBody: body.raw,
            contentType: body.mediaType,
            toColumns: (values) => s.records.toColumns(resource, values, rc, row),
            // Through the action's own transaction: it holds a connection, so the pool may have none to spare.
            serialize: async (updated) => (await s.records.serialize(resource, [updated], rc, { db: trx }))[0]!,
          });
        });
        ctx.body = { data };
      }),
    );
  });
}

/**
 * A member's own birthday, set once: under the member's row lock, so two racing first settings
 * cannot both pass; the same birthday again is a no-op, another one is the shop's to make. A
 * birthday entered less than NOTICE_DAYS before it (or within LATE_DAYS after it) is not given that year: its
 * year is marked as given, so nobody enters today's date for today's points.
 */
async function setOwnBirthday(db: Knex, account: AccountInfo, memberId: string, birthday: string, now: Date): Promise<void> {
  await db.transaction(async (trx) => {
    const member = await trx('account_user')
      .where({ account_id: account.id, id: memberId })
      .forUpdate()
      .first('birthday', 'timezone', 'birthday_points_year');
    if (!member || member.birthday === birthday) return;
    if (member.birthday !== null)
      throw birthdayAlreadySet('Your birthday is already set; the shop can change it.', [
        { field: 'birthday', code: 'birthday_already_set', message: 'A birthday is set already.' },
      ]);
    const tooNear = birthdayTooNear(birthday, now, member.timezone ?? account.timezone) ?? 0;
    await trx('account_user')
      .where({ account_id: account.id, id: memberId })
      .update({ birthday, birthday_points_year: Math.max(member.birthday_points_year ?? 0, tooNear) || null, updated_at: now });
  });
}
