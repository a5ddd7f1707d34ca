import type { Knex } from 'knex';
import type { z } from 'zod';
import type { Row } from '../db/rows.js';
import type { ErrorDetail } from '../errors.js';
import type { Flow } from '../auth/authenticate.js';
import type { Op, RequestContext } from './context.js';
import type { Fields, KnownRows, LoadArgs, LoadedRow } from './fields.js';
import type { ConditionalRule } from './rules.js';
import type { CreateValuesOfFields, RowOfFields, ValuesOfFields } from './row-types.js';

/** Field-name keyed values of one record, as validated from a body or read from a row. */
export type Values = Record<string, unknown>;
export type { Row };

/**
 * A resource's rows and values as its field definitions type them (records/row-types.ts), so
 * hooks read columns and values the compiler checks; a row may hold internal columns besides its
 * fields' (leases, key material), read as unknown. Plain records where the fields are not known
 * (the generic engine, which serves every resource).
 */
export type RowFor<F extends Fields> = Fields extends F ? Row : RowOfFields<F> & Row;
export type ValuesFor<F extends Fields> = Fields extends F ? Values : ValuesOfFields<F>;
export type CreateValuesFor<F extends Fields> = Fields extends F ? Values : CreateValuesOfFields<F>;

export interface WriteArgs<F extends Fields = Fields> {
  trx: Knex.Transaction;
  ctx: RequestContext;
  /** Validated body values plus defaults (create) or the patch (update); hooks may add generated values. */
  values: ValuesFor<F>;
  /** Raw columns a hook wants written that are not fields (internal state, sealed material). */
  columns: Row;
  /** The stored row (update only). */
  existing?: RowFor<F>;
}

/** A create's hook arguments: the body as validated for a create, its required and defaulted fields present. */
export interface CreateArgs<F extends Fields = Fields> extends WriteArgs<F> {
  values: CreateValuesFor<F>;
}

export interface ActionArgs<F extends Fields = Fields> {
  trx: Knex.Transaction;
  ctx: RequestContext;
  records: Records;
  row: RowFor<F>;
  body: unknown;
  rawBody: Buffer | undefined;
  contentType: string | undefined;
  /** Field values as this resource's columns (sealed, localised), as the generic update writes them. */
  toColumns(values: ValuesFor<F>): Row;
  /** A row as a get by this caller returns it. */
  serialize(row: Row): Promise<Record<string, unknown>>;
}

/** Records an answer adds beside its own: each a record of a resource, a list of them, or always null. */
export type Returned = Record<string, { slug: string | null; many?: boolean }>;

export interface ActionDef<F extends Fields = Fields> {
  /**
   * Who may perform it; API keys only when absent. An action open to end users finds its record in
   * the caller's account whatever the resource shows them, and decides itself what they may do.
   */
  flows?: Flow[];
  /**
   * false: the action runs without the record's row lock (one that locks what it changes itself,
   * such as a redemption under the member's lock, so redemptions of one reward do not queue), on
   * the record as read before its transaction.
   */
  locksRecord?: false;
  /** Media types the action accepts for a non-empty body; JSON when absent. */
  accepts?: string[];
  maxBodyBytes?: number;
  /** The JSON body's shape, for the OpenAPI document (the action checks it itself); any object when absent. */
  body?: z.ZodType;
  /** Performs the action; its return value is sent as `data`. */
  run(args: ActionArgs<F>): Promise<unknown>;
  description: string;
  /** What `data` is, for the OpenAPI document: a resource's record (its slug) or a schema. */
  returns: string | z.ZodType;
  /** Properties the answer adds to the record `returns` names (a reversal's progress), as `createReturns` says them. */
  returnsAlso?: Returned;
}

/**
 * What a `create` hook (and the engine behind it) uses of the record service. The service
 * implements it; declared here so that definitions need not import the service that reads them.
 */
export interface Records {
  readonly db: Knex;
  /** The length of a hold's day in seconds (`LOYALTY_HOLD_DAY_SECONDS`; shortened in tests and demos). */
  readonly holdDaySeconds: number;
  /** How long after a deadline the scheduler settles it (`LOYALTY_LATE_LOG_GRACE_SECONDS`); a recompute settles alike. */
  readonly lateLogGraceSeconds: number;
  readonly registry: { require(slug: string): Resource; get(slug: string): Resource | undefined };
  now(): Date;
  serialize(
    resource: Resource,
    rows: Row[],
    ctx: RequestContext,
    options?: { fields?: readonly string[]; db?: Knex; known?: KnownRows },
  ): Promise<Record<string, unknown>[]>;
  /** `serialize`, answering at once when nothing has to be loaded first. */
  serializeSoon(
    resource: Resource,
    rows: Row[],
    ctx: RequestContext,
    options?: { fields?: readonly string[]; db?: Knex; known?: KnownRows },
  ): Record<string, unknown>[] | Promise<Record<string, unknown>[]>;
  /** Fields that are stored columns (no joins), for responses built from rows at hand. */
  storedFields(resource: Resource): readonly string[];
  /** 400 naming each reference field of `values` that names no record of the account, as a write would be. */
  checkReferences(trx: Knex, resource: Resource, ctx: RequestContext, values: Record<string, unknown>): Promise<void>;
}

