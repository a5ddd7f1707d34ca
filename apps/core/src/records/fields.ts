import { z } from 'zod';
import type { Knex } from 'knex';
import { EMAIL, isTimeZone, LANGUAGE_CODES, UUID_TEXT } from '../formats.js';
import type { RequestContext } from './context.js';

export const STATUSES = ['draft', 'live', 'paused'] as const;
export type Status = (typeof STATUSES)[number];

/** How a stored field can be filtered and sorted. */
export type ValueType = 'string' | 'number' | 'boolean' | 'datetime' | 'uuid' | 'enum' | 'stringArray' | 'opaque';

export interface FieldOptions {
  /** Required on create (absent or null is refused). */
  required?: boolean;
  /** Default applied on create when the field is absent; a function is called per record. */
  default?: unknown;
  /** Set by the service only: any value in a body is refused. */
  readOnly?: boolean;
  /**
   * Set by the service on every record though no body sends it (progress the engine writes):
   * its column is NOT NULL, and its row type is not nullable.
   */
  alwaysSet?: boolean;
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
  /** Read by API keys only: an end user reading their own record (`/schema/account_user/me`) does not see it. */
  staffOnly?: boolean;
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
  /** Read as a joined record of this resource (its read shape differs from what a body sends). */
  joins?: string;
  /** Documentation for the OpenAPI document. */
  description?: string;
}

export interface FieldDef<Value = unknown, Stored = Value> extends FieldOptions {
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
  /**
   * Types only, never set: the validated value of a body and the value its column reads back,
   * from which `RowOf` and `ValuesOf` derive a resource's TypeScript types.
   */
  readonly types?: { value: Value; stored: Stored };
}

/** Service settings some validators depend on; resources are defined before the config is read. */
export interface FieldSettings {
  publicUrl: string;
}

/**
 * A field of value type `Value` (stored as `Stored`) with its options' literal types kept, so
 * that `required`, `default`, `column`, `sealed`, `localisable` and `virtual` shape its row type.
 */
export type TypedField<Value, Stored, O> = FieldDef<Value, Stored> & O;

