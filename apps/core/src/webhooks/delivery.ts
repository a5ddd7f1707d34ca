import type { Resolver } from 'node:dns/promises';
import type { Knex } from 'knex';
import type { SecretBox } from '../auth/crypto.js';
import { inPool } from '../concurrency.js';
import type { Config } from '../config.js';
import { count } from '../observability/metrics.js';
import { contextOf, currentTraceParent, inSpan } from '../observability/trace.js';
import type { EventLogRow } from '../schema/progress.js';
import type { WebhookLogRow, WebhookRow } from '../schema/webhooks.js';
import { DeliveryError, postJson } from './post.js';
import { signedHeaders } from './signing.js';

export interface DeliveryDeps {
  db: Knex;
  box: SecretBox;
  config: Config;
  resolver: Resolver;
}

/** How long a claimed delivery stays with its worker: the time-out plus room to record the result. */
const leaseMs = (config: Config) => config.webhookTimeoutMs + 5_000;
/** The lease a worker takes on deliveries it claims or dispatches to itself. */
export const leaseUntil = (config: Config, now: Date): Date => new Date(now.getTime() + leaseMs(config));
const PAUSED_RECHECK_MS = 60_000;

/**
 * Claims due webhook logs for this worker. The lease means no other worker delivers them at the
 * same time, and a worker that dies mid-delivery hands them back when the lease runs out.
 */
async function claim(deps: DeliveryDeps, now: Date, limit: number): Promise<WebhookLogRow[]> {
  const result = await deps.db.raw<{ rows: WebhookLogRow[] }>(
    `update webhook_log set lease_until = ?
      where (account_id, id) in (
        select account_id, id from webhook_log
         where webhook_log_status in ('pending', 'errored') and next_retry_at <= ?
           and (lease_until is null or lease_until < ?)
         order by next_retry_at
         limit ?
         for update skip locked)
     returning *`,
    [leaseUntil(deps.config, now), now, now, limit],
  );
  return result.rows;
}

/**
 * An event as delivery reads it: its payload stays the JSON text PostgreSQL returns, spliced into
 * the envelope as it is; parsing it only to serialise it again was a tenth of a worker's CPU.
 */
export type DeliveryEventRow = Pick<EventLogRow, 'account_id' | 'id' | 'event_code' | 'owned_by_id' | 'created_at' | 'trace_parent'> & {
  payload_json: string;
};

/** The columns of a `DeliveryEventRow`, for statements that read events to deliver. */
export const DELIVERY_EVENT_COLUMNS = 'account_id, id, event_code, owned_by_id, created_at, trace_parent, payload::text as payload_json';

const eventJson = (e: DeliveryEventRow) =>
  `{"id":"${e.id}","eventCode":${JSON.stringify(e.event_code)},"createdAt":"${e.created_at.toISOString()}","ownedById":${JSON.stringify(e.owned_by_id)},"payload":${e.payload_json}}`;

function envelope(log: WebhookLogRow, events: DeliveryEventRow[]): string {
  return `{"id":"${log.id}","accountId":"${log.account_id}","createdAt":"${log.created_at.toISOString()}","events":[${events.map(eventJson).join(',')}]}`;
}

/** The state after an attempt (CONTRACT §10): processed, or errored with the next retry, or max_errored. */
export function afterAttempt(
  log: WebhookLogRow,
  outcome: { status?: number; error?: string },
  now: Date,
  schedule: number[],
): Partial<WebhookLogRow> {
  const retried = log.retry_count > 0 || log.webhook_log_status === 'errored';
  const common = {
    lease_until: null,
    last_response_status: outcome.status ?? null,
    updated_at: now,
    ...(retried ? { last_retried_at: now } : {}),
  };
  if (outcome.status !== undefined && outcome.status >= 200 && outcome.status < 300) {
    return { ...common, webhook_log_status: 'processed', delivered_at: now, next_retry_at: null, last_error: null };
  }
  const retryCount = log.retry_count + 1;
  const delay = schedule[retryCount - 1];
  const lastError = outcome.error ?? `HTTP ${outcome.status}`;
  if (delay === undefined)
    return { ...common, webhook_log_status: 'max_errored', retry_count: retryCount, next_retry_at: null, last_error: lastError };
  return {
    ...common,
    webhook_log_status: 'errored',
    retry_count: retryCount,
    next_retry_at: new Date(now.getTime() + delay * 1000),
    last_error: lastError,
  };
}

