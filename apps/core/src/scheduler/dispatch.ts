import type { Knex } from 'knex';
import type { Row } from '../db/rows.js';
import { CHANNEL_OF_PROVIDER, type IntegrationProvider } from '../notifications/channels.js';

const chunk = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, i * size + size));

/**
 * Fans new events out to deliveries: one webhook log per matching live webhook and one
 * notification log per matching live rule, and marks the events dispatched, all in one
 * transaction. SKIP LOCKED lets several workers dispatch at once without taking an event twice.
 */
export async function dispatchEvents(db: Knex, limit = 500): Promise<number> {
  return db.transaction(async (trx) => {
    const events = (await trx('event_log')
      .whereNull('dispatched_at')
      .orderBy('created_at')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .select('account_id', 'id', 'event_code', 'owned_by_id')) as Row[];
    if (!events.length) return 0;
    const accounts = [...new Set(events.map((e) => e.account_id as string))];
    const webhooks = (await trx('webhook').whereIn('account_id', accounts).where('status', 'live').select('account_id', 'id', 'event_codes')) as Row[];
    const rules = (await trx('notification')
      .whereIn('account_id', accounts)
      .where('status', 'live')
      .select('account_id', 'id', 'event_codes', 'integration_provider')) as Row[];
    const matches = (subscriber: Row, event: Row) =>
      subscriber.account_id === event.account_id && (subscriber.event_codes as string[]).includes(event.event_code as string);

    const webhookLogs = events.flatMap((e) =>
      webhooks.filter((w) => matches(w, e)).map((w) => ({
        account_id: e.account_id,
        webhook_id: w.id,
        event_log_ids: [e.id],
        next_retry_at: trx.fn.now(),
      })),
    );
    const notificationLogs = events.flatMap((e) =>
      e.owned_by_id
        ? rules.filter((r) => matches(r, e)).map((r) => ({
            account_id: e.account_id,
            notification_id: r.id,
            event_log_id: e.id,
            owned_by_id: e.owned_by_id,
            channel: CHANNEL_OF_PROVIDER[r.integration_provider as IntegrationProvider],
          }))
        : [],
    );
    for (const rows of chunk(webhookLogs, 1000)) await trx('webhook_log').insert(rows);
    for (const rows of chunk(notificationLogs, 1000)) await trx('notification_log').insert(rows);
    for (const part of chunk(events, 1000)) {
      await trx('event_log')
        .whereIn('account_id', [...new Set(part.map((e) => e.account_id as string))])
        .whereIn('id', part.map((e) => e.id as string))
        .update({ dispatched_at: trx.fn.now() });
    }
    return events.length;
  });
}
