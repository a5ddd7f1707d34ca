import { z } from 'zod';
import { EVENT_CODES } from '../events/codes.js';
import type { Flow } from '../auth/authenticate.js';
import { isPlainObject } from '../db/json.js';
import { LANGUAGE_CODES } from '../formats.js';
import type { Op } from './context.js';
import type { FieldDef, ValueType } from './fields.js';
import { LEAF_OPERATORS, MAX_FILTER_DEPTH, MAX_FILTER_LEAVES, MAX_IN_VALUES, MAX_SORT_KEYS, operatorAllowed } from './query.js';
import type { Registry } from './registry.js';
import type { Resource, Returned } from './resource.js';
import { ruleSchemas } from './rules.js';

type Json = Record<string, unknown>;

const pascal = (slug: string) => slug.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());

/** A zod schema as JSON Schema: the one source of a body's validation and its documentation. */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const out: Json = z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any', io });
  delete out.$schema;
  return out;
}

function fieldSchema(f: FieldDef, io: 'input' | 'output'): Json {
  const base = jsonSchema(io === 'output' ? (f.outputSchema ?? f.schema) : f.schema, io);
  const described = f.description ? { ...base, description: f.description } : base;
  const flags: Json = {};
  if (f.localisable) flags['x-localisable'] = true;
  if (f.public) flags['x-public'] = true;
  if (f.references) flags['x-references'] = f.references;
  if (f.referencesBy) flags['x-references-by'] = f.referencesBy;
  if (io === 'output') {
    if (f.readOnly) flags.readOnly = true;
    const read = f.joins ? { ...ref(pascal(f.joins)), ...(f.description ? { description: f.description } : {}) } : described;
    return { anyOf: [read, { type: 'null' }], ...flags };
  }
  if (f.default !== undefined && typeof f.default !== 'function') flags.default = f.default;
  // Null clears an optional field; a field with a default, a required one or an always-set one (NOT NULL) never takes null.
  return f.required || f.default !== undefined || f.alwaysSet
    ? { ...described, ...flags }
    : { anyOf: [described, { type: 'null' }], ...flags };
}

const SYSTEM = {
  id: { type: 'string', format: 'uuid', readOnly: true },
  createdAt: { type: 'string', format: 'date-time', readOnly: true },
  updatedAt: { type: 'string', format: 'date-time', readOnly: true },
};

function schemasOf(r: Resource): Record<string, Json> {
  const fields = Object.entries(r.fields);
  const output: Json = {
    type: 'object',
    description: r.description,
    properties: {
      ...SYSTEM,
      ...Object.fromEntries(fields.map(([n, f]) => [n, fieldSchema(f, 'output')])),
    },
    // `fields` narrows a read to the fields asked for; id is always returned.
    required: ['id'],
  };
  const writable = fields.filter(([, f]) => !f.readOnly);
  const rules = r.rules ? { description: r.rules.description } : {};
  const clauses = [
    // A field a rule requires takes a value there, not null.
    ...ruleSchemas(r.rules?.conditional ?? [], (name) => jsonSchema(r.fields[name]!.schema, 'input')),
    ...(r.rules?.create ?? []),
  ];
  const create: Json = {
    type: 'object',
    ...rules,
    ...(clauses.length ? { allOf: clauses } : {}),
    additionalProperties: false,
    properties: Object.fromEntries(writable.map(([n, f]) => [n, fieldSchema(f, 'input')])),
    required: writable.filter(([, f]) => f.required && f.default === undefined).map(([n]) => n),
  };
  const updateRequires = new Set<string>(r.updateRequires ?? []);
  const update: Json = {
    type: 'object',
    ...rules,
    additionalProperties: false,
    properties: Object.fromEntries(
      writable
        .filter(([, f]) => !f.createOnly)
        .map(([n, f]) => [n, fieldSchema(updateRequires.has(n) ? { ...f, required: true } : f, 'input')]),
    ),
    ...(updateRequires.size ? { required: [...updateRequires] } : {}),
  };
  const name = pascal(r.slug);
  const schemas: Record<string, Json> = { [name]: output, [`${name}Create`]: create, [`${name}Update`]: update, ...querySchemasOf(r) };
  if (r.createReturns) schemas[`${name}Created`] = withReturned(name, r.createReturns);
  return schemas;
}

