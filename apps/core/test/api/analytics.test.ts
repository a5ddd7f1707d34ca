import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmHeldRewards } from '../../src/scheduler/confirm.js';
import { accepted, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

let app: TestApp;
let acct: TestAccount;
const TZ = 'America/New_York';
// Two local days in the past, so activity times are never in the future.
const day1 = DateTime.now().setZone(TZ).minus({ days: 3 }).startOf('day');
const day2 = day1.plus({ days: 1 });
const at = (d: DateTime, hour: number) => d.set({ hour }).toUTC().toISO()!;
const tenOff = (name: string) => ({
  name,
  description: 'd',
  discountType: 'percentage',
  discountValue: 10,
  rewardExpiryType: 'no_expiry',
  handleCoupon: true,
  handleCouponAutoGeneration: true,
});

beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount({ timezone: TZ });
  const reward = await acct.api.post('/schema/reward/record', tenOff('R'));
  const streak = (await acct.api.post('/schema/streak/record', { name: 'Visit', status: 'live', completionTargetValue: 2 })).body.data;
  await acct.api.post('/schema/milestone/record', {
    name: 'M',
    description: 'd',
    linkedSchemaSlug: 'streak',
    linkedSchemaRecordId: streak.id,
    milestoneTargetValue: 1,
    status: 'live',
    rewardId: reward.body.data.id,
  });
  const challenge = (
    await acct.api.post('/schema/challenge/record', {
      name: 'Spend',
      status: 'live',
      aggregationMethod: 'sum',
      aggregationPeriod: 'monthly',
      completionTargetValue: 1000,
    })
  ).body.data;
  const log = async (path: string, body: Record<string, unknown>) => {
    const res = await acct.api.post(path, { activityId: 'a', ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  };
  // Ann: two streak days (completes the streak, earns the milestone reward); Bob: one day.
  await log('/schema/streak_log/record', {
    streakId: streak.id,
    ownedBy: { externalId: 'ann' },
    activityAt: at(day1, 10),
    uniqueIdentifier: 'a1',
  });
  await log('/schema/streak_log/record', {
    streakId: streak.id,
    ownedBy: { externalId: 'ann' },
    activityAt: at(day2, 10),
    uniqueIdentifier: 'a2',
  });
  await log('/schema/streak_log/record', {
    streakId: streak.id,
    ownedBy: { externalId: 'bob' },
    activityAt: at(day1, 23),
    uniqueIdentifier: 'b1',
  });
  await log('/schema/challenge_log/record', {
    challengeId: challenge.id,
    ownedBy: { externalId: 'bob' },
    activityAt: at(day1, 12),
    activityValue: 5,
    uniqueIdentifier: 'b2',
  });
});

afterAll(async () => {
  await app?.close();
});

describe('GET /analytics/summary', () => {
  it('counts per local day: active members, logs, rewards issued, and completion rates', async () => {
    const res = await acct.api.get('/analytics/summary', { from: day1.toISODate()!, to: day2.toISODate()! });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({ from: day1.toISODate(), to: day2.toISODate(), timezone: TZ });
    // 23:00 in New York is the next day in UTC: it still counts on day 1.
    expect(data.days).toEqual([
      { date: day1.toISODate(), logs: 3, activeMembers: 2, rewardsIssued: expect.any(Number), pointsEarned: 0, pointsRedeemed: 0 },
      { date: day2.toISODate(), logs: 1, activeMembers: 1, rewardsIssued: expect.any(Number), pointsEarned: 0, pointsRedeemed: 0 },
    ]);
    expect(data.totals).toMatchObject({ activeMembers: 2, logs: 4 });
    expect(data.completion.streak).toEqual({ started: 2, completed: 1, rate: 0.5 });
    expect(data.completion.challenge).toEqual({ started: 1, completed: 0, rate: 0 });
    expect(data.completion.mission).toEqual({ started: 0, completed: 0, rate: null });
  });

  it('counts reward logs by the local day they were created', async () => {
    const today = DateTime.now().setZone(TZ).toISODate()!;
    const res = await acct.api.get('/analytics/summary', { from: day1.toISODate()!, to: today });
    // Both members reached the one-day milestone, today (the logs were back-filled).
    expect(res.body.data.totals.rewardsIssued).toBe(2);
    expect(res.body.data.days.at(-1)).toMatchObject({ date: today, rewardsIssued: 2 });
  });

  it('counts a held reward when its hold ends, never one revoked while held, and one revoked after it was issued', async () => {
    const shop = await app.createAccount({ timezone: TZ });
    const reward = (await shop.api.post('/schema/reward/record', tenOff('R'))).body.data;
    const streakWith = async (rewardHoldDays: number) => {
      const streak = await accepted(shop.api.post('/schema/streak/record', { name: `S${rewardHoldDays}`, status: 'live', rewardHoldDays }));
      await accepted(
        shop.api.post('/schema/milestone/record', {
          name: 'M',
          description: 'd',
          linkedSchemaSlug: 'streak',
          linkedSchemaRecordId: streak.id,
          milestoneTargetValue: 1,
          status: 'live',
          rewardId: reward.id,
        }),
      );
      return streak.id as string;
    };
    const [held, plain] = [await streakWith(30), await streakWith(0)];
    const log = (streakId: string, externalId: string) =>
      accepted(
        shop.api.post('/schema/streak_log/record', {
          streakId,
          ownedBy: { externalId },
          activityId: 'a',
          activityAt: new Date().toISOString(),
          uniqueIdentifier: externalId,
        }),
      );
    const reverse = (id: string) =>
      accepted(shop.api.post(`/schema/streak_log/record/${id}/action/reverse`, { uniqueIdentifier: `r-${id}` }));
    await log(held, 'waits');
    await reverse((await log(held, 'refunded-while-held')).id);
    await reverse((await log(plain, 'refunded-after')).id);
    const today = DateTime.now().setZone(TZ).toISODate()!;
    const issuedToday = async () => {
      const summary = await accepted(shop.api.get('/analytics/summary', { from: today, to: today }));
      const programs = await accepted(shop.api.get('/analytics/programs', { from: today, to: today }));
      const byStreak = Object.fromEntries(programs.programs.map((p: any) => [p.id, p.current.rewardsIssued]));
      return [summary.totals.rewardsIssued, summary.days[0].rewardsIssued, byStreak[held], byStreak[plain]];
    };
    expect(await issuedToday()).toEqual([1, 1, 0, 1]);
    // The hold ends: the waiting reward is issued, today.
    await app
      .db('reward_log')
      .where({ account_id: shop.accountId, reward_log_status: 'pending' })
      .update({ confirm_at: new Date(Date.now() - 60_000) });
    expect(await confirmHeldRewards(app.running.services.records, new Date())).toBe(1);
    expect(await issuedToday()).toEqual([2, 2, 1, 1]);
  });

  it('defaults to the last 30 days', async () => {
    const res = await acct.api.get('/analytics/summary');
    expect(res.status).toBe(200);
    expect(res.body.data.days).toHaveLength(30);
    expect(res.body.data.to).toBe(DateTime.now().setZone(TZ).toISODate());
  });

  it.each([
    [{ from: '2026-02-30' }, 'from'],
    [{ from: 'yesterday' }, 'from'],
    [{ to: '2026-13-01' }, 'to'],
    [{ from: '2026-05-02', to: '2026-05-01' }, 'from'],
    [{ from: '2024-01-01', to: '2026-01-01' }, 'to'],
    [{ since: '2026-01-01' }, 'since'],
    [{ from: '0000-01-01' }, 'from'],
    [{ from: '0001-01-01' }, 'from'],
    [{ to: '1969-12-31' }, 'to'],
    [{ languageCode: 'AAA' }, 'languageCode'],
  ])('%j → 400 invalid_query naming %s, on the summary and the programs alike', async (query, field) => {
    for (const path of ['/analytics/summary', '/analytics/programs']) {
      const res = await acct.api.get(path, query);
      expect(res.status, path).toBe(400);
      expect(res.body.error.code).toBe('invalid_query');
      expect(res.body.error.details[0].field).toBe(field);
    }
  });

  it('refuses a day given twice, as every route refuses a repeated parameter', async () => {
    for (const path of ['/analytics/summary', '/analytics/programs'])
      for (const name of ['from', 'to']) {
        const res = await acct.api.get(`${path}?${name}=2026-05-01&${name}=2026-05-02`);
        expect(res.status, path).toBe(400);
        expect(res.body.error).toMatchObject({
          code: 'invalid_query',
          details: [expect.objectContaining({ field: name, code: 'repeated' })],
        });
      }
  });

  it('takes the first and last days it allows, a range from the last day ending there and one to the first day starting there', async () => {
    for (const path of ['/analytics/summary', '/analytics/programs']) {
      expect(await accepted(acct.api.get(path, { from: '9999-12-31' }))).toMatchObject({ from: '9999-12-31', to: '9999-12-31' });
      expect(await accepted(acct.api.get(path, { from: '9999-12-01' }))).toMatchObject({ from: '9999-12-01', to: '9999-12-30' });
      expect(await accepted(acct.api.get(path, { from: '1970-01-01', to: '1970-01-02' }))).toMatchObject({ from: '1970-01-01' });
      // A range ending near the first day starts there, not before it.
      expect(await accepted(acct.api.get(path, { to: '1970-01-01' }))).toMatchObject({ from: '1970-01-01', to: '1970-01-01' });
      expect(await accepted(acct.api.get(path, { to: '1970-01-10' }))).toMatchObject({ from: '1970-01-01', to: '1970-01-10' });
    }
  });

  it('is per account, API keys only, GET only', async () => {
    const other = await app.createAccount();
    const res = await other.api.get('/analytics/summary', { from: day1.toISODate()!, to: day2.toISODate()! });
    expect(res.body.data.totals).toEqual({ activeMembers: 0, logs: 0, rewardsIssued: 0 });
    expect((await app.anon.get('/analytics/summary')).status).toBe(401);
    expect((await acct.api.post('/analytics/summary', {})).status).toBe(405);
    const token = (await acct.api.post('/enduser/token', { externalId: 'ann' })).body.data.accessToken;
    const asMember = await app.anon.get('/analytics/summary', undefined, {
      'x-enduser-access-token': token,
      'x-account-id': acct.accountId,
    });
    expect(asMember.status).toBe(403);
  });
});

describe('GET /analytics/summary: points', () => {
  it("sums the range's entries by reason and per day, and what members hold now whatever the range", async () => {
    const shop = await app.createAccount({ timezone: TZ });
    const setting = (await shop.api.get('/schema/points_setting/record')).body.data[0];
    await accepted(shop.api.patch(`/schema/points_setting/record/${setting.id}`, { status: 'live' }));
    const member = async (externalId: string) =>
      (await accepted(shop.api.post('/schema/account_user/record', { externalId }))).id as string;
    const [ann, bob, cy] = [await member('ann'), await member('bob'), await member('cy')];
    const entry = (ownedById: string, points: number, reason: string) =>
      accepted(shop.api.post('/schema/point_entry/record', { ownedById, points, reason }));
    await entry(ann, 100, 'earned');
    await entry(bob, 50, 'earned');
    await entry(bob, -20, 'adjusted');
    await entry(cy, 5, 'adjusted');
    await entry(cy, -5, 'adjusted');
    const reward = await accepted(shop.api.post('/schema/reward/record', { ...tenOff('Ten off'), pointsCost: 60, status: 'live' }));
    await accepted(shop.api.post(`/schema/reward/record/${reward.id}/action/redeem`, { ownedById: ann }));

    const today = DateTime.now().setZone(TZ).toISODate()!;
    const summary = await accepted(shop.api.get('/analytics/summary', { from: day1.toISODate()!, to: today }));
    // Ann holds 40 and Bob 30; Cy's adjustments cancel out, so Cy holds none and is not counted.
    expect(summary.points).toEqual({
      status: 'live',
      earned: 150,
      redeemed: 60,
      reversed: 0,
      expired: 0,
      adjusted: -20,
      outstanding: 70,
      membersWithPoints: 2,
    });
    expect(summary.days.at(-1)).toMatchObject({ date: today, pointsEarned: 150, pointsRedeemed: 60 });
    expect(summary.days[0]).toMatchObject({ pointsEarned: 0, pointsRedeemed: 0 });

    // A range before the entries: nothing earned in it, the balances held now all the same.
    const before = await accepted(shop.api.get('/analytics/summary', { from: day1.toISODate()!, to: day2.toISODate()! }));
    expect(before.points).toEqual({
      status: 'live',
      earned: 0,
      redeemed: 0,
      reversed: 0,
      expired: 0,
      adjusted: 0,
      outstanding: 70,
      membersWithPoints: 2,
    });

    // Another account's summary knows nothing of these points.
    expect((await accepted(acct.api.get('/analytics/summary', { from: day1.toISODate()!, to: today }))).points).toMatchObject({
      status: 'draft',
      earned: 0,
      outstanding: 0,
      membersWithPoints: 0,
    });
  });
});

describe('GET /analytics/programs', () => {
  const figures = (activeMembers: number, completions: number, rewardsIssued: number) => ({ activeMembers, completions, rewardsIssued });

  it('per live definition: members active, completions and rewards in the range against the range of equal length before it', async () => {
    await acct.api.post('/schema/streak/record', { name: 'Draft streak', status: 'draft' });
    const res = await acct.api.get('/analytics/programs', { from: day2.toISODate()!, to: day2.toISODate()! });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({
      from: day2.toISODate(),
      to: day2.toISODate(),
      previousFrom: day1.toISODate(),
      previousTo: day1.toISODate(),
    });
    // Streaks first, then challenges; the draft streak is not a running program.
    expect(data.programs.map((p: { kind: string; name: string }) => [p.kind, p.name])).toEqual([
      ['streak', 'Visit'],
      ['challenge', 'Spend'],
    ]);
    const [streak, challenge] = data.programs;
    // Day 2: Ann's second day completes the streak (completion is dated by the log's activity); day 1: Ann and Bob.
    expect(streak).toMatchObject({ aggregationPeriod: 'daily', current: figures(1, 1, 0), previous: figures(2, 0, 0) });
    expect(streak.days).toEqual([{ date: day2.toISODate(), activeMembers: 1 }]);
    expect(challenge).toMatchObject({ aggregationPeriod: 'monthly', current: figures(0, 0, 0), previous: figures(1, 0, 0) });
  });

  it('counts reward logs by when they were issued, per definition', async () => {
    const today = DateTime.now().setZone(TZ);
    const res = await acct.api.get('/analytics/programs', { from: today.minus({ days: 1 }).toISODate()!, to: today.toISODate()! });
    const streak = res.body.data.programs.find((p: { name: string }) => p.name === 'Visit');
    // The back-filled logs were sent today: both one-day milestone rewards are today's; the logs are from the previous range.
    expect(streak.current).toEqual(figures(0, 0, 2));
    expect(streak.previous).toEqual(figures(2, 1, 0));
    expect(streak.days.map((d: { date: string }) => d.date)).toEqual([today.minus({ days: 1 }).toISODate(), today.toISODate()]);
  });

  it('is per account, checks its range like the summary, API keys only', async () => {
    const other = await app.createAccount();
    expect((await other.api.get('/analytics/programs')).body.data.programs).toEqual([]);
    const bad = await acct.api.get('/analytics/programs', { from: '2026-05-02', to: '2026-05-01' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('from');
    expect((await app.anon.get('/analytics/programs')).status).toBe(401);
    expect((await acct.api.post('/analytics/programs', {})).status).toBe(405);
  });
});

describe('reports in turn', () => {
  // Also where the account's share of the pool is one request: waiting reports hold none of it.
  let narrow: TestApp;
  beforeAll(async () => {
    narrow = await startTestApp({ LOYALTY_TENANT_CONCURRENCY: '1' });
  });
  afterAll(() => narrow.close());

  it.each(['the default share', 'a share of one'])(
    "runs one report of an account at a time, lets three wait and refuses more with 429; the account's other requests and other accounts' reports go on, with %s",
    async (share) => {
      const server = share === 'the default share' ? app : narrow;
      const mineAccount = server === app ? acct : await server.createAccount();
      const other = await server.createAccount();
      const locker = await server.db.client.acquireConnection();
      try {
        // Every report reads reward_log: held locked, the reports that start block on it.
        await locker.query('begin');
        await locker.query('lock table reward_log in access exclusive mode');
        const range = { from: day1.toISODate()!, to: day2.toISODate()! };
        type Answer = Awaited<ReturnType<typeof mineAccount.api.get>>;
        const answered: Answer[] = [];
        const mine = Array.from({ length: 6 }, (_, i) =>
          mineAccount.api.get(i % 2 ? '/analytics/programs' : '/analytics/summary', range).then((res) => {
            answered.push(res);
            return res;
          }),
        );
        const theirs = other.api.get('/analytics/summary', range);
        const blocked = async () =>
          Number(
            (
              await server.db.raw(
                `select count(*) as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database() and query ilike '%reward_log%'`,
              )
            ).rows[0].n,
          );
        // One of the account's reports and the other account's run (blocked on the lock); three of its reports wait their turn.
        await expect.poll(blocked, { timeout: 10_000 }).toBe(2);
        // The two over the limit are refused at once; the account's other requests still answer.
        await expect.poll(() => answered.length, { timeout: 5_000 }).toBe(2);
        for (const res of answered) {
          expect(res.status).toBe(429);
          expect((res.body as { error: { code: string } }).error.code).toBe('rate_limited');
          expect(res.headers.get('retry-after')).toBe('1');
        }
        expect((await mineAccount.api.get('/schema/streak/record')).status).toBe(200);
        expect(await blocked()).toBe(2);
        expect(answered).toHaveLength(2);
        await locker.query('rollback');
        expect((await Promise.all(mine)).map((res) => res.status).sort()).toEqual([200, 200, 200, 200, 429, 429]);
        expect((await theirs).status).toBe(200);
      } finally {
        await server.db.client.releaseConnection(locker);
      }
    },
  );
});
