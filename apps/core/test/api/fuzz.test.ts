import { generateKeyPairSync } from 'node:crypto';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogKind } from '../../src/engine/types.js';
import { type RankBy, RANKS_OF } from '../../src/engine/standings.js';
import { isTimeZone } from '../../src/formats.js';
import { seedEveryResource } from '../support/fixtures.js';
import { type Client, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

/**
 * Requests generated from the OpenAPI document for every path, method and flow, valid and
 * mutated: never a 5xx, always the contract's envelopes, and never another account's record.
 */
type Schema = Record<string, any>;
let app: TestApp;
let owner: TestAccount;
let stranger: TestAccount;
let ids = new Map<string, string>();
let doc: Schema;
let clients: Record<string, Client>;

beforeAll(async () => {
  app = await startTestApp({ LOYALTY_WEBHOOK_ALLOW_PRIVATE: 'true' });
  owner = await app.createAccount();
  stranger = await app.createAccount();
  ids = await seedEveryResource(app, owner);
  doc = (await app.anon.get('/openapi.json')).body;
  const token = (await owner.api.post('/enduser/token', { externalId: 'iso-member' })).body.data.accessToken as string;
  clients = {
    owner: owner.api,
    enduser: app.anon.with({ 'x-enduser-access-token': token, 'x-account-id': owner.accountId }),
    guest: app.anon.with({ 'x-account-id': owner.accountId }),
    anonymous: app.anon,
    stranger: stranger.api,
  };
}, 120_000);
afterAll(() => app.close());

/** A component the document points to. */
function resolve(schema: Schema): Schema {
  const ref = schema.$ref as string | undefined;
  return ref ? resolve(doc.components.schemas[ref.split('/').at(-1)!]) : schema;
}

/**
 * A string matching a pattern of the document. fast-check reads regular expressions but not
 * lookaheads, so those are left out of what it generates and checked on what it made.
 */
function matching(schema: Schema): fc.Arbitrary<string> {
  const max = schema.maxLength ?? 64;
  const pattern = new RegExp(schema.pattern, 'u');
  const generated = new RegExp((schema.pattern as string).replace(/\(\?[=!][^()]*\)/g, ''), 'u');
  return fc.stringMatching(generated).filter((v) => pattern.test(v) && v.length >= (schema.minLength ?? 0) && v.length <= max);
}

/**
 * A value that the schema accepts, formats, patterns and examples included. Rules a schema cannot
 * express (references to other records, conditions on stored values) are the caller's concern.
 */
function valid(input: Schema, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(input);
  if (schema.examples) return fc.constantFrom(...(schema.examples as unknown[]));
  if (schema.anyOf)
    return fc.oneof(...(schema.anyOf as Schema[]).map((branch) => valid({ ...schema, anyOf: undefined, ...branch }, depth + 1)));
  if (schema.oneOf) return fc.oneof(...(schema.oneOf as Schema[]).map((branch) => valid(branch, depth + 1)));
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  if (schema.const !== undefined) return fc.constant(schema.const);
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: Math.min(schema.maximum ?? 1000, 1_000_000) });
    case 'number':
      return fc.double({ min: schema.minimum ?? (schema.exclusiveMinimum ?? -1000) + 0.001, max: schema.maximum ?? 1000, noNaN: true });
    case 'string':
      if (schema.format === 'uuid') return fc.uuid();
      if (schema.format === 'email') return fc.constantFrom('a@example.com', 'shopper@shop.test');
      if (schema.format === 'date-time')
        return fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
      if (schema.format === 'uri') {
        const urls = ['https://example.com/a.png', 'http://127.0.0.1:9/hook'];
        return fc.constantFrom(...urls.filter((url) => !schema.pattern || new RegExp(schema.pattern, 'u').test(url)));
      }
      if (schema.pattern) return matching(schema);
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) });
    case 'array': {
      // Recursive schemas (a filter's groups) end in empty lists where they may.
      if (depth > 6 && !schema.minItems) return fc.constant([]);
      const items = { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 3, 3) };
      const item = valid(schema.items ?? {}, depth + 1);
      return schema.uniqueItems ? fc.uniqueArray(item, { ...items, selector: (v) => JSON.stringify(v) }) : fc.array(item, items);
    }
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const model = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, valid(v, depth + 1)]));
      return fc.record(model, { requiredKeys: schema.required ?? [] });
    }
    default:
      return fc.jsonValue();
  }
}