/** A resource's record with the records an answer adds beside it. */
function withReturned(name: string, returned: Returned): Json {
  const extra = Object.entries(returned).map(([key, x]) => {
    const one = x.slug ? ref(pascal(x.slug)) : { type: 'null' };
    return [key, x.many ? { type: 'array', items: one } : x.slug ? { anyOf: [one, { type: 'null' }] } : one];
  });
  return { allOf: [ref(name)], type: 'object', properties: Object.fromEntries(extra), required: extra.map(([key]) => key) };
}

/** What a filter value of each value type must be (PostgreSQL text holds no NUL). */
function filterValueSchema(valueType: ValueType, enumValues: readonly string[] | undefined): Json {
  const text = { type: 'string', pattern: '^[^\\u0000]*$' };
  switch (valueType) {
    case 'string':
      return text;
    case 'number':
      return { type: 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'uuid':
      return { type: 'string', format: 'uuid' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    default:
      return enumValues ? { type: 'string', enum: [...enumValues] } : text;
  }
}

/**
 * The JSON query parameters of a resource (CONTRACT §3): the fields a read may ask for, the sort
 * keys, and the ComplexCondition of `filters`, whose leaves say per field which operators and
 * values apply. Fields that compare alike share one leaf schema.
 */
function querySchemasOf(r: Resource): Record<string, Json> {
  const name = pascal(r.slug);
  const fields = Object.entries(r.fields);
  const queryable: [string, { valueType: ValueType; enumValues?: readonly string[] }][] = [
    ['id', { valueType: 'uuid' }],
    ['createdAt', { valueType: 'datetime' }],
    ['updatedAt', { valueType: 'datetime' }],
    ...fields.filter(([, f]) => !f.virtual && !f.sealed),
  ];
  const groups = new Map<string, { slugs: string[]; operators: string[]; value: Json }>();
  for (const [slug, f] of queryable) {
    const operators = LEAF_OPERATORS.filter((op) => operatorAllowed({ name: slug, ...f }, op));
    const value = filterValueSchema(f.valueType, f.enumValues);
    const key = JSON.stringify([operators, value]);
    const group = groups.get(key) ?? { slugs: [], operators, value };
    group.slugs.push(slug);
    groups.set(key, group);
  }
  const leaves = [...groups.values()].flatMap(({ slugs, operators, value }) => {
    const leaf = (ops: string[], fieldValue: Json | undefined) => ({
      type: 'object',
      additionalProperties: false,
      properties: {
        fieldSlug: { enum: slugs },
        operator: { enum: ops },
        ...(fieldValue ? { fieldValue } : { fieldValue: { enum: [null, true] } }),
      },
      required: fieldValue ? ['fieldSlug', 'operator', 'fieldValue'] : ['fieldSlug', 'operator'],
    });
    const single = operators.filter((op) => !['in', 'not_in', 'is_null', 'is_not_null'].includes(op));
    const many = operators.filter((op) => op === 'in' || op === 'not_in');
    return [
      leaf(['is_null', 'is_not_null'], undefined),
      ...(many.length ? [leaf(many, { type: 'array', items: value, minItems: 1, maxItems: MAX_IN_VALUES })] : []),
      ...(single.length ? [leaf(single, value)] : []),
    ];
  });
  const sortable = queryable.filter(([, f]) => f.valueType !== 'opaque' && f.valueType !== 'stringArray').map(([slug]) => slug);
  const selectable = ['id', 'createdAt', 'updatedAt', ...fields.filter(([, f]) => !f.revealOnce).map(([n]) => n)];
  const staff = new Set(fields.filter(([, f]) => f.staffOnly).map(([n]) => n));
  return {
    [`${name}Fields`]: { type: 'array', items: { enum: selectable } },
    ...(staff.size && {
      [`${name}OwnFields`]: {
        description: "The fields of an end user's own record: all but what only API keys read.",
        type: 'array',
        items: { enum: selectable.filter((n) => !staff.has(n)) },
      },
    }),
    [`${name}SortBy`]: {
      type: 'array',
      minItems: 1,
      maxItems: MAX_SORT_KEYS,
      items: {
        type: 'object',
        additionalProperties: false,
        properties: { fieldSlug: { enum: sortable }, order: { enum: ['ASC', 'DESC'], default: 'ASC' } },
        required: ['fieldSlug'],
      },
    },
    [`${name}Filter`]: {
      description: `A ComplexCondition: groups nest at most ${MAX_FILTER_DEPTH} levels deep and hold at most ${MAX_FILTER_LEAVES} leaves in all. A leaf alone stands for a group of one.`,
      anyOf: [ref(`${name}FilterGroup`), ref(`${name}FilterLeaf`)],
    },
    [`${name}FilterGroup`]: {
      type: 'object',
      additionalProperties: false,
      properties: { operator: { enum: ['and', 'or'] }, conditions: { type: 'array', items: ref(`${name}Filter`) } },
      required: ['operator', 'conditions'],
    },
    [`${name}FilterLeaf`]: { oneOf: leaves },
  };
}

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [String(s), { $ref: `#/components/responses/Error${s}` }]));

