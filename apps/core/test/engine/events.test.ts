import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_CODES } from '../../src/events/codes.js';
import { runSweeps } from '../../src/scheduler/sweeps.js';
import { assertEventsDocumented } from '../support/fixtures.js';
import { accepted, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

let app: TestApp;
let acct: TestAccount;
const GRACE = 900;
beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount({ timezone: 'UTC' });
  app.running.services.records.now = () => new Date('2027-06-01T00:00:00Z');
});
afterAll(() => app.close());

let seq = 0;
const eq = (fieldSlug: string, fieldValue: unknown) => ({ operator: 'and', conditions: [{ fieldSlug, operator: 'equals', fieldValue }] });

async function create(slug: string, body: Record<string, unknown>): Promise<any> {
  return accepted(acct.api.post(`/schema/${slug}/record`, body));
}

const member = async (externalId: string): Promise<string> => (await create('account_user', { externalId })).id;

const milestone = (parent: 'streak' | 'challenge' | 'mission', parentId: string, target: number, rewardId?: string) =>
  create('milestone', {
    linkedSchemaSlug: parent,
    linkedSchemaRecordId: parentId,
    name: `M${target}`,
    description: 'd',
    milestoneTargetValue: target,
    status: 'live',
    rewardId,
  });

async function eventsOf(memberId: string): Promise<any[]> {
  const res = await acct.api.get('/schema/event_log/record', {
    filters: eq('ownedById', memberId),
    sortBy: [{ fieldSlug: 'createdAt', order: 'ASC' }],
    limit: '1000',
  });
  return res.body.data;
}

async function allEventCount(): Promise<number> {
  return (await acct.api.get('/schema/event_log/record', { fetchTotalCount: 'true', limit: '1' })).body.paging.total;
}

type Kind = 'streak' | 'challenge' | 'mission';

/**
 * Sends one log and returns its response and the events it added, after checking what every
 * log-driven event must carry: the member, the progress it concerns, and the create response
 * itself as `<kind>Log`.
 */
