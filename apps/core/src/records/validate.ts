import type { z } from 'zod';
import { isPlainObject } from '../db/json.js';
import { type ErrorDetail, invalidInput } from '../errors.js';
import type { FieldDef } from './fields.js';
import type { Resource, Values } from './resource.js';
import { checkRules } from './rules.js';

/** Renders a zod issue path as `tasks[0].name`; from base '' a top-level key is named as it is (`ownedById`). */
export function pathOf(base: string, path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)), base);
}

/** A request without a body is one with an empty object; a JSON `null` is a body, and not an object (400). */
export const bodyOrEmpty = (body: unknown): unknown => (body === undefined ? {} : body);

/** What a length bound counts, singular for 1: "at least 1 item", "at most 256 characters". */
function unitOf(origin: string, bound: number | bigint): string {
  const noun = origin === 'string' ? 'character' : origin === 'array' ? 'item' : '';
  return noun && ` ${noun}${Number(bound) === 1 ? '' : 's'}`;
}

/**
 * Maps zod's issues to the contract's detail entries with stable codes. An issue of the whole body
 * (base '' and an empty path) names no field, as the record endpoints' do.
 */
export function issueDetails(base: string, error: z.ZodError): ErrorDetail[] {
  const located = error.issues.map((issue) => ({ issue, path: pathOf(base, issue.path) }));
  // A value of the wrong type gets that one detail; zod may add checks that make no sense for it.
  const wrongType = new Set(located.filter(({ issue }) => issue.code === 'invalid_type').map(({ path }) => path));
  // Of the bounds a value breaks (an integer's safe range and the field's own), the tightest is the one to name.
  const tightest = new Map<string, number>();
  for (const { issue, path } of located)
    if (issue.code === 'too_big') tightest.set(path, Math.min(Number(issue.maximum), tightest.get(path) ?? Infinity));
  const named = located.filter(
    ({ issue, path }) =>
      issue.code === 'invalid_type' || (!wrongType.has(path) && (issue.code !== 'too_big' || Number(issue.maximum) === tightest.get(path))),
  );
  return named.flatMap(({ issue, path }): ErrorDetail | ErrorDetail[] => {
    const field = path || undefined;
    switch (issue.code) {
      case 'too_big': {
        const code = issue.origin === 'string' ? 'too_long' : issue.origin === 'array' ? 'too_many' : 'too_large';
        return { field, code, message: `Must be at most ${String(issue.maximum)}${unitOf(issue.origin, issue.maximum)}.` };
      }
      case 'too_small': {
        const code = issue.origin === 'string' ? 'too_short' : issue.origin === 'array' ? 'too_few' : 'too_small';
        const bound = issue.inclusive === false ? 'greater than' : 'at least';
        return { field, code, message: `Must be ${bound} ${String(issue.minimum)}${unitOf(issue.origin, issue.minimum)}.` };
      }
      case 'invalid_type':
        return { field, code: 'invalid_type', message: `Expected ${issue.expected}.` };
      case 'invalid_value':
        return { field, code: 'invalid_enum', message: `Expected one of: ${issue.values.map(String).join(', ')}.` };
      case 'invalid_format':
        return { field, code: 'invalid_format', message: issue.message };
      case 'unrecognized_keys':
        // One entry per key, so that each unknown field is named in `field` (CONTRACT §2).
        return issue.keys.map((key) => ({ field: pathOf(path, [key]), code: 'unknown_field', message: `Unknown field "${key}".` }));
      default:
        return { field, code: 'invalid', message: issue.message };
    }
  });
}

const SYSTEM_FIELDS = new Set(['id', 'createdAt', 'updatedAt']);

export function checkValue(name: string, f: FieldDef, value: unknown): ErrorDetail[] {
  const parsed = f.schema.safeParse(value);
  return parsed.success ? [] : issueDetails(name, parsed.error);
}

/**
 * Validates a create or update body against a resource's fields. Returns field-keyed values
 * (with defaults on create); throws 400 `invalid_input` listing every problem at once.
 */
export function validateBody(resource: Resource, body: unknown, op: 'create' | 'update'): Values {
  if (!isPlainObject(body))
    throw invalidInput('The body must be a JSON object.', [{ code: 'invalid_type', message: 'Expected an object.' }]);
  const details: ErrorDetail[] = [];
  const values: Values = {};
  for (const [key, value] of Object.entries(body)) {
    // Own properties only: a key such as `constructor` must not find Object.prototype's.
    const f = Object.hasOwn(resource.fields, key) ? resource.fields[key] : undefined;
    if (SYSTEM_FIELDS.has(key)) {
      details.push({ field: key, code: 'read_only', message: `"${key}" is set by the service and cannot be written.` });
    } else if (!f) {
      details.push({ field: key, code: 'unknown_field', message: `Unknown field "${key}".` });
    } else if (f.readOnly) {
      details.push({ field: key, code: 'read_only', message: `"${key}" is set by the service and cannot be written.` });
    } else if (op === 'update' && f.createOnly) {
      details.push({ field: key, code: 'not_editable', message: `"${key}" cannot be changed after creation.` });
    } else if (value === null) {
      // A field with a default may be left out, so null is not a missing required value there.
      if (f.default !== undefined)
        details.push({ field: key, code: 'not_nullable', message: `"${key}" has a default and cannot be null; leave it out instead.` });
      else if (f.required) details.push({ field: key, code: 'required', message: `"${key}" is required.` });
      else values[key] = null;
    } else {
      const problems = checkValue(key, f, value);
      if (problems.length) details.push(...problems);
      else values[key] = f.schema.parse(value);
    }
  }
  if (op === 'create') {
    for (const [key, f] of Object.entries(resource.fields)) {
      if (f.readOnly || Object.hasOwn(body, key)) continue;
      if (f.default !== undefined) values[key] = typeof f.default === 'function' ? (f.default as () => unknown)() : f.default;
      else if (f.required) details.push({ field: key, code: 'required', message: `"${key}" is required.` });
    }
  }
  if (details.length) {
    // On create the body is the whole record: the rules its valid fields break (a percentage above
    // 100, a field another one requires) come in the same answer, so a client mends all in one round.
    const named = new Set(details.map((d) => d.field));
    const broken = op === 'create' ? checkRules(resource.rules?.conditional ?? [], values).filter((d) => !named.has(d.field)) : [];
    throw invalidInput('The body has invalid fields.', [...details, ...broken]);
  }
  return values;
}