/** Answers any API route may give before its own checks: a long body, URL or head, a database outage. */
const ANYWHERE = [413, 414, 431, 503];
/** The statuses of the contract's error codes (CONTRACT §2) and of the HTTP limits (http/limits.ts). */
const ERROR_STATUSES = [400, 401, 403, 404, 405, 409, 413, 414, 415, 429, 431, 502, 503];
const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'invalid_input (the body, or credentials that are malformed) or invalid_query (a query parameter)',
  401: 'unauthenticated: missing or invalid credentials',
  403: 'forbidden: these credentials may not perform this operation',
  404: 'not_found: no such path or record (a record of another account included)',
  405: 'method_not_allowed: the path does not offer this method; `Allow` lists the ones it does',
  409: 'conflict, or duplicate_unique_identifier for a replayed log',
  413: "payload_too_large: the body exceeds the route's limit (1 MB unless the route says otherwise)",
  414: 'uri_too_long: the URL exceeds 16 KB',
  415: 'unsupported_media_type: a non-empty body of another media type, or none declared',
  429: 'rate_limited: retry after `Retry-After` seconds',
  431: 'header_too_large: the request line and headers exceed 64 KB',
  502: 'provider_error: a provider the operation needs (the email provider) refused or failed',
  503: 'unavailable: the database is briefly unavailable; retry after `Retry-After` seconds',
};
const header = (description: string, schema: Json) => ({ description, required: true, schema });
const HEADERS = {
  'x-request-id': { $ref: '#/components/headers/RequestId' },
  'x-ratelimit-limit': { $ref: '#/components/headers/RateLimitLimit' },
  'x-ratelimit-remaining': { $ref: '#/components/headers/RateLimitRemaining' },
};

function errorResponse(status: number): Json {
  const headers: Json = status === 431 ? { 'x-request-id': HEADERS['x-request-id'] } : { ...HEADERS };
  if (status === 429 || status === 503) headers['retry-after'] = { $ref: '#/components/headers/RetryAfter' };
  if (status === 405) headers.allow = { $ref: '#/components/headers/Allow' };
  return { description: ERROR_DESCRIPTIONS[status], headers, content: { 'application/json': { schema: ref('Error') } } };
}

/** A part of the document that must be an object (an operation, its responses, a response), checked. */
function objectAt(value: unknown, where: string): Json {
  if (!isPlainObject(value)) throw new Error(`OpenAPI document: ${where} is not an object`);
  return value;
}

/** Every operation's answers carry the request id and rate-limit headers, and may be any of `ANYWHERE`. */
function withCommonAnswers(paths: Record<string, Json>): Record<string, Json> {
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(item)) {
      const responses = objectAt(objectAt(op, `${method} ${path}`).responses, `${method} ${path} responses`);
      for (const [status, answer] of Object.entries(responses)) {
        const response = objectAt(answer, `${method} ${path} response ${status}`);
        if (!response.$ref) response.headers = { ...HEADERS, ...objectAt(response.headers ?? {}, `${method} ${path} ${status} headers`) };
      }
      Object.assign(responses, errorResponses(...ANYWHERE.filter((s) => !responses[s])));
    }
  }
  return paths;
}

const FLOW_SECURITY: Record<Flow, Json[]> = {
  apikey: [{ apiKey: [], apiSecret: [] }],
  enduser: [{ enduserToken: [], accountId: [] }],
  guest: [{}, { accountId: [] }],
};
export const security = (flows: Flow[] | undefined) => (flows ?? []).flatMap((f) => FLOW_SECURITY[f]);

const param = (name: string, schema: Json, description: string, where = 'query', required = false) => ({
  name,
  in: where,
  required,
  description,
  schema,
});
export const LANGUAGE = param('languageCode', { type: 'string', enum: [...LANGUAGE_CODES] }, 'Language of localisable fields.');
/** A query parameter whose value is JSON text (CONTRACT §3). */
const jsonParam = (name: string, schema: Json, description: string) => ({
  name,
  in: 'query',
  required: false,
  description,
  content: { 'application/json': { schema } },
});
/** `fields`, of any of the resource's readable fields or (`own`) of those an end user reads of their own record. */
export const fieldsParam = (name: string, own = false) =>
  jsonParam('fields', ref(`${name}${own ? 'Own' : ''}Fields`), 'JSON array of field slugs to return; id is always returned.');
