import type { Resolver } from 'node:dns/promises';
import type { Knex } from 'knex';
import { FairLanes, outlastsLease } from '../concurrency.js';
import { rowsFromJson } from '../db/json.js';
import { fairPick } from '../db/fair-pick.js';
import { numbered, run } from '../db/prepared.js';
import type { SecretBox } from '../auth/crypto.js';
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
      leased_until: log.lease_until,
    };
  });
  await db.raw(
    `with r as (
       select * from jsonb_to_recordset(?::jsonb) as r(account_id uuid, id uuid, webhook_log_status text, retry_count int,
         last_retried_at timestamptz, next_retry_at timestamptz, last_response_status int, last_error text,
         delivered_at timestamptz, lease_until timestamptz, updated_at timestamptz, leased_until timestamptz)
     ), u as (
       update webhook_log w set webhook_log_status = r.webhook_log_status, retry_count = r.retry_count,
              last_retried_at = r.last_retried_at, next_retry_at = r.next_retry_at, last_response_status = r.last_response_status,
              last_error = r.last_error, delivered_at = r.delivered_at, lease_until = r.lease_until, updated_at = r.updated_at
         from r where w.account_id = r.account_id and w.id = r.id and w.lease_until = r.leased_until
       returning 1
     )
     select set_config('synchronous_commit', 'off', true), (select count(*) from u)`,
    [JSON.stringify(rows)],
  );
}

/** A group of outcomes that could not be recorded: its deliveries stay leased and go out again once the lease runs out. */
type OnError = (err: unknown) => void;

/**
 * Records attempts a group at a time as they end (once `size` wait, or `delayMs` after the first
 * of a group): each is recorded inside its lease however long the slowest receivers take, in a
 * few statements rather than one per delivery.
 */
