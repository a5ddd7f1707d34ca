import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { ident, run, type Sql, SqlBuilder } from '../db/prepared.js';
import { databaseError } from '../errors.js';
import { eventsInsert, type NewEvent } from '../events/outbox.js';
import type { Row } from '../records/resource.js';

/**
 * The version a row was read at (PostgreSQL's xmin, which every update changes), carried on rows
 * the engine may update. Read it with `versioned(alias)`.
 */
const VERSION = 'row_version';
/** A row as `versioned` reads it, or as this set inserted it (no version: it is not written yet). */
export type Versioned<R> = R & { [VERSION]?: string };
export const versioned = (alias: string) => `to_jsonb(${alias}) || jsonb_build_object('${VERSION}', ${alias}.xmin::text)`;
/** The version of a row read as JSON without it (`alias.xmin::text` read beside it), put on the row. */
export const withVersion = <R>(row: R, version: string): Versioned<R> => ({ ...row, [VERSION]: version });

/** SQLSTATE of the statement that found a row changed since it was read: retry from the reads. */
const CHANGED_SINCE_READ = '40001';

interface PendingUpdate {
  table: string;
  id: string;
  version: string;
  patch: Row;
}

/**
 * A new row's `updated_at` is never before its `created_at`: the attempt's clock (`tx.now`, read
 * when the request began) stamps changes, the set's own (`createdAt`) new rows, a little later.
 */
function notUpdatedBeforeCreated(row: Row): Row {
  if (row.updated_at instanceof Date && row.created_at instanceof Date && row.updated_at < row.created_at) row.updated_at = row.created_at;
  return row;
}

/**
 * The rows one log's aggregation writes, collected while it decides and written by one statement.
 * Updates are conditional on the version each row was read at and the statement fails as a whole
 * (CHANGED_SINCE_READ) when any row changed meanwhile, so aggregation may read without locks.
 * Rows handed back are what the database will hold, so the response is built before the write.
 */
export class WriteSet {
  private readonly inserts: { table: string; rows: Row[] }[] = [];
  private readonly inserted = new Map<string, Row>();
  private readonly insertedByTable = new Map<string, Row[]>();
  private readonly updates = new Map<string, PendingUpdate>();
  private readonly events: NewEvent[] = [];

  /** When new rows are created: the wall clock, as a database default would have it. */
  readonly createdAt = new Date();

  /** The advisory lock whose holder this set's write gives way to; see yieldTo. */
  private yieldKey: string | undefined;
  /** The advisory lock this set's write shares; see shareWith. */
  private shareKey: string | undefined;

  constructor(private readonly accountId: string) {}

  /**
   * Makes the write fail as changed-since-read while a transaction holds the advisory lock on
   * `key`. For writes that read without the lock: a locked attempt holds it from its reads to its
   * commit, and an unlocked write slipping in between would make it lose its race again and again
   * to a stream of newcomers.
   */
  yieldTo(key: string): void {
    this.yieldKey = key;
  }

  /**
   * Makes the write share the advisory lock on `key` until its commit, and fail as changed since
   * read while another transaction holds it alone (a member's erasure: its retry, locked, waits).
   */
  shareWith(key: string): void {
    this.shareKey = key;
  }

  /**
   * New rows of one table, all with the same columns; id and timestamps are filled in unless given.
   * Columns left out are the table's nulls and defaults: the caller names the row type it inserts.
   */
  insert<R extends { id: string }>(table: string, values: Partial<R>[]): R[] {
    const rows: Row[] = values.map((v) => ({
      id: randomUUID(),
      account_id: this.accountId,
      created_at: this.createdAt,
      updated_at: this.createdAt,
      ...v,
    }));
    for (const row of rows) this.inserted.set(`${table}:${row.id}`, notUpdatedBeforeCreated(row));
    const ofTable = this.insertedByTable.get(table);
    if (ofTable) ofTable.push(...rows);
    else this.insertedByTable.set(table, [...rows]);
    if (rows.length) this.inserts.push({ table, rows });
    // What the database will hold once written, as the row type reads it.
    return rows as R[];
  }

  /** The rows this set inserted into a table, in order, as updates left them (a recompute's replay reads them). */
  insertedInto<R>(table: string): readonly R[] {
    // Rows of `table`, inserted as an R by the callers that named it.
    return (this.insertedByTable.get(table) ?? []) as R[];
  }

