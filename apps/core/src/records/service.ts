import type { Knex } from 'knex';
import type { SecretBox } from '../auth/crypto.js';
import { tableColumns } from '../db/table-columns.js';
import { ApiError, conflict, databaseError, type ErrorDetail, invalidInput, notFound } from '../errors.js';
import { ident, statementName } from '../db/prepared.js';
import { UUID } from '../formats.js';
import { type RequestContext, resolveText, writeLanguage } from './context.js';
import { columnOf, type FieldDef, type KnownRows, type LoadedRow } from './fields.js';
import { type FilterGroup, type FilterLeaf, type ListQuery, type QueryField, queryFieldOf } from './query.js';
import type { Registry } from './registry.js';
import type { Records, Resource, Row, Values } from './resource.js';
import { queryRows } from './direct.js';
import { checkRules } from './rules.js';
import { validateBody } from './validate.js';
import { transaction } from '../db/transaction.js';

const SYSTEM_FIELDS: Record<string, { column: string; field: QueryField }> = {
  id: { column: 'id', field: { name: 'id', valueType: 'uuid' } },
  createdAt: { column: 'created_at', field: { name: 'createdAt', valueType: 'datetime' } },
  updatedAt: { column: 'updated_at', field: { name: 'updatedAt', valueType: 'datetime' } },
};

export interface Page {
  data: Record<string, unknown>[];
  paging: { offset: number; limit: number; count: number; hasMore: boolean; total?: number };
}

interface SerializeOptions {
  fields?: readonly string[];
  /** Where load hooks read joined rows; a transaction sees its own uncommitted writes. */
  db?: Knex;
  /** Plain values of reveal-once fields, present only when answering the create. */
  reveal?: Values;
  /** Rows the caller holds (the transaction's own writes): joins take them instead of reading them again. */
  known?: KnownRows;
}

const NONE_KNOWN: KnownRows = new Map();

/** What one kind of caller sees of a resource: its fields, and those it may query and select. */
interface FieldView {
  fields: readonly [string, FieldDef][];
  queryFields: ReadonlyMap<string, QueryField>;
  selectable: ReadonlySet<string>;
}

function fieldView(fields: [string, FieldDef][]): FieldView {
  const queryFields = new Map<string, QueryField>(Object.values(SYSTEM_FIELDS).map((s) => [s.field.name, s.field]));
  for (const [name, f] of fields) if (!f.virtual && !f.sealed) queryFields.set(name, queryFieldOf(name, f));
  // A reveal-once field (a secret) is never read back, so naming it in `fields` is an error too.
  const readable = fields.filter(([, f]) => !f.revealOnce).map(([n]) => n);
  return { fields, queryFields, selectable: new Set([...Object.keys(SYSTEM_FIELDS), ...readable]) };
}

/** A resource's views for API keys and own records (full) and for public flows, and its stored fields. */
interface FieldViews {
  full: FieldView;
  public: FieldView;
  stored: readonly string[];
}

/** Per resource: resources do not change while the process runs, and every request reads them. */
const fieldViews = new WeakMap<Resource, FieldViews>();

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v);

/** Whether rows only read to be serialised may hold their timestamps as ISO strings: no `load` hook wants Dates. */
const isoRows = (resource: Resource) => !resource.load || resource.loadTakesIsoTimestamps === true;

/** Which rows a get may see: any of the account's (an API key), live ones, ones no member owns, or the caller's own. */
type RowScope = 'any' | 'live' | 'unowned' | 'own';

/** What selectRow's statement depends on. */
interface RowShape {
  table: string;
  account: boolean;
  scope: RowScope;
  lock: boolean;
  publicWhere: string | undefined;
  memberWhere: Resource['memberWhere'];
  readColumns: Resource['readColumns'];
}

interface RowStatement {
  text: string;
  name: string;
}

/** The generic record service: SQL, localisation and access narrowing for every resource. */
export class RecordService implements Records {
  /** The service's clock; tests replace it to drive time. */
  now: () => Date = () => new Date();
  private readonly writeListeners: ((slug: string) => void)[] = [];
  /** selectRow's statements by shape, each built once. */
  private readonly rowStatements = new Map<string, RowStatement>();

