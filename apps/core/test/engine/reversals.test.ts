import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { confirmHeldRewards } from '../../src/scheduler/confirm.js';
import { runSweeps } from '../../src/scheduler/sweeps.js';
import { assertEventsDocumented } from '../support/fixtures.js';
import { accepted, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

// Reversals and holds (CONTRACT §17), through the HTTP API.
let app: TestApp;
let acct: TestAccount;
const NOW = new Date('2027-03-01T00:00:00Z');
beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount({ timezone: 'UTC', defaultLanguageCode: 'en' });
});
beforeEach(() => at(NOW));
afterAll(() => app.close());
const pad = (n: number) => String(n).padStart(2, '0');
const at = (time: string | Date) => {
  const now = new Date(time);
  app.running.services.records.now = () => now;
};

let seq = 0;
const records = () => app.running.services.records;

async function create(slug: string, body: Record<string, unknown>): Promise<any> {
  return accepted(acct.api.post(`/schema/${slug}/record`, body));
}
const member = async () => (await create('account_user', { externalId: `rev-${++seq}` })).id as string;
async function reward(extra: Record<string, unknown> = {}): Promise<any> {
  return create('reward', {
    name: `R${++seq}`,
    description: 'd',
    discountType: 'percentage',
    discountValue: 10,
    rewardExpiryType: 'relative',
    rewardExpiryInDays: 30,
    handleCoupon: true,
    handleCouponAutoGeneration: true,
    couponCodePrefix: 'REV',
    ...extra,
  });
}
async function milestone(slug: string, definitionId: string, target: number, rewardId: string | null): Promise<any> {
  return create('milestone', {
    linkedSchemaSlug: slug,
    linkedSchemaRecordId: definitionId,
    name: `M${++seq}`,
    description: 'd',
    status: 'live',
    milestoneTargetValue: target,
    rewardId,
  });
}
async function log(kind: string, body: Record<string, unknown>): Promise<any> {
  return create(`${kind}_log`, { activityId: 'order', uniqueIdentifier: `l-${++seq}`, ...body });
}
const reverse = (kind: string, id: string, body?: unknown) => acct.api.post(`/schema/${kind}_log/record/${id}/action/reverse`, body);
const progressesOf = async (kind: string, memberId: string) =>
  (
    await acct.api.get(`/schema/${kind}_progress/record`, {
      filters: { operator: 'and', conditions: [{ fieldSlug: 'ownedById', operator: 'equals', fieldValue: memberId }] },
      sortBy: [{ fieldSlug: 'createdAt', order: 'ASC' }],
    })
  ).body.data as any[];
const rewardLogsOf = async (memberId: string) =>
  (
    await acct.api.get('/schema/reward_log/record', {
      filters: { operator: 'and', conditions: [{ fieldSlug: 'ownedById', operator: 'equals', fieldValue: memberId }] },
      sortBy: [{ fieldSlug: 'createdAt', order: 'ASC' }],
    })
  ).body.data as any[];
const eventsOf = async (memberId: string) =>
  (
    await acct.api.get('/schema/event_log/record', {
      filters: { operator: 'and', conditions: [{ fieldSlug: 'ownedById', operator: 'equals', fieldValue: memberId }] },
      sortBy: [{ fieldSlug: 'createdAt', order: 'ASC' }],
      limit: '1000',
    })
  ).body.data as any[];

