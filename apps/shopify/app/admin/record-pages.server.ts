import type { AccountClient } from '../core/client.server';
import { type OpenApiDocument, type OpenApiSchema, openApiDocument } from '../core/openapi.server';
import { records, type Slug } from '../core/records.server';
import { ADMIN_MESSAGES } from '../i18n/bundles.server';
import { type Choices, type FieldSpec, fieldsOf, localize, referencedSlugs } from './form-fields';

/**
 * The server side of the generic record pages (app.r.$slug.*): their forms' fields from the core's
 * own OpenAPI document, so a form follows the core's field rules whichever core version is deployed,
 * and the records an id field may pick.
 */

/** The writable fields of a resource for a create or an update form. */
export async function formFields(coreUrl: string, schema: string, mode: 'create' | 'update'): Promise<FieldSpec[]> {
  const schemas = (await openApiDocument(coreUrl)).components?.schemas ?? {};
  // A list's items named by reference (a webhook's events, `EventCode`) carry their values in place.
  const resolved = (name: string): OpenApiSchema | undefined => {
    const found = schemas[name];
    if (!found?.properties) return found;
    const properties = Object.fromEntries(
      Object.entries(found.properties).map(([field, p]) => {
        const ref = p.items?.$ref?.replace('#/components/schemas/', '');
        return [field, ref && schemas[ref]?.enum ? { ...p, items: schemas[ref] } : p];
      }),
    );
    return { ...found, properties };
  };
  // In English, the reference the pages localize from.
  const create = localize(fieldsOf(resolved(`${schema}Create`)), ADMIN_MESSAGES.en);
  if (mode === 'create') return create;
  // An update takes the create fields, none of them required; what the create required stays non-blank.
  const requiredOnCreate = new Set(create.filter((f) => f.required).map((f) => f.name));
  return localize(fieldsOf(resolved(`${schema}Update`) ?? resolved(`${schema}Create`), false), ADMIN_MESSAGES.en).map((f) => ({
    ...f,
    required: requiredOnCreate.has(f.name),
  }));
}

/** A milestone's fields as a definition's page adds one: the definition it belongs to is the page's. */
export async function milestoneFormFields(coreUrl: string): Promise<FieldSpec[]> {
  return (await formFields(coreUrl, 'Milestone', 'create')).filter(
    (f) => f.name !== 'linkedSchemaSlug' && f.name !== 'linkedSchemaRecordId',
  );
}

/** Whether the core lists records of `slug`, as its own document says. */
const listable = (doc: OpenApiDocument, slug: string): slug is Slug => doc.paths?.[`/schema/${slug}/record`]?.get !== undefined;

/** A pick list longer than this is not a list a merchant reads; an id beyond it still shows as set. */
const PICK_LIMIT = 250;

/**
 * Records a form's id fields can pick, newest first, labelled by name; a record without one (the
 * account's points setting) by `unnamed`, the admin's word for its kind, never by its id.
 */
export async function choicesFor(
  api: AccountClient,
  coreUrl: string,
  fields: FieldSpec[],
  unnamed: (slug: string) => string,
): Promise<Choices> {
  const doc = await openApiDocument(coreUrl);
  const slugs = referencedSlugs(fields).filter((slug) => listable(doc, slug));
  const lists = await Promise.all(
    slugs.map((slug) => records(api, slug).list({ limit: PICK_LIMIT, sortBy: [{ fieldSlug: 'createdAt', order: 'DESC' }] })),
  );
  return Object.fromEntries(
    slugs.map((slug, i) => {
      const list = lists[i];
      const label = (r: Record<string, unknown>) => String(r.name ?? r.templateName ?? r.endpointUrl ?? unnamed(slug));
      return [slug, list?.ok ? list.data.map((r) => ({ label: label(r), value: r.id })) : []];
    }),
  );
}

/** How many codes of a reward's pool are still to issue, and how many are issued. */
export async function couponCounts(api: AccountClient, rewardId: string): Promise<{ available: number; issued: number }> {
  const count = async (issued: boolean) => {
    const result = await records(api, 'coupon').list({
      filters: {
        operator: 'and',
        conditions: [
          { fieldSlug: 'rewardId', operator: 'equals', fieldValue: rewardId },
          { fieldSlug: 'isCouponIssued', operator: 'equals', fieldValue: issued },
        ],
      },
      limit: 1,
      fetchTotalCount: true,
    });
    return result.ok ? (result.total ?? 0) : 0;
  };
  const [available, issued] = await Promise.all([count(false), count(true)]);
  return { available, issued };
}
