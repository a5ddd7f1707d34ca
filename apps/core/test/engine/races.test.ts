import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSweeps } from '../../src/scheduler/sweeps.js';
import { accepted, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';
import { earningStreak } from '../support/programs.js';

// Every test fires its requests at once with Promise.all: the outcome must be decided by the
// database (constraints, locks), never by a read-then-write in the service.
let app: TestApp;
let acct: TestAccount;
/** The service's clock while logs arrive (each dated earlier). */
const NOW = new Date('2026-12-31T00:00:00Z');
beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount({ timezone: 'UTC' });
  app.running.services.records.now = () => NOW;
});
afterAll(() => app.close());

const AT = '2026-12-10T10:00:00Z';
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
let seq = 0;
const eq = (fieldSlug: string, fieldValue: unknown) => ({ operator: 'and', conditions: [{ fieldSlug, operator: 'equals', fieldValue }] });
const range = (n: number) => Array.from({ length: n }, (_, i) => i);

async function member(externalId: string, extra: Record<string, unknown> = {}): Promise<any> {
  return accepted(acct.api.post('/schema/account_user/record', { externalId, ...extra }));
}

async function create(slug: string, body: Record<string, unknown>): Promise<any> {
  return accepted(acct.api.post(`/schema/${slug}/record`, body));
}

async function eventCodes(memberId: string): Promise<Record<string, number>> {
  const res = await acct.api.get('/schema/event_log/record', { filters: eq('ownedById', memberId), limit: '1000' });
  const counts: Record<string, number> = {};
  for (const e of res.body.data) counts[e.eventCode] = (counts[e.eventCode] ?? 0) + 1;
  return counts;
}

/** `count` new members each log once on the streak, all at once; returns the reward logs they earned. */
async function raceForRewards(streakId: string, count: number): Promise<any[]> {
  const tag = ++seq;
  const responses = await Promise.all(
    range(count).map((i) =>
      acct.api.post('/schema/streak_log/record', {
        streakId,
        ownedBy: { externalId: `racer-${tag}-${i}` },
        activityId: 'visit',
        activityAt: AT,
        uniqueIdentifier: `race-${tag}-${i}`,
      }),
    ),
  );
  for (const res of responses) expect(res.status, JSON.stringify(res.body)).toBe(200);
  return responses.map((res) => res.body.data.achievedMilestoneRewardLog);
}

/** A 10 % reward without an expiry, with `extra` fields. */
const createReward = (name: string, extra: Record<string, unknown> = {}) =>
  create('reward', { name, description: 'd', discountType: 'percentage', discountValue: 10, rewardExpiryType: 'no_expiry', ...extra });

/** A monthly sum challenge to 5050 (1 + 2 + … + 100) with milestones at 1000 and 2000, giving `rewardId` when set. */
async function sumChallenge(name: string, rewardId?: string): Promise<any> {
  const challenge = await create('challenge', {
    name,
    aggregationPeriod: 'monthly',
    aggregationMethod: 'sum',
    completionTargetValue: 5050,
  });
  for (const target of [1000, 2000]) {
    await create('milestone', {
      linkedSchemaSlug: 'challenge',
      linkedSchemaRecordId: challenge.id,
      name: `M${target}`,
      description: 'd',
      milestoneTargetValue: target,
      status: 'live',
      ...(rewardId ? { rewardId } : {}),
    });
  }
  return challenge;
}

/** 100 logs of the values 1 to 100 at once; each answered 200. */
async function sumRace(challengeId: string, memberId: string): Promise<{ body: any }[]> {
  const responses = await Promise.all(
    range(100).map((i) =>
      acct.api.post('/schema/challenge_log/record', {
        challengeId,
        ownedById: memberId,
        activityId: 'buy',
        activityAt: AT,
        activityValue: i + 1,
        uniqueIdentifier: `${challengeId}-${i + 1}`,
      }),
    ),
  );
  for (const res of responses) expect(res.status, JSON.stringify(res.body)).toBe(200);
  return responses;
}