describe('reversing streak logs', () => {
  it('drops the latest period, splits a run at a period inside it, and revokes the milestone no longer reached', async () => {
    // The clock on the run's last day: its required period is still open.
    at('2027-02-05T12:00:00Z');
    const s = await create('streak', { name: `S${++seq}` });
    const r = await reward();
    const m3 = await milestone('streak', s.id, 3, r.id);
    const m = await member();
    const logs = [];
    for (let day = 1; day <= 5; day++)
      logs.push(await log('streak', { streakId: s.id, ownedById: m, activityAt: `2027-02-0${day}T10:00:00Z` }));
    const original = logs[4].streakProgress;
    expect(original.currentProgressValue).toBe(5);
    const [earned] = await rewardLogsOf(m);
    expect(earned).toMatchObject({ milestoneId: m3.id, rewardLogStatus: 'issued', periodKey: '2027-02-03' });
    expect(earned.couponCode).toMatch(/^REV/);

    const latest = await accepted(reverse('streak', logs[4].id, { reason: 'refund' }));
    expect(latest).toMatchObject({ reversedValue: 1, revokedRewardLogs: [] });
    expect(latest.reversals).toEqual([expect.objectContaining({ activityValue: 1, reason: 'refund' })]);
    expect(latest.streakProgress).toMatchObject({ id: original.id, currentProgressValue: 4, streakProgressStatus: 'in_progress' });

    // Day 3 inside the run: the record keeps its id and ends broken at day 3's end; day 4 starts a new run.
    const inside = await accepted(reverse('streak', logs[2].id, { uniqueIdentifier: 'refund:1', reason: 'refund' }));
    expect(inside.revokedRewardLogs).toEqual([
      expect.objectContaining({ id: earned.id, rewardLogStatus: 'revoked', revokedReason: 'refund' }),
    ]);
    expect(inside.streakProgress).toMatchObject({
      currentProgressValue: 1,
      streakProgressStatus: 'in_progress',
      lastCompletedPeriodKey: '2027-02-04',
    });
    expect(inside.streakProgress.id).not.toBe(original.id);
    const runs = await progressesOf('streak', m);
    expect(runs.map((p) => [p.id === original.id, p.streakProgressStatus, p.currentProgressValue])).toEqual([
      [true, 'broken', 2],
      [false, 'in_progress', 1],
    ]);
    expect(runs[0].streakBrokenAt).toBe('2027-02-04T00:00:00.000Z');
    const [revoked] = await rewardLogsOf(m);
    // The code stays on the record.
    expect(revoked).toMatchObject({ rewardLogStatus: 'revoked', couponCode: earned.couponCode });

    const reversed = (await eventsOf(m)).filter((e) => e.eventCode === 'streak_progress_reversed');
    expect(reversed).toHaveLength(2);
    expect(reversed[1].payload).toMatchObject({
      streakLog: { id: logs[2].id, reversedValue: 1 },
      streakProgress: { id: inside.streakProgress.id },
      splitFromProgress: { id: original.id, streakProgressStatus: 'broken' },
      revokedRewardLogs: [{ id: earned.id }],
    });
    await assertEventsDocumented(app, acct.api);
  });

  it('closes to a late log the periods of a run a split left behind, though the split wrote its earlier part last', async () => {
    // The clock a day after the logs, with the scheduler not yet run: the reversal settles what is due.
    at('2027-01-07T20:00:00Z');
    const s = await create('streak', { name: `S${++seq}`, aggregationTargetValue: 2 });
    const m = await member();
    const day = (d: number, minute: number) =>
      log('streak', { streakId: s.id, ownedById: m, activityAt: `2027-01-0${d}T08:${minute}:00Z` });
    const first = await day(4, 10);
    await day(4, 11);
    await day(5, 12);
    await day(6, 13);
    await accepted(reverse('streak', first.id));
    // Days 4, 5 and 6 are each a run of their own now, the one of day 6 broken at its end.
    const late = await day(6, 14);
    expect(late).toMatchObject({ isAggregated: false, notAggregatedReason: 'period_closed' });
    const runs = await progressesOf('streak', m);
    expect(runs.map((r) => [r.streakProgressStatus, r.streakBrokenAt])).toEqual([
      ['broken', '2027-01-05T00:00:00.000Z'],
      ['broken', '2027-01-07T00:00:00.000Z'],
      ['broken', '2027-01-06T00:00:00.000Z'],
    ]);
  });

  it('keeps a streak completed by a second log of its last day, which the completion refused, and counts that log from then on', async () => {
    at('2027-02-03T20:00:00Z');
    const s = await create('streak', { name: `S${++seq}`, completionTargetValue: 3 });
    const r = await reward();
    await milestone('streak', s.id, 3, r.id);
    const m = await member();
    for (const d of [1, 2]) await log('streak', { streakId: s.id, ownedById: m, activityAt: `2027-02-0${d}T10:00:00Z` });
    const first = await log('streak', { streakId: s.id, ownedById: m, activityAt: '2027-02-03T10:00:00Z' });
    expect(first.streakProgress.streakProgressStatus).toBe('completed');
    const second = await log('streak', { streakId: s.id, ownedById: m, activityAt: '2027-02-03T11:00:00Z' });
    expect(second).toMatchObject({ isAggregated: false, notAggregatedReason: 'period_completed' });

    // The first order of the day refunded: the day still has an order, so the streak stays completed.
    const back = await accepted(reverse('streak', first.id, { reason: 'refund' }));
    expect(back.revokedRewardLogs).toEqual([]);
    expect(back.streakProgress).toMatchObject({
      id: first.streakProgress.id,
      streakProgressStatus: 'completed',
      currentProgressValue: 3,
      streakCompletedAt: '2027-02-03T11:00:00.000Z',
    });
    expect((await rewardLogsOf(m)).map((l) => l.rewardLogStatus)).toEqual(['issued']);
    const now = await accepted(acct.api.get(`/schema/streak_log/record/${second.id}`));
    expect(now).toMatchObject({ isAggregated: true, notAggregatedReason: null });

    // The second refunded too: the day is gone, and with it the completion and its reward.
    const both = await accepted(reverse('streak', second.id, { reason: 'refund' }));
    expect(both.streakProgress).toMatchObject({ streakProgressStatus: 'in_progress', currentProgressValue: 2 });
    expect(both.revokedRewardLogs).toHaveLength(1);
  });

  it('keeps a run whose only log is reversed in progress at 0 while its day lasts; a later log, even of the day before, starts afresh', async () => {
    at('2027-02-02T18:00:00Z');
    const s = await create('streak', { name: `S${++seq}`, maxFreezes: 1 });
    const m = await member();
    const refunded = await log('streak', { streakId: s.id, ownedById: m, activityAt: '2027-02-02T10:00:00Z' });
    const back = await accepted(reverse('streak', refunded.id, { reason: 'refund' }));
    expect(back.streakProgress).toMatchObject({
      id: refunded.streakProgress.id,
      streakProgressStatus: 'in_progress',
      currentProgressValue: 0,
      lastCompletedPeriodKey: null,
      streakToBeBrokenAt: '2027-02-03T00:00:00.000Z',
    });
    expect(back.streakProgress.streakBrokenAt ?? null).toBeNull();
    // Nothing to lose, so no warning; and no freezes to grant it: the next log starts another run.
    at('2027-02-02T22:00:00Z');
    await runSweeps(records(), new Date('2027-02-02T22:00:00Z'), 900);
    const grant = await acct.api.post(`/schema/streak_progress/record/${refunded.streakProgress.id}/action/grant_freezes`, { count: 1 });
    expect(grant.status, JSON.stringify(grant.body)).toBe(409);
    // An order of the day before, delivered late, and one that evening: a run of two days.
    const late = await log('streak', { streakId: s.id, ownedById: m, activityAt: '2027-02-01T15:00:00Z' });
    expect(late).toMatchObject({ isAggregated: true });
    const again = await log('streak', { streakId: s.id, ownedById: m, activityAt: '2027-02-02T21:00:00Z' });
    expect(again.streakProgress).toMatchObject({
      id: late.streakProgress.id,
      streakProgressStatus: 'in_progress',
      currentProgressValue: 2,
    });
    expect(again.streakProgress.id).not.toBe(refunded.streakProgress.id);
    // The emptied run closed as of its start, which closes nothing, with no event of its own.
    expect((await progressesOf('streak', m)).find((r) => r.id === refunded.streakProgress.id)).toMatchObject({
      streakProgressStatus: 'broken',
      currentProgressValue: 0,
      streakBrokenAt: '2027-02-02T00:00:00.000Z',
    });
    const codes = (await eventsOf(m)).filter((e) => e.linkedSchemaRecordId === refunded.streakProgress.id).map((e) => e.eventCode);
    expect(codes.sort()).toEqual(['streak_progress_non_milestone_completed', 'streak_progress_reversed']);
  });

  it('keeps in progress the run emptied last, though one emptied before it started later in the day', async () => {
    at('2027-02-06T18:00:00Z');
    const s = await create('streak', { name: `S${++seq}` });
    const m = await member();
    const later = await log('streak', { streakId: s.id, ownedById: m, activityAt: '2027-02-06T12:00:00Z' });
    await accepted(reverse('streak', later.id));
    const earlier = await log('streak', { streakId: s.id, ownedById: m, activityAt: '2027-02-06T09:00:00Z' });
    expect(earlier.streakProgress.id).not.toBe(later.streakProgress.id);
    const back = await accepted(reverse('streak', earlier.id));
    expect(back.streakProgress).toMatchObject({
      id: earlier.streakProgress.id,
      streakProgressStatus: 'in_progress',
      currentProgressValue: 0,
    });
    const runs = await progressesOf('streak', m);
    expect(runs.map((r) => [r.id, r.streakProgressStatus])).toEqual(
      expect.arrayContaining([
        [earlier.streakProgress.id, 'in_progress'],
        [later.streakProgress.id, 'broken'],
      ]),
    );
  });

  it('closes an emptied run as of its start, with no event, once its day is over', async () => {
    at('2027-02-05T18:00:00Z');
    const s = await create('streak', { name: `S${++seq}` });
    const m = await member();
    const refunded = await log('streak', { streakId: s.id, ownedById: m, activityAt: '2027-02-05T10:00:00Z' });
    await accepted(reverse('streak', refunded.id));
    const sweptAt = new Date('2027-02-06T01:00:00Z');
    at(sweptAt);
    await runSweeps(records(), sweptAt, 900);
    const [run] = await progressesOf('streak', m);
    expect(run).toMatchObject({
      id: refunded.streakProgress.id,
      streakProgressStatus: 'broken',
      streakBrokenAt: '2027-02-05T00:00:00.000Z',
    });
    const codes = (await eventsOf(m)).map((e) => e.eventCode);
    expect(codes).not.toContain('streak_progress_broken');
    expect(codes).not.toContain('streak_progress_to_be_broken');
    // A log of its day, arriving late, is not refused by it.
    expect(await log('streak', { streakId: s.id, ownedById: m, activityAt: '2027-02-05T20:00:00Z' })).toMatchObject({ isAggregated: true });
  });

  it('answers with the run that holds the logs when a reversal merges two runs', async () => {
    at('2027-02-03T18:00:00Z');
    const s = await create('streak', { name: `S${++seq}`, completionTargetValue: 2 });
    const m = await member();
    const on = (day: number, hour: number) => log('streak', { streakId: s.id, ownedById: m, activityAt: `2027-02-0${day}T${hour}:00:00Z` });
    const first = await on(1, 10);
    expect((await on(2, 10)).streakProgress.streakProgressStatus).toBe('completed');
    // Day 3 starts a second run; the first, completed, closed days 1 and 2.
    const next = await on(3, 10);
    await on(3, 12);
    const back = await accepted(reverse('streak', first.id));
    // Days 2 and 3 complete the first run again; the second run's record is left empty.
    expect(back.streakProgress).toMatchObject({ id: first.streakProgress.id, streakProgressStatus: 'completed', currentProgressValue: 2 });
    const runs = await progressesOf('streak', m);
    expect(runs.map((r) => [r.id, r.streakProgressStatus, r.currentProgressValue])).toEqual([
      [first.streakProgress.id, 'completed', 2],
      [next.streakProgress.id, 'broken', 0],
    ]);
    const [reversed] = (await eventsOf(m)).filter((e) => e.eventCode === 'streak_progress_reversed');
    expect(reversed.linkedSchemaRecordId).toBe(first.streakProgress.id);
  });

  it('a split run takes the record of a run that started within it, and names the record it split from', async () => {
    at('2027-02-04T18:00:00Z');
    const s = await create('streak', { name: `S${++seq}`, completionTargetValue: 3 });
    const m = await member();
    const on = (day: number, hour: number) => log('streak', { streakId: s.id, ownedById: m, activityAt: `2027-02-0${day}T${hour}:00:00Z` });
    const first = await on(1, 10);
    const inside = await on(2, 10);
    await on(3, 10);
    expect((await on(3, 12)).notAggregatedReason).toBe('period_completed');
    const second = await on(4, 10);
    const back = await accepted(reverse('streak', inside.id));
    // Day 1 alone, broken; days 3 and 4 one run, in the record day 4 had started.
    expect(back.streakProgress).toMatchObject({
      id: second.streakProgress.id,
      streakProgressStatus: 'in_progress',
      currentProgressValue: 2,
    });
    const runs = await progressesOf('streak', m);
    expect(runs.map((r) => [r.id, r.streakProgressStatus, r.currentProgressValue])).toEqual([
      [first.streakProgress.id, 'broken', 1],
      [second.streakProgress.id, 'in_progress', 2],
    ]);
    const [reversed] = (await eventsOf(m)).filter((e) => e.eventCode === 'streak_progress_reversed');
    expect(reversed.payload.splitFromProgress.id).toBe(first.streakProgress.id);
  });

  it('emits once, as the sweep would, the break and the freezes spent of a later run whose deadline passed, sweep before the reversal or not', async () => {
    const s = await create('streak', { name: `S${++seq}`, maxFreezes: 1 });
    /** A member's events, each code with the index of the record it names among the member's runs. */
    const namedEvents = async (m: string) => {
      const runs = (await progressesOf('streak', m)).map((r) => r.id);
      return (await eventsOf(m)).map((e) => `${e.eventCode}@${runs.indexOf(e.linkedSchemaRecordId)}`).sort();
    };
    const seen = [];
    for (const sweptFirst of [true, false]) {
      at('2027-02-09T12:00:00Z');
      const m = await member();
      const on = (day: number) => log('streak', { streakId: s.id, ownedById: m, activityAt: `2027-02-${pad(day)}T10:00:00Z` });
      await on(2);
      const inside = await on(3);
      await on(4);
      // Day 9 starts a later run; its freeze covers day 10, and day 11 breaks it.
      const later = await on(9);
      await accepted(acct.api.post(`/schema/streak_progress/record/${later.streakProgress.id}/action/grant_freezes`, { count: 1 }));
      const now = new Date('2027-02-12T12:00:00Z');
      at(now);
      if (sweptFirst) await runSweeps(records(), now, 900);
      await accepted(reverse('streak', inside.id));
      await runSweeps(records(), now, 900);
      // The reversal's own event names the run it split (below).
      const laterEvents = (await eventsOf(m)).filter(
        (e) => e.linkedSchemaRecordId === later.streakProgress.id && e.eventCode !== 'streak_progress_reversed',
      );
      expect(laterEvents.map((e) => e.eventCode).sort()).toEqual([
        'streak_progress_broken',
        'streak_progress_freeze_used',
        'streak_progress_non_milestone_completed',
      ]);
      expect(laterEvents.find((e) => e.eventCode === 'streak_progress_broken').payload.streakProgress).toMatchObject({
        streakBrokenAt: '2027-02-12T00:00:00.000Z',
        frozenPeriodKeys: ['2027-02-10'],
      });
      seen.push(await namedEvents(m));
    }
    expect(seen[1]).toEqual(seen[0]);
  });

  it('names in its event the run it split, not the later run the member is on, which the answer shows', async () => {
    at('2027-02-07T12:00:00Z');
    const s = await create('streak', { name: `S${++seq}` });
    const m = await member();
    const on = (day: number) => log('streak', { streakId: s.id, ownedById: m, activityAt: `2027-02-0${day}T10:00:00Z` });
    const first = await on(1);
    const inside = await on(2);
    await on(3);
    await on(6);
    const latest = await on(7);
    const back = await accepted(reverse('streak', inside.id));
    expect(back.streakProgress).toMatchObject({ id: latest.streakProgress.id, currentProgressValue: 2 });
    const runs = await progressesOf('streak', m);
    expect(runs.map((r) => [r.id, r.streakProgressStatus, r.currentProgressValue])).toEqual([
      [first.streakProgress.id, 'broken', 1],
      [latest.streakProgress.id, 'in_progress', 2],
      [expect.any(String), 'broken', 1],
    ]);
    const split = runs[2];
    const [reversed] = (await eventsOf(m)).filter((e) => e.eventCode === 'streak_progress_reversed');
    expect(reversed.linkedSchemaRecordId).toBe(split.id);
    expect(reversed.payload).toMatchObject({
      streakLog: { id: inside.id, reversedValue: 1 },
      streakProgress: { id: split.id, streakProgressStatus: 'broken', lastCompletedPeriodKey: '2027-02-03' },
      splitFromProgress: { id: first.streakProgress.id, streakProgressStatus: 'broken', currentProgressValue: 1 },
    });
  });

  it('replays a freeze grant after the logs that came before it, though a later order of an earlier hour comes first', async () => {
    at('2027-03-03T01:00:00Z');
    const s = await create('streak', { name: `S${++seq}`, maxFreezes: 2 });
    const r = await reward();
    await milestone('streak', s.id, 2, r.id);
    const m = await member();
    const on = (activityAt: string) => log('streak', { streakId: s.id, ownedById: m, activityAt });
    const duplicate = await on('2027-03-01T09:00:00Z');
    await on('2027-03-01T15:00:00Z');
    const second = await on('2027-03-02T15:00:00Z');
    expect(second.streakProgress.currentProgressValue).toBe(2);
    await accepted(acct.api.post(`/schema/streak_progress/record/${second.streakProgress.id}/action/grant_freezes`, { count: 1 }));
    // An order of the morning of the 2nd, delivered after the grant.
    expect((await on('2027-03-02T11:00:00Z')).isAggregated).toBe(true);

    // The 1st keeps its afternoon order: nothing of the run changes but the log taken back.
    const back = await accepted(reverse('streak', duplicate.id, { reason: 'refund' }));
    expect(back.streakProgress).toMatchObject({
      id: second.streakProgress.id,
      streakProgressStatus: 'in_progress',
      currentProgressValue: 2,
      freezesAvailable: 1,
    });
    expect(back.revokedRewardLogs).toEqual([]);
    expect((await rewardLogsOf(m)).map((l) => l.rewardLogStatus)).toEqual(['issued']);
  });

  it('lets a later log count in the periods of a run emptied latest log first, the second reversal after the first had broken it', async () => {
    at('2027-03-03T01:00:00Z');
    const s = await create('streak', { name: `S${++seq}` });
    const m = await member();
    const on = (activityAt: string) => log('streak', { streakId: s.id, ownedById: m, activityAt });
    const first = await on('2027-03-01T12:00:00Z');
    const latest = await on('2027-03-02T12:00:00Z');
    // The newest order refunded first: the run, missing the 2nd, is broken as the scheduler would have it.
    expect((await accepted(reverse('streak', latest.id))).streakProgress.streakProgressStatus).toBe('broken');
    const emptied = await accepted(reverse('streak', first.id));
    expect(emptied.streakProgress).toMatchObject({ currentProgressValue: 0, streakBrokenAt: '2027-03-01T00:00:00.000Z' });
    const again = await on('2027-03-02T15:00:00Z');
    expect(again).toMatchObject({ isAggregated: true });
    expect(again.streakProgress).toMatchObject({ streakProgressStatus: 'in_progress', currentProgressValue: 1 });
  });

  it('keeps the reward of a milestone since paused while the run still reaches it, and revokes it once the run does not', async () => {
    at('2027-02-03T12:00:00Z');
    const s = await create('streak', { name: `S${++seq}` });
    const r = await reward();
    const m2 = await milestone('streak', s.id, 2, r.id);
    const m = await member();
    const logs = [];
    for (const d of [1, 2, 3]) logs.push(await log('streak', { streakId: s.id, ownedById: m, activityAt: `2027-02-0${d}T10:00:00Z` }));
    expect((await acct.api.patch(`/schema/milestone/record/${m2.id}`, { status: 'paused' })).status).toBe(200);
    const back = await accepted(reverse('streak', logs[2].id));
    expect(back.revokedRewardLogs).toEqual([]);
    expect((await rewardLogsOf(m)).map((l) => l.rewardLogStatus)).toEqual(['issued']);
    const again = await accepted(reverse('streak', logs[1].id, { reason: 'refunded' }));
    expect(again.streakProgress.currentProgressValue).toBe(1);
    expect(again.revokedRewardLogs).toEqual([expect.objectContaining({ revokedReason: 'refunded' })]);
    // Reached again, a paused milestone gives nothing new.
    await log('streak', { streakId: s.id, ownedById: m, activityAt: '2027-02-02T18:00:00Z' });
    expect((await rewardLogsOf(m)).map((l) => l.rewardLogStatus)).toEqual(['revoked']);
  });

  it('takes back what a milestone or a mission gave though the merchant changed or deleted its reward since, its points included', async () => {
    const setting = (await accepted(acct.api.get('/schema/points_setting/record')))[0];
    await accepted(acct.api.patch(`/schema/points_setting/record/${setting.id}`, { status: 'live' }));
    const points = () => reward({ rewardKind: 'points', pointsValue: 7, handleCoupon: false, handleCouponAutoGeneration: false });
    const balance = async (id: string) => (await accepted(acct.api.get(`/schema/account_user/record/${id}`))).pointsBalance;
    const edits: [string, (milestoneId: string, rewardId: string) => Promise<unknown>][] = [
      ['reward taken off', (id) => accepted(acct.api.patch(`/schema/milestone/record/${id}`, { rewardId: null }))],
      ['reward deleted', async (_, rewardId) => expect((await acct.api.delete(`/schema/reward/record/${rewardId}`)).status).toBe(204)],
    ];
    for (const [edit, change] of edits) {
      const c = await create('challenge', {
        name: `C${++seq}`,
        aggregationPeriod: 'monthly',
        aggregationMethod: 'sum',
        completionTargetValue: 100,
      });
      const r = await points();
      const ms = await milestone('challenge', c.id, 5, r.id);
      const m = await member();
      const order = await log('challenge', { challengeId: c.id, ownedById: m, activityValue: 5, activityAt: '2027-02-10T10:00:00Z' });
      expect(await balance(m), edit).toBe(7);
      await change(ms.id, r.id);
      const back = await accepted(reverse('challenge', order.id));
      expect(back.revokedRewardLogs, edit).toEqual([expect.objectContaining({ rewardLogStatus: 'revoked' })]);
      expect(await balance(m), edit).toBe(0);
    }
    // A mission that no longer gives its reward: its completion is judged all the same.
    const r = await points();
    const mission = await create('mission', {
      name: `Mi${++seq}`,
      aggregationPeriod: 'monthly',
      rewardId: r.id,
      tasks: [{ name: 'Order', activityId: 'first_order', targetValue: 1 }],
    });
    const m = await member();
    const order = await log('mission', {
      missionId: mission.id,
      ownedById: m,
      activityId: 'first_order',
      activityAt: '2027-02-11T10:00:00Z',
    });
    expect(order.rewardLog).toMatchObject({ rewardLogStatus: 'issued' });
    await accepted(acct.api.patch(`/schema/mission/record/${mission.id}`, { rewardId: null }));
    const back = await accepted(reverse('mission', order.id));
    expect(back.revokedRewardLogs).toEqual([expect.objectContaining({ id: order.rewardLog.id })]);
    expect(await balance(m)).toBe(0);
  });

  it('judges a reward by the target its milestone had when it was given: a raise since takes back nothing still above that', async () => {
    const c = await create('challenge', {
      name: `C${++seq}`,
      aggregationMethod: 'sum',
      aggregationPeriod: 'monthly',
      completionTargetValue: 100,
    });
    const r = await reward();
    const ms = await milestone('challenge', c.id, 10, r.id);
    const m = await member();
    const first = await log('challenge', { challengeId: c.id, ownedById: m, activityValue: 10, activityAt: '2027-02-10T10:00:00Z' });
    const second = await log('challenge', { challengeId: c.id, ownedById: m, activityValue: 10, activityAt: '2027-02-10T11:00:00Z' });
    await accepted(acct.api.patch(`/schema/milestone/record/${ms.id}`, { milestoneTargetValue: 50 }));
    const back = await accepted(reverse('challenge', second.id, { activityValue: 1 }));
    expect(back.challengeProgress.currentProgressValue).toBe(19);
    expect(back.revokedRewardLogs).toEqual([]);
    expect((await accepted(reverse('challenge', second.id))).revokedRewardLogs).toEqual([]);
    // Below the target it was given at, it goes.
    const under = await accepted(reverse('challenge', first.id, { activityValue: 1 }));
    expect(under.challengeProgress.currentProgressValue).toBe(9);
    expect(under.revokedRewardLogs).toEqual([expect.objectContaining({ rewardId: r.id })]);
  });

  it('keeps the periods completed before a raise of the period target, each by the target it was completed under', async () => {
    at('2027-02-03T12:00:00Z');
    const s = await create('streak', { name: `S${++seq}`, aggregationMethod: 'sum', aggregationTargetValue: 10 });
    const r = await reward();
    await milestone('streak', s.id, 2, r.id);
    const m = await member();
    const logs = [];
    for (const d of [1, 2, 3])
      logs.push(await log('streak', { streakId: s.id, ownedById: m, activityValue: 15, activityAt: `2027-02-0${d}T10:00:00Z` }));
    expect(logs[2].streakProgress.currentProgressValue).toBe(3);
    await accepted(acct.api.patch(`/schema/streak/record/${s.id}`, { aggregationTargetValue: 20 }));
    const back = await accepted(reverse('streak', logs[2].id, { activityValue: 1 }));
    expect(back.streakProgress).toMatchObject({
      id: logs[2].streakProgress.id,
      currentProgressValue: 3,
      streakProgressStatus: 'in_progress',
    });
    expect(back.revokedRewardLogs).toEqual([]);
    // Taken below the target it was completed under, the period is missed after all.
    const under = await accepted(reverse('streak', logs[2].id, { activityValue: 5 }));
    expect(under.streakProgress.currentProgressValue).toBe(2);
  });

  it('answers 409 to a replayed uniqueIdentifier and to a log with nothing left, changing nothing', async () => {
    at('2027-02-02T12:00:00Z');
    const s = await create('streak', { name: `S${++seq}` });
    const m = await member();
    const a = await log('streak', { streakId: s.id, ownedById: m, activityAt: '2027-02-01T10:00:00Z' });
    const b = await log('streak', { streakId: s.id, ownedById: m, activityAt: '2027-02-02T10:00:00Z' });
    const first = await accepted(reverse('streak', b.id, { uniqueIdentifier: 'refund:7' }));
    const replay = await reverse('streak', a.id, { uniqueIdentifier: 'refund:7' });
    expect(replay.status).toBe(409);
    expect(replay.body.error).toMatchObject({
      code: 'duplicate_unique_identifier',
      details: [{ existingRecordId: first.reversals[0].id }],
    });
    const again = await reverse('streak', b.id);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('nothing_to_reverse');
    expect((await progressesOf('streak', m))[0].currentProgressValue).toBe(1);
  });
});

