import PgBoss from 'pg-boss';
import { ensureQueue } from '../db/job-queue.js';
import { CONNECT_TIMEOUT_MS } from '../db/pool.js';
import type { Services } from '../services.js';
import { listenForEvents, Wakeup } from '../events/wakeup.js';
import { createResolver } from '../webhooks/addresses.js';
import { DeliveryPool, leaseUntil } from '../webhooks/delivery.js';
import { NotificationPool } from '../notifications/sender.js';
import { count } from '../observability/metrics.js';
import { scheduleRetention } from '../retention/job.js';
import { dispatchAndLease } from './dispatch.js';
import { buildPendingStandings } from '../engine/standings.js';
import { confirmHeldRewards } from './confirm.js';
import { runBirthdays } from './birthdays.js';
import { runPointsDaily } from './points.js';
import { runSweeps } from './sweeps.js';

const SWEEP_QUEUE = 'loyalty-sweep';
/** Idle workers look for due retries this often; new events wake them at once. */
const DELIVERY_POLL_MS = 1000;
/**
 * A round that has not settled by then is abandoned: a database restart can leave a query on a
 * dead connection that never answers, and the loop must go on. Whatever that round had claimed is
 * leased, and comes back to a worker when the lease runs out.
 */
const ROUND_DEADLINE_MS = 60_000;

/**
 * How long a job may stay active before pg-boss's upkeep fails it and it is retried, and how often
 * that upkeep runs. A worker that died mid-sweep (or lost the database as it finished) leaves its
 * job active, and a stately queue starts no other while one is: at pg-boss's default of 15 minutes,
 * checked every 2, sweeps stopped that long after a crash. Sweeps and retention runs are safe side
 * by side (SKIP LOCKED), so one that really runs longer costs only a second run beside it.
 */
export interface JobExpiry {
  sweepSeconds: number;
  retentionSeconds: number;
  maintenanceSeconds: number;
}
/** A sweep's expiry from the configuration, its upkeep at half of it (at most every 30 s). */
const expiryFor = (sweepSeconds: number): JobExpiry => ({
  sweepSeconds,
  retentionSeconds: 600,
  maintenanceSeconds: Math.min(30, Math.max(1, Math.ceil(sweepSeconds / 2))),
});

