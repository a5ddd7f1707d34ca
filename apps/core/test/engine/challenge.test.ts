import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSweeps } from '../../src/scheduler/sweeps.js';
import { accepted, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

let app: TestApp;
let acct: TestAccount;
const GRACE = 900;
beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount({ timezone: 'Europe/Paris' });
  // Every activityAt below is before this instant, so the 5-minute future check never interferes.
  app.running.services.records.now = () => new Date('2027-06-01T00:00:00Z');
});
afterAll(() => app.close());

let seq = 0;
const post = (body: Record<string, unknown>) =>
  acct.api.post('/schema/challenge_log/record', { activityId: 'act', uniqueIdentifier: `c-${++seq}`, ...body });

/** Posts a log that must be accepted and returns the create response's `data`. */
async function log(body: Record<string, unknown>): Promise<any> {
  return accepted(post(body));
}

async function member(externalId: string, extra: Record<string, unknown> = {}): Promise<string> {
  return (await accepted(acct.api.post('/schema/account_user/record', { externalId, ...extra }))).id;
}

async function challenge(body: Record<string, unknown>): Promise<any> {
  return accepted(acct.api.post('/schema/challenge/record', { name: `C${++seq}`, ...body }));
}

async function milestone(challengeId: string, target: number, rewardId?: string): Promise<any> {
  return accepted(
    acct.api.post('/schema/milestone/record', {
      linkedSchemaSlug: 'challenge',
      linkedSchemaRecordId: challengeId,
      name: `M${target}`,
      description: 'd',
      milestoneTargetValue: target,
      status: 'live',
      rewardId,
    }),
  );
}

const eq = (fieldSlug: string, fieldValue: unknown) => ({ operator: 'and', conditions: [{ fieldSlug, operator: 'equals', fieldValue }] });

async function eventsOf(memberId: string): Promise<any[]> {
  const res = await acct.api.get('/schema/event_log/record', {
    filters: eq('ownedById', memberId),
    sortBy: [{ fieldSlug: 'createdAt', order: 'ASC' }],
    limit: '1000',
  });
  return res.body.data;
}

async function progressesOf(memberId: string): Promise<any[]> {
  const res = await acct.api.get('/schema/challenge_progress/record', {
    filters: eq('ownedById', memberId),
    sortBy: [{ fieldSlug: 'periodKey', order: 'ASC' }],
  });
  return res.body.data;
}

/** Runs `act` and returns what it answered plus the events it added for the member, in order. */
async function withEvents<T>(memberId: string, act: () => Promise<T>): Promise<{ result: T; codes: string[]; events: any[] }> {
  const before = (await eventsOf(memberId)).length;
  const result = await act();
  const events = (await eventsOf(memberId)).slice(before);
  return { result, codes: events.map((e) => e.eventCode), events };
}