describe('leaderboards follow reversals', () => {
  it("a streak's current and longest run, a challenge's window and a mission's completions drop with what was taken back", async () => {
    at('2027-02-03T12:00:00Z');
    const s = await create('streak', { name: `S${++seq}` });
    const c = await create('challenge', {
      name: `C${++seq}`,
      aggregationPeriod: 'monthly',
      aggregationMethod: 'sum',
      completionTargetValue: 100,
    });
    const mission = await create('mission', {
      name: `Mi${++seq}`,
      aggregationPeriod: 'monthly',
      isRepeatable: true,
      tasks: [{ name: 'Order', activityId: 'order', targetValue: 1 }],
    });
    const boards = {
      current: await create('leaderboard', { name: 'Now', linkedSchemaSlug: 'streak', linkedSchemaRecordId: s.id, rankBy: 'current_run' }),
      longest: await create('leaderboard', { name: 'Best', linkedSchemaSlug: 'streak', linkedSchemaRecordId: s.id, rankBy: 'longest_run' }),
      window: await create('leaderboard', { name: 'Month', linkedSchemaSlug: 'challenge', linkedSchemaRecordId: c.id }),
      completions: await create('leaderboard', { name: 'Done', linkedSchemaSlug: 'mission', linkedSchemaRecordId: mission.id }),
    };
    const m = await member();
    const days = [];
    for (const d of [1, 2, 3]) days.push(await log('streak', { streakId: s.id, ownedById: m, activityAt: `2027-02-0${d}T10:00:00Z` }));
    const spend = await log('challenge', { challengeId: c.id, ownedById: m, activityAt: '2027-02-02T10:00:00Z', activityValue: 40 });
    const done = await log('mission', { missionId: mission.id, ownedById: m, activityAt: '2027-02-02T10:00:00Z' });
    const value = async (board: { id: string }, periodKey?: string) =>
      (await acct.api.get(`/schema/leaderboard/record/${board.id}/standings`, periodKey ? { periodKey } : {})).body.data.entries.find(
        (e: { ownedById: string }) => e.ownedById === m,
      )?.value ?? 0;
    expect([
      await value(boards.current),
      await value(boards.longest),
      await value(boards.window, '2027-02'),
      await value(boards.completions),
    ]).toEqual([3, 3, 40, 1]);
    await accepted(reverse('streak', days[2].id));
    await accepted(reverse('challenge', spend.id, { activityValue: 15 }));
    await accepted(reverse('mission', done.id));
    expect([
      await value(boards.current),
      await value(boards.longest),
      await value(boards.window, '2027-02'),
      await value(boards.completions),
    ]).toEqual([2, 2, 25, 0]);
  });
});

