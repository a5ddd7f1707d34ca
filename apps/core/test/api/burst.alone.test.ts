import { performance } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accepted, Client, type Reply, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';
import { SERVICE_ACCOUNT } from '../support/fixtures.js';
import { startProcess } from '../support/processes.js';

/**
 * A burst of writes ten times the size of the pool (ARCHITECTURE principle 13). Each write holds
 * one pooled connection, so a burst queues for the pool rather than deadlocking on it; and no
 * tenant's burst may take the connections another tenant's reads need.
 */
const BURST = 100;
// Without the per-tenant limit the other tenant's p99 read 670 ms; 200 ms left no margin on a loaded
// host (a fresh run beside browser tests read 200.8 ms, its reads all answered).
const OTHER_TENANT_P99_MS = 400;

let app: TestApp;
let a: TestAccount;
let b: TestAccount;
const parents: Record<string, string> = {};

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

/** A create body and a patch for the i-th record of a resource in the burst. */
interface Plan {
  create(i: number): Record<string, unknown>;
  update: Record<string, unknown>;
}

const cloud = { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret/key+value', region: 'eu-west-1' };
const PLANS: Record<string, Plan> = {
  account_user: { create: (i) => ({ externalId: `burst-${i}` }), update: { firstName: 'Updated' } },
  apikey: { create: (i) => ({ name: `burst key ${i}`, status: 'live' }), update: { description: 'updated' } },
  streak: { create: (i) => ({ name: `Streak ${i}` }), update: { description: 'updated' } },
  challenge: { create: (i) => ({ name: `Challenge ${i}`, completionTargetValue: 10 }), update: { description: 'updated' } },
  mission: {
    create: (i) => ({ name: `Mission ${i}`, tasks: [{ name: 't', activityId: 'a', targetValue: 1 }] }),
    update: { description: 'updated' },
  },
  milestone: {
    create: (i) => ({
      linkedSchemaSlug: 'streak',
      linkedSchemaRecordId: parents.streak,
      name: `Milestone ${i}`,
      description: 'd',
      milestoneTargetValue: 100 + i,
      status: 'live',
    }),
    update: { description: 'updated' },
  },
  reward: {
    create: (i) => ({ name: `Reward ${i}`, description: 'd', discountType: 'percentage', discountValue: 5, rewardExpiryType: 'no_expiry' }),
    update: { description: 'updated' },
  },
  coupon: { create: (i) => ({ rewardId: parents.reward, couponCode: `BURST-${i}`, status: 'live' }), update: { status: 'paused' } },
  tier: { create: (i) => ({ name: `Tier ${i}`, pointsThreshold: i * 10, earnMultiplier: 1.5 }), update: { description: 'updated' } },
  leaderboard: {
    create: (i) => ({ name: `Board ${i}`, linkedSchemaSlug: 'streak', linkedSchemaRecordId: parents.streak }),
    update: { description: 'updated' },
  },
  webhook: {
    create: (i) => ({ name: `Hook ${i}`, endpointUrl: 'https://93.184.216.34/hook', eventCodes: ['streak_progress_in_progress'] }),
    update: { description: 'updated' },
  },
  notification: {
    create: (i) => ({
      name: `Rule ${i}`,
      eventCodes: ['streak_progress_in_progress'],
      integrationProvider: 'service_email',
      integrationId: parents.service_email,
      templateId: parents.email_template,
    }),
    update: { description: 'updated' },
  },
  email_template: {
    create: (i) => ({
      name: `Email ${i}`,
      status: 'live',
      sampleEventCode: 'streak_progress_in_progress',
      subject: 'Hi',
      htmlContent: '<p>Hi</p>',
    }),
    update: { subject: 'Updated' },
  },
  email_theme: { create: (i) => ({ name: `Theme ${i}`, status: 'live' }), update: { description: 'updated' } },
  email_header: { create: (i) => ({ name: `Header ${i}`, htmlContent: '<b>h</b>' }), update: { htmlContent: '<b>updated</b>' } },
  email_footer: { create: (i) => ({ name: `Footer ${i}`, htmlContent: '<i>f</i>' }), update: { htmlContent: '<i>updated</i>' } },
  push_notification_template: { create: (i) => ({ name: `Push ${i}`, title: 't', body: 'b' }), update: { body: 'updated' } },
  sms_template: { create: (i) => ({ name: `SMS ${i}`, body: 'b' }), update: { body: 'updated' } },
  chat_message_template: {
    create: (i) => ({ name: `Chat ${i}`, templateName: 'promo', templateLanguageCode: 'en_US' }),
    update: { templateName: 'updated' },
  },
  service_email: { create: (i) => ({ name: `Mail ${i}`, replyToEmailAddress: 'reply@example.com' }), update: { description: 'updated' } },
  push_cloud_messaging: {
    create: (i) => ({
      name: `Push ${i}`,
      serviceAccountJSON: SERVICE_ACCOUNT,
    }),
    update: { description: 'updated' },
  },
  cloud_sms: { create: (i) => ({ name: `SMS ${i}`, ...cloud, senderId: 'Shop' }), update: { description: 'updated' } },
  cloud_chat: {
    create: (i) => ({ name: `Chat ${i}`, ...cloud, messagingBusinessAccountId: 'waba-1', messagingPhoneNumberId: 'phone-1' }),
    update: { description: 'updated' },
  },
  floating_widget: { create: (i) => ({ name: `Widget ${i}`, description: 'd' }), update: { description: 'updated' } },
  theme: { create: (i) => ({ name: `Theme ${i}` }), update: { fontFamily: 'serif' } },
  template: { create: (i) => ({ name: `Template ${i}` }), update: { loggedInTitle: 'Updated' } },
};

/** Create-only resources (logs): the i-th log of the burst, each for a member of its own. */
const LOGS: Record<string, (i: number) => Record<string, unknown>> = {
  streak_log: (i) => ({ streakId: parents.rewardingStreak, ownedBy: { externalId: `logger-${i}` }, activityId: 'visit' }),
  challenge_log: (i) => ({ challengeId: parents.challenge, ownedBy: { externalId: `logger-${i}` }, activityId: 'spend', activityValue: 3 }),
  mission_log: (i) => ({ missionId: parents.mission, ownedBy: { externalId: `logger-${i}` }, activityId: 'a' }),
};

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><rect width="1" height="1"/></svg>';

/** The other tenant's reads, one after another, for as long as the burst runs. */
function readContinuously(account: TestAccount, streakId: string) {
  const latencies: number[] = [];
  const statuses = new Set<number>();
  let running = true;
  const done = (async () => {
    for (let n = 0; running; n++) {
      const started = performance.now();
      const res: Reply =
        n % 2 ? await account.api.get(`/schema/streak/record/${streakId}`) : await account.api.get('/schema/streak/record');
      latencies.push(performance.now() - started);
      statuses.add(res.status);
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      const sorted = [...latencies].sort((x, y) => x - y);
      return { statuses: [...statuses], count: sorted.length, p99: sorted[Math.ceil(sorted.length * 0.99) - 1]!, max: sorted.at(-1)! };
    },
  };
}

const allStatus = (replies: Reply[]) => [...new Set(replies.map((r) => r.status))];

beforeAll(async () => {
  app = await startTestApp();
  a = await app.createAccount();
  b = await app.createAccount();
  const made = async (slug: string, body: Record<string, unknown>) =>
    (await accepted(a.api.post(`/schema/${slug}/record`, body))).id as string;
  parents.streak = await made('streak', { name: 'Parent' });
  parents.reward = await made('reward', PLANS.reward!.create(-1));
  parents.service_email = await made('service_email', PLANS.service_email!.create(-1));
  parents.email_template = await made('email_template', PLANS.email_template!.create(-1));
  parents.rewardingStreak = await made('streak', { name: 'Rewarding' });
  await made('milestone', {
    ...PLANS.milestone!.create(0),
    linkedSchemaRecordId: parents.rewardingStreak,
    milestoneTargetValue: 1,
    rewardId: parents.reward,
  });
  parents.challenge = await made('challenge', { name: 'Spend', aggregationMethod: 'sum', completionTargetValue: 100 });
  parents.mission = await made('mission', PLANS.mission!.create(-1));
});
afterAll(() => app.close());

describe(`a burst of ${BURST} concurrent writes, ten times the pool`, () => {
  it('plans a burst for every resource an API key writes', () => {
    const writable = app.running.services.registry
      .all()
      .filter((r) => !r.createRaw && ['create', 'update', 'delete'].some((op) => r.access[op as 'create']?.includes('apikey')))
      .map((r) => r.slug);
    // Like reward_log, the points setting (update only, one per account) and point entries (a member's ledger) are raced in test/engine/points.test.ts.
    const elsewhere = new Set(['reward_log', 'points_setting', 'point_entry']);
    expect(writable.filter((slug) => !PLANS[slug] && !LOGS[slug] && !elsewhere.has(slug))).toEqual([]);
  });

  it("answers every create, update and delete of every resource with 2xx, loses none, and keeps another tenant's reads fast", async () => {
    const otherStreak = (await accepted(b.api.post('/schema/streak/record', { name: 'Elsewhere' }))).id as string;
    const reader = readContinuously(b, otherStreak);
    const at = () => new Date(Date.now() - 60_000).toISOString();

    for (const [slug, plan] of Object.entries(PLANS)) {
      const path = `/schema/${slug}/record`;
      const created = await Promise.all(range(BURST).map((i) => a.api.post(path, plan.create(i))));
      expect(allStatus(created), `${slug} creates: ${JSON.stringify(created.find((r) => r.status !== 200)?.body)}`).toEqual([200]);
      const ids = created.map((r) => r.body.data.id as string);
      const stored = await a.api.get(path, {
        filters: { operator: 'and', conditions: [{ fieldSlug: 'id', operator: 'in', fieldValue: ids }] },
        limit: '1000',
      });
      expect(stored.body.data, slug).toHaveLength(BURST);

      const updated = await Promise.all(ids.map((id) => a.api.patch(`${path}/${id}`, plan.update)));
      expect(allStatus(updated), `${slug} updates: ${JSON.stringify(updated.find((r) => r.status !== 200)?.body)}`).toEqual([200]);
      const [field, value] = Object.entries(plan.update)[0]!;
      for (const id of ids.slice(0, 10)) expect((await accepted(a.api.get(`${path}/${id}`)))[field], slug).toEqual(value);

      const deleted = await Promise.all(ids.map((id) => a.api.delete(`${path}/${id}`)));
      expect(allStatus(deleted), `${slug} deletes`).toEqual([204]);
      const gone = await a.api.get(path, {
        filters: { operator: 'and', conditions: [{ fieldSlug: 'id', operator: 'in', fieldValue: ids }] },
      });
      expect(gone.body.data, slug).toEqual([]);
    }

    for (const [slug, body] of Object.entries(LOGS)) {
      const logged = await Promise.all(
        range(BURST).map((i) => a.api.post(`/schema/${slug}/record`, { ...body(i), activityAt: at(), uniqueIdentifier: `burst-${i}` })),
      );
      expect(allStatus(logged), `${slug}: ${JSON.stringify(logged.find((r) => r.status !== 200)?.body)}`).toEqual([200]);
      const stored = await a.api.get(`/schema/${slug}/record`, { fetchTotalCount: 'true', limit: '1' });
      expect(stored.body.paging.total, slug).toBe(BURST);
    }

    // What the Shopify loop sends for every discount it stamps: a code on each reward log.
    const rewardLogs = (await accepted<{ id: string }[]>(a.api.get('/schema/reward_log/record', { limit: '1000' }))).map((r) => r.id);
    expect(rewardLogs).toHaveLength(BURST);
    const stamped = await Promise.all(
      rewardLogs.map((id, i) => a.api.patch(`/schema/reward_log/record/${id}`, { couponCode: `SHOP-${i}` })),
    );
    expect(allStatus(stamped)).toEqual([200]);
    const codes = await accepted<{ couponCode: string }[]>(a.api.get('/schema/reward_log/record', { limit: '1000' }));
    expect(new Set(codes.map((r) => r.couponCode)).size).toBe(BURST);

    const uploads = await Promise.all(
      range(BURST).map(async () => {
        const form = new FormData();
        form.set('file', new Blob([SVG], { type: 'image/svg+xml' }), 'dot.svg');
        const res = await fetch(`${a.api.baseUrl}/schema/upload/record`, { method: 'POST', headers: a.api.defaults, body: form });
        return { status: res.status, id: ((await res.json()) as { data: { id: string } }).data.id };
      }),
    );
    expect([...new Set(uploads.map((u) => u.status))]).toEqual([200]);
    expect(allStatus(await Promise.all(uploads.map((u) => a.api.delete(`/schema/upload/record/${u.id}`))))).toEqual([204]);

    const reads = await reader.stop();
    expect(reads.statuses).toEqual([200]);
    expect(reads.count).toBeGreaterThan(50);
    expect(reads.p99, `the other tenant's reads: ${JSON.stringify(reads)}`).toBeLessThan(OTHER_TENANT_P99_MS);
  }, 300_000);
});

describe('the probe that froze the shipped service', () => {
  it('answers twenty concurrent PATCHes of twenty challenges, bursts of streak PATCHes and coupon stamps, with /readyz ready throughout', async () => {
    // Without the per-account limit, which would otherwise keep a burst below the pool's size.
    const served = await startProcess(app, ['serve'], { LOYALTY_TENANT_CONCURRENCY: '1000' });
    try {
      const client = (acct: TestAccount) => new Client(served.url, { 'x-api-key': acct.apiKey, 'x-api-secret': acct.apiSecret });
      const [mine, theirs] = [client(a), client(b)];
      const challenges = await Promise.all(
        range(20).map((i) => accepted(mine.post('/schema/challenge/record', { name: `P${i}`, completionTargetValue: 5 }))),
      );
      const otherRead = (async () => {
        const started = performance.now();
        const res = await theirs.get('/schema/streak/record');
        return { status: res.status, ms: performance.now() - started };
      })();
      const patched = await Promise.all(challenges.map((c) => mine.patch(`/schema/challenge/record/${c.id}`, { description: 'c' })));
      expect(allStatus(patched)).toEqual([200]);
      expect((await otherRead).status).toBe(200);

      const streaks = await Promise.all(range(10).map((i) => accepted(mine.post('/schema/streak/record', { name: `Q${i}` }))));
      for (let round = 0; round < 3; round++) {
        const burst = Promise.all(streaks.map((st) => mine.patch(`/schema/streak/record/${st.id}`, { description: `round ${round}` })));
        const ready = await fetch(new URL('/readyz', served.url));
        expect(ready.status).toBe(200);
        expect(allStatus(await burst)).toEqual([200]);
      }

      const at = new Date(Date.now() - 60_000).toISOString();
      const logged = await Promise.all(
        range(20).map((i) =>
          accepted(
            mine.post('/schema/streak_log/record', { ...LOGS.streak_log!(1000 + i), activityAt: at, uniqueIdentifier: `probe-${i}` }),
          ),
        ),
      );
      const stamps = await Promise.all(
        logged.map((log, i) => mine.patch(`/schema/reward_log/record/${log.achievedMilestoneRewardLog.id}`, { couponCode: `PROBE-${i}` })),
      );
      expect(allStatus(stamps)).toEqual([200]);
    } finally {
      await served.kill();
    }
  }, 120_000);
});