const listParams = (name: string) => [
  fieldsParam(name),
  jsonParam(
    'filters',
    ref(`${name}Filter`),
    'JSON ComplexCondition: {"operator": "and"|"or", "conditions": [...]}, leaves {"fieldSlug", "operator", "fieldValue"}.',
  ),
  jsonParam('sortBy', ref(`${name}SortBy`), 'JSON array of {"fieldSlug", "order": "ASC"|"DESC"}; default createdAt DESC; id breaks ties.'),
  param('offset', { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 }, 'Records to skip.'),
  param('limit', { type: 'integer', minimum: 1, maximum: 1000, default: 100 }, 'Records to return.'),
  param('fetchTotalCount', { type: 'boolean', default: false }, 'Adds paging.total.'),
  LANGUAGE,
];
export const ID = param('id', { type: 'string', format: 'uuid' }, 'Record id.', 'path', true);

/** A 200 answer in the contract's envelope: `{"data": …}`. */
export const dataResponse = (description: string, data: Json) => ({
  description,
  content: { 'application/json': { schema: { type: 'object', required: ['data'], properties: { data } } } },
});

function pathsOf(r: Resource): Record<string, Json> {
  const name = pascal(r.slug);
  const a = r.access;
  // "an account_user record", "a streak record": every slug that starts with a vowel letter starts with its sound.
  const one = `${/^[aeiou]/.test(r.slug) ? 'an' : 'a'} ${r.slug} record`;
  const op = (o: Op, summary: string, extra: Json) => ({
    tags: [r.slug],
    operationId: `${o}${name}`,
    summary,
    security: security(a[o]),
    ...extra,
  });
  // 403 only where some flow is refused; every operation checks credentials (401, or 400 when malformed) and query parameters (400).
  const refused = (o: Op) => [...(a[o]!.length < 3 ? [403] : []), ...(r.answers?.[o] ?? [])];
  const collection: Json = {};
  const item: Json = {};
  if (a.list) {
    collection.get = op('list', `List ${r.slug} records`, {
      parameters: listParams(name),
      responses: {
        200: {
          description: 'Success',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: { data: { type: 'array', items: ref(name) }, paging: ref('Paging') },
                required: ['data', 'paging'],
              },
            },
          },
        },
        ...errorResponses(400, 401, ...refused('list'), 429),
      },
    });
  }
  if (a.create) {
    const created = r.createReturns ? ref(`${name}Created`) : ref(name);
    collection.post = op('create', `Create ${one}`, {
      parameters: [LANGUAGE],
      requestBody: {
        required: true,
        content: r.createRaw
          ? Object.fromEntries(r.createRaw.accepts.map((t) => [t, { schema: r.createRaw!.body }]))
          : { 'application/json': { schema: ref(`${name}Create`) } },
      },
      responses: {
        200: dataResponse('Success', created),
        ...errorResponses(400, 401, ...refused('create'), 409, 415, 429),
      },
    });
  }
  if (a.get) {
    item.get = op('get', `Get ${one}`, {
      parameters: [ID, fieldsParam(name), LANGUAGE],
      responses: { 200: dataResponse('Success', ref(name)), ...errorResponses(400, 401, ...refused('get'), 404, 429) },
    });
  }
  if (a.update) {
    item.patch = op('update', `Update ${one}`, {
      parameters: [ID, LANGUAGE],
      requestBody: { required: true, content: { 'application/json': { schema: ref(`${name}Update`) } } },
      responses: { 200: dataResponse('Success', ref(name)), ...errorResponses(400, 401, ...refused('update'), 404, 409, 415, 429) },
    });
  }
  if (a.delete) {
    item.delete = op('delete', `Delete ${one}`, {
      parameters: [ID, LANGUAGE],
      responses: { 204: { description: 'Deleted' }, ...errorResponses(400, 401, ...refused('delete'), 404, 429) },
    });
  }
  const paths: Record<string, Json> = {};
  if (Object.keys(collection).length) paths[`/schema/${r.slug}/record`] = collection;
  if (Object.keys(item).length) paths[`/schema/${r.slug}/record/{id}`] = item;
  for (const [actionName, action] of Object.entries(r.actions ?? {})) {
    const json = action.body ? jsonSchema(action.body, 'input') : { type: 'object' };
    const content = Object.fromEntries(
      (action.accepts ?? ['application/json']).map((t) => [t, { schema: t === 'application/json' ? json : { type: 'string' } }]),
    );
    paths[`/schema/${r.slug}/record/{id}/action/${actionName}`] = {
      post: {
        tags: [r.slug],
        operationId: `${actionName.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())}${name}`,
        summary: action.description,
        security: security(action.flows ?? ['apikey']),
        parameters: [ID, LANGUAGE],
        // A body is needed where its schema requires something (CONTRACT §2: an action needs none unless its route says so).
        requestBody: {
          required: Array.isArray((json as { required?: unknown }).required) && (json as { required: unknown[] }).required.length > 0,
          content,
        },
        responses: {
          200: dataResponse(
            'Success',
            typeof action.returns !== 'string'
              ? jsonSchema(action.returns, 'output')
              : action.returnsAlso
                ? withReturned(pascal(action.returns), action.returnsAlso)
                : ref(pascal(action.returns)),
          ),
          ...errorResponses(400, 401, 403, 404, 409, 415, 429),
        },
      },
    };
  }
  return paths;
}

