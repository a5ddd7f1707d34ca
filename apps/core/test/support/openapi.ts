import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { isTimeZone } from '../../src/formats.js';
import { API_PREFIX } from '../../src/http/prefix.js';

/**
 * Checks a response of the core against its own OpenAPI document: the operation (path and
 * method), the status, the content type, the body's schema and the documented headers. Every
 * response the shared test client receives goes through it, so a test fails on any status or
 * body the document does not declare.
 */
type Json = Record<string, any>;

export interface ResponseToCheck {
  method: string;
  url: URL;
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
}

/** Answers that can come before the service knows the operation: an unknown path is 404, a long URL 414, a long head 431. */
const BEFORE_ROUTING = new Set([404, 413, 414, 429, 431, 503]);
/** Answers to a method the path does not offer: credentials are checked first (CONTRACT §2), then 405. */
const UNDOCUMENTED_METHOD = new Set([401, 405, 413, 414, 429, 431, 503]);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

interface Route {
  template: string;
  pattern: RegExp;
  params: number;
}

class DocumentValidator {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly routes: Route[];

  constructor(
    readonly doc: Json,
    readonly prefix: string,
  ) {
    addFormats.default(this.ajv);
    this.ajv.addFormat('iana-time-zone', isTimeZone);
    this.ajv.addSchema(doc, 'openapi');
    // A literal segment wins over a parameter (`/schema/account_user/me` over `{id}`).
    this.routes = Object.keys(doc.paths)
      .map((template) => ({
        template,
        pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
        params: (template.match(/\{/g) ?? []).length,
      }))
      .sort((a, b) => a.params - b.params);
  }

  private schema(pointer: string): ValidateFunction {
    let validate = this.compiled.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `openapi#${pointer}` });
      this.compiled.set(pointer, validate);
    }
    return validate;
  }

  private resolve(node: Json): { node: Json; pointer: string } | undefined {
    const ref = node.$ref as string | undefined;
    if (!ref) return undefined;
    const path = ref.replace(/^#/, '');
    return {
      node: path
        .split('/')
        .slice(1)
        .reduce((n: Json, k) => n[k.replace(/~1/g, '/').replace(/~0/g, '~')], this.doc),
      pointer: path,
    };
  }

  /** The problems with one response; empty when the document describes it exactly. */
  check(r: ResponseToCheck): string[] {
    // The router treats a trailing slash as absent, and so does the document's reader here.
    const path = r.url.pathname.startsWith(`${this.prefix}/`)
      ? r.url.pathname.slice(this.prefix.length).replace(/(.)\/$/, '$1')
      : undefined;
    if (path === undefined)
      return [`${r.url.pathname} is not under the API prefix ${this.prefix}: not an API operation (opt out with validate: false)`];
    const route = this.routes.find((x) => x.pattern.test(path));
    const method = r.method.toLowerCase();
    const errorPointer = (status: number) => `/components/responses/Error${status}`;
    if (!route) {
      if (!BEFORE_ROUTING.has(r.status)) return [`${r.method} ${path}: no documented path, answered ${r.status}`];
      return this.checkResponse(r, this.doc.components.responses[`Error${r.status}`], errorPointer(r.status));
    }
    const item = this.doc.paths[route.template] as Json;
    const operation = item[method] as Json | undefined;
    if (!operation) {
      if (!UNDOCUMENTED_METHOD.has(r.status)) return [`${r.method} ${route.template}: undocumented method answered ${r.status}`];
      const problems = this.checkResponse(r, this.doc.components.responses[`Error${r.status}`], errorPointer(r.status));
      if (r.status === 405) {
        const offered = METHODS.filter((m) => item[m]).map((m) => m.toUpperCase());
        const allow = (r.headers.get('allow') ?? '')
          .split(',')
          .map((m) => m.trim())
          .filter(Boolean);
        if (allow.sort().join(',') !== offered.sort().join(','))
          problems.push(`405 Allow "${r.headers.get('allow')}" is not the documented methods ${offered.join(', ')}`);
      }
      return problems;
    }
    const pointer = `/paths/${route.template.replace(/~/g, '~0').replace(/\//g, '~1')}/${method}/responses`;
    const responses = operation.responses as Json;
    const declared = responses[String(r.status)] ?? responses[`${String(r.status)[0]}XX`] ?? responses.default;
    if (!declared)
      return [
        `${r.method} ${route.template} answered ${r.status}, which its responses (${Object.keys(responses).join(', ')}) do not declare`,
      ];
    const key = responses[String(r.status)]
      ? String(r.status)
      : responses[`${String(r.status)[0]}XX`]
        ? `${String(r.status)[0]}XX`
        : 'default';
    return this.checkResponse(r, declared, `${pointer}/${key}`).map((p) => `${r.method} ${route.template} ${r.status}: ${p}`);
  }

  /** The problems with a value the service sends elsewhere (a webhook delivery), against a schema of the document. */
  checkSchema(name: string, value: unknown): string[] {
    const validate = this.schema(`/components/schemas/${name}`);
    if (validate(value)) return [];
    // A oneOf's failure lists every branch; the branch of the value's own code says what is wrong.
    return (validate.errors ?? []).map((e) => `${name}${e.instancePath} ${e.message} ${JSON.stringify(e.params)} (${e.schemaPath})`);
  }

  private checkResponse(r: ResponseToCheck, declared: Json, pointer: string): string[] {
    const resolved = this.resolve(declared);
    const response = resolved?.node ?? declared;
    const base = resolved?.pointer ?? pointer;
    const problems: string[] = [];
    for (const [name, declaredHeader] of Object.entries((response.headers ?? {}) as Record<string, Json>)) {
      const header = this.resolve(declaredHeader)?.node ?? declaredHeader;
      const value = r.headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`header ${name} is missing`);
        continue;
      }
      const schema = header.schema as Json | undefined;
      if (schema?.type === 'integer' && !/^\d+$/.test(value)) problems.push(`header ${name} "${value}" is not an integer`);
      if (schema?.pattern && !new RegExp(schema.pattern, 'u').test(value))
        problems.push(`header ${name} "${value}" does not match ${schema.pattern}`);
    }
    const content = response.content as Record<string, Json> | undefined;
    if (!content) {
      if (r.text !== '') problems.push(`a body is not documented, got ${r.text.slice(0, 200)}`);
      return problems;
    }
    const mediaType = (r.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (!Object.hasOwn(content, mediaType))
      return [...problems, `content type "${mediaType}" is not one of ${Object.keys(content).join(', ')}`];
    if (!content[mediaType]!.schema) return problems;
    if (mediaType !== 'application/json') return problems;
    const validate = this.schema(`${base}/content/${mediaType.replace(/\//g, '~1')}/schema`);
    if (!validate(r.body)) {
      for (const e of validate.errors ?? [])
        problems.push(`body${e.instancePath} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`);
    }
    return problems;
  }
}