function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`round still running after ${ms} ms; abandoned`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export interface Workers {
  /** Runs the sweeps now, outside the timer (the CLI and tests). */
  sweepNow(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Background work. Sweeps run on pg-boss: every worker asks for one each interval, the `stately`
 * queue keeps at most one waiting and one running across all workers. Deliveries run in a loop
 * woken by the outbox's NOTIFY: dispatch new events, then deliver what is due. Sweeps, dispatch
 * and delivery all lock rows with SKIP LOCKED or leases, so extra workers add capacity and never
 * double work.
 */
export async function startWorkers(
  s: Services,
  databaseUrl: string,
  { pollMs = DELIVERY_POLL_MS, jobExpiry = expiryFor(s.config.sweepExpirySeconds) }: { pollMs?: number; jobExpiry?: JobExpiry } = {},
): Promise<Workers> {
  // pg-boss hands its options to its pg pool, whose connection timeout its types leave out: without
  // it, a connection left opening on a server that does not answer holds its place for good.
  const options: PgBoss.ConstructorOptions & { connectionTimeoutMillis: number } = {
    connectionString: databaseUrl,
    schema: 'pgboss',
    application_name: 'loyalty-worker',
    max: 4,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    maintenanceIntervalSeconds: jobExpiry.maintenanceSeconds,
  };
  const boss = new PgBoss(options);
  boss.on('error', (err) => s.logger.error({ err }, 'job queue error'));
  await boss.start();
  await ensureQueue(boss, { name: SWEEP_QUEUE, policy: 'stately', retryLimit: 3, retryDelay: 5, expireInSeconds: jobExpiry.sweepSeconds });
  s.metrics.watchQueues(boss, [SWEEP_QUEUE]);
  const sweep = async () => {
    const started = process.hrtime.bigint();
    const now = s.records.now();
    // Each step runs whatever another failed with: one account's bad row must not stop the others' work.
    const failures: unknown[] = [];
    const step = async <T>(name: string, run: () => Promise<T>): Promise<T | undefined> => {
      try {
        return await run();
      } catch (err) {
        failures.push(err);
        s.logger.error({ err, step: name }, 'sweep step failed');
        return undefined;
      }
    };
    const done = (await step('sweeps', () => runSweeps(s.records, now, s.config.lateLogGraceSeconds))) ?? {};
    done['reward confirmations'] = (await step('reward confirmations', () => confirmHeldRewards(s.records, now))) ?? 0;
    done['standings built'] = (await step('standings', () => buildPendingStandings(s.db))) ?? 0;
    const daily = await step('points daily pass', () => runPointsDaily(s.records, now));
    done['points members passed'] = daily?.members ?? 0;
    done['points tier changes'] = daily?.tierChanges ?? 0;
    done['points expiry warnings'] = daily?.warnings ?? 0;
    done['points expired'] = daily?.expiries ?? 0;
    // Half the points pass's budget: both run in one sweep, which its job's expiry bounds; what is left goes on at the next.
    done['birthday points'] = (await step('birthdays', () => runBirthdays(s.records, now, 15_000)))?.given ?? 0;
    count.sweep(Number(process.hrtime.bigint() - started) / 1e9, done);
    if (Object.values(done).some((n) => n > 0)) s.logger.info({ done }, 'sweep');
    // The job fails, so the queue retries it and keeps the error.
    if (failures.length) throw new AggregateError(failures, `${failures.length} sweep step(s) failed`);
  };
  await boss.work(SWEEP_QUEUE, { pollingIntervalSeconds: Math.max(0.5, Math.min(2, s.config.schedulerIntervalMs / 1000)) }, sweep);
  const singletonSeconds = Math.max(1, Math.floor(s.config.schedulerIntervalMs / 1000));
  const request = () =>
    boss
      .send(SWEEP_QUEUE, {}, { singletonKey: 'sweep', singletonSeconds })
      .catch((err: unknown) => s.logger.error({ err }, 'sweep request failed'));
  const timer = setInterval(request, s.config.schedulerIntervalMs);
  timer.unref();
  await request();
  const retention = await scheduleRetention(boss, s, jobExpiry.retentionSeconds);

  // Two loops, each woken by new events: one dispatches and leases deliveries (which go out in the
  // background), the other sends notifications, so neither's slow receivers hold up the other.
  const deliveryWakeup = new Wakeup();
  const notificationWakeup = new Wakeup();
  const listener = listenForEvents(databaseUrl, [deliveryWakeup, notificationWakeup], s.logger);
  const pool = new DeliveryPool({ db: s.db, box: s.box, config: s.config, resolver: createResolver(s.config.dnsServers) }, s.records.now, {
    onFreed: () => deliveryWakeup.signal(),
    onError: (err) => s.logger.error({ err }, 'recording webhook deliveries failed'),
  });
  let stopping = false;
  // New events' deliveries go out straight from their dispatch, leased to this worker; the claim then takes retries and leftovers.
  const deliveryRound = async () => {
    pool.handBackLate();
    const dispatched = await dispatchAndLease(s.db, { until: leaseUntil(s.config, s.records.now()), free: pool.free });
    pool.start(dispatched.leased, dispatched.webhooks, dispatched.eventRows);
    if (dispatched.events) notificationWakeup.signal();
    await pool.claim();
    return dispatched.events;
  };
  const notifications = new NotificationPool(s, s.records.now, { onFreed: () => notificationWakeup.signal() });
  const notificationRound = () => {
    notifications.handBackLate();
    return notifications.claim();
  };
  const loop = async (name: string, round: () => Promise<number>, wakeup: Wakeup) => {
    while (!stopping) {
      let worked = 0;
      try {
        worked = await withDeadline(round(), ROUND_DEADLINE_MS);
      } catch (err) {
        s.logger.error({ err }, `${name} round failed`);
      }
      if (!worked) await wakeup.wait(pollMs);
    }
  };
  const looping = Promise.all([
    loop('delivery', deliveryRound, deliveryWakeup),
    loop('notification', notificationRound, notificationWakeup),
  ]);

  return {
    sweepNow: sweep,
    async stop() {
      stopping = true;
      clearInterval(timer);
      retention.stop();
      deliveryWakeup.close();
      notificationWakeup.close();
      await looping;
      await Promise.all([pool.drain(), notifications.drain()]);
      await listener.stop();
      await boss.stop({ graceful: true, wait: true, timeout: 10_000 });
    },
  };
}
