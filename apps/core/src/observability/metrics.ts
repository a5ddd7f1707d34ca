import type { Knex } from 'knex';
import { collectDefaultMetrics, Counter, Gauge, Histogram, type Metric, Registry } from 'prom-client';

/*
 * Two kinds of metrics. Counts of work done are process-wide: the engine and the workers count
 * where the work happens, and the process's registry exposes them. Gauges read at scrape time
 * (the outbox, the connection pool, job queues) belong to a service instance and its database.
 */

/** Counting follows the setting of the service built last; a process builds one. */
let counting = true;

const logs = new Counter({
  name: 'loyalty_logs_total',
  help: 'Activity logs by kind and outcome: aggregated, not_aggregated (stored only), duplicate (a replay, answered 409), refused (by the engine, 400)',
  labelNames: ['kind', 'outcome'] as const,
  registers: [],
});
const writeRetries = new Counter({
  name: 'loyalty_engine_write_retries_total',
  help: 'Log aggregations run again under the lock because a row they read changed before their write',
  labelNames: ['kind'] as const,
  registers: [],
});
const rewardsIssued = new Counter({ name: 'loyalty_rewards_issued_total', help: 'Reward logs issued (committed)', registers: [] });
const couponsIssued = new Counter({
  name: 'loyalty_coupons_issued_total',
  help: 'Coupon codes given to reward logs, by source: pool (imported) or generated',
  labelNames: ['source'] as const,
  registers: [],
});
const couponPoolEmpty = new Counter({
  name: 'loyalty_coupon_pool_empty_total',
  help: 'Reward logs issued without a coupon code: the reward handles coupons, its pool was empty and it does not generate codes',
  registers: [],
});
const webhookDeliveries = new Counter({
  name: 'loyalty_webhook_deliveries_total',
  help: 'Webhook delivery attempts by the status they left the delivery in (processed, errored, max_errored) and attempt number',
  labelNames: ['status', 'attempt'] as const,
  registers: [],
});
const deliveryLag = new Histogram({
  name: 'loyalty_webhook_delivery_lag_seconds',
  help: 'From the creation of the oldest event in a webhook delivery to its successful delivery',
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800, 7200, 86400],
  registers: [],
});
const notifications = new Counter({
  name: 'loyalty_notifications_total',
  help: 'Notification send outcomes by channel and status: sent, skipped, failed (final) or retrying',
  labelNames: ['channel', 'status'] as const,
  registers: [],
});
const sweepDuration = new Histogram({
  name: 'loyalty_sweep_duration_seconds',
  help: 'Duration of a scheduler pass over every sweep',
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
  registers: [],
});
const sweepItems = new Counter({
  name: 'loyalty_sweep_items_total',
  help: 'Progress rows marked or closed by each sweep',
  labelNames: ['sweep'] as const,
  registers: [],
});
const retentionDeleted = new Counter({
  name: 'loyalty_retention_deleted_total',
  help: 'Rows deleted by the retention job because they outlived their table retention (event_log, webhook_log, notification_log)',
  labelNames: ['table'] as const,
  registers: [],
});

const WORK: Metric[] = [
  logs,
  writeRetries,
  rewardsIssued,
  couponsIssued,
  couponPoolEmpty,
  webhookDeliveries,
  deliveryLag,
  notifications,
  sweepDuration,
  sweepItems,
  retentionDeleted,
];

export type LogOutcome = 'aggregated' | 'not_aggregated' | 'duplicate' | 'refused';

/** Counts of work done, called where it is done (after it committed). */
export const count = {
  log(kind: string, outcome: LogOutcome): void {
    if (counting) logs.inc({ kind, outcome });
  },
  writeRetry(kind: string): void {
    if (counting) writeRetries.inc({ kind });
  },
  webhookAttempt(status: string, attempt: number, lagSeconds: number | undefined): void {
    if (!counting) return;
    webhookDeliveries.inc({ status, attempt: String(attempt) });
    if (lagSeconds !== undefined) deliveryLag.observe(lagSeconds);
  },
  notification(channel: string, status: string): void {
    if (counting) notifications.inc({ channel, status });
  },
  sweep(seconds: number, items: Record<string, number>): void {
    if (!counting) return;
    sweepDuration.observe(seconds);
    for (const [sweep, n] of Object.entries(items)) sweepItems.inc({ sweep }, n);
  },
  retention(table: string, deleted: number): void {
    if (counting && deleted) retentionDeleted.inc({ table }, deleted);
  },
};

/**
 * What one aggregation attempt issued. Counted only once the attempt commits: an attempt that
 * rolls back (a replay, a lost race) issued nothing.
 */
export class IssueTally {
  private rewards = 0;
  private readonly coupons = { pool: 0, generated: 0 };
  private poolEmpty = 0;

  reward(): void {
    this.rewards++;
  }

  coupon(source: 'pool' | 'generated'): void {
    this.coupons[source]++;
  }

  emptyPool(): void {
    this.poolEmpty++;
  }

  commit(): void {
    if (!counting) return;
    if (this.rewards) rewardsIssued.inc(this.rewards);
    for (const [source, n] of Object.entries(this.coupons)) if (n) couponsIssued.inc({ source }, n);
    if (this.poolEmpty) couponPoolEmpty.inc(this.poolEmpty);
  }
}

/** A scrape must answer even when the database does not: it then reports the database down. */
const PROBE_TIMEOUT_MS = 2000;

interface Probe {
  pending: number;
  oldestSeconds: number;
}

