import { apiBase } from './client.server';

/** The parts of an OpenAPI schema object the admin's forms read (the core's dialect, with its `x-references`). */
export interface OpenApiSchema {
  type?: string;
  format?: string;
  enum?: string[];
  anyOf?: OpenApiSchema[];
  items?: OpenApiSchema;
  $ref?: string;
  properties?: Record<string, OpenApiSchema>;
  required?: string[];
  maxLength?: number;
  minLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  description?: string;
  default?: unknown;
  /** The resource whose records an id field names. */
  'x-references'?: string;
  /** The resource named by another field's value: `{ field, slugs: { <value>: <slug> } }`. */
  'x-references-by'?: { field: string; slugs: Record<string, string> };
}

export interface OpenApiDocument {
  paths?: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, OpenApiSchema> };
}

let document: Promise<OpenApiDocument> | undefined;

/**
 * The core's own OpenAPI document (served without auth), read once per process: the admin forms
 * follow the core's field rules, whichever core version is deployed.
 */
export function openApiDocument(coreUrl: string): Promise<OpenApiDocument> {
  document ??= fetch(`${apiBase(coreUrl)}/openapi.json`).then(async (res) => {
    if (!res.ok) throw new Error(`openapi.json answered ${res.status}`);
    const body: OpenApiDocument = await res.json();
    return body;
  });
  document.catch(() => (document = undefined));
  return document;
}
