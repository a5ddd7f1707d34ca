import type { paths } from '@loyalty/client';
import type { AccountClient } from './client.server';
import { type CoreErrorBody, type CoreFailure, coreFailure } from './failure';

/**
 * Reads and writes of any resource's records (CONTRACT §6) through the typed client, typed per slug
 * from the client's generated paths: `records(api, 'reward')` lists `Schema<'Reward'>` rows and
 * creates from a `RewardCreate` body. The admin's record pages pick the slug at run time; they get
 * the union of the slugs they may name.
 */
type Collection<S extends string> = `/schema/${S}/record`;
type Item<S extends string> = `/schema/${S}/record/{id}`;

type SlugOf<P> = P extends Collection<infer S> ? S : never;
type Has<P, Method extends string> = P extends keyof paths ? (paths[P] extends Record<Method, object> ? P : never) : never;
type JsonBody<Op> = Op extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
type PostOf<S extends string> = paths[Has<Collection<S>, 'post'>] extends { post: infer Op } ? Op : never;
type PatchOf<S extends string> = paths[Has<Item<S>, 'patch'>] extends { patch: infer Op } ? Op : never;
type WithJson<S extends string, Op> = S extends string ? (JsonBody<Op> extends never ? never : S) : never;

/** A resource the core lists and reads (`GET /schema/{slug}/record[/{id}]`). */
export type Slug = SlugOf<Has<Extract<keyof paths, Collection<string>>, 'get'>>;
/** A resource whose records the admin may create with a JSON body. */
export type Creatable = { [S in Slug]: WithJson<S, PostOf<S>> }[Slug];
/** A resource whose records the admin may update with a JSON body. */
export type Updatable = { [S in Slug]: WithJson<S, PatchOf<S>> }[Slug];
/** A resource whose records may be deleted. */
export type Removable = { [S in Slug]: Has<Item<S>, 'delete'> extends never ? never : S }[Slug];

/** A record as the core answers it, e.g. `RecordOf<'streak'>` is `Schema<'Streak'>`. */
export type RecordOf<S extends Slug> = paths[Item<S>]['get']['responses'][200]['content']['application/json']['data'];
export type CreateBody<S extends Creatable> = JsonBody<PostOf<S>>;
export type UpdateBody<S extends Updatable> = JsonBody<PatchOf<S>>;

/** A leaf of CONTRACT §3's filters. */
export interface Condition {
  fieldSlug: string;
  operator: 'equals' | 'not_equals' | 'contains';
  fieldValue: unknown;
}

export interface ComplexCondition {
  operator: 'and' | 'or';
  conditions: (Condition | ComplexCondition)[];
}

export interface SortBy {
  fieldSlug: string;
  order: 'ASC' | 'DESC';
}

export interface ListQuery {
  filters?: ComplexCondition;
  sortBy?: SortBy[];
  limit?: number;
  offset?: number;
  fetchTotalCount?: boolean;
}

/** The languages a localisable field is written in (CONTRACT §7). */
export type LanguageCode = NonNullable<NonNullable<paths[Collection<Creatable>]['post']['parameters']['query']>['languageCode']>;

export type Result<T> = { ok: true; data: T; total?: number } | { ok: false; failure: CoreFailure };

/** `{"operator":"and","conditions":[…equals…]}` for one field. */
export const whereEquals = (fieldSlug: string, fieldValue: unknown): ComplexCondition => ({
  operator: 'and',
  conditions: [{ fieldSlug, operator: 'equals', fieldValue }],
});

/** Every one of the conditions, each an equality. */
export const whereAll = (equalities: Record<string, unknown>): ComplexCondition => ({
  operator: 'and',
  conditions: Object.entries(equalities).map(([fieldSlug, fieldValue]) => ({ fieldSlug, operator: 'equals', fieldValue })),
});

type Answer<T> = { data?: { data: T; paging?: { total?: number } }; error?: CoreErrorBody; response: Response };