/** A valid value of each JSON query parameter the operation declares (fields, filters, sortBy), and of the others. */
function validQuery(parameters: Schema[]): fc.Arbitrary<Record<string, unknown>> {
  const query = parameters.filter((p) => p.in === 'query');
  const model = Object.fromEntries(query.map((p) => [p.name as string, valid(p.content?.['application/json']?.schema ?? p.schema)]));
  return fc.record(model, { requiredKeys: [] });
}

/** Keys that name properties every plain object inherits: a lookup without an own-property check finds them. */
const BUILT_IN_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

/** A valid body plus a key that names a built-in property (a computed key is an own one, so `__proto__` reaches the JSON text). */
function withBuiltInKey(schema: Schema): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(valid(schema), fc.constantFrom(...BUILT_IN_KEYS), fc.jsonValue())
    .map(([body, key, junk]) => ({ ...(body as object), [key]: junk }));
}

/** A valid body with one field broken, an extra field (a built-in property's name, say), or no object at all. */
function mutated(schema: Schema): fc.Arbitrary<unknown> {
  const keys = Object.keys(schema.properties ?? {});
  return fc.oneof(
    valid(schema).chain((body) =>
      fc
        .tuple(fc.constantFrom(...(keys.length ? keys : ['field'])), fc.jsonValue())
        .map(([key, junk]) => ({ ...(body as object), [key]: junk })),
    ),
    valid(schema).map((body) => ({ ...(body as object), unexpectedField: 1 })),
    withBuiltInKey(schema),
    fc.jsonValue(),
  );
}

interface Operation {
  path: string;
  method: string;
  body?: Schema;
  parameters: Schema[];
}

function operations(): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
    for (const [method, op] of Object.entries(item)) {
      const ref = op.requestBody?.content?.['application/json']?.schema?.$ref as string | undefined;
      out.push({
        path,
        method: method.toUpperCase(),
        body: ref ? doc.components.schemas[ref.split('/').at(-1)!] : undefined,
        parameters: op.parameters ?? [],
      });
    }
  }
  return out;
}

const slugOf = (o: Operation) => /^\/schema\/([a-z_]+)\//.exec(o.path)?.[1] ?? '';

const PRIVATE_KEY = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const TEMPLATES = ['email_template', 'email_header', 'email_footer', 'push_notification_template', 'sms_template', 'chat_message_template'];

/** Fields unique per account (or per definition): a run's bodies must not collide with each other or the seeds. */
const UNIQUE: Record<string, string[]> = {
  account_user: ['externalId'],
  coupon: ['couponCode'],
  streak_log: ['uniqueIdentifier'],
  challenge_log: ['uniqueIdentifier'],
  mission_log: ['uniqueIdentifier'],
};

/**
 * A body drawn from the document, completed with what only the descriptions (docs/api.md, issue #21)
 * say: referenced ids name seeded records, unique fields are unique, and one line per cross-field rule.
 */
