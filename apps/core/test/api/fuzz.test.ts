import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

/** A value that the schema accepts (most of the time: cross-field rules are not in the schema). */
function valid(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.anyOf) return fc.oneof(...(schema.anyOf as Schema[]).map(valid));
  if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
  if (schema.const !== undefined) return fc.constant(schema.const);
  switch (schema.type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1000, max: schema.maximum ?? 1000 });
    case 'number':
      return fc.double({ min: schema.minimum ?? (schema.exclusiveMinimum ?? -1000) + 0.001, max: schema.maximum ?? 1000, noNaN: true });
    case 'string':
      if (schema.format === 'uuid') return fc.uuid();
      if (schema.format === 'email') return fc.constantFrom('a@example.com', 'shopper@shop.test');
      if (schema.format === 'date-time') return fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
      if (schema.format === 'uri') return fc.constantFrom('https://example.com/a.png', 'http://127.0.0.1:9/hook');
      return fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) });
    case 'array':
      return fc.array(valid(schema.items ?? {}), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 3, 3) });
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const model = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, valid(v)]));
      return fc.record(model, { requiredKeys: schema.required ?? [] });
    }
    default:
      return fc.jsonValue();
  }
}

/** Keys that name properties every plain object inherits: a lookup without an own-property check finds them. */
const BUILT_IN_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

/** A valid body plus a key that names a built-in property (a computed key is an own one, so `__proto__` reaches the JSON text). */
function withBuiltInKey(schema: Schema): fc.Arbitrary<Record<string, unknown>> {
  return fc.tuple(valid(schema), fc.constantFrom(...BUILT_IN_KEYS), fc.jsonValue()).map(([body, key, junk]) => ({ ...(body as object), [key]: junk }));
}

/** A valid body with one field broken, an extra field (a built-in property's name, say), or no object at all. */
function mutated(schema: Schema): fc.Arbitrary<unknown> {
  const keys = Object.keys(schema.properties ?? {});
  return fc.oneof(
    valid(schema).chain((body) =>
      fc.tuple(fc.constantFrom(...(keys.length ? keys : ['field'])), fc.jsonValue()).map(([key, junk]) => ({ ...(body as object), [key]: junk })),
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
}

function operations(): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
    for (const [method, op] of Object.entries(item)) {
      const ref = op.requestBody?.content?.['application/json']?.schema?.$ref as string | undefined;
      out.push({ path, method: method.toUpperCase(), body: ref ? doc.components.schemas[ref.split('/').at(-1)!] : undefined });
    }
  }
  return out;
}

const ERROR_CODES = new Set([
  'invalid_input', 'invalid_query', 'unauthenticated', 'forbidden', 'not_found', 'method_not_allowed', 'conflict',
  'duplicate_unique_identifier', 'payload_too_large', 'unsupported_media_type', 'rate_limited', 'unavailable', 'provider_error',
]);

describe('fuzzing from the OpenAPI document', () => {
  // First: the fuzzing below deletes the seeded records this one updates.
  it('answers a body key that names a built-in property as an unknown field, on every write', async () => {
    const slugOf = (o: Operation) => /^\/schema\/([a-z_]+)\//.exec(o.path)?.[1] ?? '';
    // Actions and raw (multipart) creates do not take a record's fields.
    const writes = operations().filter(
      (o) => o.body && !o.path.startsWith('/platform') && !o.path.includes('/action/') && !(o.method === 'POST' && app.running.services.registry.get(slugOf(o))?.createRaw),
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
            fc.constantFrom(...BUILT_IN_KEYS).map((key) => JSON.stringify({ operator: 'and', conditions: [{ fieldSlug: key, operator: 'equals', fieldValue: 1 }] })),
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
        const body = op.body ? fc.sample(mode === 'valid' ? valid(op.body) : mutated(op.body), { seed: seedBody, numRuns: 1 })[0] : undefined;
        const res = await clients[who]!.request(op.method, target, {
          body,
          query: { ...(query ?? {}), ...(languageCode ? { languageCode } : {}) },
        });
        expect(res.status, `${op.method} ${target} as ${who} with ${JSON.stringify(body)?.slice(0, 600)}`).toBeLessThan(500);
        if (res.status === 204) expect(res.body).toBe('');
        else if (res.status < 300) {
          expect(res.body).toHaveProperty('data');
          if (op.method === 'GET' && op.path.endsWith('/record')) expect(res.body.paging).toMatchObject({ offset: expect.any(Number), limit: expect.any(Number), count: res.body.data.length });
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