/** What an attempt leaves a delivery as, to be recorded with the others of its batch. */
interface Attempted {
  log: WebhookLogRow;
  after: Partial<WebhookLogRow>;
  /** For the metrics: the attempt's number and the age of its oldest event; undefined when the webhook is paused. */
  attempt?: number;
  oldestEventAt?: number;
}

async function deliverOne(
  deps: DeliveryDeps,
  log: WebhookLogRow,
  webhook: WebhookRow | undefined,
  secret: () => string,
  events: DeliveryEventRow[],
  now: () => Date,
): Promise<Attempted> {
  if (!webhook || webhook.status !== 'live') {
    // A paused webhook receives nothing; its deliveries wait, uncounted, until it is live again.
    return { log, after: { lease_until: null, next_retry_at: new Date(now().getTime() + PAUSED_RECHECK_MS) } };
  }
  const attempt = log.retry_count + 1;
  const attributes = { 'loyalty.webhook_id': webhook.id, 'loyalty.webhook_log_id': log.id, 'loyalty.attempt': attempt };
  // The delivery joins the trace of the request that wrote its (first) event, across processes.
  return inSpan(
    'webhook delivery',
    attributes,
    async (span) => {
      // Encoded once, for both signatures and the request.
      const body = Buffer.from(envelope(log, events));
      const headers = signedHeaders(secret(), log.id, Math.floor(now().getTime() / 1000), body);
      // A recorded delivery's POST gets its traceparent from the undici instrumentation; one whose
      // trace was left out still tells the receiver so, as W3C propagation does.
      const leftOut = span ? null : currentTraceParent();
      if (leftOut) headers.traceparent = leftOut;
      let outcome: { status?: number; error?: string };
      try {
        const res = await postJson(webhook.endpoint_url, body, headers, {
          timeoutMs: deps.config.webhookTimeoutMs,
          resolver: deps.resolver,
          allowPrivate: deps.config.webhookAllowPrivate,
        });
        outcome =
          res.status >= 300 && res.status < 400
            ? { status: res.status, error: `HTTP ${res.status}: redirects are not followed` }
            : { status: res.status };
      } catch (err) {
        outcome = { error: err instanceof DeliveryError ? err.message : 'delivery failed' };
      }
      const after = afterAttempt(log, outcome, now(), deps.config.webhookRetrySchedule);
      span?.setAttribute('loyalty.webhook_log_status', after.webhook_log_status!);
      // Lag on the wall clock: created_at is the database's clock, not the service's (tests move that).
      const oldestEventAt = events.length ? Math.min(...events.map((e) => e.created_at.getTime())) : undefined;
      return { log, after, attempt, oldestEventAt };
    },
    { parent: contextOf(events[0]?.trace_parent) },
  );
}

/**
 * Records attempts in one statement. Its commit does not wait for the WAL flush: a
 * result lost to a crash leaves the delivery leased, and it is delivered again under the same
 * webhook-id once the lease runs out (CONTRACT §10 allows twice; receivers dedupe on it).
 */
async function record(db: Knex, attempted: Attempted[]): Promise<void> {
  if (!attempted.length) return;
  const rows = attempted.map(({ log, after }) => {
    const row = { ...log, ...after };
    return {
      account_id: row.account_id,
      id: row.id,
      webhook_log_status: row.webhook_log_status,
      retry_count: row.retry_count,
      last_retried_at: row.last_retried_at,
      next_retry_at: row.next_retry_at,
      last_response_status: row.last_response_status,
      last_error: row.last_error,
      delivered_at: row.delivered_at,
      lease_until: row.lease_until,
      updated_at: row.updated_at,
    };
  });
  await db.raw(
    `with r as (
       select * from jsonb_to_recordset(?::jsonb) as r(account_id uuid, id uuid, webhook_log_status text, retry_count int,
         last_retried_at timestamptz, next_retry_at timestamptz, last_response_status int, last_error text,
         delivered_at timestamptz, lease_until timestamptz, updated_at timestamptz)
     ), u as (
       update webhook_log w set webhook_log_status = r.webhook_log_status, retry_count = r.retry_count,
              last_retried_at = r.last_retried_at, next_retry_at = r.next_retry_at, last_response_status = r.last_response_status,
              last_error = r.last_error, delivered_at = r.delivered_at, lease_until = r.lease_until, updated_at = r.updated_at
         from r where w.account_id = r.account_id and w.id = r.id
       returning 1
     )
     select set_config('synchronous_commit', 'off', true), (select count(*) from u)`,
    [JSON.stringify(rows)],
  );
}