function filled(
  slug: string,
  schema: Schema,
  body: Record<string, unknown>,
  run: number,
  stored: Record<string, unknown> = {},
): Record<string, unknown> {
  const out = { ...body };
  const properties = (schema.properties ?? {}) as Record<string, Schema>;
  // The record as it stands after the write: update rules look at it.
  const whole = () => ({ ...stored, ...out });
  const updating = Object.keys(stored).length > 0;
  // A rule's integration and template follow its provider: a body that names the provider names both.
  if (slug === 'notification' && out.integrationProvider)
    Object.assign(out, { integrationId: out.integrationId ?? '', templateId: out.templateId ?? '' });
  for (const [key, property] of Object.entries(properties)) {
    const by = property['x-references-by'] as { field: string; slugs: Record<string, string> } | undefined;
    // An update that changes what a reference points to (a leaderboard's kind) names a record of that kind too.
    const retargeted = by && updating && out[by.field] != null;
    if ((out[key] === undefined || out[key] === null) && !retargeted) continue;
    if (property['x-references']) out[key] = ids.get(property['x-references']);
    if (by) out[key] = ids.get(by.slugs[whole()[by.field] as string] ?? '');
  }
  for (const key of UNIQUE[slug] ?? []) if (typeof out[key] === 'string') out[key] = `${run}${out[key]}`;
  if (slug.endsWith('_log')) {
    // A log names its member: ownedById or ownedBy, at least one.
    if (out.ownedById == null && out.ownedBy == null) out.ownedById = ids.get('account_user');
    // activityAt at most 5 minutes ahead.
    if (Date.parse(out.activityAt as string) > Date.now()) out.activityAt = new Date(Date.now() - 60_000).toISOString();
  }
  // A challenge's endAt after its startAt (on update, a stored one); else the body clears endAt.
  if (slug === 'challenge' && whole().startAt && whole().endAt && `${whole().endAt}` <= `${whole().startAt}`) out.endAt = null;
  // A milestone's target reachable and unique per parent: on the seeded endless streak, one target per body.
  if (slug === 'milestone')
    for (const [key, value] of Object.entries({
      linkedSchemaSlug: 'streak',
      linkedSchemaRecordId: ids.get('streak'),
      milestoneTargetValue: 1000 + run,
    }))
      if (key in properties) out[key] = value;
  // A tier's multiplier has one decimal, which the document says in words only.
  if (slug === 'tier' && typeof out.earnMultiplier === 'number') out.earnMultiplier = Math.round(out.earnMultiplier * 10) / 10;
  // A leaderboard ranks by a rank of its kind (on update, the stored kind); a mutated body may name no kind there is.
  const ranks = slug === 'leaderboard' ? RANKS_OF[whole().linkedSchemaSlug as LogKind] : undefined;
  if (ranks && whole().rankBy && !ranks.includes(whole().rankBy as RankBy)) out.rankBy = ranks[0];
  // A reward's kind (code unless named, CONTRACT §19) with what that kind needs: its discount, or its points (on update, as the record stands).
  if (slug === 'reward') {
    const kind = whole().rewardKind ?? 'code';
    if (kind === 'code' && whole().discountType == null) out.discountType = 'fixed_amount';
    if (kind === 'code' && whole().discountValue == null) out.discountValue = 5;
    if (kind === 'points' && whole().pointsValue == null) out.pointsValue = 100;
  }
  // An adjustment that adds points: taking off more than the balance, or earning while points are off
  // (the stored setting), is a conflict with what is stored.
  if (slug === 'point_entry') {
    if (typeof out.points === 'number' && out.points < 0) out.points = -out.points;
    if (out.reason === 'earned') out.reason = 'adjusted';
  }
  // A percentage discount at most 100 (on update, as the record stands).
  if (slug === 'reward' && whole().discountType === 'percentage' && Number(whole().discountValue) > 100) out.discountValue = 100;
  // A reward's expiry: the field its expiry type needs (on update, as the record stands).
  if (slug === 'reward' && whole().rewardExpiryType === 'absolute' && whole().rewardExpiryAt == null)
    out.rewardExpiryAt = '2030-01-01T00:00:00.000Z';
  if (slug === 'reward' && whole().rewardExpiryType === 'relative' && whole().rewardExpiryInDays == null) out.rewardExpiryInDays = 30;
  // The CSS functions a boxShadow may call.
  if (slug === 'floating_widget' && out.boxShadow != null) out.boxShadow = '0 1px 2px rgba(0, 0, 0, 0.2)';
  // The sender address at the custom domain.
  if (slug === 'service_email' && whole().domain && 'senderEmailAddress' in out) out.senderEmailAddress = `sender@${whole().domain}`;
  // The sender domain is chosen on create only.
  if (slug === 'service_email' && updating) delete out.useGamopandaDomain;
  // A private key that parses.
  if (slug === 'push_cloud_messaging' && out.serviceAccountJSON)
    (out.serviceAccountJSON as Record<string, unknown>).private_key = PRIVATE_KEY;
  // Handlebars checks of template fields: text without tags.
  if (TEMPLATES.includes(slug))
    for (const [key, value] of Object.entries(out)) if (typeof value === 'string') out[key] = value.replace(/[{}]/g, '');
  // A live rule needs a live integration: the seeded integrations are drafts.
  if (slug === 'notification' && 'status' in properties) out.status = 'draft';
  return out;
}

const ERROR_CODES = new Set([
  'invalid_input',
  'invalid_query',
  'unauthenticated',
  'forbidden',
  'not_found',
  'method_not_allowed',
  'conflict',
  'duplicate_unique_identifier',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'unavailable',
  'provider_error',
  // CONTRACT §17, §19 (the seeded points setting is live, so redemptions reach them).
  'reward_log_not_issued',
  'insufficient_points',
  'not_redeemable',
  'not_reversible',
  // A log reversed whole already (a second reverse of the same seeded log), §17.
  'nothing_to_reverse',
  // Additions to §19: a member named as their own referrer; a member's birthday given twice; a social follow.
  'self_referral',
  'birthday_already_set',
  'not_earnable',
  'already_followed',
]);

/** Serialises query values as the client sends them: JSON parameters as JSON text, others as text. */
const asQuery = (query: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(query).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));