function logger(kind: Kind, definitionId: string, memberId: string) {
  return async (activityAt: string, extra: Record<string, unknown> = {}) => {
    const before = (await eventsOf(memberId)).length;
    const res = await acct.api.post(`/schema/${kind}_log/record`, {
      [`${kind}Id`]: definitionId,
      ownedById: memberId,
      activityId: 'visit',
      activityAt,
      uniqueIdentifier: `e-${++seq}`,
      ...extra,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = res.body.data;
    const events = (await eventsOf(memberId)).slice(before);
    for (const e of events) {
      expect(e.ownedById).toBe(memberId);
      expect(e.linkedSchemaSlug).toBe(`${kind}_progress`);
    }
    const own = events.filter((e) => `${kind}Log` in e.payload);
    for (const e of own) {
      expect(e.linkedSchemaRecordId).toBe(data[`${kind}Progress`].id);
      expect(e.payload).toEqual({ [`${kind}Log`]: data });
      expect(e.payload[`${kind}Log`][kind]).toMatchObject({ id: definitionId, milestones: expect.any(Array) });
    }
    return { data, events, codes: events.map((e) => e.eventCode as string) };
  };
}

/**
 * A closing event (broken/failed, by a log or the scheduler): the progress with its definition and
 * next milestone, and the event's own keys (`extra`: a streak warning's freezesAvailable, §14).
 */
function expectProgressPayload(
  event: any,
  kind: Kind,
  progressId: string,
  definitionId: string,
  nextTarget: number | null,
  extra: string[] = [],
) {
  const key = `${kind}Progress`;
  // Reading of §9 "the progress plus the definition and nextMilestone": both sit inside the progress object.
  expect(Object.keys(event.payload)).toEqual([key, ...extra]);
  expect(event.linkedSchemaRecordId).toBe(progressId);
  expect(event.payload[key]).toMatchObject({ id: progressId, [`${kind}Id`]: definitionId, [kind]: { id: definitionId } });
  expect(event.payload[key].nextMilestone?.milestoneTargetValue ?? null).toBe(nextTarget);
}

describe('codes emitted per log', () => {
  it('streak: in_progress, non_milestone_completed, milestone_completed, completed with milestone_completed, broken first', async () => {
    const reward = await create('reward', {
      name: 'R',
      description: 'd',
      discountType: 'percentage',
      discountValue: 5,
      rewardExpiryType: 'no_expiry',
      handleCoupon: true,
      handleCouponAutoGeneration: true,
    });
    const streak = await create('streak', { name: 'Events', aggregationTargetValue: 2, completionTargetValue: 3 });
    await milestone('streak', streak.id, 2, reward.id);
    await milestone('streak', streak.id, 3);
    const m = await member('streaker');
    const send = logger('streak', streak.id, m);

    expect((await send('2026-12-01T08:00:00Z')).codes).toEqual(['streak_progress_in_progress']);
    expect((await send('2026-12-01T09:00:00Z')).codes).toEqual(['streak_progress_non_milestone_completed']);
    expect((await send('2026-12-02T08:00:00Z')).codes).toEqual(['streak_progress_in_progress']);
    const milestoneLog = await send('2026-12-02T09:00:00Z');
    expect(milestoneLog.codes).toEqual(['streak_progress_milestone_completed']);
    expect(milestoneLog.events[0].payload.streakLog.achievedMilestoneRewardLog).toMatchObject({
      rewardId: reward.id,
      couponCode: expect.any(String),
    });
    expect((await send('2026-12-03T08:00:00Z')).codes).toEqual(['streak_progress_in_progress']);
    const done = await send('2026-12-03T09:00:00Z');
    expect(done.codes).toEqual(['streak_progress_milestone_completed', 'streak_progress_completed']);
    expect(done.data.streakProgress.streakProgressStatus).toBe('completed');
    // The completed streak's last period takes no more logs, and they emit nothing.
    const extra = await send('2026-12-03T10:00:00Z');
    expect([extra.data.isAggregated, extra.codes]).toEqual([false, []]);

    const restart = await send('2026-12-04T08:00:00Z');
    expect(restart.codes).toEqual(['streak_progress_in_progress']);
    expect((await send('2026-12-04T09:00:00Z')).codes).toEqual(['streak_progress_non_milestone_completed']);
    // 5 December is missed: the log of the 6th breaks the run first, then counts for a new one.
    const after = await send('2026-12-06T08:00:00Z');
    expect(after.codes).toEqual(['streak_progress_broken', 'streak_progress_in_progress']);
    expectProgressPayload(after.events[0], 'streak', restart.data.streakProgress.id, streak.id, 2);
    expect(after.events[0].payload.streakProgress).toMatchObject({
      streakProgressStatus: 'broken',
      streakBrokenAt: '2026-12-06T00:00:00.000Z',
      currentProgressValue: 1,
    });
    expect(after.data.streakProgress.id).not.toBe(restart.data.streakProgress.id);
  });

  it('challenge: in_progress, milestone_completed, completed with milestone_completed, silence after completion, failed first', async () => {
    const challenge = await create('challenge', { name: 'Events', aggregationPeriod: 'daily', completionTargetValue: 3 });
    await milestone('challenge', challenge.id, 2);
    await milestone('challenge', challenge.id, 3);
    const m = await member('challenger');
    const send = logger('challenge', challenge.id, m);

    expect((await send('2026-12-01T08:00:00Z')).codes).toEqual(['challenge_progress_in_progress']);
    expect((await send('2026-12-01T09:00:00Z')).codes).toEqual(['challenge_progress_milestone_completed']);
    expect((await send('2026-12-01T10:00:00Z')).codes).toEqual(['challenge_progress_milestone_completed', 'challenge_progress_completed']);
    const silent = await send('2026-12-01T11:00:00Z');
    expect([silent.data.isAggregated, silent.codes]).toEqual([true, []]);

    const open = await send('2026-12-02T08:00:00Z');
    expect(open.codes).toEqual(['challenge_progress_in_progress']);
    const next = await send('2026-12-03T08:00:00Z');
    expect(next.codes).toEqual(['challenge_progress_failed', 'challenge_progress_in_progress']);
    expectProgressPayload(next.events[0], 'challenge', open.data.challengeProgress.id, challenge.id, 2);
    expect(next.events[0].payload.challengeProgress).toMatchObject({
      challengeProgressStatus: 'failed',
      challengeFailedAt: '2026-12-03T00:00:00.000Z',
    });
  });

  it('mission: in_progress, milestone_completed, completed with milestone_completed, failed first', async () => {
    const tasks = [
      { name: 'Visit', activityId: 'visit', targetValue: 2 },
      { name: 'Share', activityId: 'share', targetValue: 1 },
    ];
    const mission = await create('mission', { name: 'Events', aggregationPeriod: 'daily', tasks });
    await milestone('mission', mission.id, 1);
    await milestone('mission', mission.id, 2);
    const m = await member('missioner');
    const send = logger('mission', mission.id, m);

    const first = await send('2026-12-01T08:00:00Z');
    expect(first.codes).toEqual(['mission_progress_in_progress']);
    expect(first.events[0].payload.missionLog.missionProgress.taskProgresses).toHaveLength(2);
    expect((await send('2026-12-01T09:00:00Z')).codes).toEqual(['mission_progress_milestone_completed']);
    expect((await send('2026-12-01T10:00:00Z', { activityId: 'share' })).codes).toEqual([
      'mission_progress_milestone_completed',
      'mission_progress_completed',
    ]);

    const retry = await create('mission', { name: 'Retry', aggregationPeriod: 'daily', tasks });
    await milestone('mission', retry.id, 2);
    const again = logger('mission', retry.id, m);
    const open = await again('2026-12-01T08:00:00Z');
    expect(open.codes).toEqual(['mission_progress_in_progress']);
    const late = await again('2026-12-02T08:00:00Z');
    expect(late.codes).toEqual(['mission_progress_failed', 'mission_progress_in_progress']);
    expectProgressPayload(late.events[0], 'mission', open.data.missionProgress.id, retry.id, 2);
    expect(late.events[0].payload.missionProgress).toMatchObject({
      missionProgressStatus: 'failed',
      missionFailedAt: '2026-12-02T08:00:00.000Z',
    });
    expect(late.events[0].payload.missionProgress.taskProgresses).toHaveLength(2);
  });
});

describe('scheduler-driven events', () => {
  const sweep = (at: string) => runSweeps(app.running.services.records, new Date(at), GRACE);

  it('carry the progress, its definition and the next milestone', async () => {
    const streak = await create('streak', { name: 'Swept streak', toBeBrokenWarningHours: 4 });
    await milestone('streak', streak.id, 3);
    const challenge = await create('challenge', {
      name: 'Swept challenge',
      aggregationPeriod: 'daily',
      completionTargetValue: 5,
      toBeFailedWarningHours: 6,
    });
    await milestone('challenge', challenge.id, 4);
    const mission = await create('mission', {
      name: 'Swept mission',
      aggregationPeriod: 'daily',
      tasks: [{ name: 'a', activityId: 'visit', targetValue: 2 }],
    });
    await milestone('mission', mission.id, 1);
    const m = await member('swept');
    const s = await logger('streak', streak.id, m)('2027-01-10T10:00:00Z');
    const c = await logger('challenge', challenge.id, m)('2027-01-10T10:00:00Z');
    const ms = await logger('mission', mission.id, m)('2027-01-10T10:00:00Z');
    const before = (await eventsOf(m)).length;

    await sweep('2027-01-11T20:00:00Z'); // 4 h before the streak's deadline (end of 11 Jan), after the challenge's
    await sweep('2027-01-12T00:15:00Z'); // past every deadline plus the grace
    const swept = (await eventsOf(m)).slice(before);
    expect(swept.map((e) => e.eventCode)).toEqual([
      'streak_progress_to_be_broken',
      'challenge_progress_failed',
      'mission_progress_failed',
      'streak_progress_broken',
    ]);
    for (const e of swept) expect(e.ownedById).toBe(m);
    const [warned, failed, missionFailed, broken] = swept;
    expectProgressPayload(warned, 'streak', s.data.streakProgress.id, streak.id, 3, ['freezesAvailable']);
    expect(warned.payload.streakProgress.streakProgressStatus).toBe('in_progress');
    expect(warned.payload.freezesAvailable).toBe(0);
    expectProgressPayload(failed, 'challenge', c.data.challengeProgress.id, challenge.id, 4);
    expect(failed.payload.challengeProgress).toMatchObject({
      challengeProgressStatus: 'failed',
      challengeFailedAt: '2027-01-11T00:00:00.000Z',
    });
    expectProgressPayload(missionFailed, 'mission', ms.data.missionProgress.id, mission.id, 1);
    expect(missionFailed.payload.missionProgress).toMatchObject({ missionProgressStatus: 'failed', isMissionToBeFailedProcessed: true });
    expect(missionFailed.payload.missionProgress.taskProgresses).toHaveLength(1);
    expectProgressPayload(broken, 'streak', s.data.streakProgress.id, streak.id, 3);
    expect(broken.payload.streakProgress).toMatchObject({ streakProgressStatus: 'broken', streakBrokenAt: '2027-01-12T00:00:00.000Z' });
  });

  it('warn a challenge before its window ends', async () => {
    const challenge = await create('challenge', {
      name: 'Warned',
      aggregationPeriod: 'daily',
      completionTargetValue: 5,
      toBeFailedWarningHours: 6,
    });
    const m = await member('warned');
    const c = await logger('challenge', challenge.id, m)('2027-01-20T10:00:00Z');
    const before = (await eventsOf(m)).length;
    await sweep('2027-01-20T17:59:00Z');
    await sweep('2027-01-20T18:00:00Z');
    await sweep('2027-01-20T19:00:00Z');
    const swept = (await eventsOf(m)).slice(before);
    expect(swept.map((e) => e.eventCode)).toEqual(['challenge_progress_to_be_failed']);
    expectProgressPayload(swept[0], 'challenge', c.data.challengeProgress.id, challenge.id, null);
  });
});

describe('the outbox', () => {
  it('writes events only with the log: refused and unaggregated logs add none', async () => {
    const streak = await create('streak', { name: 'Outbox' });
    const m = await member('outboxed');
    const body = { streakId: streak.id, ownedById: m, activityId: 'visit', activityAt: '2026-12-01T10:00:00Z', uniqueIdentifier: 'first' };
    expect((await acct.api.post('/schema/streak_log/record', body)).status).toBe(200);
    const count = await allEventCount();
    expect(count).toBeGreaterThan(0);

    const replay = await acct.api.post('/schema/streak_log/record', body);
    expect(replay.status).toBe(409);
    const future = await acct.api.post('/schema/streak_log/record', {
      ...body,
      activityAt: '2027-06-01T00:06:00Z',
      uniqueIdentifier: 'future',
    });
    expect(future.status).toBe(400);
    const draft = await acct.api.post('/schema/streak_log/record', { ...body, uniqueIdentifier: 'draft', status: 'draft' });
    expect(draft.status).toBe(200);
    expect(draft.body.data.isAggregated).toBe(false);

    expect(await allEventCount()).toBe(count);
    expect((await eventsOf(m)).map((e) => e.eventCode)).toEqual(['streak_progress_non_milestone_completed']);
  });
});

describe('the payloads', () => {
  it('are, for every code this file emitted, what the OpenAPI document says a delivery carries', async () => {
    const codes = await assertEventsDocumented(app, acct.api);
    // Freeze, reversal, hold and points codes are emitted and checked by their own files (freezes, reversals, points and tiers).
    const elsewhere = (c: string) =>
      c.includes('freeze') || c.includes('reversed') || c === 'reward_log_issued' || c.startsWith('points_') || c === 'tier_changed';
    expect([...codes].sort()).toEqual(EVENT_CODES.filter((c) => !elsewhere(c)).sort());
  });
});