const byOrigin = new Map<string, Promise<DocumentValidator>>();
/** Services of the same configuration serve the same document: its schemas are compiled once. */
const byDocument = new Map<string, DocumentValidator>();

function compiled(doc: Json, prefix: string): DocumentValidator {
  const { servers: _servers, ...rest } = doc;
  const key = JSON.stringify(rest);
  let validator = byDocument.get(key);
  if (!validator) {
    validator = new DocumentValidator(doc, prefix);
    byDocument.set(key, validator);
  }
  return validator;
}

/** The validator of the document the service at this origin serves, fetched once. */
function validatorFor(origin: string, prefix: string): Promise<DocumentValidator> {
  let validator = byOrigin.get(origin);
  if (!validator) {
    validator = fetch(`${origin}${prefix}/openapi.json`)
      .then((res) => res.json())
      .then((doc) => compiled(doc as Json, prefix));
    byOrigin.set(origin, validator);
  }
  return validator;
}

/**
 * The document of a service this process runs, as its route serves it. Given up front, it is not
 * fetched: the fetch would be a guest request, taking a token from a test that counts its own.
 */
export function useDocument(origin: string, doc: unknown): void {
  byOrigin.set(origin, Promise.resolve(compiled(JSON.parse(JSON.stringify(doc)) as Json, API_PREFIX)));
}

/** Throws when the response is not what the service's OpenAPI document declares. */
export async function assertDocumented(r: ResponseToCheck): Promise<void> {
  const validator = await validatorFor(r.url.origin, API_PREFIX);
  if (r.url.pathname === `${validator.prefix}/openapi.json`) return;
  const problems = validator.check(r);
  if (problems.length) {
    throw new Error(
      `Response disagrees with the OpenAPI document (${r.method} ${r.url.pathname}${r.url.search.slice(0, 200)} → ${r.status}):\n  ${problems.slice(0, 20).join('\n  ')}\n  body: ${r.text.slice(0, 800)}`,
    );
  }
}

/** Throws when a value the service at `origin` sends (a delivery, an event) is not what its document's schema `name` says. */
export async function assertSchema(origin: string, name: string, value: unknown): Promise<void> {
  const problems = (await validatorFor(origin, API_PREFIX)).checkSchema(name, value);
  if (problems.length)
    throw new Error(
      `${name} disagrees with the OpenAPI document:\n  ${problems.slice(0, 20).join('\n  ')}\n  value: ${JSON.stringify(value).slice(0, 800)}`,
    );
}
