import type { Knex } from 'knex';
import type { EventCode } from '../events/codes.js';
import { CHANNEL_OF_PROVIDER, type IntegrationProvider } from '../schema/notifications.js';
import type { EventLogRow } from '../schema/progress.js';
import type { WebhookRow } from '../schema/webhooks.js';

/** The columns of a live notification rule that dispatch reads (rules' fields sit above the schema layer). */
interface RuleColumns {
  account_id: string;
  id: string;
  event_codes: EventCode[];
  integration_provider: IntegrationProvider;
}

const chunk = <T>(items: T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, i * size + size));

/**
 * Fans new events out to deliveries: one webhook log per matching live webhook and one
 * notification log per matching live rule, and marks the events dispatched, all in one
 * transaction. SKIP LOCKED lets several workers dispatch at once without taking an event twice.
 */
export async function dispatchEvents(db: Knex, limit = 500): Promise<number> {
  return db.transaction(async (trx) => {
    const events = await trx<EventLogRow>('event_log')
      .whereNull('dispatched_at')
      .orderBy('created_at')
      .limit(limit)
      .forUpdate()
      .skipLocked()
      .select('account_id', 'id', 'event_code', 'owned_by_id');
    if (!events.length) return 0;
    const accounts = [...new Set(events.map((e) => e.account_id))];
    const webhooks = await trx<WebhookRow>('webhook')
      .whereIn('account_id', accounts)
      .where('status', 'live')
      .select('account_id', 'id', 'event_codes');
    const rules = await trx('notification')
      .whereIn('account_id', accounts)
      .where('status', 'live')
      .select<RuleColumns[]>('account_id', 'id', 'event_codes', 'integration_provider');
    const matches = (subscriber: Pick<RuleColumns, 'account_id' | 'event_codes'>, event: Pick<EventLogRow, 'account_id' | 'event_code'>) =>
      subscriber.account_id === event.account_id && subscriber.event_codes.includes(event.event_code);

    const webhookLogs = events.flatMap((e) =>
      webhooks
        .filter((w) => matches(w, e))
        .map((w) => ({
          account_id: e.account_id,
          webhook_id: w.id,
          event_log_ids: [e.id],
          next_retry_at: trx.fn.now(),
        })),
    );
    const notificationLogs = events.flatMap((e) =>
      e.owned_by_id
        ? rules
            .filter((r) => matches(r, e))
            .map((r) => ({
              account_id: e.account_id,
              notification_id: r.id,
              event_log_id: e.id,
              owned_by_id: e.owned_by_id,
              channel: CHANNEL_OF_PROVIDER[r.integration_provider],
            }))
        : [],
    );
    for (const rows of chunk(webhookLogs, 1000)) await trx('webhook_log').insert(rows);
    for (const rows of chunk(notificationLogs, 1000)) await trx('notification_log').insert(rows);
    for (const part of chunk(events, 1000)) {
      await trx('event_log')
        .whereIn('account_id', [...new Set(part.map((e) => e.account_id))])
        .whereIn(
          'id',
          part.map((e) => e.id),
        )
        .update({ dispatched_at: trx.fn.now() });
    }
    return events.length;
  });
}
