/**
 * Form fields derived from the core's OpenAPI document (its `…Create` / `…Update` schemas), so an
 * admin form offers exactly the writable fields and checks them as the core does: required,
 * lengths, enums, number bounds, patterns. Shared by the browser (before submit) and the server.
 */
import type { OpenApiSchema } from '../core/openapi.server';
import { format, type Messages } from '../i18n/index';
import { isJsonObject } from '../json';
import { isRecordId } from '../core/ids';
import type { CoreFailure } from '../core/failure';
import { refusalInWords } from './refusals';

export type FieldKind = 'text' | 'textarea' | 'number' | 'boolean' | 'select' | 'datetime' | 'list' | 'rows' | 'json';

export interface FieldSpec {
  name: string;
  label: string;
  kind: FieldKind;
  required: boolean;
  nullable: boolean;
  integer?: boolean;
  uuid?: boolean;
  maxLength?: number;
  minLength?: number;
  min?: number;
  max?: number;
  exclusiveMin?: number;
  pattern?: string;
  options?: string[];
  description?: string;
  defaultValue?: unknown;
  /** The resource whose records this id names: the form offers them to pick. */
  references?: string;
  /** The resource named by another field's value (a notification rule's template follows its provider). */
  referencesBy?: { field: string; slugs: Record<string, string> };
  /** For `rows` (an array of objects, e.g. a mission's tasks): the fields of one item. */
  itemFields?: FieldSpec[];
  /** For `rows`: the button that adds an item, where the admin words it ("Add a task"). */
  addLabel?: string;
  minItems?: number;
  maxItems?: number;
}

