/**
 * Form fields derived from the core's OpenAPI document (its `…Create` / `…Update` schemas), so an
 * admin form offers exactly the writable fields and checks them as the core does: required,
 * lengths, enums, number bounds, patterns. Shared by the browser (before submit) and the server.
 */
export type FieldKind = 'text' | 'textarea' | 'number' | 'boolean' | 'select' | 'datetime' | 'list' | 'json';

export interface FieldSpec {
  name: string;
  label: string;
  kind: FieldKind;
  required: boolean;
  nullable: boolean;
  integer?: boolean;
  maxLength?: number;
  minLength?: number;
  min?: number;
  max?: number;
  exclusiveMin?: number;
  pattern?: string;
  options?: string[];
  description?: string;
  defaultValue?: unknown;
}

type Json = Record<string, any>;

const label = (name: string) =>
  name
    .replace(/^eud(?=[A-Z])/, 'Display ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/^./, (c) => c.toUpperCase())
    .replace(/\bId\b/g, 'ID')
    .replace(/\bUrl\b/g, 'URL');

export function fieldsOf(schema: Json | undefined, requiredOverride?: boolean): FieldSpec[] {
  if (!schema?.properties) return [];
  const required = new Set<string>(schema.required ?? []);
  return Object.entries(schema.properties as Record<string, Json>).map(([name, raw]) => {
    const options = (raw.anyOf as Json[] | undefined) ?? [raw];
    const nullable = options.some((o) => o.type === 'null');
    const p = options.find((o) => o.type !== 'null') ?? {};
    let kind: FieldKind = 'json';
    if (p.type === 'string') kind = p.enum ? 'select' : p.format === 'date-time' ? 'datetime' : (p.maxLength ?? 0) > 300 ? 'textarea' : 'text';
    else if (p.type === 'integer' || p.type === 'number') kind = 'number';
    else if (p.type === 'boolean') kind = 'boolean';
    else if (p.type === 'array' && (p.items?.type === 'string' || p.items?.$ref)) kind = 'list';
    const spec: FieldSpec = {
      name,
      label: label(name),
      kind,
      required: requiredOverride ?? required.has(name),
      nullable,
      ...(p.type === 'integer' ? { integer: true } : {}),
      ...(p.maxLength !== undefined ? { maxLength: p.maxLength } : {}),
      ...(p.minLength !== undefined ? { minLength: p.minLength } : {}),
      ...(p.minimum !== undefined ? { min: p.minimum } : {}),
      ...(p.maximum !== undefined ? { max: p.maximum } : {}),
      ...(p.exclusiveMinimum !== undefined ? { exclusiveMin: p.exclusiveMinimum } : {}),
      ...(p.pattern && p.format !== 'date-time' && p.format !== 'uuid' && p.format !== 'email' ? { pattern: p.pattern } : {}),
      ...(p.enum ? { options: p.enum as string[] } : {}),
      ...((raw.description ?? p.description) ? { description: raw.description ?? p.description } : {}),
      ...(raw.default !== undefined ? { defaultValue: raw.default } : {}),
    };
    return spec;
  });
}

/** The form's text for a stored value. */
export function toInput(field: FieldSpec, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (field.kind === 'list') return (value as string[]).join('\n');
  if (field.kind === 'json') return JSON.stringify(value, null, 2);
  return String(value);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Parses the form's texts into a request body and checks each field as the core would; the
 * errors are keyed by field name. Blank optional fields are left out on create and cleared
 * (null) on update where the field takes null.
 */
export function toBody(fields: FieldSpec[], inputs: Record<string, string>, mode: 'create' | 'update'): { body: Record<string, unknown>; errors: Record<string, string> } {
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
        body[f.name] = text.split('\n').map((s) => s.trim()).filter(Boolean);
        break;
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
        else if (f.maxLength !== undefined && value.length > f.maxLength) errors[f.name] = `${f.label} must be at most ${f.maxLength} characters.`;
        else if (f.minLength !== undefined && value.length < f.minLength) errors[f.name] = `${f.label} must be at least ${f.minLength} characters.`;
        else if (f.pattern && !new RegExp(f.pattern).test(value)) errors[f.name] = `${f.label} has an invalid format.`;
        else if (f.name.endsWith('Id') && !UUID.test(value)) errors[f.name] = `${f.label} must be an id (UUID).`;
        else body[f.name] = value;
      }
    }
  }
  return { body, errors };
}