const errorSchema = {
  type: 'object',
  properties: {
    error: {
      type: 'object',
      properties: {
        status: { type: 'integer' },
        code: { type: 'string' },
        message: { type: 'string' },
        details: {
          type: 'array',
          items: {
            type: 'object',
            properties: { field: { type: 'string' }, code: { type: 'string' }, message: { type: 'string' } },
            required: ['code', 'message'],
          },
        },
        requestId: { type: 'string' },
      },
      required: ['status', 'code', 'message', 'details', 'requestId'],
    },
  },
  required: ['error'],
};

/**
 * The OpenAPI 3.1 document, generated from the resource definitions; `routes` are the entries of
 * the other routes, which the HTTP layer declares beside them, and `outgoing` what the service
 * sends (its webhooks and their schemas).
 */
export function buildOpenApi(
  registry: Registry,
  serverUrl: string,
  routes: Record<string, Json>,
  outgoing: { webhooks: Json; schemas: Record<string, Json> } = { webhooks: {}, schemas: {} },
): Json {
  const resources = registry.all();
  return {
    openapi: '3.1.0',
    info: {
      title: 'Loyalty service',
      version: '1.0.0',
      description:
        'Loyalty and gamification: streaks, challenges, missions, milestones, rewards, coupons, webhooks and notifications. ' +
        'A method a path does not offer is answered 405 with `Allow`; an unknown path 404. Strings may not contain NUL (U+0000): ' +
        "a body or query parameter with one is 400 naming the field. Rules a schema cannot express are in each field's description.",
    },
    servers: [{ url: serverUrl }],
    tags: resources.map((r) => ({ name: r.slug, description: r.description })),
    paths: withCommonAnswers(
      structuredClone({
        ...Object.assign({}, ...resources.map(pathsOf)),
        ...routes,
      }),
    ),
    webhooks: outgoing.webhooks,
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        apiSecret: { type: 'apiKey', in: 'header', name: 'x-api-secret' },
        enduserToken: { type: 'apiKey', in: 'header', name: 'x-enduser-access-token' },
        accountId: { type: 'apiKey', in: 'header', name: 'x-account-id' },
        platformToken: { type: 'http', scheme: 'bearer' },
      },
      schemas: {
        Error: errorSchema,
        Paging: {
          type: 'object',
          properties: {
            offset: { type: 'integer' },
            limit: { type: 'integer' },
            count: { type: 'integer' },
            hasMore: { type: 'boolean' },
            total: { type: 'integer' },
          },
          required: ['offset', 'limit', 'count', 'hasMore'],
        },
        EventCode: { type: 'string', enum: [...EVENT_CODES] },
        ...Object.assign({}, ...resources.map(schemasOf)),
        ...outgoing.schemas,
      },
      headers: {
        RequestId: header("The caller's x-request-id when it sent a valid one, else a generated one.", { type: 'string', minLength: 1 }),
        RateLimitLimit: header('Requests per second of the bucket this request was charged to.', { type: 'integer', minimum: 0 }),
        RateLimitRemaining: header('Requests left in that bucket now.', { type: 'integer', minimum: 0 }),
        RetryAfter: header('Seconds to wait before retrying.', { type: 'integer', minimum: 0 }),
        Allow: header('The methods the path offers.', { type: 'string', pattern: '^[A-Z]+(, [A-Z]+)*$' }),
      },
      responses: Object.fromEntries(ERROR_STATUSES.map((s) => [`Error${s}`, errorResponse(s)])),
    },
  };
}
