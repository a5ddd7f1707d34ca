import type { Knex } from 'knex';
import { rowsFromJson } from '../db/json.js';
import { CHANNEL_OF_PROVIDER } from '../schema/notifications.js';
import type { WebhookLogRow, WebhookRow } from '../schema/webhooks.js';
import { DELIVERY_EVENT_COLUMNS, type DeliveryEventRow } from '../webhooks/delivery.js';

/**
 * Fans new events out to deliveries: one webhook log per matching live webhook and one
 * notification log per matching live rule, and marks the events dispatched, all in one
 * statement. SKIP LOCKED lets several workers dispatch at once without taking an event twice.
 */
export async function dispatchEvents(db: Knex, limit = 500): Promise<number> {
  return (await dispatchAndLease(db, undefined, limit)).events;
}

export interface Dispatched {
  /** Events dispatched. */
  events: number;
  /** With a lease: the webhook logs created, leased to the caller, with what delivering them needs. */
  leased: WebhookLogRow[];
  webhooks: WebhookRow[];
  eventRows: DeliveryEventRow[];
}

const DISPATCH = `
  with due as (
    select ${DELIVERY_EVENT_COLUMNS} from event_log
     where dispatched_at is null order by created_at limit ? for update skip locked
  ), marked as (
    update event_log e set dispatched_at = now() from due where e.account_id = due.account_id and e.id = due.id
  ), hooks as (
    insert into webhook_log (account_id, webhook_id, event_log_ids, next_retry_at, lease_until)
    select due.account_id, w.id, array[due.id], now(), ?::timestamptz
      from due join webhook w on w.account_id = due.account_id and w.status = 'live' and due.event_code = any(w.event_codes)
     order by due.created_at
    returning *
  ), notes as (
    insert into notification_log (account_id, notification_id, event_log_id, owned_by_id, channel)
    select due.account_id, r.id, due.id, due.owned_by_id, c.channel
      from due join notification r on r.account_id = due.account_id and r.status = 'live' and due.event_code = any(r.event_codes)
      join jsonb_each_text(?::jsonb) as c(provider, channel) on c.provider = r.integration_provider
     where due.owned_by_id is not null
  )
  select (select count(*) from due)::int as events,
         case when ?::boolean then (select coalesce(json_agg(h), '[]') from hooks h) end as leased,
         case when ?::boolean then (select coalesce(json_agg(w), '[]') from webhook w
           where (w.account_id, w.id) in (select account_id, webhook_id from hooks)) end as webhooks,
         case when ?::boolean then (select coalesce(json_agg(due), '[]') from due
           where due.id in (select unnest(event_log_ids) from hooks)) end as event_rows`;

/**
 * Dispatches as \`dispatchEvents\` does. With \`leaseUntil\`, the webhook logs it creates are
 * already leased to the caller and come back with their webhooks and events, so a worker
 * delivers them at once: no claim, no second read.
 */
export async function dispatchAndLease(db: Knex, leaseUntil: Date | undefined, limit = 500): Promise<Dispatched> {
  const lease = leaseUntil !== undefined;
  const result = await db.raw<{ rows: { events: number; leased: unknown; webhooks: unknown; event_rows: unknown }[] }>(DISPATCH, [
    limit,
    leaseUntil ?? null,
    JSON.stringify(CHANNEL_OF_PROVIDER),
    lease,
    lease,
    lease,
  ]);
  const row = result.rows[0]!;
  return {
    events: row.events,
    leased: rowsFromJson<WebhookLogRow>(row.leased),
    webhooks: rowsFromJson<WebhookRow>(row.webhooks),
    eventRows: rowsFromJson<DeliveryEventRow>(row.event_rows),
  };
}