  constructor(
    readonly db: Knex,
    readonly box: SecretBox,
    readonly registry: Registry,
    readonly holdDaySeconds = 86_400,
    readonly lateLogGraceSeconds = 900,
  ) {}

  private views(resource: Resource): FieldViews {
    let views = fieldViews.get(resource);
    if (!views) {
      const all = Object.entries(resource.fields);
      views = {
        full: fieldView(all),
        public: fieldView(all.filter(([, f]) => f.public)),
        // Every record's timestamps are stored too (CONTRACT §6's common fields).
        stored: [...all.filter(([, f]) => !f.virtual).map(([name]) => name), 'createdAt', 'updatedAt'],
      };
      fieldViews.set(resource, views);
    }
    return views;
  }

  /** Public flows see only the public fields of definitions; own-scoped records show in full. */
  private view(resource: Resource, ctx: RequestContext): FieldView {
    const views = this.views(resource);
    return ctx.flow === 'apikey' || resource.publicScope === 'own' ? views.full : views.public;
  }

  /** Fields that are stored columns (no joins), for responses built from rows at hand. */
  storedFields(resource: Resource): readonly string[] {
    return this.views(resource).stored;
  }

  visibleFields(resource: Resource, ctx: RequestContext): readonly [string, FieldDef][] {
    return this.view(resource, ctx).fields;
  }

  /** The fields a caller may filter and sort by. */
  queryFields(resource: Resource, ctx: RequestContext): ReadonlyMap<string, QueryField> {
    return this.view(resource, ctx).queryFields;
  }

  /** The fields a caller may ask for with `fields`. */
  selectable(resource: Resource, ctx: RequestContext): ReadonlySet<string> {
    return this.view(resource, ctx).selectable;
  }

  /** SQL expression of a field for filters and sorting; localisable fields compare in the read language. */
  private expr(resource: Resource, name: string, ctx: RequestContext): Knex.Raw {
    const system = SYSTEM_FIELDS[name];
    if (system) return this.db.raw('??', [`${resource.table}.${system.column}`]);
    const f = resource.fields[name]!;
    const col = `${resource.table}.${columnOf(name, f)}`;
    if (f.localisable) {
      // The same chain as resolveText: without languageCode the account default comes first, not en.
      const fallback = ctx.account?.defaultLanguageCode ?? 'en';
      return this.db.raw(`coalesce(??->>?, ??->>?, ??->>'en')`, [col, ctx.languageCode ?? fallback, col, fallback, col]);
    }
    return this.db.raw('??', [col]);
  }

  /**
   * A field as filters compare it: numbers as double precision, so an integer column never has to
   * parse 1.5 or 1e20. Datetimes are stored at the millisecond the API shows, so they compare as is.
   */
  private filterExpr(resource: Resource, name: string, ctx: RequestContext): Knex.Raw {
    const e = this.expr(resource, name, ctx);
    const type = SYSTEM_FIELDS[name]?.field.valueType ?? resource.fields[name]!.valueType;
    if (type === 'number') return this.db.raw('(?)::float8', [e]);
    return e;
  }

  /** Narrows a query to what the caller may see: its account, then public or own records. */
  scope(qb: Knex.QueryBuilder, resource: Resource, ctx: RequestContext): Knex.QueryBuilder {
    if (ctx.account) qb.where(`${resource.table}.account_id`, ctx.account.id);
    if (ctx.flow !== 'apikey') {
      if (resource.publicScope === 'own') qb.where(`${resource.table}.owned_by_id`, ctx.memberId ?? null);
      else {
        qb.where(`${resource.table}.status`, 'live');
        if (resource.publicWhere) qb.whereRaw(`(${resource.publicWhere})`);
        if (resource.memberWhere && ctx.memberId !== undefined) qb.whereRaw(`(${resource.memberWhere('?')})`, [ctx.memberId]);
      }
    }
    return qb;
  }

