import type { Knex } from 'knex';
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
 * the change that caused them commits, and delivery picks them up afterwards. The same statement
 * NOTIFYs idle delivery workers; PostgreSQL delivers that only on commit.
 */
export async function emit(trx: Knex.Transaction, accountId: string, events: NewEvent[]): Promise<void> {
  if (!events.length) return;
  const insert = trx('event_log').insert(
    events.map((e, i) => ({
      account_id: accountId,
      event_code: e.code,
      owned_by_id: e.ownedById,
      linked_schema_slug: e.linkedSchemaSlug,
      linked_schema_record_id: e.linkedSchemaRecordId,
      payload: JSON.stringify(e.payload),
      // Timestamps keep milliseconds; a millisecond apart, one log's events keep their order.
      created_at: trx.raw('clock_timestamp() + make_interval(secs => ?)', [i / 1000]),
      updated_at: trx.raw('clock_timestamp()'),
    })),
  );
  await trx.raw('with inserted as (?) select pg_notify(?, ?)', [insert, EVENTS_CHANNEL, '']);
}