describe('challenge windows in the member time zone', () => {
  it('daily windows are local days', async () => {
    const c = await challenge({ aggregationPeriod: 'daily', completionTargetValue: 5 });
    const ny = await member('ny-daily', { timezone: 'America/New_York' });
    // 04:59Z on 2 Dec is 23:59 on 1 Dec in New York (UTC-5).
    const late = await log({ challengeId: c.id, ownedById: ny, activityAt: '2026-12-02T04:59:00Z' });
    expect(late.periodKey).toBe('2026-12-01');
    expect(late.challengeProgress).toMatchObject({
      periodKey: '2026-12-01',
      challengeProgressStatus: 'in_progress',
      currentProgressValue: 1,
      challengeStartedAt: '2026-12-02T04:59:00.000Z',
      challengeToBeFailedAt: '2026-12-02T05:00:00.000Z',
    });
    const midnight = await log({ challengeId: c.id, ownedById: ny, activityAt: '2026-12-02T05:00:00Z' });
    expect(midnight.challengeProgress).toMatchObject({
      periodKey: '2026-12-02',
      currentProgressValue: 1,
      challengeToBeFailedAt: '2026-12-03T05:00:00.000Z',
    });
    expect(midnight.challengeProgress.id).not.toBe(late.challengeProgress.id);

    // No member zone: the account's (Paris, UTC+1 in December).
    const paris = await member('no-zone');
    const p = await log({ challengeId: c.id, ownedById: paris, activityAt: '2026-12-01T23:00:00Z' });
    expect(p.challengeProgress).toMatchObject({ periodKey: '2026-12-02', challengeToBeFailedAt: '2026-12-02T23:00:00.000Z' });
  });

  it('weekly windows are ISO weeks from Monday, including week 53', async () => {
    const c = await challenge({ aggregationPeriod: 'weekly', completionTargetValue: 5 });
    const tokyo = await member('tokyo-weekly', { timezone: 'Asia/Tokyo' });
    // Sunday 27 Dec 2026, 23:59 in Tokyo: the last day of ISO week 52.
    const sunday = await log({ challengeId: c.id, ownedById: tokyo, activityAt: '2026-12-27T14:59:00Z' });
    expect(sunday.challengeProgress).toMatchObject({ periodKey: '2026-W52', challengeToBeFailedAt: '2026-12-27T15:00:00.000Z' });
    const monday = await log({ challengeId: c.id, ownedById: tokyo, activityAt: '2026-12-27T15:00:00Z' });
    expect(monday.challengeProgress).toMatchObject({
      periodKey: '2026-W53',
      currentProgressValue: 1,
      challengeToBeFailedAt: '2027-01-03T15:00:00.000Z',
    });
    // Sunday 3 Jan 2027 in Tokyo is still in 2026-W53.
    const lastDay = await log({ challengeId: c.id, ownedById: tokyo, activityAt: '2027-01-03T14:00:00Z' });
    expect(lastDay.challengeProgress).toMatchObject({ id: monday.challengeProgress.id, periodKey: '2026-W53', currentProgressValue: 2 });
  });

  it('monthly windows are calendar months, ending at local midnight across DST', async () => {
    const c = await challenge({ aggregationPeriod: 'monthly', completionTargetValue: 5 });
    const la = await member('la-monthly', { timezone: 'America/Los_Angeles' });
    const dec = await log({ challengeId: c.id, ownedById: la, activityAt: '2027-01-01T07:59:00Z' });
    expect(dec.challengeProgress).toMatchObject({ periodKey: '2026-12', challengeToBeFailedAt: '2027-01-01T08:00:00.000Z' });
    const jan = await log({ challengeId: c.id, ownedById: la, activityAt: '2027-01-01T08:00:00Z' });
    expect(jan.challengeProgress).toMatchObject({ periodKey: '2027-01', challengeToBeFailedAt: '2027-02-01T08:00:00.000Z' });
    // March starts in PST (UTC-8) and ends in PDT (UTC-7).
    const mar = await log({ challengeId: c.id, ownedById: la, activityAt: '2027-03-01T08:00:00Z' });
    expect(mar.challengeProgress).toMatchObject({ periodKey: '2027-03', challengeToBeFailedAt: '2027-04-01T07:00:00.000Z' });
  });
});