async function settle<T>(call: Promise<Answer<T>>): Promise<Result<T>> {
  const { data, error, response } = await call;
  if (!data) return { ok: false, failure: coreFailure(response.status, error) };
  const total = data.paging?.total;
  return { ok: true, data: data.data, ...(total === undefined ? {} : { total }) };
}

export interface Records<S extends Slug> {
  list(query?: ListQuery): Promise<Result<RecordOf<S>[]>>;
  /** With `languageCode`, localisable fields read in it (else the account default's, else English: CONTRACT §7). */
  get(id: string, languageCode?: LanguageCode): Promise<Result<RecordOf<S>>>;
}

export function records<S extends Slug>(api: AccountClient, slug: S): Records<S>;
export function records(api: AccountClient, slug: Slug): Records<Slug> {
  return {
    list(query = {}) {
      const params = {
        ...(query.filters ? { filters: JSON.stringify(query.filters) } : {}),
        ...(query.sortBy ? { sortBy: JSON.stringify(query.sortBy) } : {}),
        ...(query.limit ? { limit: query.limit } : {}),
        ...(query.offset ? { offset: query.offset } : {}),
        ...(query.fetchTotalCount ? { fetchTotalCount: true } : {}),
      };
      return settle(api.GET(`/schema/${slug}/record`, { params: { query: params } }));
    },
    get(id, languageCode) {
      return settle(api.GET(`/schema/${slug}/record/{id}`, { params: { path: { id }, query: languageCode ? { languageCode } : {} } }));
    },
  };
}

export function createRecord<S extends Creatable>(
  api: AccountClient,
  slug: S,
  body: CreateBody<S>,
  languageCode?: LanguageCode,
): Promise<Result<RecordOf<S>>>;
export function createRecord(
  api: AccountClient,
  slug: Creatable,
  body: CreateBody<Creatable>,
  languageCode?: LanguageCode,
): Promise<Result<RecordOf<Creatable>>> {
  return settle(api.POST(`/schema/${slug}/record`, { params: { query: languageCode ? { languageCode } : {} }, body }));
}

export function updateRecord<S extends Updatable>(
  api: AccountClient,
  slug: S,
  id: string,
  body: UpdateBody<S>,
  languageCode?: LanguageCode,
): Promise<Result<RecordOf<S>>>;
export function updateRecord(
  api: AccountClient,
  slug: Updatable,
  id: string,
  body: UpdateBody<Updatable>,
  languageCode?: LanguageCode,
): Promise<Result<RecordOf<Updatable>>> {
  return settle(api.PATCH(`/schema/${slug}/record/{id}`, { params: { path: { id }, query: languageCode ? { languageCode } : {} }, body }));
}

/** Deletes a record; one already gone counts as deleted. */
export async function removeRecord(api: AccountClient, slug: Removable, id: string): Promise<Result<null>> {
  const { error, response } = await api.DELETE(`/schema/${slug}/record/{id}`, { params: { path: { id } } });
  return response.ok || response.status === 404 ? { ok: true, data: null } : { ok: false, failure: coreFailure(response.status, error) };
}

/**
 * Writes whose values are assembled at run time from the core's own schema — the record pages'
 * forms (built from its OpenAPI document and checked field by field as the core checks them), the
 * program editor's drafts and the onboarding templates — so the slug they follow is known only then.
 * They are the one place a body is taken as what the core documents for the slug; the core checks
 * it again and names the field it refuses.
 */
export function createFromValues<S extends Creatable>(
  api: AccountClient,
  slug: S,
  values: Record<string, unknown>,
  languageCode?: LanguageCode,
): Promise<Result<RecordOf<S>>> {
  return createRecord(api, slug, values as CreateBody<S>, languageCode);
}

export function updateFromValues<S extends Updatable>(
  api: AccountClient,
  slug: S,
  id: string,
  values: Record<string, unknown>,
  languageCode?: LanguageCode,
): Promise<Result<RecordOf<S>>> {
  return updateRecord(api, slug, id, values as UpdateBody<S>, languageCode);
}