const def = <Value, Stored = Value, O extends FieldOptions | undefined = FieldOptions>(
  valueType: ValueType,
  schema: z.ZodType,
  options: O,
  extra: Omit<Partial<FieldDef>, 'types'> = {},
): TypedField<Value, Stored, O> => ({
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

/**
 * ISO 8601 with an offset (Z counts), at an instant of years 1 to 9999 in UTC: year 0 is 1 BC to
 * PostgreSQL, and an instant past 9999 would read back in the six-digit form clients cannot parse.
 */
const isoDateTime = z.iso
  .datetime({ offset: true, message: 'Expected an ISO 8601 datetime with offset', abort: true })
  .superRefine((v, check) => {
    const year = new Date(v).getUTCFullYear();
    if (year >= 1 && year <= 9999) return;
    check.addIssue({ code: 'invalid_format', format: 'datetime', input: v, message: 'Expected a datetime in the years 1 to 9999 (UTC)' });
  });

/** A channel 0..255 in one to three digits, and an alpha 0..1: the rule as a pattern, so the document states it. */
const CHANNEL = '(?:\\d{1,2}|[01]\\d\\d|2[0-4]\\d|25[0-5])';
const RGBA = new RegExp(`^rgba\\(\\s*${CHANNEL}\\s*,\\s*${CHANNEL}\\s*,\\s*${CHANNEL}\\s*,\\s*(0|1|0?\\.\\d+|1\\.0+)\\s*\\)$`);
// A refinement keeps the detail code `invalid` that clients read; the pattern is for the document.
const rgba = z
  .string()
  .max(64)
  .refine((v) => RGBA.test(v), { message: 'Expected rgba(r, g, b, a) with r, g, b in 0..255 and a in 0..1' })
  .meta({ pattern: RGBA.source });

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const ANY_CASE_UUID = UUID_TEXT.replaceAll('a-f', 'a-fA-F');

/**
 * A URL that every parser reads alike: no user information before the host (`http://a.example\\@b/`
 * is host a.example to some parsers and b to others), no backslash (WHATWG reads it as a slash,
 * others do not), no white space or control character.
 */
const UNAMBIGUOUS_REST = String.raw`[^\s\\/?#@]+(?:[/?#][^\s\\]*)?`;
// A scheme in any case (RFC 3986 §3.1), spelt out: the pattern is also the document's, which has no flags.
const HTTPS = '[hH][tT][tT][pP][sS]';
export const HTTP_OR_HTTPS = `${HTTPS}?`;
export const UNAMBIGUOUS_URL = new RegExp(`^${HTTP_OR_HTTPS}://${UNAMBIGUOUS_REST}$`);

const UPLOAD_PATH = new RegExp(`^/files/${UUID_TEXT}/${UUID_TEXT}$`, 'i');

/**
 * An absolute https URL, or an upload URL of this service (`${publicUrl}/files/{accountId}/{id}`),
 * which may be plain http when the service itself is (local set-ups). Unconfigured: https only.
 */
function imageUrl(publicUrl?: string) {
  const base = publicUrl ? new URL(publicUrl) : undefined;
  const basePath = base?.pathname.replace(/\/$/, '') ?? '';
  return (
    z
      .url({ protocol: /^https?$/, message: 'Expected an upload URL of this service or an https URL', abort: true })
      .max(2048, { abort: true })
      .regex(UNAMBIGUOUS_URL, { message: 'Expected a URL without user information, backslashes or white space', abort: true })
      .superRefine((v, check) => {
        const u = new URL(v);
        if (u.protocol === 'https:') return;
        if (base && u.origin === base.origin && u.pathname.startsWith(basePath) && UPLOAD_PATH.test(u.pathname.slice(basePath.length)))
          return;
        check.addIssue({
          code: 'invalid_format',
          format: 'url',
          input: v,
          message: 'Expected an upload URL of this service or an https URL',
        });
      })
      // The document states the same rule as a pattern (the refinement keeps the detail code).
      .meta({
        format: 'uri',
        pattern: base
          ? `^(${HTTPS}://${UNAMBIGUOUS_REST}|${escapeRegExp(base.origin + basePath)}/files/${ANY_CASE_UUID}/${ANY_CASE_UUID})$`
          : `^${HTTPS}://${UNAMBIGUOUS_REST}$`,
      })
  );
}

/**
 * The default bound of a field clients write. Read-only values are the service's own (running
 * totals, error texts); a bound in their documented shape would not be one the service keeps.
 */
const writableDefault = (options: FieldOptions | undefined, max: number) => (options?.readOnly ? undefined : max);

type StringOptions = FieldOptions & { max?: number; min?: number; pattern?: RegExp; patternMessage?: string };
type NumberOptions = FieldOptions & { min?: number; max?: number; gt?: number };
type StringArrayOptions = FieldOptions & { itemMax?: number; maxItems?: number; items?: readonly [string, ...string[]] };
/** A string array's items: the listed ones when it lists them. */
type ItemOf<O> = O extends { items: readonly (infer I)[] } ? I : string;

/**
 * Field builders. Each returns a definition the engine uses for validation, SQL and OpenAPI, typed
 * with its value and its options as written (`const`), which the row and value types read.
 */
export const field = {
  string<const O extends StringOptions = {}>(options?: O) {
    let s = z.string();
    // A value too short is said as that alone, not also as failing the pattern (an empty name is not "blank" too).
    if (options?.min !== undefined) s = s.min(options.min, { abort: true });
    const max = options?.max ?? writableDefault(options, DEFAULT_STRING_MAX);
    if (max !== undefined) s = s.max(max);
    if (options?.pattern) s = s.regex(options.pattern, options.patternMessage);
    return def<string, string, O | undefined>('string', s, options);
  },
  email<const O extends FieldOptions = {}>(options?: O) {
    return def<string, string, O | undefined>('string', z.email({ pattern: EMAIL }).max(320), options);
  },
  url<const O extends FieldOptions & { max?: number; httpsOnly?: boolean } = {}>(options?: O) {
    const schema = z
      .url({
        protocol: options?.httpsOnly ? /^https$/ : /^https?$/,
        message: options?.httpsOnly ? 'Expected an https URL' : 'Expected an http or https URL',
        abort: true,
      })
      .max(options?.max ?? 2048)
      .regex(UNAMBIGUOUS_URL, 'Expected a URL without user information, backslashes or white space')
      // The document keeps the URL's format beside the pattern; both hold.
      .meta({ format: 'uri' });
    return def<string, string, O | undefined>('string', schema, options);
  },
  rgba<const O extends FieldOptions = {}>(options?: O) {
    return def<string, string, O | undefined>('string', rgba, options);
  },
  timezone<const O extends FieldOptions = {}>(options?: O) {
    const schema = z
      .string()
      .max(64)
      .refine(isTimeZone, { message: 'Expected an IANA time zone' })
      .meta({
        format: 'iana-time-zone',
        description: 'An IANA time zone name that the runtime knows, e.g. Europe/Paris or UTC.',
        examples: ['UTC', 'Europe/Paris', 'America/New_York'],
      });
    return def<string, string, O | undefined>('string', schema, options);
  },
  phone<const O extends FieldOptions = {}>(options?: O) {
    return def<string, string, O | undefined>(
      'string',
      z
        .string()
        .max(16)
        .regex(/^\+[1-9]\d{6,14}$/, 'Expected an E.164 phone number'),
      options,
    );
  },
  languageCode<const O extends FieldOptions = {}>(options?: O) {
    return field.enum(LANGUAGE_CODES, options);
  },
  number<const O extends NumberOptions = {}>(options?: O) {
    let s = z.number();
    if (options?.min !== undefined) s = s.min(options.min);
    if (options?.gt !== undefined) s = s.gt(options.gt);
    const max = options?.max ?? writableDefault(options, DEFAULT_NUMBER_MAX);
    if (max !== undefined) s = s.max(max);
    return def<number, number, O | undefined>('number', s, options);
  },
  integer<const O extends NumberOptions = {}>(options?: O) {
    let s = z.number().int();
    if (options?.min !== undefined) s = s.min(options.min);
    const max = options?.max ?? writableDefault(options, DEFAULT_NUMBER_MAX);
    if (max !== undefined) s = s.max(max);
    return def<number, number, O | undefined>('number', s, options);
  },
  boolean<const O extends FieldOptions = {}>(options?: O) {
    return def<boolean, boolean, O | undefined>('boolean', z.boolean(), options);
  },
  enum<const T extends readonly [string, ...string[]], const O extends FieldOptions = {}>(values: T, options?: O) {
    return def<T[number], T[number], O | undefined>('enum', z.enum(values), options, { enumValues: values });
  },
  status<const O extends FieldOptions = {}>(options?: O) {
    return field.enum(STATUSES, options);
  },
  uuid<const O extends FieldOptions = {}>(options?: O) {
    return def<string, string, O | undefined>('uuid', z.uuid({ message: 'Expected a UUID' }), options);
  },
  /** A body sends ISO 8601 text; the column reads back as a Date. */
  datetime<const O extends FieldOptions = {}>(options?: O) {
    return def<string, Date, O | undefined>('datetime', isoDateTime, options, {
      toColumn: (v) => new Date(v as string),
      outputSchema: z.iso.datetime({ offset: true }),
    });
  },
  stringArray<const O extends StringArrayOptions = {}>(options?: O) {
    const item = options?.items
      ? z.enum(options.items)
      : z
          .string()
          .min(1)
          .max(options?.itemMax ?? 256);
    return def<ItemOf<O>[], ItemOf<O>[], O | undefined>('stringArray', z.array(item).max(options?.maxItems ?? 100), options, {
      enumValues: options?.items,
    });
  },
  json<S extends z.ZodType, const O extends FieldOptions = {}>(schema: S, options?: O) {
    return def<z.output<S>, z.output<S>, O | undefined>('opaque', schema, options, { toColumn: (v) => JSON.stringify(v) });
  },
  /** A read-only value produced by a hook (joined records, derived values). */
  virtual<S extends z.ZodType>(outputSchema: S, options: FieldOptions = {}) {
    return def<z.output<S>, never, FieldOptions & { virtual: true; readOnly: true }>('opaque', outputSchema, {
      ...options,
      virtual: true as const,
      readOnly: true as const,
    });
  },
  /** An image: an upload URL of this service, or an absolute https URL (CONTRACT §6). */
  image<const O extends FieldOptions = {}>(options?: O) {
    return def<string, string, O | undefined>('string', imageUrl(), options, {
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

/** A stored row as a load hook sees it: every table's id and account, and its other columns. */
export type LoadedRow = { id: string; account_id: string } & Record<string, unknown>;

/** Rows a caller already holds, by table: load hooks take them instead of reading them again. */
export type KnownRows = ReadonlyMap<string, readonly LoadedRow[]>;

export interface LoadArgs<R extends LoadedRow = LoadedRow> {
  /** The rows, typed by the resource's fields where its hook knows them; virtual fields are set on them. */
  rows: R[];
  ctx: RequestContext;
  db: Knex;
  /** The virtual fields the response will contain; a hook loads only these. */
  wanted: Set<string>;
  /** Serialises joined records of another resource with the same caller's reductions. */
  serializeJoined(slug: string, rows: LoadedRow[]): Promise<Record<string, unknown>[]>;
  /** Rows the caller holds (read them with `readRows`, resources/common.ts). */
  known: KnownRows;
}

/** Fills virtual fields, keyed by field name, on rows about to be serialised. */
export type LoadHook<R extends LoadedRow = LoadedRow> = (args: LoadArgs<R>) => Promise<void>;
