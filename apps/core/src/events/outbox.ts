import type { Knex } from 'knex';
import { numbered, runOnce } from '../db/prepared.js';
import { currentTraceParent } from '../observability/trace.js';
import type { EventCode } from './codes.js';
import { EVENTS_CHANNEL } from './wakeup.js';

export interface NewEvent {
  code: EventCode;
  ownedById: string | null;
  /** The progress record the event concerns. */
  linkedSchemaSlug: string;
  linkedSchemaRecordId: string;
  payload: Record<string, unknown>;
}

/**
 * An INSERT of events passed as one JSON parameter, to run alone or inside a larger statement
 * (a WHERE clause may follow). Timestamps keep milliseconds, so each event is a millisecond after
 * the one before it and one log's events keep their order. Each carries the active trace context.
 */
export function eventsInsert(accountId: string, events: NewEvent[]): { sql: string; bindings: Knex.RawBinding[] } {
  const rows = events.map((e, ord) => ({
    code: e.code,
    owned_by_id: e.ownedById,
    slug: e.linkedSchemaSlug,
    record_id: e.linkedSchemaRecordId,
    payload: e.payload,
    ord,
  }));
  return { sql: EVENTS_INSERT_SQL, bindings: [accountId, currentTraceParent(), JSON.stringify(rows)] };
}

/** The text of `eventsInsert`, its three placeholders knex-style (`?`). */
export const EVENTS_INSERT_SQL = `insert into event_log (account_id, event_code, owned_by_id, linked_schema_slug, linked_schema_record_id, payload, trace_parent, created_at, updated_at)
          select ?::uuid, e.code, e.owned_by_id, e.slug, e.record_id, e.payload, ?::text, clock_timestamp() + make_interval(secs => e.ord / 1000.0), clock_timestamp()
            from jsonb_to_recordset(?::jsonb) as e(code text, owned_by_id uuid, slug text, record_id uuid, payload jsonb, ord int)`;

/** Wakes idle delivery workers (see events/wakeup.ts); PostgreSQL delivers it only on commit. */
export const NOTIFY_SQL = 'pg_notify(?, ?)';
export const NOTIFY_BINDINGS: Knex.RawBinding[] = [EVENTS_CHANNEL, ''];

/**
 * Writes events in the caller's transaction (the transactional outbox): they exist exactly when
 * the change that caused them commits, and delivery picks them up afterwards.
 */
export async function emit(trx: Knex.Transaction, accountId: string, events: NewEvent[]): Promise<void> {
  if (!events.length) return;
  const insert = eventsInsert(accountId, events);
  await runOnce(trx, { text: EMIT_SQL, values: [...insert.bindings, ...NOTIFY_BINDINGS] });
}

/** Wakes idle delivery workers once the caller's transaction commits, for events it wrote without `emit`. */
export async function wakeAtCommit(trx: Knex): Promise<void> {
  await runOnce(trx, { text: WAKE_SQL, values: NOTIFY_BINDINGS });
}

const WAKE_SQL = numbered(`select ${NOTIFY_SQL}`);

// The same text for any events: numbered once.
const EMIT_SQL = numbered(`with inserted as (${EVENTS_INSERT_SQL}) select ${NOTIFY_SQL}`);