  /** A change to a row read with its version, or to a row inserted by this set. */
  update<R extends { id: string }>(table: string, row: Versioned<R>, patch: Partial<R>): R {
    const key = `${table}:${row.id}`;
    const pending = this.inserted.get(key);
    // The inserted row itself changes, so the statement writes it as it ends up; it is of this table, so an R.
    if (pending) return notUpdatedBeforeCreated(Object.assign(pending, patch)) as R;
    const earlier = this.updates.get(key);
    if (earlier) Object.assign(earlier.patch, patch);
    else {
      const version = row[VERSION];
      if (typeof version !== 'string') throw new Error(`${table} row ${row.id} was read without its version`);
      this.updates.set(key, { table, id: row.id, version, patch: { ...patch } });
    }
    return { ...row, ...patch };
  }

  /** A row read before this set changed it, as the set will write it. */
  current<R extends { id: string }>(table: string, row: R): R {
    const pending = this.updates.get(`${table}:${row.id}`);
    return pending ? { ...row, ...pending.patch } : row;
  }

  /** Events into the outbox, written with the change that caused them; the caller wakes the workers once committed. */
  emit(events: NewEvent[]): void {
    this.events.push(...events);
  }

  get emitsEvents(): boolean {
    return this.events.length > 0;
  }

  /** Writes everything, in one statement. */
  async write(db: Knex): Promise<void> {
    await run(db, this.statement());
  }

  /**
   * The one statement that writes everything. Inserts wait for the updates, so a row leaving a
   * partial unique index (a run closing) makes room for its successor in the same statement.
   * A unique violation (a replayed log) fails it as a whole too.
   */
  private statement(): Sql {
    const b = new SqlBuilder();
    const ctes: string[] = [];
    // Taken for the statement's own transaction; false while a locked attempt holds it.
    if (this.yieldKey) ctes.push(`gate as (select pg_try_advisory_xact_lock(hashtextextended(${b.param(this.yieldKey)}, 0)) as free)`);
    if (this.shareKey)
      ctes.push(`shared as (select pg_try_advisory_xact_lock_shared(hashtextextended(${b.param(this.shareKey)}, 0)) as free)`);
    const open = this.yieldKey ? ' and (select free from gate)' : '';
    const updates = [...this.updates.values()];
    updates.forEach((u, i) => {
      const set = Object.entries(u.patch).map(([column, value]) => `${ident(column)} = ${b.param(value)}`);
      ctes.push(
        `u${i} as (update ${ident(u.table)} set ${set.join(', ')} where account_id = ${b.param(this.accountId)} and id = ${b.param(u.id)} and xmin = ${b.param(u.version)}::text::xid${open} returning 1)`,
      );
    });
    if (updates.length) ctes.push(`updated as (${updates.map((_, i) => `select 1 from u${i}`).join(' union all ')})`);
    const afterUpdates = updates.length ? ` where (select count(*) from updated) = ${updates.length}` : '';
    this.inserts.forEach(({ table, rows }, i) => {
      const list = Object.keys(rows[0]!).map(ident).join(', ');
      ctes.push(
        `i${i} as (insert into ${ident(table)} (${list}) select ${list} from json_populate_recordset(null::${ident(table)}, ${b.param(JSON.stringify(rows))}::json)${afterUpdates})`,
      );
    });
    if (this.events.length) {
      const events = eventsInsert(this.accountId, this.events);
      ctes.push(`events as (${b.numbered(events.sql, events.bindings)})`);
    }
    // A failed check rolls the whole statement back, inserts and events included.
    const conditions = [
      ...(updates.length ? [`(select count(*) from updated) = ${updates.length}`] : []),
      ...(this.yieldKey ? ['(select free from gate)'] : []),
      ...(this.shareKey ? ['(select free from shared)'] : []),
    ];
    const check = conditions.length ? `loyalty_expect_unchanged(${conditions.join(' and ')})` : 'true';
    return b.sql(`${ctes.length ? `with ${ctes.join(', ')} ` : ''}select ${check} as written`);
  }
}

export const isChangedSinceRead = (err: unknown): boolean => databaseError(err)?.code === CHANGED_SINCE_READ;