async function issuedCoupons(rewardId: string): Promise<{ coupon_code: string; reward_log_id: string | null }[]> {
  return app
    .db('coupon')
    .where({ account_id: acct.accountId, reward_id: rewardId, is_coupon_issued: true })
    .select('coupon_code', 'reward_log_id');
}

describe('concurrent logs', () => {
  it('one uniqueIdentifier sent 50 times at once: one 200, 49 × 409 naming the winner, one log, one event, the winner’s member fields', async () => {
    const streak = await create('streak', { name: 'Replay race' });
    const m = await member('replayer', { firstName: 'Original' });
    const responses = await Promise.all(
      range(50).map((i) =>
        acct.api.post('/schema/streak_log/record', {
          streakId: streak.id,
          ownedBy: { externalId: 'replayer', firstName: `Racer ${i}` },
          activityId: 'visit',
          activityAt: AT,
          uniqueIdentifier: 'once',
        }),
      ),
    );
    const winners = responses.filter((r) => r.status === 200);
    const losers = responses.filter((r) => r.status !== 200);
    expect(winners).toHaveLength(1);
    const winner = winners[0]!.body.data;
    expect(losers).toHaveLength(49);
    for (const res of losers) {
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('duplicate_unique_identifier');
      expect(res.body.error.details[0].existingRecordId).toBe(winner.id);
    }
    expect(await app.db('streak_log').where({ account_id: acct.accountId, streak_id: streak.id }).count({ n: '*' })).toEqual([{ n: 1 }]);
    expect(await eventCodes(m.id)).toEqual({ streak_progress_non_milestone_completed: 1 });
    // The refused logs' member upserts were rolled back with them.
    const stored = (await acct.api.get(`/schema/account_user/record/${m.id}`)).body.data;
    expect(stored.firstName).toBe(winner.ownedBy.firstName);
    expect(stored.firstName).toMatch(/^Racer \d+$/);
    // Unique per definition: the same identifier on another streak is a new log.
    const other = await create('streak', { name: 'Replay race 2' });
    const elsewhere = await acct.api.post('/schema/streak_log/record', {
      streakId: other.id,
      ownedById: m.id,
      activityId: 'visit',
      activityAt: AT,
      uniqueIdentifier: 'once',
    });
    expect(elsewhere.status).toBe(200);
  });

  it('100 sum logs at once on one challenge add up exactly, with exactly the right events', async () => {
    const challenge = await sumChallenge('Sum race');
    const m = await member('summer');
    const responses = await sumRace(challenge.id, m.id);
    const logs = responses
      .map((r) => r.body.data)
      .sort((a, b) => a.challengeProgress.currentProgressValue - b.challengeProgress.currentProgressValue);
    // Serialised: each log saw exactly the total of the logs before it.
    let total = 0;
    for (const l of logs) {
      expect(l.isAggregated).toBe(true);
      total += l.activityValue;
      expect(l.challengeProgress.currentProgressValue).toBe(total);
    }
    expect(total).toBe(5050);
    expect(logs.at(-1).challengeProgress.challengeProgressStatus).toBe('completed');
    expect(logs.flatMap((l) => l.achievedMilestones.map((x: any) => x.milestoneTargetValue)).sort()).toEqual([1000, 2000]);

    const progress = await acct.api.get('/schema/challenge_progress/record', { filters: eq('ownedById', m.id) });
    expect(progress.body.data).toHaveLength(1);
    expect(progress.body.data[0]).toMatchObject({ currentProgressValue: 5050, challengeProgressStatus: 'completed' });
    // The 100th log completes; two logs cross a milestone each; the other 97 are progress.
    expect(await eventCodes(m.id)).toEqual({
      challenge_progress_in_progress: 97,
      challenge_progress_milestone_completed: 2,
      challenge_progress_completed: 1,
    });
  });

  // A log reaching a reward goes on under the lock from what it read without it: racing logs change
  // that progress meanwhile, so this is where its write must find the change and start again.
  it('100 sum logs at once past two rewarded milestones issue each reward once, to the log that crossed it', async () => {
    const reward = await createReward('Sum race reward');
    const challenge = await sumChallenge('Rewarded sum race', reward.id);
    const m = await member('rewarded-summer');
    const responses = await sumRace(challenge.id, m.id);
    const crossing = responses.map((r) => r.body.data).filter((l) => l.achievedMilestones.length > 0);
    expect(crossing).toHaveLength(2);
    for (const l of crossing) {
      const target = l.achievedMilestones[0].milestoneTargetValue;
      const after = l.challengeProgress.currentProgressValue;
      expect(after - l.activityValue).toBeLessThan(target);
      expect(after).toBeGreaterThanOrEqual(target);
      expect(l.achievedMilestoneRewardLog).toMatchObject({ rewardId: reward.id, ownedById: m.id });
    }
    const rewardLogs = await acct.api.get('/schema/reward_log/record', { filters: eq('ownedById', m.id) });
    expect(rewardLogs.body.data.map((l: any) => l.id).sort()).toEqual(crossing.map((l) => l.achievedMilestoneRewardLog.id).sort());
    const progress = await acct.api.get('/schema/challenge_progress/record', { filters: eq('ownedById', m.id) });
    expect(progress.body.data[0]).toMatchObject({ currentProgressValue: 5050, challengeProgressStatus: 'completed' });
  });

  it('100 count logs at once on a daily streak in one day complete the period once', async () => {
    const streak = await create('streak', { name: 'Count race', aggregationTargetValue: 50 });
    const m = await member('counter');
    const responses = await Promise.all(
      range(100).map((i) =>
        acct.api.post('/schema/streak_log/record', {
          streakId: streak.id,
          ownedById: m.id,
          activityId: 'visit',
          activityAt: AT,
          uniqueIdentifier: `count-${i}`,
        }),
      ),
    );
    for (const res of responses) expect(res.status, JSON.stringify(res.body)).toBe(200);
    const periodValues = responses.map((r) => r.body.data.taskProgress.currentProgressValue).sort((a, b) => a - b);
    expect(periodValues).toEqual(range(100).map((i) => i + 1));
    const completing = responses.filter((r) => r.body.data.taskProgress.currentProgressValue === 50);
    expect(completing[0]!.body.data.streakProgress.currentProgressValue).toBe(1);

    const progress = await acct.api.get('/schema/streak_progress/record', { filters: eq('ownedById', m.id) });
    expect(progress.body.data).toHaveLength(1);
    expect(progress.body.data[0]).toMatchObject({
      currentProgressValue: 1,
      lastCompletedPeriodKey: '2026-12-10',
      taskProgress: { currentProgressValue: 100, taskProgressStatus: 'completed' },
    });
    expect(await eventCodes(m.id)).toEqual({ streak_progress_non_milestone_completed: 1, streak_progress_in_progress: 99 });
  });
});