describe('reversing challenge and mission logs', () => {
  it('takes a sum log back in parts, each at most what remains; a count log only whole', async () => {
    const c = await create('challenge', {
      name: `C${++seq}`,
      aggregationPeriod: 'monthly',
      aggregationMethod: 'sum',
      completionTargetValue: 100,
    });
    const r = await reward({ handleCoupon: false });
    await milestone('challenge', c.id, 50, r.id);
    const m = await member();
    const l = await log('challenge', { challengeId: c.id, ownedById: m, activityAt: '2027-02-10T10:00:00Z', activityValue: 120 });
    expect(l.challengeProgress).toMatchObject({ currentProgressValue: 120, challengeProgressStatus: 'completed' });
    const part = await accepted(reverse('challenge', l.id, { activityValue: 30 }));
    expect(part.challengeProgress).toMatchObject({ currentProgressValue: 90, challengeProgressStatus: 'in_progress' });
    expect(part.revokedRewardLogs).toEqual([]);
    const tooMuch = await reverse('challenge', l.id, { activityValue: 91 });
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.error.code).toBe('nothing_to_reverse');
    // No body takes back all that remains; a JSON null is a body that is not an object, and takes back nothing.
    const nullBody = await reverse('challenge', l.id, null);
    expect([nullBody.status, nullBody.body.error.code]).toEqual([400, 'invalid_input']);
    const rest = await accepted(reverse('challenge', l.id, { activityValue: 50 }));
    expect(rest.challengeProgress.currentProgressValue).toBe(40);
    expect(rest.revokedRewardLogs).toHaveLength(1);
    expect(rest.reversedValue).toBe(80);

    for (const body of [
      { activityValue: -1 },
      { activityValue: 0 },
      { activityValue: 1e300 },
      // Too small to change 90 as a double holds it: a reversal that would take nothing.
      { activityValue: 1e-300 },
      { activityValue: '5' },
      { reason: 'x'.repeat(257) },
      [],
    ]) {
      const bad = await reverse('challenge', l.id, body);
      expect(bad.status, JSON.stringify(body)).toBe(400);
      expect(bad.body.error.code).toBe('invalid_input');
    }
    const unknown = await reverse('challenge', l.id, { amount: 1 });
    expect(unknown.status).toBe(400);

    const count = await create('challenge', { name: `C${++seq}`, completionTargetValue: 3 });
    const cl = await log('challenge', { challengeId: count.id, ownedById: m, activityAt: '2027-02-10T10:00:00Z' });
    const partial = await reverse('challenge', cl.id, { activityValue: 0.5 });
    expect(partial.status).toBe(400);
    expect((await accepted(reverse('challenge', cl.id, { activityValue: 1 }))).challengeProgress.currentProgressValue).toBe(0);
  });

  it('adds and takes back decimals as sent: 10.10 + 9.95 + 9.95 completes a target of 30, and 9.66 of 19.99 less 10.33 can be taken back', async () => {
    const c = await create('challenge', {
      name: `C${++seq}`,
      aggregationPeriod: 'monthly',
      aggregationMethod: 'sum',
      completionTargetValue: 30,
    });
    const m = await member();
    let last: any;
    for (const [i, value] of [10.1, 9.95, 9.95].entries())
      last = await log('challenge', { challengeId: c.id, ownedById: m, activityAt: `2027-02-1${i}T10:00:00Z`, activityValue: value });
    expect(last.challengeProgress).toMatchObject({ currentProgressValue: 30, challengeProgressStatus: 'completed' });

    const refunded = await log('challenge', { challengeId: c.id, ownedById: m, activityAt: '2027-02-14T10:00:00Z', activityValue: 19.99 });
    await accepted(reverse('challenge', refunded.id, { activityValue: 10.33 }));
    const rest = await accepted(reverse('challenge', refunded.id, { activityValue: 9.66 }));
    expect(rest.reversedValue).toBe(19.99);
    expect(rest.challengeProgress.currentProgressValue).toBe(30);
    for (const [i, part] of [0.1, 0.2].entries()) {
      const small = await log('challenge', { challengeId: c.id, ownedById: m, activityAt: `2027-02-2${i}T10:00:00Z`, activityValue: 0.3 });
      await accepted(reverse('challenge', small.id, { activityValue: part }));
      const left = await accepted(reverse('challenge', small.id, { activityValue: Number((0.3 - part).toFixed(2)) }));
      expect(left.reversedValue).toBe(0.3);
    }
    // All but a tenth of a trillionth taken back: what is left is that decimal, and then nothing.
    const almost = await log('challenge', { challengeId: c.id, ownedById: m, activityAt: '2027-02-22T10:00:00Z', activityValue: 19.99 });
    await accepted(reverse('challenge', almost.id, { activityValue: 19.9899999999999 }));
    const tooMuch = await reverse('challenge', almost.id, { activityValue: 9.99 });
    expect([tooMuch.status, tooMuch.body.error.message]).toEqual([409, 'Only 1e-13 of this log is left to reverse.']);
    expect((await accepted(reverse('challenge', almost.id, { activityValue: 1e-13 }))).reversedValue).toBe(19.99);

    // A mission's sum task, ten logs of 0.1 against a target of 1.
    const mission = await create('mission', {
      name: `M${++seq}`,
      tasks: [{ name: 'Tenths', activityId: 'tenth', aggregationMethod: 'sum', targetValue: 1 }],
    });
    let task: any;
    for (let i = 0; i < 10; i++)
      task = await log('mission', {
        missionId: mission.id,
        ownedById: m,
        activityId: 'tenth',
        activityAt: '2027-02-10T10:00:00Z',
        activityValue: 0.1,
      });
    expect(task.missionProgress.missionProgressStatus).toBe('completed');
  });

  it("reopens a completed mission when a task's log is reversed and revokes its reward", async () => {
    const r = await reward();
    const mission = await create('mission', {
      name: `Mi${++seq}`,
      aggregationPeriod: 'monthly',
      rewardId: r.id,
      tasks: [
        { name: 'Sign up', activityId: 'account_created', targetValue: 1 },
        { name: 'Order', activityId: 'first_order', targetValue: 1 },
      ],
    });
    const m = await member();
    await log('mission', { missionId: mission.id, ownedById: m, activityId: 'account_created', activityAt: '2027-02-10T10:00:00Z' });
    const order = await log('mission', {
      missionId: mission.id,
      ownedById: m,
      activityId: 'first_order',
      activityAt: '2027-02-11T10:00:00Z',
    });
    expect(order.missionProgress.missionProgressStatus).toBe('completed');
    expect(order.rewardLog.couponCode).toMatch(/^REV/);
    const back = await accepted(reverse('mission', order.id, { reason: 'cancelled' }));
    expect(back.missionProgress).toMatchObject({
      id: order.missionProgress.id,
      missionProgressStatus: 'in_progress',
      missionCompletedAt: null,
    });
    expect(back.taskProgress.map((t: any) => t.currentProgressValue)).toEqual([1, 0]);
    // The progress carries its tasks inline, as the log's create answer and a GET do.
    const read = await accepted(acct.api.get(`/schema/mission_progress/record/${order.missionProgress.id}`));
    expect(back.missionProgress.taskProgresses).toEqual(read.taskProgresses);
    expect(back.revokedRewardLogs).toEqual([expect.objectContaining({ id: order.rewardLog.id, revokedReason: 'cancelled' })]);
  });

  it('keeps a mission completed by a log its completion refused, once a log before it is reversed', async () => {
    const r = await reward();
    const mission = await create('mission', {
      name: `Mi${++seq}`,
      aggregationPeriod: 'monthly',
      rewardId: r.id,
      tasks: [{ name: 'Orders', activityId: 'order', targetValue: 2 }],
    });
    const m = await member();
    const order = (day: number) =>
      log('mission', { missionId: mission.id, ownedById: m, activityId: 'order', activityAt: `2027-02-1${day}T10:00:00Z` });
    await order(1);
    const second = await order(2);
    expect(second.missionProgress.missionProgressStatus).toBe('completed');
    const third = await order(3);
    expect(third).toMatchObject({ isAggregated: false, notAggregatedReason: 'mission_completed' });

    // The second order cancelled: the third still makes two, so the mission and its reward stand.
    const back = await accepted(reverse('mission', second.id, { reason: 'cancelled' }));
    expect(back.revokedRewardLogs).toEqual([]);
    expect(back.missionProgress).toMatchObject({
      id: second.missionProgress.id,
      missionProgressStatus: 'completed',
      missionCompletedAt: '2027-02-13T10:00:00.000Z',
    });
    expect((await rewardLogsOf(m)).map((l) => [l.id, l.rewardLogStatus])).toEqual([[second.rewardLog.id, 'issued']]);
    expect(await accepted(acct.api.get(`/schema/mission_log/record/${third.id}`))).toMatchObject({
      isAggregated: true,
      notAggregatedReason: null,
    });
    // And with the third cancelled as well, the mission is open again and its reward taken back.
    const again = await accepted(reverse('mission', third.id, { reason: 'cancelled' }));
    expect(again.missionProgress.missionProgressStatus).toBe('in_progress');
    expect(again.revokedRewardLogs).toEqual([expect.objectContaining({ id: second.rewardLog.id })]);
  });

  it('keeps a mission whose only log is reversed in progress at 0 while its window lasts; a later log, even from before its start, starts afresh', async () => {
    at('2027-02-10T12:00:00Z');
    const mission = await create('mission', {
      name: `Mi${++seq}`,
      aggregationPeriod: 'monthly',
      tasks: [{ name: 'Orders', activityId: 'order', targetValue: 2 }],
    });
    const m = await member();
    const order = (day: number, hour: number) =>
      log('mission', { missionId: mission.id, ownedById: m, activityId: 'order', activityAt: `2027-02-${pad(day)}T${pad(hour)}:00:00Z` });
    const refunded = await order(10, 10);
    const back = await accepted(reverse('mission', refunded.id));
    expect(back.missionProgress).toMatchObject({
      missionProgressStatus: 'in_progress',
      missionToBeFailedAt: refunded.missionProgress.missionToBeFailedAt,
    });
    expect(back.missionProgress.missionFailedAt ?? null).toBeNull();
    expect(back.taskProgress).toEqual([expect.objectContaining({ currentProgressValue: 0, taskProgressStatus: 'in_progress' })]);
    // Orders placed before the refund, one of them before the refunded one, delivered after it.
    const earlier = await order(9, 9);
    expect(earlier).toMatchObject({ isAggregated: true });
    const late = await order(10, 11);
    expect(late.missionProgress).toMatchObject({ id: earlier.missionProgress.id, missionProgressStatus: 'completed' });
    // The emptied mission closed as of its start, with no event of its own.
    expect((await progressesOf('mission', m)).find((r) => r.id === refunded.missionProgress.id)).toMatchObject({
      missionProgressStatus: 'failed',
      missionFailedAt: '2027-02-10T10:00:00.000Z',
    });
    expect((await eventsOf(m)).map((e) => e.eventCode)).not.toContain('mission_progress_failed');
  });

  it('closes an emptied mission as of its start, with no event, once its window is over', async () => {
    at('2027-02-10T12:00:00Z');
    const mission = await create('mission', {
      name: `Mi${++seq}`,
      aggregationPeriod: 'daily',
      tasks: [{ name: 'Orders', activityId: 'order', targetValue: 2 }],
    });
    const m = await member();
    const refunded = await log('mission', { missionId: mission.id, ownedById: m, activityId: 'order', activityAt: '2027-02-10T10:00:00Z' });
    await accepted(reverse('mission', refunded.id));
    const sweptAt = new Date('2027-02-12T00:00:00Z');
    at(sweptAt);
    await runSweeps(records(), sweptAt, 900);
    const [run] = await progressesOf('mission', m);
    expect(run).toMatchObject({ missionProgressStatus: 'failed', missionFailedAt: '2027-02-10T10:00:00.000Z' });
    expect((await eventsOf(m)).map((e) => e.eventCode)).not.toContain('mission_progress_failed');
  });

  it('issues and announces the reward of a mission a reversal completes: its window now starts at the second log', async () => {
    at('2027-02-12T12:00:00Z');
    const r = await reward();
    const mission = await create('mission', {
      name: `Mi${++seq}`,
      aggregationPeriod: 'daily',
      rewardId: r.id,
      tasks: [
        { name: 'Visit', activityId: 'visit', targetValue: 1 },
        { name: 'Order', activityId: 'order', targetValue: 1 },
      ],
    });
    const m = await member();
    const on = (activityId: string, activityAt: string) => log('mission', { missionId: mission.id, ownedById: m, activityId, activityAt });
    const early = await on('visit', '2027-02-10T08:00:00Z');
    await on('visit', '2027-02-11T04:00:00Z');
    // A day after the first visit: that window failed, and the order starts another.
    const order = await on('order', '2027-02-11T14:00:00Z');
    expect(order.missionProgress.missionProgressStatus).toBe('in_progress');
    expect(await rewardLogsOf(m)).toEqual([]);

    const back = await accepted(reverse('mission', early.id));
    expect(back.missionProgress).toMatchObject({ id: early.missionProgress.id, missionProgressStatus: 'completed' });
    const [issued] = await rewardLogsOf(m);
    expect(issued).toMatchObject({ rewardLogStatus: 'issued', milestoneId: null });
    expect(issued.couponCode).toMatch(/^REV/);
    // Announced as a confirmed held reward is, so the Shopify app makes its discount.
    const announced = (await eventsOf(m)).filter((e) => e.eventCode === 'reward_log_issued');
    expect(announced.map((e) => [e.linkedSchemaRecordId, e.payload.rewardLog.couponCode])).toEqual([[issued.id, issued.couponCode]]);
    await assertEventsDocumented(app, acct.api);
  });

  it('keeps a window completed under the completion target it had then, and never completes it twice', async () => {
    const c = await create('challenge', {
      name: `C${++seq}`,
      aggregationMethod: 'sum',
      aggregationPeriod: 'monthly',
      completionTargetValue: 10,
    });
    const m = await member();
    const order = await log('challenge', { challengeId: c.id, ownedById: m, activityValue: 12, activityAt: '2027-02-10T10:00:00Z' });
    expect(order.challengeProgress.challengeProgressStatus).toBe('completed');
    await accepted(acct.api.patch(`/schema/challenge/record/${c.id}`, { completionTargetValue: 20 }));
    const back = await accepted(reverse('challenge', order.id, { activityValue: 1 }));
    expect(back.challengeProgress).toMatchObject({ currentProgressValue: 11, challengeProgressStatus: 'completed' });
    const later = await log('challenge', { challengeId: c.id, ownedById: m, activityValue: 10, activityAt: '2027-02-10T11:00:00Z' });
    expect((await eventsOf(m)).filter((e) => e.eventCode === 'challenge_progress_completed')).toHaveLength(1);
    const whole = await accepted(reverse('challenge', order.id));
    expect(whole.challengeProgress).toMatchObject({ currentProgressValue: 10, challengeProgressStatus: 'completed' });
    // Taken below the target it was completed under, it is open again.
    const under = await accepted(reverse('challenge', later.id, { activityValue: 1 }));
    expect(under.challengeProgress).toMatchObject({ currentProgressValue: 9, challengeProgressStatus: 'in_progress' });
  });

  it('keeps counting the logs that counted when the challenge’s startAt or endAt moved since', async () => {
    for (const moved of [{ startAt: '2027-02-10T11:00:00Z' }, { startAt: '2027-02-10T08:00:00Z', endAt: '2027-02-10T09:00:00Z' }]) {
      const c = await create('challenge', {
        name: `C${++seq}`,
        aggregationMethod: 'sum',
        aggregationPeriod: 'monthly',
        completionTargetValue: 12,
      });
      const r = await reward();
      await milestone('challenge', c.id, 10, r.id);
      const m = await member();
      await log('challenge', { challengeId: c.id, ownedById: m, activityValue: 10, activityAt: '2027-02-10T10:00:00Z' });
      const second = await log('challenge', { challengeId: c.id, ownedById: m, activityValue: 5, activityAt: '2027-02-10T10:01:00Z' });
      expect(second.challengeProgress.challengeProgressStatus).toBe('completed');
      await accepted(acct.api.patch(`/schema/challenge/record/${c.id}`, moved));
      const back = await accepted(reverse('challenge', second.id, { activityValue: 1 }));
      expect(back.challengeProgress, JSON.stringify(moved)).toMatchObject({
        currentProgressValue: 14,
        challengeProgressStatus: 'completed',
      });
      expect(back.revokedRewardLogs).toEqual([]);
    }
  });

  it('fails at once a past challenge window all of whose logs are reversed, with no event of its own', async () => {
    at('2027-02-20T12:00:00Z');
    const c = await create('challenge', {
      name: `C${++seq}`,
      aggregationPeriod: 'weekly',
      aggregationMethod: 'sum',
      completionTargetValue: 100,
    });
    const m = await member();
    const big = await log('challenge', { challengeId: c.id, ownedById: m, activityAt: '2027-02-09T10:00:00Z', activityValue: 120 });
    expect(big.challengeProgress.challengeProgressStatus).toBe('completed');
    const back = await accepted(reverse('challenge', big.id));
    expect(back.challengeProgress).toMatchObject({
      challengeProgressStatus: 'failed',
      currentProgressValue: 0,
      challengeCompletedAt: null,
    });
    expect((await eventsOf(m)).map((e) => e.eventCode)).not.toContain('challenge_progress_failed');
  });

  it("names in its events the window a reversal changed, not the member's current one, which the answer shows", async () => {
    at('2027-03-10T12:00:00Z');
    const c = await create('challenge', {
      name: `C${++seq}`,
      aggregationPeriod: 'monthly',
      aggregationMethod: 'sum',
      completionTargetValue: 10,
    });
    const r = await reward();
    await milestone('challenge', c.id, 5, r.id);
    const m = await member();
    const february = await log('challenge', { challengeId: c.id, ownedById: m, activityAt: '2027-02-15T12:00:00Z', activityValue: 10 });
    expect(february.challengeProgress.challengeProgressStatus).toBe('completed');
    const march = await log('challenge', { challengeId: c.id, ownedById: m, activityAt: '2027-03-10T10:00:00Z', activityValue: 3 });
    const part = await accepted(reverse('challenge', february.id, { activityValue: 4 }));
    expect(part.challengeProgress).toMatchObject({ id: march.challengeProgress.id, currentProgressValue: 3 });
    const rest = await accepted(reverse('challenge', february.id));
    expect(rest.revokedRewardLogs).toHaveLength(1);
    const reversed = (await eventsOf(m)).filter((e) => e.eventCode === 'challenge_progress_reversed');
    expect(reversed.map((e) => e.linkedSchemaRecordId)).toEqual([february.challengeProgress.id, february.challengeProgress.id]);
    expect(reversed.map((e) => e.payload.challengeProgress)).toEqual([
      expect.objectContaining({ id: february.challengeProgress.id, challengeProgressStatus: 'failed', currentProgressValue: 6 }),
      expect.objectContaining({ id: february.challengeProgress.id, challengeProgressStatus: 'failed', currentProgressValue: 0 }),
    ]);
    expect(reversed[1].payload.revokedRewardLogs).toEqual([expect.objectContaining({ id: rest.revokedRewardLogs[0].id })]);
  });

  it('reverses a log that never counted without changing any progress, and refuses logs of another account', async () => {
    at('2027-02-02T12:00:00Z');
    const s = await create('streak', { name: `S${++seq}` });
    const m = await member();
    await log('streak', { streakId: s.id, ownedById: m, activityAt: '2027-02-02T10:00:00Z' });
    const late = await log('streak', { streakId: s.id, ownedById: m, activityAt: '2027-02-01T10:00:00Z' });
    expect(late.isAggregated).toBe(false);
    const back = await accepted(reverse('streak', late.id));
    expect(back.reversedValue).toBe(1);
    expect(back.streakProgress.currentProgressValue).toBe(1);
    expect((await eventsOf(m)).some((e) => e.eventCode === 'streak_progress_reversed')).toBe(false);

    // A log whose definition was deleted: nothing left to recompute, nothing changed.
    const gone = await create('challenge', { name: `C${++seq}`, completionTargetValue: 5 });
    const orphan = await log('challenge', { challengeId: gone.id, ownedById: m, activityAt: '2027-02-02T10:00:00Z' });
    expect((await acct.api.delete(`/schema/challenge/record/${gone.id}`)).status).toBe(204);
    const deleted = await reverse('challenge', orphan.id);
    expect(deleted.status).toBe(409);
    expect(deleted.body.error.code).toBe('conflict');
    expect((await acct.api.get(`/schema/challenge_log/record/${orphan.id}`)).body.data.reversedValue).toBe(0);

    const other = await app.createAccount({ timezone: 'UTC' });
    const foreign = await other.api.post(`/schema/streak_log/record/${late.id}/action/reverse`, {});
    expect(foreign.status).toBe(404);
  });
});