const label = (name: string) =>
  name
    .replace(/^eud(?=[A-Z])/, 'Display ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/^./, (c) => c.toUpperCase())
    .replace(/\bId\b/g, 'ID')
    .replace(/\bUrl\b/g, 'URL');

/** The merchant's label and help where the admin words a field itself (i18n `records.wording`), by field name. */
const wordingOf = (messages: Messages): Map<string, { label: string; help?: string; add?: string }> =>
  new Map(Object.entries(messages.records.wording));

/** A schema's fields with labels derived from their names and the core's descriptions; `localize` puts the admin's own words on them. */
export function fieldsOf(schema: OpenApiSchema | undefined, requiredOverride?: boolean): FieldSpec[] {
  if (!schema?.properties) return [];
  const required = new Set<string>(schema.required ?? []);
  return Object.entries(schema.properties).map(([name, raw]) => {
    const options = raw.anyOf ?? [raw];
    const nullable = options.some((o) => o.type === 'null');
    const p: OpenApiSchema = options.find((o) => o.type !== 'null') ?? {};
    let kind: FieldKind = 'json';
    if (p.type === 'string')
      kind = p.enum
        ? 'select'
        : p.format === 'date-time'
          ? 'datetime'
          : (p.maxLength ?? 0) > 300 && p.format !== 'uri'
            ? 'textarea'
            : 'text';
    else if (p.type === 'integer' || p.type === 'number') kind = 'number';
    else if (p.type === 'boolean') kind = 'boolean';
    else if (p.type === 'array' && (p.items?.type === 'string' || p.items?.$ref)) kind = 'list';
    else if (p.type === 'array' && p.items?.type === 'object') kind = 'rows';
    const spec: FieldSpec = {
      name,
      label: label(name),
      kind,
      required: requiredOverride ?? required.has(name),
      nullable,
      ...(p.type === 'integer' ? { integer: true } : {}),
      ...(p.format === 'uuid' ? { uuid: true } : {}),
      ...(p.maxLength !== undefined ? { maxLength: p.maxLength } : {}),
      ...(p.minLength !== undefined ? { minLength: p.minLength } : {}),
      ...(p.minimum !== undefined ? { min: p.minimum } : {}),
      ...(p.maximum !== undefined ? { max: p.maximum } : {}),
      ...(p.exclusiveMinimum !== undefined ? { exclusiveMin: p.exclusiveMinimum } : {}),
      ...(p.pattern && p.format !== 'date-time' && p.format !== 'uuid' && p.format !== 'email' ? { pattern: p.pattern } : {}),
      // A list of enum values (a webhook's events) is a choice of several.
      ...(p.enum ? { options: p.enum } : kind === 'list' && p.items?.enum ? { options: p.items.enum } : {}),
      ...((raw.description ?? p.description) ? { description: raw.description ?? p.description } : {}),
      ...(raw.default !== undefined ? { defaultValue: raw.default } : {}),
      ...(typeof raw['x-references'] === 'string' ? { references: raw['x-references'] } : {}),
      ...(raw['x-references-by'] ? { referencesBy: raw['x-references-by'] } : {}),
      ...(kind === 'rows'
        ? {
            itemFields: fieldsOf(p.items),
            ...(p.minItems !== undefined ? { minItems: p.minItems } : {}),
            ...(p.maxItems !== undefined ? { maxItems: p.maxItems } : {}),
          }
        : {}),
    };
    return spec;
  });
}

/** The fields with the admin's own labels and help in another language; derived labels stay English. */
export function localize(fields: FieldSpec[], messages: Messages): FieldSpec[] {
  const wording = wordingOf(messages);
  return fields.map((f) => {
    const words = wording.get(f.name);
    return {
      ...f,
      ...(words
        ? { label: words.label, ...(words.help ? { description: words.help } : {}), ...(words.add ? { addLabel: words.add } : {}) }
        : {}),
      ...(f.itemFields ? { itemFields: localize(f.itemFields, messages) } : {}),
    };
  });
}

/**
 * The core's refusal in the form's words, on the form's fields: a detail whose code has a sentence
 * (`editors.refusals`) is said in it, in the admin's language, with the field's label; any other
 * keeps the core's message, its API names (`"rankBy"`, `completionTargetValue`) and values turned
 * into the form's labels and words. A detail on an item (`eventCodes[0]`, `tasks.1.name`) the form
 * shows as part of one field goes on that field.
 */
export function inFormWords<F extends CoreFailure>(failure: F, fields: FieldSpec[], messages: Messages): F {
  const values = messages.records.values;
  const labels = new Map(
    fields.flatMap((f) => [[f.name, f.label] as const, ...(f.itemFields ?? []).map((i) => [i.name, i.label] as const)]),
  );
  const say = (text: string) =>
    text.replace(/"?\b([a-z]+(?:[A-Z][a-z0-9]*)+|[a-z0-9]+(?:_[a-z0-9]+)+)\b"?/g, (whole, word: string) => {
      const label = labels.get(word) ?? (Object.hasOwn(values, word) ? values[word as keyof typeof values] : undefined);
      return label ? `"${label}"` : whole;
    });
  const onForm = (field: string) => (fields.some((f) => f.name === field) ? field : field.split('.')[0]!);
  const words = messages.editors.refusals;
  const fieldErrors: Record<string, string> = {};
  for (const detail of failure.details ?? []) {
    if (!detail.field) continue;
    const field = onForm(detail.field.replace(/\[(\d+)\]/g, '.$1'));
    const worded = detail.code !== 'unknown' && Object.hasOwn(words, detail.code);
    fieldErrors[field] ??= worded
      ? (refusalInWords(
          { ...failure, details: [detail] },
          words,
          messages.language,
          { [field]: fields.find((f) => f.name === field)?.label ?? '' },
          () => field,
        ).fieldErrors[field] ?? say(detail.message))
      : say(detail.message);
  }
  // Refusals placed on fields are said there; the banner says only that the change was refused.
  const placed = Object.keys(fieldErrors).length > 0;
  return { ...failure, message: placed ? messages.records.form.refused : say(failure.message), fieldErrors };
}

/** Records a form may pick by id, by resource slug. */
export type Choices = Record<string, { label: string; value: string }[]>;

/** The resources whose records the fields pick from. */
export function referencedSlugs(fields: FieldSpec[]): string[] {
  return [...new Set(fields.flatMap((f) => [...(f.references ? [f.references] : []), ...Object.values(f.referencesBy?.slugs ?? {})]))];
}

/** The resource a picking field takes its records from, given the form's current inputs. */
export function referencedSlug(field: FieldSpec, inputs: Record<string, string>): string | undefined {
  return field.references ?? (field.referencesBy ? field.referencesBy.slugs[inputs[field.referencesBy.field] ?? ''] : undefined);
}

/** A rows field's text (JSON, as the editor keeps it): each item's texts by field name. Throws when it is not a list. */
export function rowTexts(text: string): Record<string, string>[] {
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed)) throw new Error('not a list of rows');
  return parsed.map((item) =>
    Object.fromEntries(Object.entries(isJsonObject(item) ? item : {}).map(([k, v]) => [k, typeof v === 'string' ? v : String(v ?? '')])),
  );
}

