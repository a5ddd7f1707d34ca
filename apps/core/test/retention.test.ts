import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { runRetention, type RetainedTable, type RetentionOptions } from '../src/retention/retention.js';
import { startWorkers } from '../src/scheduler/worker.js';
import { moved, scrape } from './support/metrics.js';
import { startTestApp, type TestAccount, type TestApp } from './support/harness.js';

/**
 * The retention job: what outlived its table's retention goes, what is younger or still needed by
 * a delivery stays, each run is bounded, and a run never holds up a log being ingested.
 */
let app: TestApp;
let a: TestAccount;
let b: TestAccount;
const DAY = 86_400_000;
const now = new Date();
const daysAgo = (d: number) => new Date(now.getTime() - d * DAY);
const DAYS: Record<RetainedTable, number> = { event_log: 90, webhook_log: 30, notification_log: 60 };
const ALL: RetentionOptions = { batchSize: 1000, maxBatches: 1000, pauseMs: 0 };

beforeAll(async () => {
  app = await startTestApp();
  a = await app.createAccount();
  b = await app.createAccount();
});
afterAll(async () => {
  await app?.close();
});
beforeEach(async () => {
  for (const table of ['notification_log', 'webhook_log', 'event_log']) await app.db(table).del();
});

/** `n` events of an account created at `at`; dispatched unless told otherwise. */
async function events(account: string, n: number, at: Date, dispatched = true): Promise<string[]> {
  const rows = await app.db.raw(
    `insert into event_log (account_id, event_code, payload, created_at, updated_at, dispatched_at)
     select ?, 'streak_progress_in_progress', '{}', ?, ?, ? from generate_series(1, ?) returning id`,
    [account, at, at, dispatched ? at : null, n],
  );
  return rows.rows.map((r: { id: string }) => r.id);
}

async function webhookLog(account: string, at: Date, status: string, eventIds: string[] = [randomUUID()]): Promise<string> {
  const [row] = await app
    .db('webhook_log')
    .insert({
      account_id: account,
      webhook_id: randomUUID(),
      event_log_ids: eventIds,
      webhook_log_status: status,
      created_at: at,
      updated_at: at,
    })
    .returning('id');
  return row.id;
}

async function notificationLog(account: string, at: Date, status: string, eventId: string = randomUUID()): Promise<string> {
  const [row] = await app
    .db('notification_log')
    .insert({
      account_id: account,
      notification_id: randomUUID(),
      event_log_id: eventId,
      channel: 'email',
      notification_log_status: status,
      created_at: at,
      updated_at: at,
    })
    .returning('id');
  return row.id;
}

const ids = async (table: RetainedTable, account?: string): Promise<string[]> =>
  (await app
    .db(table)
    .modify((q) => (account ? q.where('account_id', account) : q))
    .pluck('id')) as string[];

describe('retention settings', () => {
  const base = { DATABASE_URL: 'postgres://x@127.0.0.1/db', LOYALTY_MASTER_KEY: Buffer.alloc(32).toString('base64') };

  it('defaults to 90 days of events, 30 of webhook logs and 90 of notification logs, hourly', () => {
    expect(loadConfig(base).retention).toEqual({ eventLogDays: 90, webhookLogDays: 30, notificationLogDays: 90, intervalMs: 3_600_000 });
  });

  it('takes days or off (keep forever) per table', () => {
    const config = loadConfig({
      ...base,
      LOYALTY_RETENTION_EVENT_LOG_DAYS: 'off',
      LOYALTY_RETENTION_WEBHOOK_LOG_DAYS: '7',
      LOYALTY_RETENTION_NOTIFICATION_LOG_DAYS: '0',
    });
    expect(config.retention).toMatchObject({ eventLogDays: 0, webhookLogDays: 7, notificationLogDays: 0 });
  });

  it('refuses a bad value, and events kept for less time than the webhook logs that are resent with them', () => {
    expect(() => loadConfig({ ...base, LOYALTY_RETENTION_WEBHOOK_LOG_DAYS: 'soon' })).toThrow(
      /LOYALTY_RETENTION_WEBHOOK_LOG_DAYS must be an integer/,
    );
    expect(() => loadConfig({ ...base, LOYALTY_RETENTION_EVENT_LOG_DAYS: '10', LOYALTY_RETENTION_WEBHOOK_LOG_DAYS: '30' })).toThrow(
      /LOYALTY_RETENTION_EVENT_LOG_DAYS must be off \(0\) or at least/,
    );
    expect(() => loadConfig({ ...base, LOYALTY_RETENTION_WEBHOOK_LOG_DAYS: 'off' })).toThrow(/LOYALTY_RETENTION_EVENT_LOG_DAYS/);
  });
});