describe('concurrent logs, continued', () => {
  it('20 first logs at once for one new inline member create one member and count every log', async () => {
    const streak = await create('streak', { name: 'Newcomer race', aggregationTargetValue: 20 });
    const responses = await Promise.all(
      range(20).map((i) =>
        acct.api.post('/schema/streak_log/record', {
          streakId: streak.id,
          ownedBy: { externalId: 'newcomer', firstName: `Try ${i}` },
          activityId: 'visit',
          activityAt: AT,
          uniqueIdentifier: `new-${i}`,
        }),
      ),
    );
    for (const res of responses) expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(new Set(responses.map((r) => r.body.data.ownedById)).size).toBe(1);
    const members = await acct.api.get('/schema/account_user/record', { filters: eq('externalId', 'newcomer') });
    expect(members.body.data).toHaveLength(1);
    const progress = await acct.api.get('/schema/streak_progress/record', { filters: eq('ownedById', members.body.data[0].id) });
    expect(progress.body.data[0]).toMatchObject({ currentProgressValue: 1, taskProgress: { currentProgressValue: 20 } });
  });

  it('30 mission logs at once over three tasks complete the mission once, with one reward log', async () => {
    const reward = await createReward('Mission race');
    const mission = await create('mission', {
      name: 'Mission race',
      aggregationPeriod: 'weekly',
      rewardId: reward.id,
      tasks: ['a', 'b', 'c'].map((activityId) => ({ name: activityId, activityId, targetValue: 5 })),
    });
    const m = await member('mission-racer');
    const responses = await Promise.all(
      range(30).map((i) =>
        acct.api.post('/schema/mission_log/record', {
          missionId: mission.id,
          ownedById: m.id,
          activityId: ['a', 'b', 'c'][i % 3],
          activityAt: AT,
          uniqueIdentifier: `mission-${i}`,
        }),
      ),
    );
    for (const res of responses) expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = responses.map((r) => r.body.data);
    // Not repeatable: the logs serialised after the completing one are not aggregated.
    const aggregated = data.filter((d) => d.isAggregated);
    expect(aggregated.length).toBeGreaterThanOrEqual(15);
    const completing = data.filter((d) => d.rewardLog !== null);
    expect(completing).toHaveLength(1);
    expect(completing[0].missionProgress.missionProgressStatus).toBe('completed');
    const rewardLogs = await acct.api.get('/schema/reward_log/record', { filters: eq('ownedById', m.id) });
    expect(rewardLogs.body.data).toHaveLength(1);
    const codes = await eventCodes(m.id);
    expect(codes).toEqual({ mission_progress_in_progress: aggregated.length - 1, mission_progress_completed: 1 });
    const progress = await acct.api.get('/schema/mission_progress/record', { filters: eq('ownedById', m.id) });
    expect(progress.body.data).toHaveLength(1);
    const total = progress.body.data[0].taskProgresses.reduce((n: number, t: any) => n + t.currentProgressValue, 0);
    expect(total).toBe(aggregated.length);
  });

  it('logs and scheduler sweeps racing to break the same streaks break each exactly once', async () => {
    const streak = await create('streak', { name: 'Break race' });
    const members = await Promise.all(range(40).map((i) => member(`breaker-${i}`)));
    for (const m of members) {
      const res = await acct.api.post('/schema/streak_log/record', {
        streakId: streak.id,
        ownedById: m.id,
        activityId: 'visit',
        activityAt: '2026-12-01T10:00:00Z',
        uniqueIdentifier: `before-${m.id}`,
      });
      expect(res.status).toBe(200);
    }
    // 2 December was missed: a log on the 5th breaks the run, and so does a sweep after the grace.
    const [responses] = await Promise.all([
      Promise.all(
        members.map((m) =>
          acct.api.post('/schema/streak_log/record', {
            streakId: streak.id,
            ownedById: m.id,
            activityId: 'visit',
            activityAt: '2026-12-05T10:00:00Z',
            uniqueIdentifier: `after-${m.id}`,
          }),
        ),
      ),
      ...range(3).map(() => runSweeps(app.running.services.records, new Date('2026-12-05T12:00:00Z'), 900)),
    ]);
    for (const res of responses) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.streakProgress).toMatchObject({
        streakProgressStatus: 'in_progress',
        currentProgressValue: 1,
        streakStartedAt: '2026-12-05T10:00:00.000Z',
      });
    }
    const broken = await app
      .db('event_log')
      .where({ account_id: acct.accountId, event_code: 'streak_progress_broken' })
      .whereIn(
        'owned_by_id',
        members.map((m) => m.id),
      )
      .count({ n: '*' });
    expect(broken).toEqual([{ n: members.length }]);
    const statuses = await app
      .db('streak_progress')
      .where({ account_id: acct.accountId, streak_id: streak.id })
      .select('streak_progress_status as status')
      .count({ n: '*' })
      .groupBy('streak_progress_status')
      .orderBy('status');
    expect(statuses).toEqual([
      { status: 'broken', n: members.length },
      { status: 'in_progress', n: members.length },
    ]);
  });
});

