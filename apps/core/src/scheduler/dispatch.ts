import type { Knex } from 'knex';
import { rowsFromJson } from '../db/json.js';
import { numbered, run } from '../db/prepared.js';
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

const DISPATCH = numbered(`
  with due as (
    select ${DELIVERY_EVENT_COLUMNS} from event_log
     where dispatched_at is null order by created_at limit ? for update skip locked
  ), marked as (
    update event_log e set dispatched_at = now() from due where e.account_id = due.account_id and e.id = due.id
  ), hooks as (
    -- New deliveries, leased (with a lease) to the dispatching worker as far as its room goes; the
    -- rest wait, due, for a claim.
    insert into webhook_log (account_id, webhook_id, event_log_ids, next_retry_at, lease_until)
    select due.account_id, w.id, array[due.id], now(),
           case when row_number() over (order by due.created_at, due.id, w.id) <= ?::int then ?::timestamptz end
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
         case when ?::boolean then (select coalesce(json_agg(h), '[]') from hooks h where h.lease_until is not null) end as leased,
         case when ?::boolean then (select coalesce(json_agg(w), '[]') from webhook w
           where (w.account_id, w.id) in (select account_id, webhook_id from hooks where lease_until is not null)) end as webhooks,
         case when ?::boolean then (select coalesce(json_agg(due), '[]') from due
           where due.id in (select unnest(event_log_ids) from hooks where lease_until is not null)) end as event_rows`);

/**
 * Dispatches as \`dispatchEvents\` does. With a lease, the webhook logs it creates are leased to
 * the caller, \`free\` at most, and come back with their webhooks and events, so a worker
 * delivers them at once: no claim, no second read.
 */
export async function dispatchAndLease(db: Knex, lease: { until: Date; free: number } | undefined, limit = 500): Promise<Dispatched> {
  const rows = await run<{ events: number; leased: unknown; webhooks: unknown; event_rows: unknown }>(db, {
    text: DISPATCH,
    values: [limit, lease?.free ?? 0, lease?.until ?? null, JSON.stringify(CHANNEL_OF_PROVIDER), !!lease, !!lease, !!lease],
  });
  // One row always: the statement's select has no FROM.
  const row = rows[0]!;
  return {
    events: row.events,
    leased: rowsFromJson<WebhookLogRow>(row.leased),
    webhooks: rowsFromJson<WebhookRow>(row.webhooks),
    eventRows: rowsFromJson<DeliveryEventRow>(row.event_rows),
  };
}
