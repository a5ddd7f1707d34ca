import { z } from 'zod';
import { EVENT_CODES } from '../events/codes.js';
import type { Flow } from '../auth/authenticate.js';
import { LANGUAGE_CODES } from '../formats.js';
import type { Op } from './context.js';
import type { FieldDef } from './fields.js';
import type { Registry } from './registry.js';
import type { Resource } from './resource.js';

type Json = Record<string, unknown>;

const pascal = (slug: string) => slug.replace(/(^|_)([a-z])/g, (_, __, c: string) => c.toUpperCase());

/** A zod schema as JSON Schema: the one source of a body's validation and its documentation. */
export function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Json {
  const out = z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any', io }) as Json;
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
    return { anyOf: [described, { type: 'null' }], ...flags };
  }
  if (f.default !== undefined && typeof f.default !== 'function') flags.default = f.default;
  // Null clears an optional field; a field with a default or a required one never takes null.
  return f.required || f.default !== undefined ? { ...described, ...flags } : { anyOf: [described, { type: 'null' }], ...flags };
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
    required: ['id', 'createdAt', 'updatedAt'],
  };
  const writable = fields.filter(([, f]) => !f.readOnly);
  const create: Json = {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(writable.map(([n, f]) => [n, fieldSchema(f, 'input')])),
    required: writable.filter(([, f]) => f.required && f.default === undefined).map(([n]) => n),
  };
  const update: Json = {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(writable.filter(([, f]) => !f.createOnly).map(([n, f]) => [n, fieldSchema(f, 'input')])),
  };
  const name = pascal(r.slug);
  return { [name]: output, [`${name}Create`]: create, [`${name}Update`]: update };
}

export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const errorResponses = (...statuses: number[]) =>
  Object.fromEntries(statuses.map((s) => [String(s), { $ref: `#/components/responses/Error${s}` }]));

const FLOW_SECURITY: Record<Flow, Json[]> = {
  apikey: [{ apiKey: [], apiSecret: [] }],
  enduser: [{ enduserToken: [], accountId: [] }],
  guest: [{}, { accountId: [] }],
};
export const security = (flows: Flow[] | undefined) => (flows ?? []).flatMap((f) => FLOW_SECURITY[f]);

const param = (name: string, schema: Json, description: string, where = 'query', required = false) => ({
  name, in: where, required, description, schema,
});
const LANGUAGE = param('languageCode', { type: 'string', enum: [...LANGUAGE_CODES] }, 'Language of localisable fields.');
const LIST_PARAMS = [
  param('fields', { type: 'string' }, 'JSON array of field slugs to return; id is always returned.'),
  param('filters', { type: 'string' }, 'JSON ComplexCondition: {"operator": "and"|"or", "conditions": [...]}, leaves {"fieldSlug", "operator", "fieldValue"}.'),
  param('sortBy', { type: 'string' }, 'JSON array of {"fieldSlug", "order": "ASC"|"DESC"}; default createdAt DESC.'),
  param('offset', { type: 'integer', minimum: 0, default: 0 }, 'Records to skip.'),
  param('limit', { type: 'integer', minimum: 1, maximum: 1000, default: 100 }, 'Records to return.'),
  param('fetchTotalCount', { type: 'boolean', default: false }, 'Adds paging.total.'),
  LANGUAGE,
];
export const ID = param('id', { type: 'string', format: 'uuid' }, 'Record id.', 'path', true);