export interface Resource<F extends Fields = Fields> {
  slug: string;
  table: string;
  description: string;
  fields: F;
  /** Which flows may perform each operation; an absent operation is not offered (405). */
  access: Partial<Record<Op, Flow[]>>;
  /**
   * How end-user and guest reads are narrowed: `public` shows live records' public fields,
   * `own` shows the member's records (by `owned_by_id`).
   */
  publicScope?: 'public' | 'own';
  /**
   * A further SQL condition (on the resource's table, without parameters) that a live record must
   * meet for end users and guests to see it, as `publicScope: 'public'` narrows reads.
   */
  publicWhere?: string;
  /**
   * A further condition an end user's reads of live records meet, given the SQL placeholder that
   * stands for the member's id (`?` or `$n`): a definition the member is held out of (CONTRACT §18).
   */
  memberWhere?(member: string): string;
  /** Unique constraints whose violation is a field error rather than a plain conflict. */
  uniqueErrors?: Record<string, { status: 400 | 409; field: string; message: string }>;
  /** Conditional rules over the whole record after the write (create: values; update: existing + patch). */
  validate?(record: ValuesFor<F>, op: 'create' | 'update'): ErrorDetail[];
  /**
   * `validate`'s rules for the OpenAPI document: what JSON Schema can say of a create body
   * (`if`/`then`, `oneOf`), and a description of them all, on create and update alike.
   */
  rules?: {
    /** Rules over the record by another field's value, checked and documented from this one list. */
    conditional?: readonly ConditionalRule<F>[];
    /** Further create-body clauses the document states and `validate` checks. */
    create?: Record<string, unknown>[];
    description: string;
  };
  /** Statuses a hook may answer besides the generic ones (a provider's 502), per operation, for the OpenAPI document. */
  answers?: Partial<Record<Op, number[]>>;
  /** Fields an update body must hold (not null), when the resource's own `update` asks for them, for the OpenAPI document. */
  updateRequires?: readonly (keyof F & string)[];
  /** Slow checks of the sent values (network lookups) before the write transaction opens. */
  precheck?(values: ValuesFor<F>, op: 'create' | 'update'): Promise<void>;
  beforeCreate?(args: CreateArgs<F>): Promise<void>;
  /** What follows the generic insert in its transaction; true when it changed the row, which the answer then reads again. */
  afterCreate?(args: { trx: Knex.Transaction; ctx: RequestContext; records: Records; row: RowFor<F> }): Promise<boolean>;
  beforeUpdate?(args: WriteArgs<F>): Promise<void>;
  /**
   * An advisory lock the delete takes alone before it reads and locks the row; writers that share
   * it have committed, or find the row gone, before the delete's cascades read what they wrote.
   */
  deleteLock?(id: string): string;
  /** Cascades and checks inside the delete transaction. */
  beforeDelete?(args: { trx: Knex.Transaction; ctx: RequestContext; row: RowFor<F> }): Promise<void>;
  /** Fills virtual fields on rows that are about to be serialised. */
  load?(args: LoadArgs<RowFor<F> & LoadedRow>): Promise<void>;
  /**
   * `load` takes no timestamp of its rows as a Date, so reads may give them as the API's ISO
   * strings, which cost far less to read than Dates (otherwise a resource with `load` gets Dates).
   */
  loadTakesIsoTimestamps?: boolean;
  /**
   * Virtual fields a get computes in its own statement, as SQL over the row (`t`, its quoted
   * table) without parameters: a get then needs no second statement from `load`, which leaves
   * rows that already hold a field as they are.
   */
  readColumns?: Record<string, (t: string) => string>;
  /**
   * Replaces the generic insert (log ingestion), after the generic checks (fields, rules,
   * `validate`, `precheck`); returns the `data` body. Its unique violations are translated as the
   * generic write's are.
   */
  create?(args: { db: Knex; ctx: RequestContext; values: CreateValuesFor<F>; records: Records }): Promise<unknown>;
  /**
   * Properties the `create` hook's answer adds to the record (a log's progress, milestones and
   * rewards), for the OpenAPI document: each a record of a resource, a list of them, or always null.
   */
  createReturns?: Returned;
  /** Create from a non-JSON body (multipart uploads); replaces validation and the generic insert. */
  createRaw?: {
    accepts: string[];
    maxBytes: number;
    /** The body's shape for the OpenAPI document (JSON Schema of the form's parts). */
    body: Record<string, unknown>;
    run(args: { db: Knex; ctx: RequestContext; raw: Buffer; contentTypeHeader: string }): Promise<unknown>;
  };
  /** Replaces the generic update; returns the updated row. */
  update?(args: WriteArgs<F> & { body: Values }): Promise<Row>;
  actions?: Record<string, ActionDef<F>>;
}

/** A resource whose fields keep their own types, from which its rows, values and hooks' arguments derive. */
export type ResourceOf<F extends Fields> = Resource<F>;

/**
 * A resource of any fields, where one is handed to the generic engine: its hooks' arguments are
 * typed by its own fields, which the engine does not need to know (it passes rows and values through).
 */
// Type arguments of `any` relate both ways, which a hook's parameters (contravariant) need.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyResource = Resource<any>;

export function defineResource<F extends Fields>(resource: Resource<F>): Resource<F> {
  return resource;
}
