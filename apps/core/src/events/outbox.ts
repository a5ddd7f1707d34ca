import type { Knex } from 'knex';
import type { Row } from '../records/resource.js';
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
 * Writes events in the caller's transaction (the transactional outbox): they exist exactly when
 * the change that caused them commits, and delivery picks them up afterwards.
 */
export async function emit(trx: Knex.Transaction, accountId: string, events: NewEvent[]): Promise<Row[]> {
  if (!events.length) return [];
  // clock_timestamp() orders a transaction's events; now() is the same for all of them.
  const rows: Row[] = [];
  for (const e of events) {
    const [row] = (await trx('event_log')
      .insert({
        account_id: accountId,
        event_code: e.code,
        owned_by_id: e.ownedById,
        linked_schema_slug: e.linkedSchemaSlug,
        linked_schema_record_id: e.linkedSchemaRecordId,
        payload: JSON.stringify(e.payload),
        created_at: trx.raw('clock_timestamp()'),
        updated_at: trx.raw('clock_timestamp()'),
      })
      .returning('*')) as Row[];
    rows.push(row!);
  }
  // Delivered on commit only; wakes idle delivery workers (see events/wakeup.ts).
  await trx.raw('select pg_notify(?, ?)', [EVENTS_CHANNEL, '']);
  return rows;
}