describe('challenge aggregation', () => {
  it('count adds 1 per log whatever the value; sum adds activityValue and requires it above zero', async () => {
    const counted = await challenge({ aggregationMethod: 'count', completionTargetValue: 10 });
    const m = await member('counter', { timezone: 'UTC' });
    expect(
      (await log({ challengeId: counted.id, ownedById: m, activityAt: '2026-12-05T10:00:00Z' })).challengeProgress.currentProgressValue,
    ).toBe(1);
    expect(
      (await log({ challengeId: counted.id, ownedById: m, activityAt: '2026-12-05T11:00:00Z', activityValue: 7 })).challengeProgress
        .currentProgressValue,
    ).toBe(2);

    const summed = await challenge({ aggregationMethod: 'sum', completionTargetValue: 100 });
    for (const activityValue of [undefined, 0, -5]) {
      const res = await post({ challengeId: summed.id, ownedById: m, activityAt: '2026-12-05T10:00:00Z', activityValue });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.code).toBe('invalid_input');
      expect(res.body.error.details.map((d: any) => d.field)).toEqual(['activityValue']);
    }
    expect(
      (await log({ challengeId: summed.id, ownedById: m, activityAt: '2026-12-05T10:00:00Z', activityValue: 2.5 })).challengeProgress
        .currentProgressValue,
    ).toBe(2.5);
    expect(
      (await log({ challengeId: summed.id, ownedById: m, activityAt: '2026-12-05T12:00:00Z', activityValue: 4 })).challengeProgress
        .currentProgressValue,
    ).toBe(6.5);
    // The refused logs were not stored.
    const stored = await acct.api.get('/schema/challenge_log/record', { filters: eq('challengeId', summed.id) });
    expect(stored.body.data).toHaveLength(2);
  });

  it('one log crosses several milestones; completion; later logs in the window count silently', async () => {
    const c = await challenge({ aggregationPeriod: 'monthly', aggregationMethod: 'sum', completionTargetValue: 100 });
    const rewardIds: string[] = [];
    for (const name of ['Ten', 'Twenty', 'Sixty']) {
      const r = await acct.api.post('/schema/reward/record', {
        name,
        description: 'd',
        discountType: 'fixed_amount',
        discountValue: 5,
        rewardExpiryType: 'no_expiry',
      });
      rewardIds.push(r.body.data.id);
    }
    const m10 = await milestone(c.id, 10, rewardIds[0]);
    const m20 = await milestone(c.id, 20, rewardIds[1]);
    const m30 = await milestone(c.id, 30);
    const m60 = await milestone(c.id, 60, rewardIds[2]);
    const m = await member('climber', { timezone: 'UTC' });

    const first = await withEvents(m, () =>
      log({ challengeId: c.id, ownedById: m, activityAt: '2026-12-01T10:00:00Z', activityValue: 35 }),
    );
    const d = first.result;
    expect(d.challengeProgress).toMatchObject({ currentProgressValue: 35, challengeProgressStatus: 'in_progress' });
    expect(d.achievedMilestones.map((x: any) => x.id)).toEqual([m10.id, m20.id, m30.id]);
    expect(d.achievedMilestone.id).toBe(m30.id);
    expect(d.nextMilestone.id).toBe(m60.id);
    // Only milestones with a reward yield reward logs. Reading: the singular
    // achievedMilestoneRewardLog is the last one issued (here the 20's, since 30 has no reward).
    expect(d.achievedMilestoneRewardLogs.map((x: any) => x.milestoneId)).toEqual([m10.id, m20.id]);
    expect(d.achievedMilestoneRewardLogs.map((x: any) => x.rewardId)).toEqual([rewardIds[0], rewardIds[1]]);
    expect(d.achievedMilestoneRewardLog.id).toBe(d.achievedMilestoneRewardLogs[1].id);
    for (const rl of d.achievedMilestoneRewardLogs) {
      expect(rl).toMatchObject({
        ownedById: m,
        linkedSchemaSlug: 'challenge',
        linkedSchemaRecordId: c.id,
        periodKey: '2026-12',
        couponCode: null,
      });
    }
    // One event for all three milestones.
    expect(first.codes).toEqual(['challenge_progress_milestone_completed']);
    expect(first.events[0].payload.challengeLog.achievedMilestones).toHaveLength(3);

    const second = await withEvents(m, () =>
      log({ challengeId: c.id, ownedById: m, activityAt: '2026-12-02T10:00:00Z', activityValue: 30 }),
    );
    expect(second.result.achievedMilestones.map((x: any) => x.id)).toEqual([m60.id]);
    expect(second.result.nextMilestone).toBeNull();
    expect(second.codes).toEqual(['challenge_progress_milestone_completed']);

    const done = await withEvents(m, () => log({ challengeId: c.id, ownedById: m, activityAt: '2026-12-03T10:00:00Z', activityValue: 40 }));
    expect(done.result.challengeProgress).toMatchObject({
      currentProgressValue: 105,
      challengeProgressStatus: 'completed',
      challengeCompletedAt: '2026-12-03T10:00:00.000Z',
      challengeFailedAt: null,
    });
    expect(done.result.achievedMilestones).toEqual([]);
    expect(done.codes).toEqual(['challenge_progress_completed']);

    const after = await withEvents(m, () => log({ challengeId: c.id, ownedById: m, activityAt: '2026-12-04T10:00:00Z', activityValue: 5 }));
    expect(after.result).toMatchObject({
      isAggregated: true,
      achievedMilestones: [],
      achievedMilestoneRewardLogs: [],
      achievedMilestone: null,
    });
    expect(after.result.challengeProgress).toMatchObject({
      id: d.challengeProgress.id,
      currentProgressValue: 110,
      challengeProgressStatus: 'completed',
      challengeCompletedAt: '2026-12-03T10:00:00.000Z',
    });
    expect(after.codes).toEqual([]);

    const rewardLogs = await acct.api.get('/schema/reward_log/record', { filters: eq('ownedById', m) });
    expect(rewardLogs.body.data).toHaveLength(3);
  });

  it('a log in a later window fails the earlier in-progress window first; late logs for earlier windows count only in a completed one', async () => {
    const c = await challenge({ aggregationPeriod: 'daily', completionTargetValue: 2 });
    const m = await member('skipper', { timezone: 'UTC' });
    const day1 = await log({ challengeId: c.id, ownedById: m, activityAt: '2026-12-01T10:00:00Z' });

    const day3 = await withEvents(m, () => log({ challengeId: c.id, ownedById: m, activityAt: '2026-12-03T10:00:00Z' }));
    expect(day3.codes).toEqual(['challenge_progress_failed', 'challenge_progress_in_progress']);
    expect(day3.events[0].linkedSchemaRecordId).toBe(day1.challengeProgress.id);
    expect(day3.events[0].payload.challengeProgress).toMatchObject({
      challengeProgressStatus: 'failed',
      challengeFailedAt: '2026-12-02T00:00:00.000Z',
    });
    expect(day3.events[1].linkedSchemaRecordId).toBe(day3.result.challengeProgress.id);

    // Day 2 never had a progress and a later window exists; day 1 has failed.
    for (const activityAt of ['2026-12-02T10:00:00Z', '2026-12-01T12:00:00Z']) {
      const late = await withEvents(m, () => log({ challengeId: c.id, ownedById: m, activityAt }));
      expect(late.result).toMatchObject({ isAggregated: false, challengeProgress: null });
      expect(late.codes).toEqual([]);
    }

    // Completing day 3 and moving on to day 4 fails nothing: only in-progress windows fail.
    await log({ challengeId: c.id, ownedById: m, activityAt: '2026-12-03T11:00:00Z' });
    const day4 = await withEvents(m, () => log({ challengeId: c.id, ownedById: m, activityAt: '2026-12-04T10:00:00Z' }));
    expect(day4.codes).toEqual(['challenge_progress_in_progress']);
    // A late log for a window that completed counts in it, silently, though a later window has
    // progress: logs in a completed window are the one exception to the late-log rules (§8).
    const lateForCompleted = await withEvents(m, () => log({ challengeId: c.id, ownedById: m, activityAt: '2026-12-03T20:00:00Z' }));
    expect(lateForCompleted.result).toMatchObject({
      isAggregated: true,
      challengeProgress: { periodKey: '2026-12-03', challengeProgressStatus: 'completed', currentProgressValue: 3 },
    });
    expect(lateForCompleted.codes).toEqual([]);

    expect(
      (await progressesOf(m)).map((p) => [p.periodKey, p.challengeProgressStatus, p.currentProgressValue, p.challengeFailedAt]),
    ).toEqual([
      ['2026-12-01', 'failed', 1, '2026-12-02T00:00:00.000Z'],
      ['2026-12-03', 'completed', 3, null],
      ['2026-12-04', 'in_progress', 1, null],
    ]);
  });

  it('a window failed by the scheduler takes no more logs; before the failure, late logs still count', async () => {
    const c = await challenge({ aggregationPeriod: 'daily', completionTargetValue: 3 });
    const m = await member('slow', { timezone: 'UTC' });
    await log({ challengeId: c.id, ownedById: m, activityAt: '2026-12-10T10:00:00Z' });
    await runSweeps(app.running.services.records, new Date('2026-12-11T00:15:00Z'), GRACE);
    const late = await log({ challengeId: c.id, ownedById: m, activityAt: '2026-12-10T20:00:00Z' });
    expect(late).toMatchObject({ isAggregated: false, challengeProgress: null });
    // The next window does not fail day 10 a second time.
    const next = await withEvents(m, () => log({ challengeId: c.id, ownedById: m, activityAt: '2026-12-11T10:00:00Z' }));
    expect(next.codes).toEqual(['challenge_progress_in_progress']);

    // Inside the grace the scheduler leaves the window open, and a delayed log for it counts.
    await log({ challengeId: c.id, ownedById: m, activityAt: '2026-12-12T10:00:00Z' });
    await runSweeps(app.running.services.records, new Date('2026-12-13T00:10:00Z'), GRACE);
    const delayed = await log({ challengeId: c.id, ownedById: m, activityAt: '2026-12-12T23:00:00Z' });
    expect(delayed.challengeProgress).toMatchObject({
      periodKey: '2026-12-12',
      currentProgressValue: 2,
      challengeProgressStatus: 'in_progress',
    });

    expect((await eventsOf(m)).map((e) => e.eventCode)).toEqual([
      'challenge_progress_in_progress',
      'challenge_progress_failed',
      'challenge_progress_in_progress',
      'challenge_progress_failed',
      'challenge_progress_in_progress',
      'challenge_progress_in_progress',
    ]);
  });

  it('counts only logs within startAt (inclusive) and endAt (exclusive)', async () => {
    const c = await challenge({
      aggregationPeriod: 'monthly',
      completionTargetValue: 10,
      startAt: '2026-12-10T00:00:00Z',
      endAt: '2026-12-20T00:00:00Z',
    });
    const m = await member('bounded', { timezone: 'UTC' });
    const results = [];
    for (const activityAt of ['2026-12-09T23:59:59Z', '2026-12-10T00:00:00Z', '2026-12-19T23:59:59Z', '2026-12-20T00:00:00Z']) {
      results.push(await log({ challengeId: c.id, ownedById: m, activityAt }));
    }
    // Reading: endAt is the first instant outside the campaign, like a window's end.
    expect(results.map((r) => r.isAggregated)).toEqual([false, true, true, false]);
    expect(results.map((r) => r.challengeProgress?.currentProgressValue ?? null)).toEqual([null, 1, 2, null]);
    expect((await eventsOf(m)).map((e) => e.eventCode)).toEqual(['challenge_progress_in_progress', 'challenge_progress_in_progress']);
  });

  it('stores logs of a paused challenge, a paused member or with status draft without aggregating them', async () => {
    const c = await challenge({ aggregationPeriod: 'monthly', completionTargetValue: 10 });
    const one = await milestone(c.id, 1);
    const m = await member('paused-one', { timezone: 'UTC' });
    const at = '2026-12-15T10:00:00Z';
    const refused = async () => {
      const { result, codes } = await withEvents(m, () => log({ challengeId: c.id, ownedById: m, activityAt: at }));
      expect(result).toMatchObject({
        isAggregated: false,
        challengeProgress: null,
        achievedMilestone: null,
        achievedMilestones: [],
        nextMilestone: null,
      });
      // The joined definition is the definition as it reads, milestones included, counted or not.
      expect(result.challenge.milestones.map((x: any) => x.id)).toEqual([one.id]);
      expect(codes).toEqual([]);
      return result;
    };

    expect((await acct.api.patch(`/schema/challenge/record/${c.id}`, { status: 'paused' })).status).toBe(200);
    await refused();
    expect((await acct.api.patch(`/schema/challenge/record/${c.id}`, { status: 'live' })).status).toBe(200);

    expect((await acct.api.patch(`/schema/account_user/record/${m}`, { status: 'paused' })).status).toBe(200);
    await refused();
    expect((await acct.api.patch(`/schema/account_user/record/${m}`, { status: 'live' })).status).toBe(200);

    const draft = await withEvents(m, () => log({ challengeId: c.id, ownedById: m, activityAt: at, status: 'draft' }));
    expect(draft.result).toMatchObject({ isAggregated: false, status: 'draft', challengeProgress: null });
    expect(draft.result.challenge.milestones).toHaveLength(1);
    expect(draft.codes).toEqual([]);

    const stored = await acct.api.get('/schema/challenge_log/record', { filters: eq('ownedById', m) });
    expect(stored.body.data.map((l: any) => l.isAggregated)).toEqual([false, false, false]);
    expect(await progressesOf(m)).toEqual([]);

    // Live again: the first counted log starts from zero, so none of the above counted.
    const live = await log({ challengeId: c.id, ownedById: m, activityAt: at });
    expect(live.challengeProgress.currentProgressValue).toBe(1);
    expect(live.achievedMilestone).toMatchObject({ milestoneTargetValue: 1 });
  });
});