  private applyLeaf(qb: Knex.QueryBuilder, resource: Resource, leaf: FilterLeaf, ctx: RequestContext): void {
    const e = this.filterExpr(resource, leaf.field, ctx);
    const f = resource.fields[leaf.field];
    const sql = e.toSQL();
    const raw = (template: string, ...bindings: unknown[]) =>
      qb.whereRaw(
        template.replaceAll('$E', () => sql.sql),
        bindings.flatMap((b): unknown[] => (b === E ? [...sql.bindings] : [b])) as Knex.RawBinding[],
      );
    switch (leaf.operator) {
      case 'equals':
        raw('$E = ?', E, leaf.value);
        break;
      case 'not_equals':
        raw('$E is distinct from ?', E, leaf.value);
        break;
      case 'in':
        raw('$E = any(?)', E, leaf.value);
        break;
      case 'not_in':
        raw('($E is null or not ($E = any(?)))', E, E, leaf.value);
        break;
      case 'gt':
        raw('$E > ?', E, leaf.value);
        break;
      case 'gte':
        raw('$E >= ?', E, leaf.value);
        break;
      case 'lt':
        raw('$E < ?', E, leaf.value);
        break;
      case 'lte':
        raw('$E <= ?', E, leaf.value);
        break;
      case 'contains':
        if (f?.valueType === 'stringArray') raw('? = any($E)', leaf.value, E);
        else raw(`$E ilike ? escape '\\'`, E, `%${String(leaf.value).replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
        break;
      case 'is_null':
        if (f?.valueType === 'stringArray') raw('coalesce(cardinality($E), 0) = 0', E);
        else raw('$E is null', E);
        break;
      case 'is_not_null':
        if (f?.valueType === 'stringArray') raw('coalesce(cardinality($E), 0) > 0', E);
        else raw('$E is not null', E);
        break;
    }
  }

  private applyFilter(qb: Knex.QueryBuilder, resource: Resource, group: FilterGroup, ctx: RequestContext): void {
    qb.where((outer) => {
      for (const node of group.conditions) {
        const add = (b: Knex.QueryBuilder) =>
          node.kind === 'leaf' ? this.applyLeaf(b, resource, node, ctx) : this.applyFilter(b, resource, node, ctx);
        if (group.operator === 'and') outer.andWhere(add);
        else outer.orWhere(add);
      }
    });
  }

  async list(resource: Resource, ctx: RequestContext, q: ListQuery): Promise<Page> {
    const base = this.scope(this.db(resource.table), resource, ctx);
    if (q.filter && q.filter.conditions.length) this.applyFilter(base, resource, q.filter, ctx);
    const totalQuery = q.fetchTotalCount ? base.clone().clearSelect().count({ n: '*' }) : undefined;
    const rowsQuery = base.clone().select(`${resource.table}.*`);
    for (const s of q.sort) {
      const e = this.expr(resource, s.field, ctx).toSQL();
      rowsQuery.orderByRaw(`${e.sql} ${s.order}`, [...e.bindings]);
    }
    if (!q.sort.some((s) => s.field === 'id')) rowsQuery.orderBy(`${resource.table}.id`, q.sort.at(-1)?.order.toLowerCase() ?? 'asc');
    rowsQuery.offset(q.offset).limit(q.limit + 1);
    const native = rowsQuery.toSQL().toNative();
    // One after the other: a request holds at most one pooled connection at a time.
    const rows = await queryRows(this.db, native.sql, [...native.bindings], { isoTimestamps: isoRows(resource) });
    const totalRows = totalQuery ? await totalQuery : undefined;
    const hasMore = rows.length > q.limit;
    const page = hasMore ? rows.slice(0, q.limit) : rows;
    const data = await this.serialize(resource, page, ctx, { fields: q.fields });
    const paging: Page['paging'] = { offset: q.offset, limit: q.limit, count: data.length, hasMore };
    if (totalRows) paging.total = Number((totalRows as { n: number }[])[0]?.n ?? 0);
    return { data, paging };
  }

  /** Finds a record the caller may see, or answers 404 (also for other accounts and malformed ids). */
  async findRow(resource: Resource, ctx: RequestContext, id: string, trx: Knex = this.db, lock = false): Promise<Row> {
    return this.selectRow(resource, ctx, id, trx, lock, false);
  }

  /**
   * `findRow` for a row that is only serialised (a get): timestamps come as ISO strings unless
   * the resource's load hook may compute with them (`isoRows`); with the resource's `readColumns`.
   */
  async readRow(resource: Resource, ctx: RequestContext, id: string): Promise<Row> {
    return this.selectRow(resource, ctx, id, this.db, false, true);
  }

  /** `read`: the row is only serialised (`readRow`), so it may take ISO timestamps and its resource's `readColumns`. */
  private async selectRow(resource: Resource, ctx: RequestContext, id: string, trx: Knex, lock: boolean, read: boolean): Promise<Row> {
    if (!UUID.test(id)) throw notFound(`No ${resource.slug} record with id ${id}.`);
    const scope: RowScope =
      ctx.flow === 'apikey' ? 'any' : resource.publicScope !== 'own' ? 'live' : ctx.memberId === undefined ? 'unowned' : 'own';
    // In the order rowStatement numbers its parameters.
    const values: unknown[] = [];
    if (ctx.account) values.push(ctx.account.id);
    // A member's own narrowing of live records, as scope() applies it to lists.
    const memberWhere = scope === 'live' && ctx.memberId !== undefined ? resource.memberWhere : undefined;
    if (scope === 'live') values.push('live');
    else if (scope === 'own') values.push(ctx.memberId);
    if (memberWhere) values.push(ctx.memberId);
    values.push(id, 1);
    const account = ctx.account !== undefined;
    // A row read for an update stays the table's columns alone.
    const readColumns = read ? resource.readColumns : undefined;
    const key = `${resource.table} ${scope} ${account} ${lock} ${memberWhere !== undefined} ${readColumns !== undefined}`;
    const statement =
      this.rowStatements.get(key) ??
      (await this.rowStatement(trx, key, {
        table: resource.table,
        account,
        scope,
        lock,
        publicWhere: resource.publicWhere,
        memberWhere,
        readColumns,
      }));
    const [row] = await queryRows(trx, statement.text, values, { isoTimestamps: read && isoRows(resource), name: statement.name });
    if (!row) throw notFound(`No ${resource.slug} record with id ${id}.`);
    return row;
  }

  /**
   * The SQL knex would build for `scope(...).where(id).first()`, written out once per shape: every
   * get's statement, prepared (a lookup by primary key, whose plan cannot go stale). It names the
   * columns `select *` returns now: a prepared `select *` fails once a migration adds a column, a
   * named list goes on returning what this process's code knows.
   */
  private async rowStatement(
    db: Knex,
    key: string,
    { table, account, scope, lock, publicWhere, memberWhere, readColumns }: RowShape,
  ): Promise<RowStatement> {
    const t = ident(table);
    const where: string[] = [];
    let n = 0;
    const param = (column: string) => where.push(`${t}.${ident(column)} = $${++n}`);
    if (account) param('account_id');
    if (scope === 'live') {
      param('status');
      if (publicWhere) where.push(`(${publicWhere})`);
      if (memberWhere) where.push(`(${memberWhere(`$${++n}`)})`);
    } else if (scope === 'unowned') where.push(`${t}."owned_by_id" is null`);
    else if (scope === 'own') param('owned_by_id');
    param('id');
    const columns = [
      ...(await tableColumns(db, table)).map(ident),
      ...Object.entries(readColumns ?? {}).map(([name, sql]) => `${sql(t)} as ${ident(name)}`),
    ].join(', ');
    const text = `select ${columns} from ${t} where ${where.join(' and ')} limit $${++n}${lock ? ' for update' : ''}`;
    const statement = { text, name: statementName(text) };
    this.rowStatements.set(key, statement);
    return statement;
  }

  async serialize(
    resource: Resource,
    rows: Row[],
    ctx: RequestContext,
    options: SerializeOptions = {},
  ): Promise<Record<string, unknown>[]> {
    return this.serializeSoon(resource, rows, ctx, options);
  }

  /**
   * `serialize`, answering at once when nothing has to be loaded first (no virtual field is
   * wanted, or the resource has no load hook): a log's answer serializes a dozen parts, and an
   * await for each cost the hot path more than the serializing.
   */
  serializeSoon(
    resource: Resource,
    rows: Row[],
    ctx: RequestContext,
    options: SerializeOptions = {},
  ): Record<string, unknown>[] | Promise<Record<string, unknown>[]> {
    const visible = this.visibleFields(resource, ctx).filter(([name]) => !options.fields || options.fields.includes(name));
    const wanted = new Set(visible.filter(([, f]) => f.virtual).map(([n]) => n));
    if (!resource.load || !wanted.size || !rows.length) return this.serializeRows(visible, rows, ctx, options);
    const db = options.db ?? this.db;
    const known = options.known ?? NONE_KNOWN;
    return resource
      .load({
        // Every table's rows carry their id and account (migrations' common columns).
        rows: rows as LoadedRow[],
        ctx,
        db,
        wanted,
        serializeJoined: (slug, joined) => this.serialize(this.registry.require(slug), joined, ctx, { db, known }),
        known,
      })
      .then(() => this.serializeRows(visible, rows, ctx, options));
  }

  private serializeRows(
    visible: readonly [string, FieldDef][],
    rows: Row[],
    ctx: RequestContext,
    options: SerializeOptions,
  ): Record<string, unknown>[] {
    const keep = (name: string) => !options.fields || name === 'id' || options.fields.includes(name);
    const createdAt = keep('createdAt');
    const updatedAt = keep('updatedAt');
    // Each field's column once per call rather than once per row.
    const columns = visible.map(([name, f]) => (f.virtual ? name : columnOf(name, f)));
    return rows.map((row) => {
      const out: Record<string, unknown> = { id: row.id };
      for (let i = 0; i < visible.length; i++) {
        const [name, f] = visible[i]!;
        const value = row[columns[i]!];
        if (f.virtual) out[name] = value ?? null;
        else if (f.revealOnce) {
          if (options.reveal && name in options.reveal) out[name] = options.reveal[name];
        } else if (f.codec) out[name] = f.codec.read(value, ctx);
        else if (f.sealed) out[name] = value == null ? null : this.openSealed(f, value as string);
        else if (f.localisable) out[name] = resolveText(value, ctx);
        else out[name] = iso(value) ?? null;
      }
      if (createdAt) out.createdAt = iso(row.created_at);
      if (updatedAt) out.updatedAt = iso(row.updated_at);
      return out;
    });
  }

  private openSealed(f: FieldDef, value: string): unknown {
    const plain = this.box.open(value);
    return f.valueType === 'opaque' ? JSON.parse(plain) : plain;
  }

  /** A stored row as field-keyed values (localisable maps stay maps). */
  rowValues(resource: Resource, row: Row): Values {
    const out: Values = {};
    for (const [name, f] of Object.entries(resource.fields)) {
      if (f.virtual || f.revealOnce) continue;
      out[name] = row[columnOf(name, f)];
    }
    return out;
  }

  /** Field values to columns: sealing, per-language maps, dates and JSON. */
  toColumns(resource: Resource, values: Values, ctx: RequestContext, existing?: Row): Row {
    const out: Row = {};
    for (const [name, value] of Object.entries(values)) {
      const f = resource.fields[name];
      if (!f || f.virtual) continue;
      const col = columnOf(name, f);
      if (f.codec && value != null) out[col] = f.codec.write(value, ctx, existing?.[col]);
      else if (value === null || value === undefined) {
        if (f.localisable && existing) out[col] = this.db.raw(`coalesce(??, '{}'::jsonb) - ?`, [col, writeLanguage(ctx)]);
        else out[col] = null;
      } else if (f.sealed) out[col] = this.box.seal(typeof value === 'string' ? value : JSON.stringify(value));
      else if (f.localisable) {
        const lang = writeLanguage(ctx);
        out[col] = existing
          ? this.db.raw(`coalesce(??, '{}'::jsonb) || jsonb_build_object(?::text, ?::text)`, [col, lang, value as string])
          : JSON.stringify({ [lang]: value });
      } else out[col] = f.toColumn ? f.toColumn(value) : value;
    }
    return out;
  }

  /** Every reference field must name a record of the same account. */
  async checkReferences(trx: Knex, resource: Resource, ctx: RequestContext, values: Values): Promise<void> {
    const details: ErrorDetail[] = [];
    for (const [name, value] of Object.entries(values)) {
      const target = resource.fields[name]?.references;
      if (!target || typeof value !== 'string') continue;
      const table = this.registry.require(target).table;
      const found = await trx(table).where({ account_id: ctx.account!.id, id: value }).first('id');
      if (!found) details.push({ field: name, code: 'not_found', message: `No ${target} record with id ${value}.` });
    }
    if (details.length) throw invalidInput('The body references records that do not exist.', details);
  }

  private validateRecord(resource: Resource, record: Values, op: 'create' | 'update'): void {
    const details = [...checkRules(resource.rules?.conditional ?? [], record), ...(resource.validate?.(record, op) ?? [])];
    if (details.length) throw invalidInput('The body has invalid fields.', details);
  }

  async create(resource: Resource, ctx: RequestContext, body: unknown): Promise<unknown> {
    const values = validateBody(resource, body, 'create');
    this.validateRecord(resource, values, 'create');
    await resource.precheck?.(values, 'create');
    // A create hook (log ingestion) replaces the insert only: it runs its own transactions, and
    // its constraint violations are translated like the generic write's.
    if (resource.create) {
      try {
        return await resource.create({ db: this.db, ctx, values, records: this });
      } catch (err) {
        throw translateUniqueViolation(err, resource);
      }
    }
    return this.write(resource, async (trx) => {
      await this.checkReferences(trx, resource, ctx, values);
      const columns: Row = {};
      await resource.beforeCreate?.({ trx, ctx, values, columns });
      const insert = { ...this.toColumns(resource, values, ctx), ...columns, account_id: ctx.account!.id };
      let [row] = (await trx(resource.table).insert(insert).returning('*')) as Row[];
      if (await resource.afterCreate?.({ trx, ctx, records: this, row: row! }))
        row = (await trx(resource.table).where({ account_id: row!.account_id, id: row!.id }).first()) as Row;
      const [data] = await this.serialize(resource, [row!], ctx, { reveal: values, db: trx });
      return data;
    });
  }

  async update(resource: Resource, ctx: RequestContext, id: string, body: unknown): Promise<unknown> {
    const values = validateBody(resource, body, 'update');
    await resource.precheck?.(values, 'update');
    return this.write(resource, async (trx) => {
      const existing = await this.findRow(resource, ctx, id, trx, true);
      this.validateRecord(resource, { ...this.rowValues(resource, existing), ...values }, 'update');
      await this.checkReferences(trx, resource, ctx, values);
      const columns: Row = {};
      let row: Row;
      if (resource.update) {
        row = await resource.update({ trx, ctx, values, columns, existing, body: body as Values });
      } else {
        await resource.beforeUpdate?.({ trx, ctx, values, columns, existing });
        const patch = { ...this.toColumns(resource, values, ctx, existing), ...columns };
        if (Object.keys(patch).length === 0) row = existing;
        else {
          [row] = (await trx(resource.table)
            .where({ account_id: existing.account_id, id })
            .update({ ...patch, updated_at: trx.fn.now() })
            .returning('*')) as [Row];
        }
      }
      const [data] = await this.serialize(resource, [row], ctx, { db: trx });
      return data;
    });
  }

  async delete(resource: Resource, ctx: RequestContext, id: string): Promise<void> {
    await this.write(resource, async (trx) => {
      if (resource.deleteLock) await trx.raw('select pg_advisory_xact_lock(hashtextextended(?, 0))', [resource.deleteLock(id)]);
      const row = await this.findRow(resource, ctx, id, trx, true);
      await resource.beforeDelete?.({ trx, ctx, row });
      await trx(resource.table).where({ account_id: row.account_id, id }).delete();
    });
  }

  /** Runs a write in a transaction and turns constraint violations into contract errors. */
  async write<T>(resource: Resource, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await transaction(this.db, work);
    } catch (err) {
      throw translateUniqueViolation(err, resource);
    }
    for (const listener of this.writeListeners) listener(resource.slug);
    return result;
  }

  /** Calls `listener` with a resource's slug after each committed write to one of its records. */
  onWrite(listener: (slug: string) => void): void {
    this.writeListeners.push(listener);
  }
}

const E = Symbol('expression');

export function translateUniqueViolation(err: unknown, resource: Resource): unknown {
  const pgErr = databaseError(err);
  if (err instanceof ApiError || pgErr?.code !== '23505') return err;
  const mapped = pgErr.constraint ? resource.uniqueErrors?.[pgErr.constraint] : undefined;
  if (!mapped) return conflict('A record with the same unique value already exists.');
  const detail = { field: mapped.field, code: 'duplicate', message: mapped.message };
  return mapped.status === 400 ? invalidInput(mapped.message, [detail]) : conflict(mapped.message, [detail]);
}
