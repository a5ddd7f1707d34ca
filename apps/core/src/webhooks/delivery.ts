import type { Resolver } from 'node:dns/promises';
import type { Knex } from 'knex';
import type { SecretBox } from '../auth/crypto.js';
import { inPool } from '../concurrency.js';
import type { Config } from '../config.js';
import { count } from '../observability/metrics.js';
import { contextOf, inSpan } from '../observability/trace.js';
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
    [new Date(now.getTime() + leaseMs(deps.config)), now, now, limit],
  );
  return result.rows;
}

function envelope(log: WebhookLogRow, events: EventLogRow[]): string {
  return JSON.stringify({
    id: log.id,
    accountId: log.account_id,
    createdAt: log.created_at.toISOString(),
    events: events.map((e) => ({
      id: e.id,
      eventCode: e.event_code,
      createdAt: e.created_at.toISOString(),
      ownedById: e.owned_by_id,
      payload: e.payload,
    })),
  });
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

async function deliverOne(
  deps: DeliveryDeps,
  log: WebhookLogRow,
  webhook: WebhookRow | undefined,
  events: EventLogRow[],
  now: () => Date,
): Promise<void> {
  const where = { account_id: log.account_id, id: log.id };
  if (!webhook || webhook.status !== 'live') {
    // A paused webhook receives nothing; its deliveries wait, uncounted, until it is live again.
    await deps
      .db('webhook_log')
      .where(where)
      .update({ lease_until: null, next_retry_at: new Date(now().getTime() + PAUSED_RECHECK_MS) });
    return;
  }
  const attempt = log.retry_count + 1;
  const attributes = { 'loyalty.webhook_id': webhook.id, 'loyalty.webhook_log_id': log.id, 'loyalty.attempt': attempt };
  // The delivery joins the trace of the request that wrote its (first) event, across processes.
  await inSpan(
    'webhook delivery',
    attributes,
    async (span) => {
      const body = envelope(log, events);
      const secret = deps.box.open(webhook.webhook_secret_enc);
      const headers = signedHeaders(secret, log.id, Math.floor(now().getTime() / 1000), body);
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
      await deps.db('webhook_log').where(where).update(after);
      const status = after.webhook_log_status!;
      span?.setAttribute('loyalty.webhook_log_status', status);
      // Lag on the wall clock: created_at is the database's clock, not the service's (tests move that).
      const oldest = Math.min(...events.map((e) => e.created_at.getTime()));
      count.webhookAttempt(status, attempt, status === 'processed' && events.length ? (Date.now() - oldest) / 1000 : undefined);
    },
    contextOf(events[0]?.trace_parent),
  );
}

/** Delivers due webhook logs; returns how many were attempted. */
export async function deliverDueWebhooks(deps: DeliveryDeps, now: () => Date, limit = 100, width = 32): Promise<number> {
  const logs = await claim(deps, now(), limit);
  if (!logs.length) return 0;
  const accounts = [...new Set(logs.map((l) => l.account_id))];
  const webhooks = new Map(
    (
      await deps
        .db<WebhookRow>('webhook')
        .whereIn('account_id', accounts)
        .whereIn('id', [...new Set(logs.map((l) => l.webhook_id))])
    ).map((w) => [w.id, w]),
  );
  const eventIds = [...new Set(logs.flatMap((l) => l.event_log_ids))];
  const events = new Map(
    (await deps.db<EventLogRow>('event_log').whereIn('account_id', accounts).whereIn('id', eventIds)).map((e) => [e.id, e]),
  );
  await inPool(logs, width, (log) =>
    deliverOne(
      deps,
      log,
      webhooks.get(log.webhook_id),
      log.event_log_ids.map((id) => events.get(id)).filter((e): e is EventLogRow => !!e),
      now,
    ),
  );
  return logs.length;
}
