import { apiBase } from './core.server';
import { type FieldSpec, fieldsOf } from './schema';

type Json = Record<string, any>;

let document: Promise<Json> | undefined;

/**
 * The core's own OpenAPI document (served without auth), read once per process: the admin forms
 * follow the core's field rules, whichever core version is deployed.
 */
function openApi(coreUrl: string): Promise<Json> {
  document ??= fetch(`${apiBase(coreUrl)}/openapi.json`).then((res) => {
    if (!res.ok) throw new Error(`openapi.json answered ${res.status}`);
    return res.json() as Promise<Json>;
  });
  document.catch(() => (document = undefined));
  return document;
}

/** The writable fields of a resource for a create or an update form. */
export async function formFields(coreUrl: string, schema: string, mode: 'create' | 'update'): Promise<FieldSpec[]> {
  const doc = await openApi(coreUrl);
  const schemas = doc.components?.schemas ?? {};
  const create = fieldsOf(schemas[`${schema}Create`]);
  if (mode === 'create') return create;
  // An update takes the create fields, none of them required; what the create required stays non-blank.
  const requiredOnCreate = new Set(create.filter((f) => f.required).map((f) => f.name));
  return fieldsOf(schemas[`${schema}Update`] ?? schemas[`${schema}Create`], false).map((f) => ({
    ...f,
    required: requiredOnCreate.has(f.name),
  }));
}