function recorder(db: Knex, size: number, onError: OnError | undefined, delayMs = 50) {
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
          if (onError) onError(err);
          else failure ??= err;
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

/** Deliveries one worker has in flight at most: sixteen accounts' lanes, so it takes as many hanging receivers to fill them. */
export const DELIVERY_WIDTH = 512;
/**
 * Deliveries of one account one worker has in flight at most: a receiver that hangs holds its
 * account's share of the lanes until the time-out, never all of them, and other accounts'
 * deliveries go out beside it.
 */
export const ACCOUNT_IN_FLIGHT = 32;
/**
 * Deliveries one worker holds leased at most, in flight or waiting for a lane: a dispatch's batch
 * of a busy account waits here for its account's lanes rather than being claimed again and again.
 */
const LEASED_MAX = 1024;
/** What a claim leases per account at most, in units of its lanes; what waits past its lease's use is handed back. */
const CLAIMED_PER_LANE = 8;

const WAITING = `webhook_log_status in ('pending', 'errored')`;
const DUE = 'next_retry_at <= ? and (lease_until is null or lease_until < ?)';
/** The lease a claim takes: each account's oldest due deliveries, as many as its room allows, oldest first across accounts. */
const CLAIM = numbered(`
  ${fairPick('webhook_log', { waiting: WAITING, due: DUE, dueColumn: 'next_retry_at' })}, claimed as (
    update webhook_log set lease_until = ?
     where (account_id, id) in (
       select account_id, id from webhook_log
        where (account_id, id) in (select account_id, id from picked) and ${WAITING} and ${DUE}
          for update skip locked)
    returning *
  )
  select (select coalesce(json_agg(c), '[]') from claimed c) as logs,
         (select coalesce(json_agg(w), '[]') from webhook w where (w.account_id, w.id) in (select account_id, webhook_id from claimed)) as webhooks,
         (select coalesce(json_agg(e), '[]') from (select ${DELIVERY_EVENT_COLUMNS} from event_log
           where (account_id, id) in (select account_id, unnest(event_log_ids) from claimed)) e) as events`);

/** A delivery leased to this worker, waiting for a lane. */
interface Waiting {
  log: WebhookLogRow;
  webhook: WebhookRow | undefined;
  secret: () => string;
  events: DeliveryEventRow[];
}

/**
 * A worker's leased deliveries, in fair lanes per account (`FairLanes`), each recorded as it ends:
 * a receiver that hangs delays only its own account's deliveries. The lease means no other worker
 * delivers them at the same time, and a worker that dies hands them back when the lease runs out.
 */
export class DeliveryPool {
  private readonly lanes: FairLanes<Waiting>;
  private readonly outcomes: ReturnType<typeof recorder>;

  constructor(
    private readonly deps: DeliveryDeps,
    private readonly now: () => Date,
    {
      width = DELIVERY_WIDTH,
      accountCap = ACCOUNT_IN_FLIGHT,
      onFreed,
      onError,
    }: {
      width?: number;
      accountCap?: number;
      /** An account, or the worker, came down to half of what it may lease: a claim may take a worthwhile batch more. */
      onFreed?: () => void;
      onError?: OnError;
    } = {},
  ) {
    this.outcomes = recorder(deps.db, 32, onError);
    const lanesPerAccount = Math.min(accountCap, width);
    this.lanes = new FairLanes<Waiting>({
      width,
      accountCap: lanesPerAccount,
      heldMax: LEASED_MAX,
      accountHeldMax: CLAIMED_PER_LANE * lanesPerAccount,
      slowMs: deps.config.webhookTimeoutMs,
      run: (w) => this.attempt(w),
      late: (w) => this.late(w.log),
      handBack: (w) => this.outcomes.add({ log: w.log, after: { lease_until: null } }),
      onFreed,
    });
  }

  /** How many more deliveries this worker may lease. */
  get free(): number {
    return this.lanes.free;
  }

  /** Claims due deliveries as far as there is room, and starts them; returns how many it took. */
  async claim(limit = Number.POSITIVE_INFINITY): Promise<number> {
    const room = this.lanes.room();
    const take = Math.min(limit, room.free);
    if (take <= 0) return 0;
    const now = this.now();
    // Prepared: a worker claims often, and planning the statement cost more than running it.
    const [row] = await run<{ logs: unknown; webhooks: unknown; events: unknown }>(this.deps.db, {
      text: CLAIM,
      values: [now, now, take, room.cap, JSON.stringify(room.busy), take, leaseUntil(this.deps.config, now), now, now],
    });
    const logs = rowsFromJson<WebhookLogRow>(row?.logs);
    if (!logs.length) return 0;
    this.start(logs, rowsFromJson<WebhookRow>(row!.webhooks), rowsFromJson<DeliveryEventRow>(row!.events));
    return logs.length;
  }

  /** Takes deliveries leased to this worker into their accounts' queues and starts what has a lane. Each webhook's secret is opened once per call. */
  start(logs: WebhookLogRow[], webhooks: WebhookRow[], events: DeliveryEventRow[]): void {
    const byId = new Map(webhooks.map((w) => [w.id, w]));
    const eventsById = new Map(events.map((e) => [e.id, e]));
    const secrets = new Map<string, string>();
    const secretOf = (w: WebhookRow) => () => {
      let secret = secrets.get(w.id);
      if (secret === undefined) secrets.set(w.id, (secret = this.deps.box.open(w.webhook_secret_enc)));
      return secret;
    };
    for (const log of logs) {
      const webhook = byId.get(log.webhook_id);
      const logEvents = log.event_log_ids.map((id) => eventsById.get(id)).filter((e): e is DeliveryEventRow => !!e);
      this.lanes.add(log.account_id, { log, webhook, secret: webhook ? secretOf(webhook) : () => '', events: logEvents });
    }
    this.lanes.pump();
  }

  /**
   * Hands back, unsent, waiting deliveries whose lease could run out before their POST ends
   * (another worker could then take one, and both would send it). The worker calls it each round.
   */
  handBackLate(): void {
    this.lanes.handBackLate();
  }

  /** Waits until every delivery it holds has been attempted (or handed back) and its outcome recorded. */
  async settled(): Promise<void> {
    await this.lanes.settled();
    await this.outcomes.done();
  }

  /** Hands back what still waits for a lane, then settles what is in flight: a stopping worker starts nothing more. */
  async drain(): Promise<void> {
    await this.lanes.drain();
    await this.outcomes.done();
  }

  private late(log: WebhookLogRow): boolean {
    return outlastsLease(log.lease_until, this.now(), this.deps.config.webhookTimeoutMs);
  }

  private async attempt({ log, webhook, secret, events }: Waiting): Promise<void> {
    let done: Attempted;
    try {
      done = await deliverOne(this.deps, log, webhook, secret, events, this.now);
    } catch {
      // Failing before the POST (a secret that does not open) is a failed attempt, recorded as one.
      const after = afterAttempt(log, { error: 'delivery failed' }, this.now(), this.deps.config.webhookRetrySchedule);
      done = { log, after, attempt: log.retry_count + 1 };
    }
    this.outcomes.add(done);
    if (done.attempt === undefined) return;
    const status = done.after.webhook_log_status!;
    count.webhookAttempt(
      status,
      done.attempt,
      status === 'processed' && done.oldestEventAt !== undefined ? (Date.now() - done.oldestEventAt) / 1000 : undefined,
    );
  }
}
