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
  if (schema.anyOf) return fc.oneof(...(schema.anyOf as Schema[]).map((branch) => valid({ ...schema, anyOf: undefined, ...branch }, depth + 1)));
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
      if (schema.format === 'date-time') return fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
      if (schema.format === 'uri') return fc.constantFrom('https://example.com/a.png', 'http://127.0.0.1:9/hook');
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
  parameters: Schema[];
}

function operations(): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Schema>>)) {
    for (const [method, op] of Object.entries(item)) {
      const ref = op.requestBody?.content?.['application/json']?.schema?.$ref as string | undefined;
      out.push({ path, method: method.toUpperCase(), body: ref ? doc.components.schemas[ref.split('/').at(-1)!] : undefined, parameters: op.parameters ?? [] });
    }
  }
  return out;
}

const ERROR_CODES = new Set([
  'invalid_input', 'invalid_query', 'unauthenticated', 'forbidden', 'not_found', 'method_not_allowed', 'conflict',
  'duplicate_unique_identifier', 'payload_too_large', 'unsupported_media_type', 'rate_limited', 'unavailable', 'provider_error',
]);

/** Serialises query values as the client sends them: JSON parameters as JSON text, others as text. */
const asQuery = (query: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(query).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));

describe('fuzzing from the OpenAPI document', () => {
  // First: the fuzzing below deletes the seeded records these update and read.
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

  it('accepts every list and get query drawn from the document, and refuses a mutated one with 400 invalid_query', async () => {
    // Reads an API key may make: /schema/account_user/me is the end user's own.
    const reads = operations().filter((o) => o.method === 'GET' && o.parameters.some((p) => p.name === 'fields') && !o.path.endsWith('/me'));
    const request = fc.record({ op: fc.constantFrom(...reads), seed: fc.integer(), mutate: fc.boolean(), junk: fc.constantFrom('fields', 'filters', 'sortBy', 'limit', 'offset', 'unknownParam') });
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
