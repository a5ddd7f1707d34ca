import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers, type Workers } from '../../src/scheduler/worker.js';
import { accepted, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';
import { startReceiver } from '../support/receiver.js';

/** The whole path with the real worker loop: a log's events reach a webhook and an email rule on their own. */
const dataDir = mkdtempSync(join(tmpdir(), 'loyalty-workers-'));
let app: TestApp;
let acct: TestAccount;
let workers: Workers;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

async function until(check: () => boolean | Promise<boolean>, ms = 15_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  // The queue's own sweeps come at start and then hourly, so a test's sweepNow races none but the first.
  app = await startTestApp({
    LOYALTY_WEBHOOK_ALLOW_PRIVATE: 'true',
    LOYALTY_EMAIL_TRANSPORT: 'file',
    LOYALTY_DATA_DIR: dataDir,
    LOYALTY_SCHEDULER_INTERVAL_MS: '3600000',
  });
  acct = await app.createAccount();
  receiver = await startReceiver();
  // Idle workers poll only every ten minutes here, so a delivery within seconds proves NOTIFY woke them.
  workers = await startWorkers(app.running.services, app.config.databaseUrl!, { pollMs: 600_000 });
});
afterAll(async () => {
  await workers.stop();
  await receiver.close();
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('worker loop', () => {
  it('dispatches a new event to its webhook and its email rule within moments of the commit', async () => {
    const code = 'streak_progress_non_milestone_completed';
    await acct.api.post('/schema/webhook/record', { name: 'H', endpointUrl: `${receiver.url}/hook`, eventCodes: [code], status: 'live' });
    const email = (
      await acct.api.post('/schema/service_email/record', { name: 'Mail', replyToEmailAddress: 'help@shop.test', status: 'live' })
    ).body.data;
    const template = (
      await acct.api.post('/schema/email_template/record', {
        name: 'T',
        status: 'live',
        sampleEventCode: code,
        subject: 'Day done, {{$account_user.firstName}}',
        htmlContent: '<p>{{$helpers.currentProgressValue}}</p>',
      })
    ).body.data;
    const rule = await acct.api.post('/schema/notification/record', {
      name: 'N',
      status: 'live',
      eventCodes: [code],
      integrationProvider: 'service_email',
      integrationId: email.id,
      templateId: template.id,
    });
    expect(rule.status).toBe(200);
    const streak = (await acct.api.post('/schema/streak/record', { name: 'S' })).body.data;
    const log = await acct.api.post('/schema/streak_log/record', {
      streakId: streak.id,
      ownedBy: { externalId: 'w1', firstName: 'Wanda', email: 'wanda@example.net' },
      activityId: 'v',
      activityAt: new Date().toISOString(),
      uniqueIdentifier: 'w1',
    });
    expect(log.status).toBe(200);

    await until(() => receiver.received.length === 1);
    await until(async () => (await app.db('notification_log').where({ notification_log_status: 'sent' })).length === 1);
    expect(readdirSync(join(dataDir, 'outbox'))).toHaveLength(1);
    const [sent] = (await acct.api.get('/schema/notification_log/record')).body.data;
    expect(sent).toMatchObject({ channel: 'email', notificationLogStatus: 'sent', ownedById: log.body.data.ownedById });
  });

  it('runs every sweep step when one fails, then fails the job with what failed', async () => {
    // The queue's first sweep, run beside this test's, would lock the held row first (SKIP LOCKED) or fail and be retried.
    await until(
      async () =>
        (await app.db.raw(`select 1 from pgboss.job where name = 'loyalty-sweep' and state = 'completed'`)).rows.length > 0 &&
        (await app.db.raw(`select 1 from pgboss.job where name = 'loyalty-sweep' and state < 'completed'`)).rows.length === 0,
    );
    const post = (slug: string, body: Record<string, unknown>) => accepted(acct.api.post(`/schema/${slug}/record`, body));
    // A held reward log the database refuses to issue (as a bad row would), due now.
    const streak = await post('streak', { name: 'Held', status: 'live', rewardHoldDays: 1 });
    const reward = await post('reward', {
      name: 'Held',
      description: 'd',
      discountType: 'percentage',
      discountValue: 5,
      rewardExpiryType: 'no_expiry',
    });
    await post('milestone', {
      linkedSchemaSlug: 'streak',
      linkedSchemaRecordId: streak.id,
      name: 'M',
      description: 'd',
      status: 'live',
      milestoneTargetValue: 1,
      rewardId: reward.id,
    });
    const log = await post('streak_log', {
      streakId: streak.id,
      ownedBy: { externalId: 'held' },
      activityId: 'visit',
      activityAt: new Date().toISOString(),
      uniqueIdentifier: 'held-1',
    });
    const held = log.achievedMilestoneRewardLog.id as string;
    await app
      .db('reward_log')
      .where({ id: held })
      .update({ confirm_at: new Date(Date.now() - 1000) });
    // The daily points pass, a later step, has a member to place in a tier from 0.
    const [setting] = await accepted(acct.api.get('/schema/points_setting/record'));
    await accepted(acct.api.patch(`/schema/points_setting/record/${setting.id}`, { status: 'live' }));
    const base = await post('tier', { name: 'Base', status: 'live', pointsThreshold: 0, earnMultiplier: 1 });
    const member = await post('account_user', { externalId: 'tiered' });
    await app.db.raw(`create function test_refuse_issue() returns trigger language plpgsql as $$ begin
        if new.id = '${held}' and new.reward_log_status = 'issued' then raise exception 'refused by the test'; end if; return new; end $$;
      create trigger test_refuse_issue before update on reward_log for each row execute function test_refuse_issue();`);
    try {
      await expect(workers.sweepNow()).rejects.toThrow('1 sweep step(s) failed');
      expect((await app.db('account_user').where({ id: member.id }).first('tier_id')).tier_id).toBe(base.id);
      expect((await app.db('reward_log').where({ id: held }).first('reward_log_status')).reward_log_status).toBe('pending');
    } finally {
      await app.db.raw('drop trigger test_refuse_issue on reward_log; drop function test_refuse_issue()');
    }
    await workers.sweepNow();
    expect((await app.db('reward_log').where({ id: held }).first('reward_log_status')).reward_log_status).toBe('issued');
  });

  it('stops at once when its delivery loop is mid-round, not after its next poll interval', async () => {
    const dispatching = () =>
      app.db.raw(`select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and query like '%dispatched_at is null%'`);
    const blocker = new pg.Client({ connectionString: app.config.databaseUrl });
    await blocker.connect();
    try {
      // A new worker's delivery loop starts with a dispatch, held here by the lock: stop comes while it is mid-round.
      await blocker.query('begin');
      await blocker.query('lock table event_log in access exclusive mode');
      const more = await startWorkers(app.running.services, app.config.databaseUrl!, { pollMs: 600_000 });
      await until(async () => (await dispatching()).rows[0].n >= 1);
      const stopped = more.stop();
      await blocker.query('commit');
      // Within the test's time-out, not the loops' ten-minute poll.
      await stopped;
    } finally {
      await blocker.end();
    }
  });
});