describe('fuzzing from the OpenAPI document', () => {
  // First: the fuzzing below deletes the seeded records these update and read.
  it('answers a body key that names a built-in property as an unknown field, on every write', async () => {
    // Actions and raw (multipart) creates do not take a record's fields.
    const writes = operations().filter(
      (o) =>
        o.body &&
        !o.path.startsWith('/platform') &&
        !o.path.includes('/action/') &&
        !(o.method === 'POST' && app.running.services.registry.get(slugOf(o))?.createRaw),
    );
    const request = fc.record({ op: fc.constantFrom(...writes), seedBody: fc.integer() });
    await fc.assert(
      fc.asyncProperty(request, async ({ op, seedBody }) => {
        const slug = slugOf(op);
        const body = fc.sample(withBuiltInKey(op.body!), { seed: seedBody, numRuns: 1 })[0]!;
        const key = Object.keys(body).find((k) => BUILT_IN_KEYS.includes(k))!;
        const res = await owner.api.request(op.method, op.path.replace('{id}', ids.get(slug) ?? ''), { body });
        expect(res.status, `${op.method} ${op.path} with ${JSON.stringify(body).slice(0, 600)}`).toBe(400);
        expect(res.body.error.details).toContainEqual(expect.objectContaining({ field: key, code: 'unknown_field' }));
      }),
      { numRuns: 150 },
    );
  }, 120_000);

  it('accepts every create and update body drawn from the document and refuses every body the document refuses', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
    addFormats.default(ajv);
    ajv.addFormat('iana-time-zone', isTimeZone);
    ajv.addSchema(doc, 'openapi');
    const failures: string[] = [];
    const fail = (slug: string, text: string) => {
      if (failures.filter((f) => f.startsWith(`${slug} `)).length < 3) failures.push(`${slug} ${text}`);
    };
    let run = 0;
    /** Sends valid and invalid bodies of one operation; answers the valid bodies the service accepted. */
    async function exercise(
      slug: string,
      op: Operation,
      target: string,
      stored: Record<string, unknown>,
      count: number,
    ): Promise<{ id: string; body: Record<string, unknown> }[]> {
      const name = Object.keys(doc.components.schemas).find((k) => doc.components.schemas[k] === op.body)!;
      const conforms = ajv.compile({ $ref: `openapi#/components/schemas/${name}` });
      const accepted: { id: string; body: Record<string, unknown> }[] = [];
      // What the target record holds: each accepted patch adds to it; creates make records of their own.
      let standing = stored;
      // Bodies that break a rule the document states over several fields (allOf) are left out, not too many.
      let sent = 0;
      for (const raw of fc.sample(valid(op.body!), { seed: 21, numRuns: count })) {
        run += 1;
        const body = filled(slug, op.body!, raw as Record<string, unknown>, run, standing);
        if (!conforms(body)) continue;
        sent += 1;
        const res = await owner.api.request(op.method, target, { body });
        if (res.status < 300) {
          accepted.push({ id: res.body.data.id, body });
          if (op.method === 'PATCH') standing = { ...standing, ...body };
        } else
          fail(
            slug,
            `${op.method} ${res.status} ${JSON.stringify(body).slice(0, 300)} -> ${JSON.stringify(res.body.error?.details ?? res.body).slice(0, 300)}`,
          );
      }
      expect(sent, `${op.method} ${slug}`).toBeGreaterThanOrEqual(count / 3);
      for (const raw of fc.sample(mutated(op.body!), { seed: 21, numRuns: count / 2 })) {
        run += 1;
        const body =
          raw !== null && typeof raw === 'object' && !Array.isArray(raw)
            ? filled(slug, op.body!, raw as Record<string, unknown>, run, standing)
            : raw;
        if (conforms(body)) continue;
        const res = await owner.api.request(op.method, target, { body });
        if (res.status < 400 || res.status >= 500)
          fail(slug, `${op.method} ${res.status} for an invalid ${JSON.stringify(body).slice(0, 300)}`);
      }
      return accepted;
    }
    const writes = operations();
    const creates = writes.filter(
      (o) =>
        o.method === 'POST' &&
        o.body &&
        /^\/schema\/[a-z_]+\/record$/.test(o.path) &&
        !app.running.services.registry.get(slugOf(o))?.createRaw,
    );
    for (const create of creates) {
      const slug = slugOf(create);
      const [first] = await exercise(slug, create, create.path, {}, 30);
      const update = writes.find((o) => o.method === 'PATCH' && o.path === `${create.path}/{id}` && o.body);
      // Updates go to a record this test made, whose stored fields the update rules read.
      if (update && first) await exercise(slug, update, `${create.path}/${first.id}`, first.body, 20);
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('accepts every list and get query drawn from the document, and refuses a mutated one with 400 invalid_query', async () => {
    // Reads an API key may make: /schema/account_user/me is the end user's own.
    const reads = operations().filter(
      (o) => o.method === 'GET' && o.parameters.some((p) => p.name === 'fields') && !o.path.endsWith('/me'),
    );
    const request = fc.record({
      op: fc.constantFrom(...reads),
      seed: fc.integer(),
      mutate: fc.boolean(),
      junk: fc.constantFrom('fields', 'filters', 'sortBy', 'limit', 'offset', 'unknownParam'),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ op, seed, mutate, junk }) => {
        const slug = /^\/schema\/([a-z_]+)\//.exec(op.path)?.[1] ?? '';
        const target = op.path.replace('{id}', ids.get(slug) ?? '');
        const query = asQuery(fc.sample(validQuery(op.parameters), { seed, numRuns: 1 })[0]!);
        // A list parameter a get does not take is a mutation there too.
        if (mutate) query[junk] = junk === 'limit' ? '0' : junk === 'offset' ? '-1' : '{not json';
        const res = await owner.api.get(target, query);
        const shown = `GET ${target} ${JSON.stringify(query).slice(0, 600)}`;
        if (mutate) {
          expect(res.status, shown).toBe(400);
          expect(res.body.error.code, shown).toBe('invalid_query');
        } else expect(res.status, `${shown}: ${JSON.stringify(res.body).slice(0, 400)}`).toBe(200);
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  it('never answers 5xx, keeps the envelopes, and never shows one account another account’s records', async () => {
    const ops = operations().filter((o) => !o.path.startsWith('/platform'));
    const ownerIds = [...ids.values()];
    const request = fc.record({
      op: fc.constantFrom(...ops),
      who: fc.constantFrom(...Object.keys(clients)),
      id: fc.oneof(fc.constantFrom(...ownerIds), fc.uuid(), fc.string({ maxLength: 12 })),
      mode: fc.constantFrom('valid', 'mutated'),
      seedBody: fc.integer(),
      query: fc.option(
        fc.dictionary(
          fc.constantFrom('fields', 'filters', 'sortBy', 'limit', 'offset', 'languageCode', 'fetchTotalCount', 'junk', ...BUILT_IN_KEYS),
          fc.oneof(
            fc.string({ maxLength: 20 }),
            fc.constantFrom(...BUILT_IN_KEYS).map((key) => JSON.stringify([key])),
            fc.constantFrom(...BUILT_IN_KEYS).map((key) => JSON.stringify([{ fieldSlug: key, order: 'ASC' }])),
            fc
              .constantFrom(...BUILT_IN_KEYS)
              .map((key) => JSON.stringify({ operator: 'and', conditions: [{ fieldSlug: key, operator: 'equals', fieldValue: 1 }] })),
          ),
          { maxKeys: 3 },
        ),
      ),
      languageCode: fc.option(fc.constantFrom('fr', 'de', 'xx')),
    });
    await fc.assert(
      fc.asyncProperty(request, async ({ op, who, id, mode, seedBody, query, languageCode }) => {
        const slug = /^\/schema\/([a-z_]+)\//.exec(op.path)?.[1];
        const target = op.path.replace('{id}', slug && typeof id === 'string' && ownerIds.includes(id) ? (ids.get(slug) ?? id) : id);
        const body = op.body
          ? fc.sample(mode === 'valid' ? valid(op.body) : mutated(op.body), { seed: seedBody, numRuns: 1 })[0]
          : undefined;
        const res = await clients[who]!.request(op.method, target, {
          body,
          query: { ...(query ?? {}), ...(languageCode ? { languageCode } : {}) },
        });
        expect(res.status, `${op.method} ${target} as ${who} with ${JSON.stringify(body)?.slice(0, 600)}`).toBeLessThan(500);
        if (res.status === 204) expect(res.body).toBe('');
        else if (res.status < 300) {
          expect(res.body).toHaveProperty('data');
          if (op.method === 'GET' && op.path.endsWith('/record'))
            expect(res.body.paging).toMatchObject({ offset: expect.any(Number), limit: expect.any(Number), count: res.body.data.length });
        } else {
          expect(res.body.error.status).toBe(res.status);
          expect(ERROR_CODES.has(res.body.error.code), res.body.error.code).toBe(true);
        }
        if (who === 'stranger' && res.status < 300) {
          const text = JSON.stringify(res.body);
          expect(ownerIds.filter((ownerId) => text.includes(ownerId))).toEqual([]);
        }
      }),
      { numRuns: 400 },
    );
  }, 120_000);
});