describe('a retention run', () => {
  it('deletes the rows older than each table setting and keeps the younger ones, in every account', async () => {
    const oldEvents = [...(await events(a.accountId, 2, daysAgo(91))), ...(await events(b.accountId, 1, daysAgo(91)))];
    const youngEvents = [...(await events(a.accountId, 2, daysAgo(89))), ...(await events(b.accountId, 1, daysAgo(1)))];
    const oldHooks = [await webhookLog(a.accountId, daysAgo(31), 'processed'), await webhookLog(b.accountId, daysAgo(40), 'max_errored')];
    const youngHooks = [await webhookLog(a.accountId, daysAgo(29), 'processed'), await webhookLog(b.accountId, daysAgo(2), 'processed')];
    const oldSends = [
      await notificationLog(a.accountId, daysAgo(61), 'sent'),
      await notificationLog(a.accountId, daysAgo(61), 'skipped'),
      await notificationLog(b.accountId, daysAgo(70), 'failed'),
    ];
    const youngSends = [await notificationLog(a.accountId, daysAgo(59), 'sent'), await notificationLog(b.accountId, daysAgo(3), 'failed')];

    const before = await scrape(app.url);
    const run = await runRetention(app.db, DAYS, now, ALL);
    const after = await scrape(app.url);

    expect(run).toEqual({ deleted: { event_log: 3, webhook_log: 2, notification_log: 3 }, complete: true });
    expect((await ids('event_log')).sort()).toEqual(youngEvents.sort());
    expect((await ids('webhook_log')).sort()).toEqual(youngHooks.sort());
    expect((await ids('notification_log')).sort()).toEqual(youngSends.sort());
    for (const id of [...oldEvents, ...oldHooks, ...oldSends]) {
      expect([...(await ids('event_log')), ...(await ids('webhook_log')), ...(await ids('notification_log'))]).not.toContain(id);
    }
    for (const [table, n] of Object.entries(run.deleted)) {
      expect(moved(before, after, 'loyalty_retention_deleted_total', { table })).toBe(n);
    }
  });

  it('keeps what a delivery still needs: undispatched events, pending deliveries and the events they carry', async () => {
    const [undispatched] = await events(a.accountId, 1, daysAgo(200), false);
    const [retried, awaited, done] = await events(a.accountId, 3, daysAgo(200));
    const retrying = await webhookLog(a.accountId, daysAgo(100), 'errored', [retried!]);
    const pending = await webhookLog(b.accountId, daysAgo(100), 'pending');
    const sending = await notificationLog(a.accountId, daysAgo(100), 'pending', awaited);
    const finished = await webhookLog(a.accountId, daysAgo(100), 'processed', [done!]);

    const run = await runRetention(app.db, DAYS, now, ALL);

    expect(run.deleted).toEqual({ event_log: 1, webhook_log: 1, notification_log: 0 });
    expect((await ids('event_log')).sort()).toEqual([undispatched, retried, awaited].sort());
    expect((await ids('webhook_log')).sort()).toEqual([retrying, pending].sort());
    expect(await ids('notification_log')).toEqual([sending]);
    expect(await ids('webhook_log')).not.toContain(finished);
  });

  it('keeps a table whose retention is off', async () => {
    await events(a.accountId, 2, daysAgo(1000));
    await webhookLog(a.accountId, daysAgo(1000), 'processed');
    const run = await runRetention(app.db, { ...DAYS, event_log: 0 }, now, ALL);
    expect(run.deleted).toEqual({ event_log: 0, webhook_log: 1, notification_log: 0 });
    expect(await ids('event_log')).toHaveLength(2);
  });

  it('deletes in bounded batches, oldest first, and the next run goes on where the last stopped', async () => {
    await events(a.accountId, 10, daysAgo(300));
    const older = await events(a.accountId, 10, daysAgo(200));
    const old = await events(a.accountId, 5, daysAgo(100));
    const young = await events(a.accountId, 3, daysAgo(10));
    const bounded: RetentionOptions = { batchSize: 10, maxBatches: 1, pauseMs: 0 };

    const first = await runRetention(app.db, DAYS, now, bounded);
    expect(first).toEqual({ deleted: { event_log: 10, webhook_log: 0, notification_log: 0 }, complete: false });
    expect((await ids('event_log')).sort()).toEqual([...older, ...old, ...young].sort());

    const second = await runRetention(app.db, DAYS, now, bounded);
    expect(second).toEqual({ deleted: { event_log: 10, webhook_log: 0, notification_log: 0 }, complete: false });
    expect((await ids('event_log')).sort()).toEqual([...old, ...young].sort());

    // A run that reached its bound cannot know whether more is left; the next one finds nothing.
    const third = await runRetention(app.db, DAYS, now, bounded);
    expect(third.deleted).toEqual({ event_log: 5, webhook_log: 0, notification_log: 0 });
    expect((await ids('event_log')).sort()).toEqual(young.sort());
    expect(await runRetention(app.db, DAYS, now, bounded)).toEqual({
      deleted: { event_log: 0, webhook_log: 0, notification_log: 0 },
      complete: true,
    });
  });

  it('gives every account a batch per round, so one large backlog does not starve another account', async () => {
    await events(a.accountId, 30, daysAgo(100));
    await events(b.accountId, 5, daysAgo(100));
    const run = await runRetention(app.db, DAYS, now, { batchSize: 10, maxBatches: 2, pauseMs: 0 });
    expect(run.complete).toBe(false);
    expect(await ids('event_log', a.accountId)).toHaveLength(20);
    expect(await ids('event_log', b.accountId)).toHaveLength(0);
  });

  it('holds no lock that a log being ingested waits for', async () => {
    const streak = (
      await a.api.post('/schema/streak/record', { name: 'Daily', status: 'live', aggregationPeriod: 'daily', aggregationMethod: 'count' })
    ).body.data;
    const member = (await a.api.post('/schema/account_user/record', { externalId: `m-${randomUUID()}` })).body.data;
    await events(a.accountId, 50, daysAgo(100));
    const postLog = () =>
      a.api.post('/schema/streak_log/record', {
        streakId: streak.id,
        ownedById: member.id,
        activityId: 'visit',
        activityAt: new Date().toISOString(),
        uniqueIdentifier: randomUUID(),
      });
    expect((await postLog()).status).toBe(200);

    // The run's deletes stay uncommitted while a log is ingested: were any of its locks in the
    // log's way, the log would wait for the commit below, which comes only after it is answered.
    const trx = await app.db.transaction();
    try {
      const run = await runRetention(trx, DAYS, now, { batchSize: 20, maxBatches: 10, pauseMs: 0 });
      expect(run.deleted.event_log).toBe(50);
      const locks = await trx.raw(
        `select distinct mode from pg_locks where pid = pg_backend_pid() and locktype = 'relation' and relation::regclass::text like '%log%'`,
      );
      // Row-level modes only: none of them conflicts with the RowExclusiveLock an insert takes.
      const modes = locks.rows.map((r: { mode: string }) => r.mode);
      expect(modes).toContain('RowExclusiveLock');
      expect(modes.filter((m: string) => !['AccessShareLock', 'RowShareLock', 'RowExclusiveLock'].includes(m))).toEqual([]);

      const ingested = await postLog();
      expect(ingested.status).toBe(200);
      const written = await app
        .db('event_log')
        .where({ account_id: a.accountId, linked_schema_record_id: ingested.body.data.streakProgress.id });
      expect(written.length).toBeGreaterThan(0);
      await trx.commit();
    } catch (err) {
      await trx.rollback();
      throw err;
    }
    expect(await app.db('event_log').where('created_at', '<', daysAgo(90)).pluck('id')).toEqual([]);
  });
});

describe('the retention job in the workers', () => {
  it('runs on its own when the workers start and deletes what expired', async () => {
    const gone = await webhookLog(a.accountId, daysAgo(45), 'processed');
    const kept = await webhookLog(a.accountId, daysAgo(5), 'processed');
    const workers = await startWorkers(app.running.services, app.config.databaseUrl!);
    try {
      const deadline = Date.now() + 20_000;
      while ((await ids('webhook_log')).includes(gone)) {
        if (Date.now() > deadline) throw new Error('the retention job did not run');
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(await ids('webhook_log')).toEqual([kept]);
    } finally {
      await workers.stop();
    }
  });
});
