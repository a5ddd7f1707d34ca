import type { AccountClient } from './core.server';
import { coreFailure, type CoreFailure } from './admin.server';
import { type Choices, type FieldSpec, referencedSlugs } from './schema';

/**
 * Generic reads and writes of one resource through the typed client. The admin's record pages are
 * driven by the resource's schema at run time, so the path is one of many literal paths; it is
 * typed as the streak paths and the bodies are the schema-checked form bodies.
 */
export type RecordData = Record<string, unknown> & { id: string };

type Result<T> = { ok: true; data: T; total?: number } | { ok: false; failure: CoreFailure };

const collection = (slug: string) => `/schema/${slug}/record` as '/schema/streak/record';
const item = (slug: string) => `/schema/${slug}/record/{id}` as '/schema/streak/record/{id}';

async function settle<T>(
  call: Promise<{ data?: unknown; error?: unknown; response: Response }>,
  pick: (data: any) => T,
): Promise<Result<T>> {
  const { data, error, response } = await call;
  if (!response.ok) return { ok: false, failure: coreFailure(response.status, error) };
  return { ok: true, data: pick(data), ...(typeof (data as any)?.paging?.total === 'number' ? { total: (data as any).paging.total } : {}) };
}

export function records(api: AccountClient, slug: string) {
  return {
    list(query: { filters?: unknown; sortBy?: unknown; limit?: number; offset?: number; fetchTotalCount?: boolean } = {}) {
      const params = {
        ...(query.filters ? { filters: JSON.stringify(query.filters) } : {}),
        ...(query.sortBy ? { sortBy: JSON.stringify(query.sortBy) } : {}),
        ...(query.limit ? { limit: query.limit } : {}),
        ...(query.offset ? { offset: query.offset } : {}),
        ...(query.fetchTotalCount ? { fetchTotalCount: true } : {}),
      };
      return settle(api.GET(collection(slug), { params: { query: params } }), (d) => d.data as RecordData[]);
    },
    get(id: string) {
      return settle(api.GET(item(slug), { params: { path: { id } } }), (d) => d.data as RecordData);
    },
    create(body: Record<string, unknown>) {
      return settle(api.POST(collection(slug), { body: body as never }), (d) => d.data as RecordData);
    },
    update(id: string, body: Record<string, unknown>) {
      return settle(api.PATCH(item(slug), { params: { path: { id } }, body: body as never }), (d) => d.data as RecordData);
    },
    async remove(id: string): Promise<Result<null>> {
      const { error, response } = await api.DELETE(item(slug), { params: { path: { id } } });
      return response.ok || response.status === 404
        ? { ok: true, data: null }
        : { ok: false, failure: coreFailure(response.status, error) };
    },
  };
}

/** `{"operator":"and","conditions":[…equals…]}` for one field. */
export const whereEquals = (fieldSlug: string, fieldValue: unknown) => ({
  operator: 'and',
  conditions: [{ fieldSlug, operator: 'equals', fieldValue }],
});

/** Records a form's id fields can pick, newest first, labelled by name. */
export async function choicesFor(api: AccountClient, fields: FieldSpec[]): Promise<Choices> {
  const slugs = referencedSlugs(fields);
  const lists = await Promise.all(
    slugs.map((slug) => records(api, slug).list({ limit: PICK_LIMIT, sortBy: [{ fieldSlug: 'createdAt', order: 'DESC' }] })),
  );
  return Object.fromEntries(
    slugs.map((slug, i) => {
      const list = lists[i]!;
      return [slug, list.ok ? list.data.map((r) => ({ label: String(r.name ?? r.templateName ?? r.id), value: r.id })) : []];
    }),
  );
}

/** A pick list longer than this is not a list a merchant reads; an id beyond it still shows as set. */
const PICK_LIMIT = 250;
