import { z } from 'zod';
import type { Knex } from 'knex';
import { isTimeZone, LANGUAGE_CODES } from '../formats.js';
import type { RequestContext } from './context.js';

export const STATUSES = ['draft', 'live', 'paused'] as const;

/** How a stored field can be filtered and sorted. */
export type ValueType = 'string' | 'number' | 'boolean' | 'datetime' | 'uuid' | 'enum' | 'stringArray' | 'opaque';

export interface FieldOptions {
  /** Required on create (absent or null is refused). */
  required?: boolean;
  /** Default applied on create when the field is absent; a function is called per record. */
  default?: unknown;
  /** Set by the service only: any value in a body is refused. */
  readOnly?: boolean;
  /** Accepted on create, refused on update. */
  createOnly?: boolean;
  /** Encrypted at rest with the master key, in column `<column>_enc`. */
  sealed?: boolean;
  /** Returned only in the create response (credentials such as API secrets). */
  revealOnce?: boolean;
  /** Stored per language (CONTRACT §7). */
  localisable?: boolean;
  /** Readable by end users and guests. */
  public?: boolean;
  /** Column name; defaults to the snake_case of the field name. */
  column?: string;
  /** A record of this resource in the same account; an unknown id is 400. */
  references?: string;
  /**
   * A record of the resource that another field's value names (a notification rule's template
   * follows its provider). The resource checks it itself; the OpenAPI document tells clients,
   * so forms can offer the records to pick.
   */
  referencesBy?: { field: string; slugs: Readonly<Record<string, string>> };
  /** Not stored: produced by the resource's `load` hook. */
  virtual?: boolean;
  /** Documentation for the OpenAPI document. */
  description?: string;
}

export interface FieldDef extends FieldOptions {
  valueType: ValueType;
  /** Validates a non-null value from a request body. */
  schema: z.ZodType;
  /** JSON-schema shape of the value as returned. Defaults to `schema`. */
  outputSchema?: z.ZodType;
  /** Converts a validated body value to its column value (datetimes → Date, etc.). */
  toColumn?: (value: unknown) => unknown;
  enumValues?: readonly string[];
  /** Custom storage for structured values that hold localisable texts (mission tasks). */
  codec?: {
    read(stored: unknown, ctx: RequestContext): unknown;
    write(value: unknown, ctx: RequestContext, stored: unknown): unknown;
  };
  /** Rebuilds the field for the running service's settings (see `configureFields`). */
  configure?: (settings: FieldSettings) => FieldDef;
}

/** Service settings some validators depend on; resources are defined before the config is read. */
export interface FieldSettings {
  publicUrl: string;
}

const def = (valueType: ValueType, schema: z.ZodType, options: FieldOptions = {}, extra: Partial<FieldDef> = {}): FieldDef => ({
  valueType,
  schema,
  ...options,
  ...extra,
});

/**
 * Bounds for writable numbers and strings that declare none: no value a client sends is
 * unbounded (a percentage of 1e29, a 300 KB text). Fields with a domain limit declare their own.
 */
export const DEFAULT_NUMBER_MAX = 1_000_000_000;
export const DEFAULT_STRING_MAX = 65_536;

/** ISO 8601 with an offset (Z counts). */
const isoDateTime = z.iso.datetime({ offset: true, message: 'Expected an ISO 8601 datetime with offset' });

const RGBA = /^rgba\(\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(0|1|0?\.\d+|1\.0+)\s*\)$/;
const rgba = z.string().max(64).refine(
  (v) => {
    const m = RGBA.exec(v);
    return !!m && [m[1], m[2], m[3]].every((c) => Number(c) <= 255);
  },
  { message: 'Expected rgba(r, g, b, a) with r, g, b in 0..255 and a in 0..1' },
);

const UPLOAD_PATH = /^\/files\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An absolute https URL, or an upload URL of this service (`${publicUrl}/files/{accountId}/{id}`),
 * which may be plain http when the service itself is (local set-ups). Unconfigured: https only.
 */
function imageUrl(publicUrl?: string) {
  const base = publicUrl ? new URL(publicUrl) : undefined;
  const basePath = base?.pathname.replace(/\/$/, '') ?? '';
  return z
    .url({ protocol: /^https?$/, message: 'Expected an upload URL of this service or an https URL', abort: true })
    .max(2048, { abort: true })
    .superRefine((v, check) => {
      const u = new URL(v);
      if (u.protocol === 'https:') return;
      if (base && u.origin === base.origin && u.pathname.startsWith(basePath) && UPLOAD_PATH.test(u.pathname.slice(basePath.length))) return;
      check.addIssue({ code: 'invalid_format', format: 'url', input: v, message: 'Expected an upload URL of this service or an https URL' });
    });
}

/**
 * The default bound of a field clients write. Read-only values are the service's own (running
 * totals, error texts); a bound in their documented shape would not be one the service keeps.
 */
const writableDefault = (options: FieldOptions, max: number) => (options.readOnly ? undefined : max);

