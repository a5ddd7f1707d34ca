import { isPlainObject } from '../db/json.js';
import { type ErrorDetail, invalidQuery } from '../errors.js';
import { LANGUAGE_CODES, type LanguageCode, UUID } from '../formats.js';
import type { FieldDef, ValueType } from './fields.js';

export const LEAF_OPERATORS = [
  'equals',
  'not_equals',
  'in',
  'not_in',
  'gt',
  'gte',
  'lt',
  'lte',
  'contains',
  'is_null',
  'is_not_null',
] as const;
export type LeafOperator = (typeof LEAF_OPERATORS)[number];
export const MAX_FILTER_DEPTH = 5;
export const MAX_FILTER_LEAVES = 50;
export const MAX_IN_VALUES = 1000;
export const MAX_SORT_KEYS = 5;

export interface FilterLeaf {
  kind: 'leaf';
  field: string;
  operator: LeafOperator;
  value: unknown;
}
export interface FilterGroup {
  kind: 'group';
  operator: 'and' | 'or';
  conditions: FilterNode[];
}
export type FilterNode = FilterLeaf | FilterGroup;

export interface SortKey {
  field: string;
  order: 'ASC' | 'DESC';
}

export interface ListQuery {
  fields: string[] | undefined;
  filter: FilterGroup | undefined;
  sort: SortKey[];
  offset: number;
  limit: number;
  fetchTotalCount: boolean;
  languageCode: LanguageCode | undefined;
}

/** A field as the query language sees it: its name and how its values compare. */
export interface QueryField {
  name: string;
  valueType: ValueType;
  enumValues?: readonly string[];
  localisable?: boolean;
}

const fail = (param: string, message: string, extra: Partial<ErrorDetail> = {}) =>
  invalidQuery(message, [{ field: param, code: 'invalid', message, ...extra }]);

function parseJsonParam(param: string, raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    throw fail(param, `"${param}" must be valid JSON.`);
  }
}

function single(query: Record<string, string | string[] | undefined>, param: string): string | undefined {
  const v = query[param];
  if (Array.isArray(v)) throw fail(param, `"${param}" may be given once.`);
  return v;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?(Z|([+-])(\d{2}):?(\d{2}))?)?$/;

/**
 * The UTC instant (ISO, milliseconds) an ISO 8601 filter value names, no offset meaning UTC; or
 * undefined. Every part is range-checked here because PostgreSQL refuses dates such as 30 February
 * or year 0, and its error would answer as a body error rather than `invalid_query`.
 */
function instantOf(v: string): string | undefined {
  const m = ISO.exec(v);
  if (!m) return undefined;
  const part = (i: number) => Number(m[i] ?? 0);
  const [y, mo, d, h, mi, s, oh, om] = [part(1), part(2), part(3), part(4), part(5), part(6), part(10), part(11)];
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  date.setUTCHours(h, mi, s, Number((m[7] ?? '').padEnd(3, '0').slice(0, 3)));
  const exact =
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    date.getUTCHours() === h &&
    date.getUTCMinutes() === mi &&
    date.getUTCSeconds() === s;
  if (!exact || oh > 23 || om > 59) return undefined;
  const utc = new Date(date.getTime() - (m[9] === '-' ? -1 : 1) * (oh * 60 + om) * 60_000);
  const year = utc.getUTCFullYear();
  return year >= 1 && year <= 9999 ? utc.toISOString() : undefined;
}

/** PostgreSQL text cannot hold NUL, so such a value is refused rather than sent. */
const isText = (v: unknown): v is string => typeof v === 'string' && !v.includes('\u0000');