describe('concurrent coupon issuance', () => {
  it('200 members racing for 100 pool coupons: 100 distinct pool codes, 100 nulls, no coupon issued twice', async () => {
    const reward = await createReward('Pool race', { handleCoupon: true });
    const pool = range(100).map((i) => `POOL-${String(i).padStart(3, '0')}`);
    await acct.api.post(`/schema/reward/record/${reward.id}/action/import_coupons`, { couponCodes: pool });
    const rewardLogs = await raceForRewards(await earningStreak(acct.api, reward.id), 200);

    const codes = rewardLogs.map((l) => l.couponCode).filter((c): c is string => c !== null);
    expect(codes).toHaveLength(100);
    expect(new Set(codes).size).toBe(100);
    expect([...codes].sort()).toEqual(pool);
    expect(rewardLogs.filter((l) => l.couponCode === null)).toHaveLength(100);

    const issued = await issuedCoupons(reward.id);
    expect(issued).toHaveLength(100);
    expect(new Set(issued.map((c) => c.reward_log_id)).size).toBe(100);
    // Each issued coupon points at the reward log that carries its code.
    const byLog = new Map(rewardLogs.map((l) => [l.id as string, l.couponCode as string | null]));
    for (const c of issued) expect(byLog.get(c.reward_log_id!)).toBe(c.coupon_code);
  });

  it('200 members with auto-generation and an empty pool get 200 distinct generated codes', async () => {
    const reward = await createReward('Generated race', {
      handleCoupon: true,
      handleCouponAutoGeneration: true,
      couponCodePrefix: 'RACE',
      couponCodeLength: 6,
    });
    const rewardLogs = await raceForRewards(await earningStreak(acct.api, reward.id), 200);
    const codes = rewardLogs.map((l) => l.couponCode as string);
    for (const code of codes) expect(code).toMatch(new RegExp(`^RACE[${ALPHABET}]{6}$`));
    expect(new Set(codes).size).toBe(200);
    const issued = await issuedCoupons(reward.id);
    expect(issued).toHaveLength(200);
    expect(new Set(issued.map((c) => c.reward_log_id)).size).toBe(200);
  });
});