/** The form's text for a stored value. */
export function toInput(field: FieldSpec, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (field.kind === 'list') return Array.isArray(value) ? value.join('\n') : String(value);
  if (field.kind === 'rows') {
    const items = (Array.isArray(value) ? value.filter(isJsonObject) : []).map((item) =>
      Object.fromEntries(field.itemFields!.map((f) => [f.name, toInput(f, item[f.name] ?? f.defaultValue)])),
    );
    return JSON.stringify(items);
  }
  if (field.kind === 'json') return JSON.stringify(value, null, 2);
  return String(value);
}

/**
 * Parses the form's texts into a request body and checks each field as the core would; the
 * errors are keyed by field name. Blank optional fields are left out on create and cleared
 * (null) on update where the field takes null.
 */
export function toBody(
  fields: FieldSpec[],
  inputs: Record<string, string>,
  mode: 'create' | 'update',
  messages: Messages,
): { body: Record<string, unknown>; errors: Record<string, string> } {
  const checks = messages.records.checks;
  const number = new Intl.NumberFormat(messages.language);
  const body: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    if (!(f.name in inputs)) continue;
    const text = inputs[f.name] ?? '';
    const say = (check: string, values: Record<string, string | number> = {}) => format(check, { label: f.label, ...values });
    if (f.kind === 'boolean') {
      body[f.name] = text === 'true';
      continue;
    }
    if (text.trim() === '') {
      if (f.required) errors[f.name] = say(checks.required);
      else if (mode === 'update' && f.nullable) body[f.name] = null;
      continue;
    }
    switch (f.kind) {
      case 'number': {
        const n = Number(text);
        if (!Number.isFinite(n)) errors[f.name] = say(checks.number);
        else if (f.integer && !Number.isInteger(n)) errors[f.name] = say(checks.whole);
        else if (f.min !== undefined && n < f.min) errors[f.name] = say(checks.atLeast, { min: number.format(f.min) });
        else if (f.exclusiveMin !== undefined && n <= f.exclusiveMin)
          errors[f.name] = say(checks.greaterThan, { min: number.format(f.exclusiveMin) });
        else if (f.max !== undefined && n > f.max) errors[f.name] = say(checks.atMost, { max: number.format(f.max) });
        else body[f.name] = n;
        break;
      }
      case 'datetime': {
        const d = new Date(text);
        if (Number.isNaN(d.getTime())) errors[f.name] = say(checks.dateTime);
        else body[f.name] = d.toISOString();
        break;
      }
      case 'list':
        body[f.name] = text
          .split('\n')
          .map((s) => s.trim())
          .filter(Boolean);
        break;
      case 'rows': {
        // The editor keeps each item as texts by field; each item is checked like a form of its own.
        let items: Record<string, string>[] = [];
        try {
          items = rowTexts(text);
        } catch {
          errors[f.name] = say(checks.unreadable);
          break;
        }
        if (f.minItems !== undefined && items.length < f.minItems)
          errors[f.name] = say(checks.minItems, { count: number.format(f.minItems) });
        else if (f.maxItems !== undefined && items.length > f.maxItems)
          errors[f.name] = say(checks.maxItems, { count: number.format(f.maxItems) });
        body[f.name] = items.map((item, i) => {
          const checked = toBody(f.itemFields!, item, 'create', messages);
          for (const [name, message] of Object.entries(checked.errors)) errors[`${f.name}.${i}.${name}`] = message;
          return checked.body;
        });
        break;
      }
      case 'json':
        try {
          body[f.name] = JSON.parse(text);
        } catch {
          errors[f.name] = say(checks.json);
        }
        break;
      default: {
        const value = text.trim();
        if (f.options && !f.options.includes(value)) errors[f.name] = say(checks.oneOf, { options: f.options.join(', ') });
        else if (f.maxLength !== undefined && value.length > f.maxLength)
          errors[f.name] = say(checks.maxLength, { max: number.format(f.maxLength) });
        else if (f.minLength !== undefined && value.length < f.minLength)
          errors[f.name] = say(checks.minLength, { min: number.format(f.minLength) });
        else if (f.pattern && !new RegExp(f.pattern).test(value)) errors[f.name] = say(checks.pattern);
        else if (f.uuid && !isRecordId(value)) errors[f.name] = say(checks.uuid);
        else body[f.name] = value;
      }
    }
  }
  return { body, errors };
}