function isValidFor(f: QueryField, v: unknown): boolean {
  switch (f.valueType) {
    case 'string':
      return isText(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'boolean':
      return typeof v === 'boolean';
    case 'uuid':
      return typeof v === 'string' && UUID.test(v);
    case 'datetime':
      return typeof v === 'string' && instantOf(v) !== undefined;
    case 'enum':
      return typeof v === 'string' && (!f.enumValues || f.enumValues.includes(v));
    case 'stringArray':
      return isText(v) && (!f.enumValues || f.enumValues.includes(v));
    default:
      return false;
  }
}

/** A checked value as the SQL compares it: datetimes as their UTC instant. */
const sqlValue = (f: QueryField, v: unknown): unknown => (f.valueType === 'datetime' && typeof v === 'string' ? instantOf(v) : v);

const ORDERED: ValueType[] = ['string', 'number', 'datetime', 'uuid', 'enum'];

export function operatorAllowed(f: QueryField, op: LeafOperator): boolean {
  if (op === 'is_null' || op === 'is_not_null') return true;
  if (f.valueType === 'opaque') return false;
  if (f.valueType === 'stringArray') return op === 'contains';
  if (f.valueType === 'boolean') return op === 'equals' || op === 'not_equals';
  if (op === 'contains') return f.valueType === 'string';
  if (op === 'gt' || op === 'gte' || op === 'lt' || op === 'lte') return ORDERED.includes(f.valueType);
  return true;
}

export function parseFilter(raw: unknown, fields: ReadonlyMap<string, QueryField>): FilterGroup {
  let leaves = 0;
  const where = (path: string) => `filters${path}`;
  const walk = (node: unknown, depth: number, path: string): FilterNode => {
    if (!isPlainObject(node)) throw fail('filters', `${where(path)} must be an object.`);
    if ('conditions' in node) {
      if (depth > MAX_FILTER_DEPTH) throw fail('filters', `Filters may nest at most ${MAX_FILTER_DEPTH} levels.`);
      const extra = Object.keys(node).filter((k) => k !== 'operator' && k !== 'conditions');
      if (extra.length) throw fail('filters', `${where(path)} has unknown keys: ${extra.join(', ')}.`);
      if (node.operator !== 'and' && node.operator !== 'or') throw fail('filters', `${where(path)}.operator must be "and" or "or".`);
      if (!Array.isArray(node.conditions)) throw fail('filters', `${where(path)}.conditions must be an array.`);
      return {
        kind: 'group',
        operator: node.operator,
        conditions: node.conditions.map((c, i) => walk(c, depth + 1, `${path}.conditions[${i}]`)),
      };
    }
    leaves += 1;
    if (leaves > MAX_FILTER_LEAVES) throw fail('filters', `Filters may have at most ${MAX_FILTER_LEAVES} conditions.`);
    const extra = Object.keys(node).filter((k) => k !== 'fieldSlug' && k !== 'operator' && k !== 'fieldValue');
    if (extra.length) throw fail('filters', `${where(path)} has unknown keys: ${extra.join(', ')}.`);
    const { fieldSlug, operator, fieldValue } = node;
    const f = typeof fieldSlug === 'string' ? fields.get(fieldSlug) : undefined;
    if (!f) throw fail('filters', `${where(path)}.fieldSlug: unknown or unfilterable field ${JSON.stringify(fieldSlug)}.`);
    const op = LEAF_OPERATORS.find((o) => o === operator);
    if (op === undefined) throw fail('filters', `${where(path)}.operator: unknown operator ${JSON.stringify(operator)}.`);
    if (!operatorAllowed(f, op)) throw fail('filters', `${where(path)}: operator "${op}" does not apply to "${f.name}".`);
    if (op === 'is_null' || op === 'is_not_null') {
      if (fieldValue !== undefined && fieldValue !== null && fieldValue !== true) {
        throw fail('filters', `${where(path)}.fieldValue must be absent for "${op}".`);
      }
      return { kind: 'leaf', field: f.name, operator: op, value: null };
    }
    if (op === 'in' || op === 'not_in') {
      if (!Array.isArray(fieldValue) || fieldValue.length === 0 || fieldValue.length > MAX_IN_VALUES) {
        throw fail('filters', `${where(path)}.fieldValue must be an array of 1 to ${MAX_IN_VALUES} values for "${op}".`);
      }
      if (!fieldValue.every((v) => isValidFor(f, v))) {
        throw fail('filters', `${where(path)}.fieldValue has a value of the wrong type for "${f.name}".`);
      }
      return { kind: 'leaf', field: f.name, operator: op, value: fieldValue.map((v) => sqlValue(f, v)) };
    }
    if (op === 'contains' && f.valueType === 'string' && typeof fieldValue !== 'string') {
      throw fail('filters', `${where(path)}.fieldValue must be a string for "contains".`);
    }
    if (!isValidFor(f, fieldValue)) {
      throw fail('filters', `${where(path)}.fieldValue is of the wrong type for "${f.name}".`);
    }
    return { kind: 'leaf', field: f.name, operator: op, value: sqlValue(f, fieldValue) };
  };
  const root = walk(raw, 1, '');
  return root.kind === 'group' ? root : { kind: 'group', operator: 'and', conditions: [root] };
}

const LIST_PARAMS = ['fields', 'filters', 'sortBy', 'offset', 'limit', 'fetchTotalCount', 'languageCode'];
const GET_PARAMS = ['fields', 'languageCode'];
const OTHER_PARAMS = ['languageCode'];

export type QueryShape = 'list' | 'get' | 'other';

/** Checks the query of a route with no parameters of its own: `languageCode` alone is known (CONTRACT §3). */
export function checkPlainQuery(query: Record<string, string | string[] | undefined>): void {
  parseQuery('other', query, new Map(), new Set());
}

/** Parses and checks every query parameter of a route; any problem is 400 `invalid_query`. */
export function parseQuery(
  shape: QueryShape,
  query: Record<string, string | string[] | undefined>,
  fields: ReadonlyMap<string, QueryField>,
  selectable: ReadonlySet<string>,
): ListQuery {
  const known = shape === 'list' ? LIST_PARAMS : shape === 'get' ? GET_PARAMS : OTHER_PARAMS;
  for (const [key, value] of Object.entries(query)) {
    if (!known.includes(key)) throw fail(key, `Unknown query parameter "${key}".`);
    // PostgreSQL text cannot hold NUL: a filter value with one would fail in the database.
    if ([value ?? ''].flat().some((v) => v.includes('\0')))
      throw fail(key, `"${key}" contains a NUL character, which is not allowed.`, { code: 'nul_character' });
  }
  const result: ListQuery = {
    fields: undefined,
    filter: undefined,
    sort: [{ field: 'createdAt', order: 'DESC' }],
    offset: 0,
    limit: 100,
    fetchTotalCount: false,
    languageCode: undefined,
  };

  const lang = single(query, 'languageCode');
  if (lang !== undefined) {
    const code = LANGUAGE_CODES.find((c) => c === lang);
    if (code === undefined) throw fail('languageCode', `"languageCode" must be one of ${LANGUAGE_CODES.join(', ')}.`);
    result.languageCode = code;
  }

  const rawFields = single(query, 'fields');
  if (rawFields !== undefined) {
    const parsed = parseJsonParam('fields', rawFields);
    if (!Array.isArray(parsed) || !parsed.every((s) => typeof s === 'string')) {
      throw fail('fields', '"fields" must be a JSON array of field slugs.');
    }
    const unknown = parsed.filter((s) => !selectable.has(s));
    if (unknown.length) throw fail('fields', `Unknown field(s) in "fields": ${unknown.join(', ')}.`);
    result.fields = parsed;
  }

  const rawFilters = single(query, 'filters');
  if (rawFilters !== undefined) result.filter = parseFilter(parseJsonParam('filters', rawFilters), fields);

  const rawSort = single(query, 'sortBy');
  if (rawSort !== undefined) {
    const parsed = parseJsonParam('sortBy', rawSort);
    if (!Array.isArray(parsed) || parsed.length === 0 || parsed.length > MAX_SORT_KEYS) {
      throw fail('sortBy', `"sortBy" must be a JSON array of 1 to ${MAX_SORT_KEYS} {fieldSlug, order} objects.`);
    }
    result.sort = parsed.map((item, i) => {
      if (!isPlainObject(item)) throw fail('sortBy', `sortBy[${i}] must be an object.`);
      const extra = Object.keys(item).filter((k) => k !== 'fieldSlug' && k !== 'order');
      if (extra.length) throw fail('sortBy', `sortBy[${i}] has unknown keys: ${extra.join(', ')}.`);
      const f = typeof item.fieldSlug === 'string' ? fields.get(item.fieldSlug) : undefined;
      if (!f || f.valueType === 'opaque' || f.valueType === 'stringArray') {
        throw fail('sortBy', `sortBy[${i}].fieldSlug: unknown or unsortable field ${JSON.stringify(item.fieldSlug)}.`);
      }
      // Left out, it is ASC; a null is a value, and not one of the two.
      const order = item.order === undefined ? 'ASC' : item.order;
      if (order !== 'ASC' && order !== 'DESC') throw fail('sortBy', `sortBy[${i}].order must be "ASC" or "DESC".`);
      return { field: f.name, order };
    });
  }

  const int = (param: string, min: number, max: number, fallback: number) => {
    const raw = single(query, param);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw)) throw fail(param, `"${param}" must be an integer from ${min} to ${max}.`);
    const n = Number(raw);
    if (n < min || n > max) throw fail(param, `"${param}" must be an integer from ${min} to ${max}.`);
    return n;
  };
  result.offset = int('offset', 0, Number.MAX_SAFE_INTEGER, 0);
  result.limit = int('limit', 1, 1000, 100);

  const total = single(query, 'fetchTotalCount');
  if (total !== undefined) {
    if (total !== 'true' && total !== 'false') throw fail('fetchTotalCount', '"fetchTotalCount" must be true or false.');
    result.fetchTotalCount = total === 'true';
  }
  return result;
}

export function queryFieldOf(name: string, f: FieldDef): QueryField {
  return { name, valueType: f.valueType, enumValues: f.enumValues, localisable: f.localisable };
}