describe('rejected logs and the inline member', () => {
  it('a 400 or a 409 with an inline ownedBy creates or changes no member', async () => {
    const streak = await create('streak', { name: 'Rejections' });
    const summed = await create('challenge', { name: 'Sum', aggregationMethod: 'sum', completionTargetValue: 10 });
    const existing = await member('kept', { firstName: 'Kept', timezone: 'UTC' });
    const changed = { externalId: 'kept', firstName: 'Changed', timezone: 'Asia/Tokyo' };
    const body = { streakId: streak.id, activityId: 'visit', activityAt: AT };
    expect((await acct.api.post('/schema/streak_log/record', { ...body, ownedById: existing.id, uniqueIdentifier: 'taken' })).status).toBe(
      200,
    );

    const rejected = await Promise.all([
      // 409: a replay.
      acct.api.post('/schema/streak_log/record', { ...body, ownedBy: changed, uniqueIdentifier: 'taken' }),
      // 400: activityAt more than 5 minutes ahead of the service clock.
      acct.api.post('/schema/streak_log/record', {
        ...body,
        ownedBy: changed,
        activityAt: '2026-12-31T00:06:00Z',
        uniqueIdentifier: 'future',
      }),
      acct.api.post('/schema/streak_log/record', {
        ...body,
        ownedBy: { externalId: 'ghost-1' },
        activityAt: '2026-12-31T00:06:00Z',
        uniqueIdentifier: 'ghost-1',
      }),
      // 400: a sum log without its value.
      acct.api.post('/schema/challenge_log/record', {
        challengeId: summed.id,
        ownedBy: changed,
        activityId: 'buy',
        activityAt: AT,
        uniqueIdentifier: 'no-value',
      }),
      acct.api.post('/schema/challenge_log/record', {
        challengeId: summed.id,
        ownedBy: { externalId: 'ghost-2' },
        activityId: 'buy',
        activityAt: AT,
        uniqueIdentifier: 'no-value-2',
      }),
    ]);
    expect(rejected.map((r) => r.status)).toEqual([409, 400, 400, 400, 400]);

    expect((await acct.api.get(`/schema/account_user/record/${existing.id}`)).body.data).toMatchObject({
      firstName: 'Kept',
      timezone: 'UTC',
    });
    const ghosts = await acct.api.get('/schema/account_user/record', {
      filters: { operator: 'or', conditions: [eq('externalId', 'ghost-1'), eq('externalId', 'ghost-2')] },
    });
    expect(ghosts.body.data).toEqual([]);
  });
});