/** Field builders. Each returns a definition the engine uses for validation, SQL and OpenAPI. */
export const field = {
  string(options: FieldOptions & { max?: number; min?: number; pattern?: RegExp; patternMessage?: string } = {}) {
    let s = z.string();
    if (options.min !== undefined) s = s.min(options.min);
    const max = options.max ?? writableDefault(options, DEFAULT_STRING_MAX);
    if (max !== undefined) s = s.max(max);
    if (options.pattern) s = s.regex(options.pattern, options.patternMessage);
    return def('string', s, options);
  },
  email(options: FieldOptions = {}) {
    return def('string', z.email().max(320), options);
  },
  url(options: FieldOptions & { max?: number; httpsOnly?: boolean } = {}) {
    const schema = z
      .url({ protocol: options.httpsOnly ? /^https$/ : /^https?$/, message: options.httpsOnly ? 'Expected an https URL' : 'Expected an http or https URL' })
      .max(options.max ?? 2048);
    return def('string', schema, options);
  },
  rgba(options: FieldOptions = {}) {
    return def('string', rgba, options);
  },
  timezone(options: FieldOptions = {}) {
    return def('string', z.string().max(64).refine(isTimeZone, { message: 'Expected an IANA time zone' }), options);
  },
  phone(options: FieldOptions = {}) {
    return def('string', z.string().max(16).regex(/^\+[1-9]\d{6,14}$/, 'Expected an E.164 phone number'), options);
  },
  languageCode(options: FieldOptions = {}) {
    return field.enum(LANGUAGE_CODES, options);
  },
  number(options: FieldOptions & { min?: number; max?: number; gt?: number } = {}) {
    let s = z.number();
    if (options.min !== undefined) s = s.min(options.min);
    if (options.gt !== undefined) s = s.gt(options.gt);
    const max = options.max ?? writableDefault(options, DEFAULT_NUMBER_MAX);
    if (max !== undefined) s = s.max(max);
    return def('number', s, options);
  },
  integer(options: FieldOptions & { min?: number; max?: number } = {}) {
    let s = z.number().int();
    if (options.min !== undefined) s = s.min(options.min);
    const max = options.max ?? writableDefault(options, DEFAULT_NUMBER_MAX);
    if (max !== undefined) s = s.max(max);
    return def('number', s, options);
  },
  boolean(options: FieldOptions = {}) {
    return def('boolean', z.boolean(), options);
  },
  enum<T extends readonly [string, ...string[]]>(values: T, options: FieldOptions = {}) {
    return def('enum', z.enum(values as unknown as [string, ...string[]]), options, { enumValues: values });
  },
  status(options: FieldOptions = {}) {
    return field.enum(STATUSES, options);
  },
  uuid(options: FieldOptions = {}) {
    return def('uuid', z.uuid({ message: 'Expected a UUID' }), options);
  },
  datetime(options: FieldOptions = {}) {
    return def('datetime', isoDateTime, options, {
      toColumn: (v) => new Date(v as string),
      outputSchema: z.iso.datetime({ offset: true }),
    });
  },
  stringArray(options: FieldOptions & { itemMax?: number; maxItems?: number; items?: readonly [string, ...string[]] } = {}) {
    const item = options.items ? z.enum(options.items as unknown as [string, ...string[]]) : z.string().min(1).max(options.itemMax ?? 256);
    return def('stringArray', z.array(item).max(options.maxItems ?? 100), options, {
      enumValues: options.items,
    });
  },
  json(schema: z.ZodType, options: FieldOptions = {}) {
    return def('opaque', schema, options, { toColumn: (v) => JSON.stringify(v) });
  },
  /** A read-only value produced by a hook (joined records, derived values). */
  virtual(outputSchema: z.ZodType, options: FieldOptions = {}) {
    return def('opaque', outputSchema, { ...options, virtual: true, readOnly: true });
  },
  /** An image: an upload URL of this service, or an absolute https URL (CONTRACT §6). */
  image(options: FieldOptions = {}) {
    return def('string', imageUrl(), options, {
      configure: (settings) => def('string', imageUrl(settings.publicUrl), options),
    });
  },
};

export type Fields = Record<string, FieldDef>;

/** The fields with every settings-dependent validator bound to the running service's settings. */
export function configureFields(fields: Fields, settings: FieldSettings): Fields {
  return Object.fromEntries(Object.entries(fields).map(([name, f]) => [name, f.configure ? f.configure(settings) : f]));
}

/** Field names are a fixed set: each is converted once. */
const snakeNames = new Map<string, string>();

export function columnOf(name: string, f: FieldDef): string {
  if (f.column) return f.column;
  let snake = snakeNames.get(name);
  if (snake === undefined) {
    snake = name
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
      .toLowerCase();
    snakeNames.set(name, snake);
  }
  return f.sealed ? `${snake}_enc` : snake;
}

export interface LoadArgs {
  rows: Record<string, unknown>[];
  ctx: RequestContext;
  db: Knex;
  /** The virtual fields the response will contain; a hook loads only these. */
  wanted: Set<string>;
  /** Serialises joined records of another resource with the same caller's reductions. */
  serializeJoined(slug: string, rows: Record<string, unknown>[]): Promise<Record<string, unknown>[]>;
}

/** Fills virtual fields, keyed by field name, on rows about to be serialised. */
export type LoadHook = (args: LoadArgs) => Promise<void>;
