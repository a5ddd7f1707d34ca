import { columnOf, type FieldDef, type Fields } from './fields.js';

/*
 * A resource's TypeScript types, derived from its field definitions as `columnOf` and the record
 * service derive its columns and values, so that code reading rows reads columns the compiler
 * checks (a misspelt column is an error, not a silent undefined).
 */

/**
 * `columnOf`'s snake_case at the type level: an underscore before a capital that follows a
 * lower-case letter or digit, or that starts a word after a run of capitals (`serviceAccountJSON`
 * → `service_account_json`, `JSONValue` → `json_value`).
 */
export type Snake<S extends string, Prev extends string = ''> = S extends `${infer H}${infer T}`
  ? H extends Lowercase<H>
    ? `${H}${Snake<T, H>}`
    : `${Prev extends '' ? '' : Prev extends Lowercase<Prev> ? '_' : StartsLower<T> extends true ? '_' : ''}${Lowercase<H>}${Snake<T, H>}`
  : '';
type StartsLower<S extends string> = S extends `${infer N}${string}` ? (N extends Uppercase<N> ? false : true) : false;

/** A field's column: the declared one, else the snake_case name (`<snake>_enc` when sealed). */
export type ColumnName<K extends string, F> = F extends { column: infer C extends string }
  ? C
  : F extends { sealed: true }
    ? `${Snake<K>}_enc`
    : Snake<K>;

/** A localisable text as stored: the text per language code. */
export type LocalisedText = Record<string, string>;

/** The non-null value a field's column reads back. */
export type StoredValue<F> = F extends { sealed: true }
  ? string
  : F extends { localisable: true }
    ? LocalisedText
    : F extends { codec: { read(stored: infer S, ...rest: never[]): unknown } }
      ? NonNullable<S>
      : F extends FieldDef<unknown, infer S>
        ? S
        : unknown;

/** The non-null value a validated body holds for a field. */
export type BodyValue<F> = F extends FieldDef<infer V> ? V : unknown;

/**
 * Whether every record has a value: required, defaulted on create, or always set by the service
 * (the schema-agreement test holds such columns NOT NULL).
 */
type AlwaysSet<F> = F extends { required: true } | { alwaysSet: true } ? true : HasDefault<F>;

/** Whether a field has a default that is a value (the service fills it in on create). */
type HasDefault<F> = F extends { default: infer D } ? ([D] extends [null | undefined] ? false : true) : false;

type Stored<F extends Fields> = { [K in keyof F]: F[K] extends { virtual: true } ? never : K }[keyof F];

/** The columns every table starts with. */
export type RecordColumns = {
  id: string;
  account_id: string;
  created_at: Date;
  updated_at: Date;
};

/** The row of a resource's table as knex and pg read it. */
export type RowOfFields<F extends Fields> = RecordColumns & {
  -readonly [K in Stored<F> & string as ColumnName<K, F[K]>]: AlwaysSet<F[K]> extends true ? StoredValue<F[K]> : StoredValue<F[K]> | null;
};

/** Field-name keyed values as validated from a body: a patch holds some of them, null clears one. */
export type ValuesOfFields<F extends Fields> = {
  -readonly [K in Stored<F> & string]?: BodyValue<F[K]> | null;
};

/** Whether a validated create body always holds the field: required, or given a default. */
type InCreate<F> = F extends { required: true } ? true : HasDefault<F>;

/** A create body's values as validated: required and defaulted fields present and not null. */
export type CreateValuesOfFields<F extends Fields> = ValuesOfFields<F> & {
  -readonly [K in Stored<F> & string as InCreate<F[K]> extends true ? K : never]-?: BodyValue<F[K]>;
};

export type RowOf<R extends { fields: Fields }> = RowOfFields<R['fields']>;
export type ValuesOf<R extends { fields: Fields }> = ValuesOfFields<R['fields']>;

/** Field name → column name of a set of fields, at the type level. */
export type ColumnsOf<F extends Fields> = { -readonly [K in keyof F & string]: ColumnName<K, F[K]> };

/** Field name → column name of a set of fields, as `columnOf` names each. */
export function columnsOf<F extends Fields>(fields: F): ColumnsOf<F> {
  // Object.fromEntries cannot carry the mapped type; each entry is `columnOf`'s, which ColumnName mirrors.
  return Object.fromEntries(Object.entries(fields).map(([name, f]) => [name, columnOf(name, f)])) as ColumnsOf<F>;
}