describe('concurrent freezes', () => {
  /** A streak with each member's run started on `firstDay` and granted `freezes` two hours later, on the scheduler's clock. */
  const freezing = async (name: string, members: any[], firstDay: string, freezes: number) => {
    const streak = await create('streak', { name, maxFreezes: 3 });
    const records = app.running.services.records;
    for (const m of members) {
      const first = await acct.api.post('/schema/streak_log/record', {
        streakId: streak.id,
        ownedById: m.id,
        activityId: 'visit',
        activityAt: firstDay,
        uniqueIdentifier: `first-${m.id}`,
      });
      expect(first.status).toBe(200);
      records.now = () => new Date(new Date(firstDay).getTime() + 2 * 3600_000);
      const granted = await acct.api.post(`/schema/streak_progress/record/${first.body.data.streakProgress.id}/action/grant_freezes`, {
        count: freezes,
      });
      records.now = () => NOW;
      expect(granted.status).toBe(200);
    }
    return streak.id as string;
  };
  const freezeEvents = async (members: any[], code: string) =>
    app
      .db('event_log')
      .where({ account_id: acct.accountId, event_code: code })
      .whereIn(
        'owned_by_id',
        members.map((m) => m.id),
      )
      .select('owned_by_id', 'payload');

  it('logs racing past a missed period spend one freeze, not one each', async () => {
    const members = await Promise.all(range(15).map((i) => member(`double-freezer-${i}`)));
    const streakId = await freezing('Freeze race', members, '2026-12-10T10:00:00Z', 2);
    // 11 December was missed: four logs on the 12th at once per member, each of which would freeze it.
    const responses = await Promise.all(
      members.flatMap((m) =>
        range(4).map((i) =>
          acct.api.post('/schema/streak_log/record', {
            streakId,
            ownedById: m.id,
            activityId: 'visit',
            activityAt: `2026-12-12T1${i}:00:00Z`,
            uniqueIdentifier: `double-${m.id}-${i}`,
          }),
        ),
      ),
    );
    for (const res of responses) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.isAggregated).toBe(true);
    }
    const rows = await app.db('streak_progress').where({ account_id: acct.accountId, streak_id: streakId });
    expect(rows).toHaveLength(members.length);
    for (const row of rows) {
      expect(row).toMatchObject({
        streak_progress_status: 'in_progress',
        current_progress_value: 2,
        freezes_available: 1,
        freezes_used: 1,
        frozen_period_keys: ['2026-12-11'],
      });
    }
    const used = await freezeEvents(members, 'streak_progress_freeze_used');
    expect(used).toHaveLength(members.length);
    expect(new Set(used.map((e) => e.owned_by_id)).size).toBe(members.length);
    for (const e of used) expect(e.payload.frozenPeriodKey).toBe('2026-12-11');
  });

  it('a log and scheduler sweeps racing past a missed period spend its freeze once', async () => {
    const members = await Promise.all(range(30).map((i) => member(`sweep-freezer-${i}`)));
    const streakId = await freezing('Freeze sweep race', members, '2026-12-20T10:00:00Z', 1);
    // 21 December was missed: a log on the 22nd freezes it, and so does a sweep after the grace.
    const [responses] = await Promise.all([
      Promise.all(
        members.map((m) =>
          acct.api.post('/schema/streak_log/record', {
            streakId,
            ownedById: m.id,
            activityId: 'visit',
            activityAt: '2026-12-22T10:00:00Z',
            uniqueIdentifier: `swept-${m.id}`,
          }),
        ),
      ),
      ...range(3).map(() => runSweeps(app.running.services.records, new Date('2026-12-22T12:00:00Z'), 900)),
    ]);
    for (const res of responses) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.streakProgress).toMatchObject({
        streakProgressStatus: 'in_progress',
        currentProgressValue: 2,
        freezesAvailable: 0,
        freezesUsed: 1,
        frozenPeriodKeys: ['2026-12-21'],
      });
    }
    const rows = await app.db('streak_progress').where({ account_id: acct.accountId, streak_id: streakId });
    expect(rows).toHaveLength(members.length);
    for (const row of rows)
      expect(row).toMatchObject({ streak_progress_status: 'in_progress', freezes_used: 1, frozen_period_keys: ['2026-12-21'] });
    expect(await freezeEvents(members, 'streak_progress_freeze_used')).toHaveLength(members.length);
    expect(await freezeEvents(members, 'streak_progress_broken')).toHaveLength(0);
  });

  it('grants and scheduler sweeps racing past a missed period spend its freeze once, then grant', async () => {
    const members = await Promise.all(range(20).map((i) => member(`grant-sweep-${i}`)));
    const streakId = await freezing('Freeze grant race', members, '2026-12-20T10:00:00Z', 1);
    const progresses = await app.db('streak_progress').where({ account_id: acct.accountId, streak_id: streakId }).select('id');
    // 21 December was missed and its grace is over: each grant settles it first, as a sweep does.
    const at = new Date('2026-12-22T00:30:00Z');
    const records = app.running.services.records;
    records.now = () => at;
    const [grants] = await Promise.all([
      Promise.all(progresses.map((p) => acct.api.post(`/schema/streak_progress/record/${p.id}/action/grant_freezes`, { count: 1 }))),
      ...range(3).map(() => runSweeps(records, at, 900)),
    ]);
    records.now = () => NOW;
    for (const res of grants) {
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data).toMatchObject({ streakProgressStatus: 'in_progress', freezesAvailable: 1, freezesUsed: 1 });
    }
    const rows = await app.db('streak_progress').where({ account_id: acct.accountId, streak_id: streakId });
    for (const row of rows)
      expect(row).toMatchObject({ streak_progress_status: 'in_progress', freezes_available: 1, frozen_period_keys: ['2026-12-21'] });
    const used = await freezeEvents(members, 'streak_progress_freeze_used');
    expect(used).toHaveLength(members.length);
    expect(new Set(used.map((e) => e.owned_by_id)).size).toBe(members.length);
  });

  it('grants racing an update that lowers maxFreezes never leave a progress above the new cap', async () => {
    const members = await Promise.all(range(15).map((i) => member(`capped-${i}`)));
    // Runs started the day before the clock's: nothing is overdue when the grants race.
    const streakId = await freezing('Freeze cap race', members, '2026-12-30T10:00:00Z', 1);
    const progresses = await app.db('streak_progress').where({ account_id: acct.accountId, streak_id: streakId }).select('id');
    const [lowered, ...grants] = await Promise.all([
      acct.api.patch(`/schema/streak/record/${streakId}`, { maxFreezes: 1 }),
      ...progresses.flatMap((p) =>
        range(2).map(() => acct.api.post(`/schema/streak_progress/record/${p.id}/action/grant_freezes`, { count: 2 })),
      ),
    ]);
    expect(lowered!.status).toBe(200);
    for (const res of grants) expect(res.status, JSON.stringify(res.body)).toBe(200);
    const rows = await app.db('streak_progress').where({ account_id: acct.accountId, streak_id: streakId }).select('freezes_available');
    expect(rows.map((r) => r.freezes_available)).toEqual(progresses.map(() => 1));
  });
});