describe('holds', () => {
  it('creates the reward log pending without a code, refuses a PATCH, and issues it once at confirmAt', async () => {
    const s = await create('streak', { name: `S${++seq}`, rewardHoldDays: 14 });
    const r = await reward();
    await milestone('streak', s.id, 1, r.id);
    const m = await member();
    const l = await log('streak', { streakId: s.id, ownedById: m, activityAt: '2027-02-28T10:00:00Z' });
    const held = l.achievedMilestoneRewardLog;
    expect(held).toMatchObject({ rewardLogStatus: 'pending', couponCode: null, rewardIssuedAt: null, rewardExpiryAt: null });
    expect(held.confirmAt).toBe(new Date(NOW.getTime() + 14 * 86_400_000).toISOString());
    const patch = await acct.api.patch(`/schema/reward_log/record/${held.id}`, { couponCode: 'MINE' });
    expect(patch.status).toBe(409);
    expect(patch.body.error.code).toBe('reward_log_not_issued');

    expect(await confirmHeldRewards(records(), new Date(NOW.getTime() + 13 * 86_400_000))).toBe(0);
    const at = new Date(NOW.getTime() + 14 * 86_400_000);
    const [a, b] = await Promise.all([confirmHeldRewards(records(), at), confirmHeldRewards(records(), at)]);
    expect(a + b).toBeGreaterThanOrEqual(1);
    const [issued] = await rewardLogsOf(m);
    expect(issued).toMatchObject({ rewardLogStatus: 'issued', rewardIssuedAt: at.toISOString() });
    expect(issued.couponCode).toMatch(/^REV/);
    expect(issued.rewardExpiryAt).toBe(new Date(at.getTime() + 30 * 86_400_000).toISOString());
    const events = (await eventsOf(m)).filter((e) => e.eventCode === 'reward_log_issued');
    expect(events).toHaveLength(1);
    expect(events[0].payload.rewardLog).toMatchObject({ id: held.id, couponCode: issued.couponCode });
    await assertEventsDocumented(app, acct.api);
  });

  it('issues the other held logs, of every account, when one cannot be issued, and then names it', async () => {
    const s = await create('streak', { name: `S${++seq}`, rewardHoldDays: 1 });
    await milestone('streak', s.id, 1, (await reward()).id);
    const held: any[] = [];
    for (let i = 0; i < 3; i++)
      held.push(
        (await log('streak', { streakId: s.id, ownedById: await member(), activityAt: '2027-02-28T10:00:00Z' })).achievedMilestoneRewardLog,
      );
    // Another account's, due at the same moment.
    const other = await app.createAccount({ timezone: 'UTC' });
    const theirs = await accepted(other.api.post('/schema/streak/record', { name: 'Theirs', rewardHoldDays: 1 }));
    const theirReward = await accepted(
      other.api.post('/schema/reward/record', {
        name: 'R',
        description: 'd',
        discountType: 'percentage',
        discountValue: 5,
        rewardExpiryType: 'no_expiry',
      }),
    );
    await accepted(
      other.api.post('/schema/milestone/record', {
        linkedSchemaSlug: 'streak',
        linkedSchemaRecordId: theirs.id,
        name: 'M',
        description: 'd',
        status: 'live',
        milestoneTargetValue: 1,
        rewardId: theirReward.id,
      }),
    );
    const theirLog = await accepted(
      other.api.post('/schema/streak_log/record', {
        streakId: theirs.id,
        ownedBy: { externalId: 'x' },
        activityId: 'order',
        activityAt: '2027-02-28T10:00:00Z',
        uniqueIdentifier: 'theirs-1',
      }),
    );
    // One log the database refuses to issue (as a bad row would).
    const poisoned = held[1].id as string;
    await app.db.raw(`create function test_refuse_issue() returns trigger language plpgsql as $$ begin
        if new.id = '${poisoned}' and new.reward_log_status = 'issued' then raise exception 'refused by the test'; end if; return new; end $$;
      create trigger test_refuse_issue before update on reward_log for each row execute function test_refuse_issue();`);
    const status = async (id: string) => (await app.db('reward_log').where({ id }).first('reward_log_status')).reward_log_status;
    const at = new Date(NOW.getTime() + 2 * 86_400_000);
    try {
      await expect(confirmHeldRewards(records(), at)).rejects.toThrow(
        new RegExp(`^1 held reward log\\(s\\) could not be issued, e\\.g\\. ${poisoned}: [^]*refused by the test$`),
      );
      expect([await status(held[0].id), await status(poisoned), await status(held[2].id)]).toEqual(['issued', 'pending', 'issued']);
      expect(await status(theirLog.achievedMilestoneRewardLog.id)).toBe('issued');
    } finally {
      await app.db.raw('drop trigger test_refuse_issue on reward_log; drop function test_refuse_issue()');
    }
    // The next pass issues it.
    expect(await confirmHeldRewards(records(), at)).toBe(1);
    expect(await status(poisoned)).toBe('issued');
  });

  it('never issues a held reward log a reversal revoked first', async () => {
    const c = await create('challenge', { name: `C${++seq}`, completionTargetValue: 1, rewardHoldDays: 30 });
    const r = await reward();
    await milestone('challenge', c.id, 1, r.id);
    const m = await member();
    const l = await log('challenge', { challengeId: c.id, ownedById: m, activityAt: '2027-02-28T10:00:00Z' });
    expect(l.achievedMilestoneRewardLog.rewardLogStatus).toBe('pending');
    const back = await accepted(reverse('challenge', l.id, { reason: 'refund' }));
    expect(back.revokedRewardLogs).toEqual([expect.objectContaining({ rewardLogStatus: 'revoked', couponCode: null })]);
    await confirmHeldRewards(records(), new Date(NOW.getTime() + 31 * 86_400_000));
    const [log2] = await rewardLogsOf(m);
    expect(log2).toMatchObject({ rewardLogStatus: 'revoked', couponCode: null });
    expect((await eventsOf(m)).some((e) => e.eventCode === 'reward_log_issued')).toBe(false);
  });

  it('revokes the held reward logs of a reward deleted before their hold ended, never issuing them without it', async () => {
    const c = await create('challenge', { name: `C${++seq}`, completionTargetValue: 1, rewardHoldDays: 30 });
    const [deleted, removedBehind] = [await reward(), await reward()];
    await milestone('challenge', c.id, 1, deleted.id);
    const [m, n] = [await member(), await member()];
    await log('challenge', { challengeId: c.id, ownedById: m, activityAt: '2027-02-28T10:00:00Z' });
    expect((await acct.api.delete(`/schema/reward/record/${deleted.id}`)).status).toBe(204);
    const [held] = await rewardLogsOf(m);
    expect(held).toMatchObject({ rewardLogStatus: 'revoked', revokedReason: 'reward deleted', couponCode: null });
    // One whose reward went without its delete revoking it (deleted before that was done) is revoked when its day comes.
    const other = await create('challenge', { name: `C${++seq}`, completionTargetValue: 1, rewardHoldDays: 30 });
    await milestone('challenge', other.id, 1, removedBehind.id);
    await log('challenge', { challengeId: other.id, ownedById: n, activityAt: '2027-02-28T10:00:00Z' });
    await app.db('reward').where({ id: removedBehind.id }).delete();
    expect(await confirmHeldRewards(records(), new Date(NOW.getTime() + 31 * 86_400_000))).toBe(0);
    expect(await rewardLogsOf(n)).toEqual([
      expect.objectContaining({ rewardLogStatus: 'revoked', revokedReason: 'reward deleted', couponCode: null }),
    ]);
    for (const member of [m, n]) expect((await eventsOf(member)).some((e) => e.eventCode === 'reward_log_issued')).toBe(false);
  });

  it('confirms held reward logs of a pooled reward in pool order, and leaves a log without a code when the pool runs dry', async () => {
    const c = await create('challenge', { name: `C${++seq}`, completionTargetValue: 1, rewardHoldDays: 1 });
    const r = await reward({ handleCouponAutoGeneration: false });
    await accepted(acct.api.post(`/schema/reward/record/${r.id}/action/import_coupons`, { couponCodes: ['POOL-1', 'POOL-2', 'POOL-3'] }));
    await milestone('challenge', c.id, 1, r.id);
    const members = [];
    for (let i = 0; i < 4; i++) {
      const m = await member();
      members.push(m);
      await log('challenge', { challengeId: c.id, ownedById: m, activityAt: '2027-02-28T10:00:00Z' });
    }
    expect(await confirmHeldRewards(records(), new Date(NOW.getTime() + 86_400_000))).toBeGreaterThanOrEqual(4);
    const codes = [];
    for (const m of members) codes.push((await rewardLogsOf(m))[0]);
    expect(codes.map((l) => l.rewardLogStatus)).toEqual(['issued', 'issued', 'issued', 'issued']);
    expect(codes.map((l) => l.couponCode)).toEqual(['POOL-1', 'POOL-2', 'POOL-3', null]);
  });

  it('refuses a hold outside 0..90 days', async () => {
    for (const rewardHoldDays of [-1, 91, 1.5]) {
      const res = await acct.api.post('/schema/streak/record', { name: `S${++seq}`, rewardHoldDays });
      expect(res.status).toBe(400);
    }
  });
});