/** The value, or undefined when it fails or takes longer than a scrape may wait. */
async function withinScrape<T>(work: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(resolve, PROBE_TIMEOUT_MS, undefined);
  });
  try {
    return await Promise.race([work, timeout]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
}

/** One cheap statement: the dispatcher's partial index holds only undispatched events. */
function probeDatabase(db: Knex): Promise<Probe | undefined> {
  return withinScrape(
    db
      .raw(
        `select count(*)::int as pending, coalesce(extract(epoch from clock_timestamp() - min(created_at)), 0)::float8 as oldest
           from event_log where dispatched_at is null`,
      )
      .then((result: { rows: { pending: number; oldest: number }[] }) => ({
        pending: result.rows[0]!.pending,
        oldestSeconds: result.rows[0]!.oldest,
      })),
  );
}

/** What the database pool tells of itself (db/pool.ts). */
interface PoolCounts {
  max: number;
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

/** pg-boss's view of a queue, as the workers' gauges need it. */
export interface JobQueues {
  getQueueSize(name: string, options?: { before: 'active' | 'completed' }): Promise<number>;
}

/** The metrics a service instance exposes at /metrics (and a worker on its own port). */
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration: Pick<Histogram<'method' | 'route' | 'status'>, 'observe'>;
  readonly rateLimited: Pick<Counter<'flow'>, 'inc'>;

  /** `lastWebhookAttempt`: the attempt a delivery ends max_errored at (its retry schedule's length and one). */
  constructor(
    db: Knex,
    readonly enabled = true,
    lastWebhookAttempt = 1,
  ) {
    counting = enabled;
    if (!enabled) {
      this.httpDuration = { observe: () => undefined };
      this.rateLimited = { inc: () => undefined };
      return;
    }
    this.httpDuration = new Histogram({
      name: 'loyalty_http_request_duration_seconds',
      help: 'HTTP request duration by route and status',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [this.registry],
    });
    const rateLimited = new Counter({
      name: 'loyalty_rate_limited_total',
      help: 'Requests answered 429 by flow',
      labelNames: ['flow'] as const,
      registers: [this.registry],
    });
    this.rateLimited = rateLimited;
    // Series that alerts and the dashboard take increases of exist at 0 from the start: one born at
    // its first count would show no increase for it (the first max_errored delivery would not alert).
    webhookDeliveries.inc({ status: 'max_errored', attempt: String(lastWebhookAttempt) }, 0);
    for (const source of ['pool', 'generated']) couponsIssued.inc({ source }, 0);
    for (const kind of ['streak', 'challenge', 'mission']) writeRetries.inc({ kind }, 0);
    for (const flow of ['apikey', 'enduser', 'guest', 'platform']) rateLimited.inc({ flow }, 0);
    collectDefaultMetrics({ register: this.registry });
    for (const metric of WORK) this.registry.registerMetric(metric);
    this.watchDatabase(db);
  }

  private watchDatabase(db: Knex): void {
    const registers = [this.registry];
    // Read before the probe below takes a connection, so the pool is seen as the service left it.
    const pool = () => (db.client as { pool?: PoolCounts }).pool;
    const poolGauge = (name: string, help: string, read: (p: PoolCounts) => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          const p = pool();
          if (p) this.set(read(p));
        },
      });
    poolGauge('loyalty_db_pool_max', 'Size limit of the PostgreSQL connection pool', (p) => p.max);
    poolGauge('loyalty_db_pool_connections', 'Open connections of the PostgreSQL pool (in use and idle)', (p) => p.numUsed() + p.numFree());
    poolGauge('loyalty_db_pool_idle', 'Idle connections of the PostgreSQL pool', (p) => p.numFree());
    poolGauge('loyalty_db_pool_waiting', 'Queries waiting for a connection of the PostgreSQL pool', (p) => p.numPendingAcquires());
    // The three database gauges share one statement per scrape: their collects start in the same tick.
    let probing: Promise<Probe | undefined> | undefined;
    const probe = () =>
      (probing ??= probeDatabase(db).finally(() => {
        probing = undefined;
      }));
    new Gauge({
      name: 'loyalty_database_up',
      help: 'Whether the database answered the scrape-time query (1) or not within 2 s (0)',
      registers,
      async collect() {
        this.set((await probe()) ? 1 : 0);
      },
    });
    new Gauge({
      name: 'loyalty_outbox_pending_events',
      help: 'Events written and not yet dispatched to deliveries (the outbox backlog)',
      registers,
      async collect() {
        const found = await probe();
        if (found) this.set(found.pending);
      },
    });
    new Gauge({
      name: 'loyalty_outbox_oldest_pending_seconds',
      help: 'Age of the oldest undispatched event; 0 when none waits',
      registers,
      async collect() {
        const found = await probe();
        if (found) this.set(found.oldestSeconds);
      },
    });
  }

  /** pg-boss queue sizes, for a process that runs the workers; replaces an earlier watch. */
  watchQueues(boss: JobQueues, queues: readonly string[]): void {
    if (!this.enabled) return;
    const name = 'loyalty_job_queue_jobs';
    this.registry.removeSingleMetric(name);
    new Gauge({
      name,
      help: 'pg-boss jobs by queue and state: waiting (created or retry) or active',
      labelNames: ['queue', 'state'] as const,
      registers: [this.registry],
      async collect() {
        for (const queue of queues) {
          const sizes = await withinScrape(Promise.all([boss.getQueueSize(queue), boss.getQueueSize(queue, { before: 'completed' })]));
          // Without an answer the last values stay; loyalty_database_up tells why.
          if (!sizes) continue;
          this.set({ queue, state: 'waiting' }, sizes[0]);
          this.set({ queue, state: 'active' }, sizes[1] - sizes[0]);
        }
      },
    });
  }
}