/** Time kept at the end of a lease for recording the attempt made under it. */
const RECORD_MARGIN_MS = 1_000;

/**
 * Records attempts a group at a time as they end (once `size` wait, or `delayMs` after the first
 * of a group): each is recorded inside its lease however long the batch's slowest receivers take,
 * in a few statements rather than one per delivery.
 */
function recorder(db: Knex, size: number, delayMs = 50) {
  let group: Attempted[] = [];
  let timer: NodeJS.Timeout | undefined;
  let chain = Promise.resolve();
  let failure: unknown;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    const taken = group;
    group = [];
    if (taken.length)
      chain = chain
        .then(() => record(db, taken))
        .catch((err: unknown) => {
          failure ??= err;
        });
  };
  return {
    add(attempted: Attempted) {
      group.push(attempted);
      if (group.length >= size) flush();
      else timer ??= setTimeout(flush, delayMs);
    },
    async done() {
      flush();
      await chain;
      if (failure !== undefined) throw failure;
    },
  };
}

/**
 * Delivers webhook logs this worker holds the lease of, \`width\` at a time, recording outcomes as
 * they come. A delivery whose POST could not end inside its lease (slow receivers held the lanes)
 * is handed back unsent: once the lease ran out another worker could take it, and both would send
 * it. Each webhook's secret is opened once per batch.
 */
export async function deliverLeased(
  deps: DeliveryDeps,
  logs: WebhookLogRow[],
  webhooks: WebhookRow[],
  events: DeliveryEventRow[],
  now: () => Date,
  width = 32,
): Promise<number> {
  if (!logs.length) return 0;
  const byId = new Map(webhooks.map((w) => [w.id, w]));
  const eventsById = new Map(events.map((e) => [e.id, e]));
  const secrets = new Map<string, string>();
  const secretOf = (w: WebhookRow) => () => {
    let secret = secrets.get(w.id);
    if (secret === undefined) secrets.set(w.id, (secret = deps.box.open(w.webhook_secret_enc)));
    return secret;
  };
  const attempted: Attempted[] = [];
  const outcomes = recorder(deps.db, width);
  await inPool(logs, width, async (log) => {
    if (log.lease_until && now().getTime() + deps.config.webhookTimeoutMs + RECORD_MARGIN_MS > log.lease_until.getTime()) {
      outcomes.add({ log, after: { lease_until: null } });
      return;
    }
    const webhook = byId.get(log.webhook_id);
    const logEvents = log.event_log_ids.map((id) => eventsById.get(id)).filter((e): e is DeliveryEventRow => !!e);
    let done: Attempted;
    try {
      done = await deliverOne(deps, log, webhook, webhook ? secretOf(webhook) : () => '', logEvents, now);
    } catch {
      // Failing before the POST (a secret that does not open) is a failed attempt, so the rest of the batch is still recorded.
      const after = afterAttempt(log, { error: 'delivery failed' }, now(), deps.config.webhookRetrySchedule);
      done = { log, after, attempt: log.retry_count + 1 };
    }
    attempted.push(done);
    outcomes.add(done);
  });
  await outcomes.done();
  for (const { after, attempt, oldestEventAt } of attempted) {
    if (attempt === undefined) continue;
    const status = after.webhook_log_status!;
    count.webhookAttempt(
      status,
      attempt,
      status === 'processed' && oldestEventAt !== undefined ? (Date.now() - oldestEventAt) / 1000 : undefined,
    );
  }
  return logs.length;
}

/** Delivers due webhook logs; returns how many it took (attempted, or handed back unsent for want of time left in their lease). */
export async function deliverDueWebhooks(deps: DeliveryDeps, now: () => Date, limit = 100, width = 32): Promise<number> {
  const logs = await claim(deps, now(), limit);
  if (!logs.length) return 0;
  const accounts = [...new Set(logs.map((l) => l.account_id))];
  const webhooks = await deps
    .db<WebhookRow>('webhook')
    .whereIn('account_id', accounts)
    .whereIn('id', [...new Set(logs.map((l) => l.webhook_id))]);
  const eventIds = [...new Set(logs.flatMap((l) => l.event_log_ids))];
  const events = await deps
    .db('event_log')
    .select<DeliveryEventRow[]>(deps.db.raw(DELIVERY_EVENT_COLUMNS))
    .whereIn('account_id', accounts)
    .whereIn('id', eventIds);
  return deliverLeased(deps, logs, webhooks, events, now, width);
}