function pathsOf(r: Resource): Record<string, Json> {
  const name = pascal(r.slug);
  const a = r.access;
  const one = { type: 'object', properties: { data: ref(name) }, required: ['data'] };
  const ok = (schema: Json) => ({ description: 'Success', content: { 'application/json': { schema } } });
  const op = (o: Op, summary: string, extra: Json) => ({ tags: [r.slug], operationId: `${o}${name}`, summary, security: security(a[o]), ...extra });
  const collection: Json = {};
  const item: Json = {};
  if (a.list) {
    collection.get = op('list', `List ${r.slug} records`, {
      parameters: LIST_PARAMS,
      responses: {
        200: ok({ type: 'object', properties: { data: { type: 'array', items: ref(name) }, paging: ref('Paging') }, required: ['data', 'paging'] }),
        ...errorResponses(400, 401, 403, 429),
      },
    });
  }
  if (a.create) {
    collection.post = op('create', `Create a ${r.slug} record`, {
      parameters: [LANGUAGE],
      requestBody: { required: true, content: { 'application/json': { schema: ref(`${name}Create`) } } },
      responses: { 200: ok(one), ...errorResponses(400, 401, 403, 409, 413, 415, 429) },
    });
  }
  if (a.get) {
    item.get = op('get', `Get a ${r.slug} record`, {
      parameters: [ID, LIST_PARAMS[0], LANGUAGE],
      responses: { 200: ok(one), ...errorResponses(400, 401, 403, 404, 429) },
    });
  }
  if (a.update) {
    item.patch = op('update', `Update a ${r.slug} record`, {
      parameters: [ID, LANGUAGE],
      requestBody: { required: true, content: { 'application/json': { schema: ref(`${name}Update`) } } },
      responses: { 200: ok(one), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 429) },
    });
  }
  if (a.delete) {
    item.delete = op('delete', `Delete a ${r.slug} record`, {
      parameters: [ID],
      responses: { 204: { description: 'Deleted' }, ...errorResponses(401, 403, 404, 429) },
    });
  }
  const paths: Record<string, Json> = {};
  if (Object.keys(collection).length) paths[`/schema/${r.slug}/record`] = collection;
  if (Object.keys(item).length) paths[`/schema/${r.slug}/record/{id}`] = item;
  for (const [actionName, action] of Object.entries(r.actions ?? {})) {
    const json = action.body ? jsonSchema(action.body, 'input') : { type: 'object' };
    const content = Object.fromEntries((action.accepts ?? ['application/json']).map((t) => [t, { schema: t === 'application/json' ? json : { type: 'string' } }]));
    paths[`/schema/${r.slug}/record/{id}/action/${actionName}`] = {
      post: {
        tags: [r.slug],
        operationId: `${actionName.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())}${name}`,
        summary: action.description,
        security: security(['apikey']),
        parameters: [ID],
        requestBody: { required: false, content },
        responses: {
          200: ok({
            type: 'object',
            properties: { data: typeof action.returns === 'string' ? ref(pascal(action.returns)) : jsonSchema(action.returns, 'output') },
            required: ['data'],
          }),
          ...errorResponses(400, 401, 403, 404, 409, 413, 415, 429),
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
          items: { type: 'object', properties: { field: { type: 'string' }, code: { type: 'string' }, message: { type: 'string' } }, required: ['code', 'message'] },
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
 * the other routes, which the HTTP layer declares beside them.
 */
export function buildOpenApi(registry: Registry, serverUrl: string, routes: Record<string, Json>): Json {
  const resources = registry.all();
  const statuses = [400, 401, 403, 404, 405, 409, 413, 415, 429];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Loyalty service',
      version: '1.0.0',
      description: 'Loyalty and gamification: streaks, challenges, missions, milestones, rewards, coupons, webhooks and notifications.',
    },
    servers: [{ url: serverUrl }],
    tags: resources.map((r) => ({ name: r.slug, description: r.description })),
    paths: {
      ...Object.assign({}, ...resources.map(pathsOf)),
      ...routes,
    },
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
          properties: { offset: { type: 'integer' }, limit: { type: 'integer' }, count: { type: 'integer' }, hasMore: { type: 'boolean' }, total: { type: 'integer' } },
          required: ['offset', 'limit', 'count', 'hasMore'],
        },
        EventCode: { type: 'string', enum: [...EVENT_CODES] },
        ...Object.assign({}, ...resources.map(schemasOf)),
      },
      responses: Object.fromEntries(
        statuses.map((s) => [`Error${s}`, { description: `Error ${s}`, content: { 'application/json': { schema: ref('Error') } } }]),
      ),
    },
  };
}
