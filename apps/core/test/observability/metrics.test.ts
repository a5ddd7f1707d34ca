import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_CODES } from '../../src/events/codes.js';
import { Client, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';
import { moved, type Scrape, scrape } from '../support/metrics.js';
import { type ServiceProcess, startProcess, until } from '../support/processes.js';
import { earningStreak } from '../support/programs.js';
import { startReceiver } from '../support/receiver.js';

/**
 * A scripted run against the real binaries — `serve --no-workers` takes the logs, then a `worker`
 * dispatches, delivers, sends and sweeps — and each process's /metrics, scraped over HTTP, must
 * have moved by exactly what the run did.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'loyalty-metrics-'));
const env = {
  LOYALTY_WEBHOOK_ALLOW_PRIVATE: 'true',
  // A failing delivery: attempt 1 and 2 errored, attempt 3 max_errored, without waiting.
  LOYALTY_WEBHOOK_RETRY_SCHEDULE: '0,0',
  LOYALTY_SCHEDULER_INTERVAL_MS: '300',
  LOYALTY_EMAIL_TRANSPORT: 'file',
  LOYALTY_DATA_DIR: dataDir,
};

let app: TestApp;
let acct: TestAccount;
let api: ServiceProcess;
let worker: ServiceProcess | undefined;
let apiRoot: string;
let client: Client;
const ok = await startReceiver();
const failing = await startReceiver((_req, res) => res.writeHead(500).end('down'));

beforeAll(async () => {
  app = await startTestApp(env);
  acct = await app.createAccount({ timezone: 'UTC' });
  api = await startProcess(app, ['serve', '--no-workers'], env);
  apiRoot = api.url.replace(/\/api\/v1\.0$/, '');
  client = new Client(api.url, { 'x-api-key': acct.apiKey, 'x-api-secret': acct.apiSecret });
}, 120_000);
afterAll(async () => {
  await Promise.all([api?.kill(), worker?.kill()]);
  await Promise.all([ok.close(), failing.close()]);
  await app?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function create(slug: string, body: Record<string, unknown>) {
  const res = await acct.api.post(`/schema/${slug}/record`, body);
  expect(res.status, `${slug}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body.data as Record<string, any>;
}

/** A streak whose milestone at 1 issues `reward`, warning two days ahead so the first sweep warns every run. */
async function rewardingStreak(name: string, reward: Record<string, unknown>) {
  const rewardId = (
    await create('reward', {
      name,
      description: 'd',
      discountType: 'percentage',
      discountValue: 10,
      rewardExpiryType: 'no_expiry',
      handleCoupon: true,
      ...reward,
    })
  ).id;
  const streakId = await earningStreak(acct.api, rewardId, { name, toBeBrokenWarningHours: 48 });
  return { streakId, rewardId: rewardId as string };
}

const count = (sql: string, bindings: string[] = []) =>
  app.db.raw(sql, bindings).then((r: { rows: { n: number }[] }) => Number(r.rows[0]!.n));

describe('metrics of a scripted run, scraped from the processes', () => {
  it('counts logs, retries, rewards, coupons, deliveries, notifications and sweeps exactly; gauges read the outbox, pool and queues', async () => {
    // Set-up through the in-process API: only the log traffic goes to the process measured.
    const pool = await rewardingStreak('Pool', {});
    await acct.api.post(`/schema/reward/record/${pool.rewardId}/action/import_coupons`, { couponCodes: ['POOL-1', 'POOL-2'] });
    const generated = await rewardingStreak('Generated', { handleCouponAutoGeneration: true, couponCodePrefix: 'GEN-' });
    const challenge = await create('challenge', {
      name: 'Monthly',
      aggregationPeriod: 'monthly',
      completionTargetValue: 1000,
      toBeFailedWarningHours: 0,
    });
    await create('webhook', { name: 'ok', status: 'live', endpointUrl: `${ok.url}/hook`, eventCodes: [...EVENT_CODES] });
    const down = await create('webhook', {
      name: 'down',
      status: 'live',
      endpointUrl: `${failing.url}/hook`,
      eventCodes: [...EVENT_CODES],
    });
    const integration = await create('service_email', { name: 'Mail', replyToEmailAddress: 'help@acme.test', status: 'live' });
    const template = await create('email_template', {
      name: 'Warning',
      status: 'live',
      sampleEventCode: 'streak_progress_to_be_broken',
      subject: 'Keep going',
      htmlContent: '<p>{{$account_user.firstName}}</p>',
    });
    await create('notification', {
      name: 'Warnings',
      status: 'live',
      integrationProvider: 'service_email',
      integrationId: integration.id,
      templateId: template.id,
      eventCodes: ['streak_progress_to_be_broken'],
    });
    const members = await Promise.all(
      ['m1@example.net', 'm2@example.net', null, 'm4@example.net'].map(
        async (email, i) => (await create('account_user', { externalId: `m${i + 1}`, firstName: `M${i + 1}`, email })).id as string,
      ),
    );
    const [m1, m2, m3, m4] = members as [string, string, string, string];

    const apiBefore = await scrape(apiRoot);
    const at = new Date(Date.now() - 60_000).toISOString();
    const statuses: number[] = [];
    const log = async (slug: string, body: Record<string, unknown>) => {
      const res = await client.post(`/schema/${slug}/record`, {
        activityId: 'visit',
        activityAt: at,
        uniqueIdentifier: randomUUID(),
        ...body,
      });
      statuses.push(res.status);
      return res;
    };
    // Three members on a pool of two coupons: the third finds it empty and gets no code.
    const first = await log('streak_log', { streakId: pool.streakId, ownedById: m1, uniqueIdentifier: 'first' });
    expect(first.body.data.achievedMilestoneRewardLog.couponCode).toBe('POOL-1');
    await log('streak_log', { streakId: pool.streakId, ownedById: m2 });
    const third = await log('streak_log', { streakId: pool.streakId, ownedById: m3 });
    expect(third.body.data.achievedMilestoneRewardLog.couponCode).toBeNull();
    // An empty pool with generation: the code is generated.
    const fourth = await log('streak_log', { streakId: generated.streakId, ownedById: m4 });
    expect(fourth.body.data.achievedMilestoneRewardLog.couponCode).toMatch(/^GEN-/);
    expect((await log('streak_log', { streakId: pool.streakId, ownedById: m1, uniqueIdentifier: 'first' })).status).toBe(409);
    expect((await log('streak_log', { streakId: pool.streakId, ownedById: randomUUID() })).status).toBe(400);
    const draft = await log('streak_log', { streakId: pool.streakId, ownedById: m1, status: 'draft' });
    expect(draft.body.data.isAggregated).toBe(false);

    // A lost race, made deterministic: a second challenge log reads the member's progress, then its
    // write waits on a row lock held here; the row changes before the lock goes, so the write finds
    // it changed since read and the log is aggregated again under the lock.
    await log('challenge_log', { challengeId: challenge.id, ownedById: m2 });
    const locker = new pg.Client({ connectionString: app.config.databaseUrl });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query('select 1 from challenge_progress where owned_by_id = $1 for update', [m2]);
      const racing = log('challenge_log', { challengeId: challenge.id, ownedById: m2 });
      // Blocked by this lock, whatever statement text pg_stat_activity shows for the waiting backend.
      await until(
        async () =>
          (
            await locker.query(
              `select 1 from pg_stat_activity where datname = current_database() and pg_backend_pid() = any(pg_blocking_pids(pid))`,
            )
          ).rowCount === 1,
        20_000,
        'the log waiting on the progress row',
      );
      await locker.query('update challenge_progress set updated_at = now() where owned_by_id = $1', [m2]);
      await locker.query('commit');
      const raced = await racing;
      expect(raced.status, JSON.stringify(raced.body)).toBe(200);
      expect(raced.body.data.challengeProgress.currentProgressValue).toBe(2);
    } finally {
      await locker.end();
    }

    const apiAfter = await scrape(apiRoot);
    const logs = (labels: Record<string, string>) => moved(apiBefore, apiAfter, 'loyalty_logs_total', labels);
    expect(logs({ kind: 'streak', outcome: 'aggregated' })).toBe(4);
    expect(logs({ kind: 'streak', outcome: 'duplicate' })).toBe(1);
    expect(logs({ kind: 'streak', outcome: 'refused' })).toBe(1);
    expect(logs({ kind: 'streak', outcome: 'not_aggregated' })).toBe(1);
    expect(logs({ kind: 'challenge', outcome: 'aggregated' })).toBe(2);
    expect(logs({})).toBe(9);
    expect(moved(apiBefore, apiAfter, 'loyalty_engine_write_retries_total', { kind: 'challenge' })).toBe(1);
    expect(moved(apiBefore, apiAfter, 'loyalty_engine_write_retries_total')).toBe(1);
    expect(moved(apiBefore, apiAfter, 'loyalty_rewards_issued_total')).toBe(4);
    expect(moved(apiBefore, apiAfter, 'loyalty_coupons_issued_total', { source: 'pool' })).toBe(2);
    expect(moved(apiBefore, apiAfter, 'loyalty_coupons_issued_total', { source: 'generated' })).toBe(1);
    expect(moved(apiBefore, apiAfter, 'loyalty_coupon_pool_empty_total')).toBe(1);
    const requests = (status: string) =>
      moved(apiBefore, apiAfter, 'loyalty_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/api/v1.0/schema/:slug/record',
        status,
      });
    expect(requests('200')).toBe(statuses.filter((s) => s === 200).length);
    expect(requests('409') + requests('400')).toBe(2);
    // No worker yet: every event waits in the outbox, and the API's gauges say how many.
    const pending = await count('select count(*)::int as n from event_log where dispatched_at is null');
    expect(pending).toBeGreaterThan(0);
    expect(apiAfter.value('loyalty_outbox_pending_events')).toBe(pending);
    expect(apiAfter.value('loyalty_outbox_oldest_pending_seconds')).toBeGreaterThan(0);
    expect(apiAfter.value('loyalty_database_up')).toBe(1);
    expect(apiAfter.value('loyalty_db_pool_max')).toBe(10);
    expect(apiAfter.value('loyalty_db_pool_connections')).toBeGreaterThanOrEqual(1);
    expect(apiAfter.value('loyalty_db_pool_waiting')).toBe(0);
    // Not traced: the events carry no trace context.
    expect(await count('select count(*)::int as n from event_log where trace_parent is not null')).toBe(0);

    // The worker: it dispatches, delivers, sends the warning notifications its first sweep causes.
    worker = await startProcess(app, ['worker'], env);
    expect(worker.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = await fetch(`${worker.metricsUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    // The series an alert takes the increase of is there at 0 before its first count, or that count would not alert.
    const fresh = await scrape(worker.metricsUrl);
    expect(fresh.has('loyalty_webhook_deliveries_total', { status: 'max_errored', attempt: '3' })).toBe(true);
    expect(fresh.has('loyalty_coupons_issued_total', { source: 'pool' })).toBe(true);
    await until(
      async () => (await count(`select count(*)::int as n from streak_progress where warned_to_be_broken_at is not null`)) === 4,
      30_000,
      'four streak warnings',
    );
    await until(
      async () =>
        (await count(`select count(*)::int as n from event_log where dispatched_at is null`)) === 0 &&
        (await count(`select count(*)::int as n from webhook_log where webhook_log_status not in ('processed', 'max_errored')`)) === 0 &&
        (await count(`select count(*)::int as n from notification_log where notification_log_status = 'pending'`)) === 0,
      60_000,
      'every delivery and notification settled',
    );
    const webhookLogs = async (webhookId: string) => count('select count(*)::int as n from webhook_log where webhook_id = ?', [webhookId]);
    const delivered = await count(`select count(*)::int as n from webhook_log where webhook_log_status = 'processed'`);
    const exhausted = await webhookLogs(down.id);
    expect(exhausted).toBeGreaterThan(0);
    expect(delivered).toBe(exhausted);
    // Counters move just after the row is written: wait until every attempt is counted, then compare each.
    let w!: Scrape;
    await until(
      async () => {
        w = await scrape(worker!.metricsUrl);
        return w.value('loyalty_webhook_deliveries_total') === delivered + 3 * exhausted && w.value('loyalty_notifications_total') === 4;
      },
      20_000,
      'every attempt counted',
    );
    expect(w.value('loyalty_webhook_deliveries_total', { status: 'processed', attempt: '1' })).toBe(delivered);
    expect(w.value('loyalty_webhook_deliveries_total', { status: 'errored', attempt: '1' })).toBe(exhausted);
    expect(w.value('loyalty_webhook_deliveries_total', { status: 'errored', attempt: '2' })).toBe(exhausted);
    expect(w.value('loyalty_webhook_deliveries_total', { status: 'max_errored', attempt: '3' })).toBe(exhausted);
    expect(w.value('loyalty_webhook_delivery_lag_seconds_count')).toBe(delivered);
    expect(w.value('loyalty_webhook_delivery_lag_seconds_bucket', { le: '+Inf' })).toBe(delivered);
    expect(failing.received).toHaveLength(3 * exhausted);
    expect(w.value('loyalty_notifications_total', { channel: 'email', status: 'sent' })).toBe(3);
    expect(w.value('loyalty_notifications_total', { channel: 'email', status: 'skipped' })).toBe(1);
    expect(w.value('loyalty_sweep_items_total', { sweep: 'streak warnings' })).toBe(4);
    expect(w.value('loyalty_sweep_items_total')).toBe(4);
    expect(w.value('loyalty_sweep_duration_seconds_count')).toBeGreaterThanOrEqual(1);
    // Work is counted where it is done: the worker took no logs, the API delivered nothing.
    expect(w.value('loyalty_logs_total')).toBe(0);
    expect((await scrape(apiRoot)).value('loyalty_webhook_deliveries_total')).toBe(0);
    expect(w.value('loyalty_outbox_pending_events')).toBe(0);
    expect(w.value('loyalty_outbox_oldest_pending_seconds')).toBe(0);
    expect(w.value('loyalty_database_up')).toBe(1);
    expect(w.value('loyalty_db_pool_max')).toBe(10);
    expect(w.has('loyalty_job_queue_jobs', { queue: 'loyalty-sweep', state: 'waiting' })).toBe(true);
    expect(w.has('process_cpu_user_seconds_total')).toBe(true);
  });
});
