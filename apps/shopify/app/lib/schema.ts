/**
 * Form fields derived from the core's OpenAPI document (its `…Create` / `…Update` schemas), so an
 * admin form offers exactly the writable fields and checks them as the core does: required,
 * lengths, enums, number bounds, patterns. Shared by the browser (before submit) and the server.
 */
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
  minItems?: number;
  maxItems?: number;
}

type Json = Record<string, any>;

const label = (name: string) =>
  name
    .replace(/^eud(?=[A-Z])/, 'Display ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/^./, (c) => c.toUpperCase())
    .replace(/\bId\b/g, 'ID')
    .replace(/\bUrl\b/g, 'URL');

/**
 * Where a field's name (and the core's description, written for developers) does not read well to
 * a merchant: the label and help the form shows instead.
 */
const WORDING: Record<string, { label: string; help?: string }> = {
  maxFreezes: {
    label: 'Freezes a member can hold',
    help: 'Each freeze covers one missed period, so the streak is not broken. 0 turns freezes off.',
  },
  freezeEarnEveryPeriods: {
    label: 'Earn a freeze every … periods',
    help: 'A member earns a freeze each time their run reaches a multiple of this (never above the maximum). Leave blank to only grant freezes.',
  },
  linkedSchemaSlug: { label: 'Programme type' },
  linkedSchemaRecordId: { label: 'Programme', help: 'The streak, challenge or mission of that type, picked by name.' },
  rankBy: {
    label: 'Rank by',
    help: 'Streaks: current_run (the run going now) or longest_run (the best run ever). Challenges: window_progress. Missions: completions. Blank: the first one.',
  },
  size: { label: 'Entries shown', help: 'How many members the standings list, 1 to 100.' },
  displayName: {
    label: 'Member names',
    help: 'first_name_initial shows "Marie D."; anonymous shows "Member 4821", the same for a member every time.',
  },
};

export function fieldsOf(schema: Json | undefined, requiredOverride?: boolean): FieldSpec[] {
  if (!schema?.properties) return [];
  const required = new Set<string>(schema.required ?? []);
  return Object.entries(schema.properties as Record<string, Json>).map(([name, raw]) => {
    const options = (raw.anyOf as Json[] | undefined) ?? [raw];
    const nullable = options.some((o) => o.type === 'null');
    const p = options.find((o) => o.type !== 'null') ?? {};
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
      label: WORDING[name]?.label ?? label(name),
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
      ...(p.enum ? { options: p.enum as string[] } : {}),
      ...((WORDING[name]?.help ?? raw.description ?? p.description)
        ? { description: WORDING[name]?.help ?? raw.description ?? p.description }
        : {}),
      ...(raw.default !== undefined ? { defaultValue: raw.default } : {}),
      ...(typeof raw['x-references'] === 'string' ? { references: raw['x-references'] } : {}),
      ...(raw['x-references-by'] ? { referencesBy: raw['x-references-by'] } : {}),
      ...(kind === 'rows' ? { itemFields: fieldsOf(p.items), minItems: p.minItems, maxItems: p.maxItems } : {}),
    };
    return spec;
  });
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

/** The form's text for a stored value. */
export function toInput(field: FieldSpec, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (field.kind === 'list') return (value as string[]).join('\n');
  if (field.kind === 'rows') {
    const items = (value as Record<string, unknown>[]).map((item) =>
      Object.fromEntries(field.itemFields!.map((f) => [f.name, toInput(f, item[f.name] ?? f.defaultValue)])),
    );
    return JSON.stringify(items);
  }
  if (field.kind === 'json') return JSON.stringify(value, null, 2);
  return String(value);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Parses the form's texts into a request body and checks each field as the core would; the
 * errors are keyed by field name. Blank optional fields are left out on create and cleared
 * (null) on update where the field takes null.
 */
export function toBody(
  fields: FieldSpec[],
  inputs: Record<string, string>,
  mode: 'create' | 'update',
): { body: Record<string, unknown>; errors: Record<string, string> } {
  const body: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    if (!(f.name in inputs)) continue;
    const text = inputs[f.name] ?? '';
    if (f.kind === 'boolean') {
      body[f.name] = text === 'true';
      continue;
    }
    if (text.trim() === '') {
      if (f.required) errors[f.name] = `${f.label} is required.`;
      else if (mode === 'update' && f.nullable) body[f.name] = null;
      continue;
    }
    switch (f.kind) {
      case 'number': {
        const n = Number(text);
        if (!Number.isFinite(n)) errors[f.name] = `${f.label} must be a number.`;
        else if (f.integer && !Number.isInteger(n)) errors[f.name] = `${f.label} must be a whole number.`;
        else if (f.min !== undefined && n < f.min) errors[f.name] = `${f.label} must be at least ${f.min}.`;
        else if (f.exclusiveMin !== undefined && n <= f.exclusiveMin) errors[f.name] = `${f.label} must be greater than ${f.exclusiveMin}.`;
        else if (f.max !== undefined && n > f.max) errors[f.name] = `${f.label} must be at most ${f.max}.`;
        else body[f.name] = n;
        break;
      }
      case 'datetime': {
        const d = new Date(text);
        if (Number.isNaN(d.getTime())) errors[f.name] = `${f.label} must be a date and time.`;
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
          items = JSON.parse(text) as Record<string, string>[];
        } catch {
          errors[f.name] = `${f.label} could not be read.`;
          break;
        }
        if (f.minItems !== undefined && items.length < f.minItems) errors[f.name] = `${f.label} needs at least ${f.minItems}.`;
        else if (f.maxItems !== undefined && items.length > f.maxItems) errors[f.name] = `${f.label} takes at most ${f.maxItems}.`;
        body[f.name] = items.map((item, i) => {
          const checked = toBody(f.itemFields!, item, 'create');
          for (const [name, message] of Object.entries(checked.errors)) errors[`${f.name}.${i}.${name}`] = message;
          return checked.body;
        });
        break;
      }
      case 'json':
        try {
          body[f.name] = JSON.parse(text);
        } catch {
          errors[f.name] = `${f.label} must be valid JSON.`;
        }
        break;
      default: {
        const value = text.trim();
        if (f.options && !f.options.includes(value)) errors[f.name] = `${f.label} must be one of ${f.options.join(', ')}.`;
        else if (f.maxLength !== undefined && value.length > f.maxLength)
          errors[f.name] = `${f.label} must be at most ${f.maxLength} characters.`;
        else if (f.minLength !== undefined && value.length < f.minLength)
          errors[f.name] = `${f.label} must be at least ${f.minLength} characters.`;
        else if (f.pattern && !new RegExp(f.pattern).test(value)) errors[f.name] = `${f.label} has an invalid format.`;
        else if (f.uuid && !UUID.test(value)) errors[f.name] = `${f.label} must be an id (UUID).`;
        else body[f.name] = value;
      }
    }
  }
  return { body, errors };
}
