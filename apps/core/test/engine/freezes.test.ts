import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSweeps } from '../../src/scheduler/sweeps.js';
import { assertEventsDocumented } from '../support/fixtures.js';
import { accepted, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

// Streak freezes (CONTRACT §14): earning, granting, spending by logs and by the scheduler.
let app: TestApp;
let acct: TestAccount;
const GRACE = 900;
/** The service's clock while logs arrive (each dated earlier). */
const NOW = new Date('2027-06-01T00:00:00Z');
beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount({ timezone: 'UTC' });
  app.running.services.records.now = () => NOW;
});
afterAll(() => app.close());

let seq = 0;
const sweep = (at: string) => runSweeps(app.running.services.records, new Date(at), GRACE);

async function streak(body: Record<string, unknown>): Promise<any> {
  return accepted(acct.api.post('/schema/streak/record', { name: `Freezes ${++seq}`, ...body }));
}

async function member(extra: Record<string, unknown> = {}): Promise<string> {
  return (await accepted(acct.api.post('/schema/account_user/record', { externalId: `freezer-${++seq}`, ...extra }))).id;
}

async function log(streakId: string, ownedById: string, activityAt: string): Promise<any> {
  return accepted(
    acct.api.post('/schema/streak_log/record', {
      streakId,
      ownedById,
      activityId: 'visit',
      activityAt,
      uniqueIdentifier: `f-${++seq}`,
    }),
  );
}

/** Runs `fn` with the service's clock at `time`. */
async function at<T>(time: string, fn: () => Promise<T>): Promise<T> {
  const records = app.running.services.records;
  records.now = () => new Date(time);
  try {
    return await fn();
  } finally {
    records.now = () => NOW;
  }
}
const grantNow = (progressId: string, body: unknown) =>
  acct.api.post(`/schema/streak_progress/record/${progressId}/action/grant_freezes`, body);
/** A grant made at `time` on the scheduler's clock: it settles first what is overdue by then. */
const grant = (progressId: string, body: unknown, time: string) => at(time, () => grantNow(progressId, body));
const progress = async (id: string) => (await acct.api.get(`/schema/streak_progress/record/${id}`)).body.data;

async function events(memberId: string): Promise<{ eventCode: string; payload: any }[]> {
  const res = await acct.api.get('/schema/event_log/record', {
    filters: { operator: 'and', conditions: [{ fieldSlug: 'ownedById', operator: 'equals', fieldValue: memberId }] },
    sortBy: [{ fieldSlug: 'createdAt', order: 'ASC' }],
    limit: '1000',
  });
  return res.body.data;
}
const codes = async (memberId: string) => (await events(memberId)).map((e) => e.eventCode);

describe('earning freezes', () => {
  it('earns one at each multiple of freezeEarnEveryPeriods, never above maxFreezes', async () => {
    const s = await streak({ maxFreezes: 2, freezeEarnEveryPeriods: 2 });
    const m = await member();
    const available: number[] = [];
    for (let day = 1; day <= 7; day++) available.push((await log(s.id, m, `2027-01-0${day}T10:00:00Z`)).streakProgress.freezesAvailable);
    expect(available).toEqual([0, 1, 1, 2, 2, 2, 2]);
    const all = await events(m);
    const earned = all.filter((e) => e.eventCode === 'streak_progress_freeze_earned');
    expect(earned).toHaveLength(2);
    expect(earned[0]!.payload.streakProgress).toMatchObject({ currentProgressValue: 2, freezesAvailable: 1 });
    expect(earned[0]!.payload.streak).toMatchObject({ id: s.id, maxFreezes: 2, freezeEarnEveryPeriods: 2 });
    // The earned event follows the log's own.
    expect(all.slice(0, 3).map((e) => e.eventCode)).toEqual([
      'streak_progress_non_milestone_completed',
      'streak_progress_non_milestone_completed',
      'streak_progress_freeze_earned',
    ]);
  });
});

describe('earning a freeze with the run’s first period', () => {
  it('earns it on the log that starts the run (freezeEarnEveryPeriods 1), answering 200 with its event', async () => {
    const s = await streak({ maxFreezes: 2, freezeEarnEveryPeriods: 1 });
    const m = await member();
    const first = await log(s.id, m, '2027-01-01T10:00:00Z');
    expect(first.streakProgress).toMatchObject({ currentProgressValue: 1, freezesAvailable: 1 });
    const earned = (await events(m)).filter((e) => e.eventCode === 'streak_progress_freeze_earned');
    expect(earned).toHaveLength(1);
    expect(earned[0]!.payload.streakProgress).toMatchObject({ id: first.streakProgress.id, freezesAvailable: 1 });
    expect(earned[0]!.payload.streakProgress).not.toHaveProperty('taskProgresses');
    expect((await log(s.id, m, '2027-01-02T10:00:00Z')).streakProgress.freezesAvailable).toBe(2);
  });
});

describe('granting freezes', () => {
  it('grants once per uniqueIdentifier: a replay, even racing, is 409 duplicate_unique_identifier naming the progress, with nothing granted again', async () => {
    const s = await streak({ maxFreezes: 10 });
    const m = await member();
    const id = (await log(s.id, m, '2027-01-01T10:00:00Z')).streakProgress.id as string;
    expect((await grant(id, { count: 2, uniqueIdentifier: 'flow-run-1' }, '2027-01-01T12:00:00Z')).body.data.freezesAvailable).toBe(2);
    const replay = await grant(id, { count: 2, uniqueIdentifier: 'flow-run-1' }, '2027-01-01T12:00:00Z');
    expect(replay.status).toBe(409);
    expect(replay.body.error).toMatchObject({
      code: 'duplicate_unique_identifier',
      details: [{ field: 'uniqueIdentifier', existingRecordId: id }],
    });
    const raced = await at('2027-01-01T12:00:00Z', () =>
      Promise.all(Array.from({ length: 10 }, () => grantNow(id, { count: 1, uniqueIdentifier: 'flow-run-2' }))),
    );
    expect(raced.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    expect((await progress(id)).freezesAvailable).toBe(3);
    // Retried weeks later, when the run is due to break, it is still answered as a replay.
    const late = await grant(id, { count: 2, uniqueIdentifier: 'flow-run-1' }, '2027-01-20T12:00:00Z');
    expect(late.body.error).toMatchObject({ code: 'duplicate_unique_identifier', details: [{ existingRecordId: id }] });
    expect((await grant(id, { count: 1, uniqueIdentifier: '' }, '2027-01-01T12:00:00Z')).status).toBe(400);
  });

  it('adds up to maxFreezes; refuses bad counts, closed progresses and streaks with freezes off', async () => {
    const s = await streak({ maxFreezes: 3 });
    const m = await member();
    const first = await log(s.id, m, '2027-01-01T10:00:00Z');
    expect(first.streakProgress).toMatchObject({ freezesAvailable: 0, freezesUsed: 0, frozenPeriodKeys: [] });
    const id = first.streakProgress.id;

    const granted = await grant(id, { count: 2 }, '2027-01-01T12:00:00Z');
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    expect(granted.body.data).toMatchObject({ id, freezesAvailable: 2, streakProgressStatus: 'in_progress' });
    expect((await grant(id, { count: 10 }, '2027-01-01T12:00:00Z')).body.data.freezesAvailable).toBe(3);

    for (const body of [{ count: 0 }, { count: 11 }, { count: 1.5 }, { count: '2' }, {}, { count: 1, extra: true }, [1]]) {
      const res = await grant(id, body, '2027-01-01T12:00:00Z');
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('invalid_input');
    }
    // Each problem named where it is (CONTRACT §2).
    expect((await grant(id, { count: 1, extra: true }, '2027-01-01T12:00:00Z')).body.error.details).toEqual([
      expect.objectContaining({ field: 'extra', code: 'unknown_field' }),
    ]);
    expect((await grant(id, { count: 11 }, '2027-01-01T12:00:00Z')).body.error.details).toEqual([
      expect.objectContaining({ field: 'count', code: 'too_large' }),
    ]);

    const off = await streak({});
    const offProgress = (await log(off.id, m, '2027-01-01T10:00:00Z')).streakProgress.id;
    expect((await grant(offProgress, { count: 1 }, '2027-01-01T12:00:00Z')).status).toBe(409);

    // Broken by a log two days later with no freeze left (none on this streak): 409.
    await log(off.id, m, '2027-01-04T10:00:00Z');
    expect((await progress(offProgress)).streakProgressStatus).toBe('broken');
    expect((await grant(offProgress, { count: 1 }, '2027-01-04T12:00:00Z')).status).toBe(409);
  });

  it('a grant past a deadline’s grace that no sweep has settled yet finds the run as the sweep would leave it', async () => {
    const s = await streak({ maxFreezes: 3 });
    // 21 May missed with no freeze: at 00:30 on the 22nd (past the 15-minute grace, before any
    // sweep) the run is broken, so the grant is refused and changes nothing.
    const broke = await member();
    const run = (await log(s.id, broke, '2027-05-20T10:00:00Z')).streakProgress.id;
    const refused = await grant(run, { count: 1 }, '2027-05-22T00:30:00Z');
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'conflict', message: expect.stringContaining('broken') });
    expect(await progress(run)).toMatchObject({ streakProgressStatus: 'in_progress', freezesAvailable: 0, freezesUsed: 0 });
    expect(await codes(broke)).toEqual(['streak_progress_non_milestone_completed']);
    // Within the grace nothing is due yet: the grant stands, and the sweep spends it.
    const saved = await member();
    const savedRun = (await log(s.id, saved, '2027-05-20T10:00:00Z')).streakProgress.id;
    expect((await grant(savedRun, { count: 1 }, '2027-05-22T00:14:00Z')).body.data).toMatchObject({ freezesAvailable: 1, freezesUsed: 0 });

    // With a freeze left, the grant first spends it on the missed day, with its event, then adds.
    const m = await member();
    const id = (await log(s.id, m, '2027-05-20T10:00:00Z')).streakProgress.id;
    await grant(id, { count: 1 }, '2027-05-20T12:00:00Z');
    const granted = await grant(id, { count: 1 }, '2027-05-22T00:30:00Z');
    expect(granted.status, JSON.stringify(granted.body)).toBe(200);
    expect(granted.body.data).toMatchObject({
      streakProgressStatus: 'in_progress',
      freezesAvailable: 1,
      freezesUsed: 1,
      frozenPeriodKeys: ['2027-05-21'],
      streakToBeBrokenAt: '2027-05-23T00:00:00.000Z',
    });
    const [, used] = await events(m);
    expect(used).toMatchObject({ eventCode: 'streak_progress_freeze_used', payload: { frozenPeriodKey: '2027-05-21' } });
    await sweep('2027-05-22T00:31:00Z');
    expect(await codes(m)).toEqual(['streak_progress_non_milestone_completed', 'streak_progress_freeze_used']);

    // A reversal that same morning replays the grants where they were made (CONTRACT §17): the run keeps both.
    const next = await log(s.id, m, '2027-05-22T10:00:00Z');
    expect(next.streakProgress).toMatchObject({ id, currentProgressValue: 2 });
    const reversed = await at('2027-05-22T11:00:00Z', () => acct.api.post(`/schema/streak_log/record/${next.id}/action/reverse`, {}));
    expect(reversed.status, JSON.stringify(reversed.body)).toBe(200);
    expect(await progress(id)).toMatchObject({
      streakProgressStatus: 'in_progress',
      currentProgressValue: 1,
      freezesAvailable: 1,
      freezesUsed: 1,
      frozenPeriodKeys: ['2027-05-21'],
    });
  });

  it('lowering maxFreezes caps in-progress progresses', async () => {
    const s = await streak({ maxFreezes: 5 });
    const [a, b] = [await member(), await member()];
    const pa = (await log(s.id, a, '2027-01-01T10:00:00Z')).streakProgress.id;
    const pb = (await log(s.id, b, '2027-01-01T10:00:00Z')).streakProgress.id;
    await grant(pa, { count: 4 }, '2027-01-01T12:00:00Z');
    await grant(pb, { count: 1 }, '2027-01-01T12:00:00Z');
    const res = await acct.api.patch(`/schema/streak/record/${s.id}`, { maxFreezes: 2 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await progress(pa)).freezesAvailable).toBe(2);
    expect((await progress(pb)).freezesAvailable).toBe(1);
    await acct.api.patch(`/schema/streak/record/${s.id}`, { maxFreezes: 0 });
    expect((await progress(pa)).freezesAvailable).toBe(0);
  });
});

describe('spending freezes on logs', () => {
  it('covers several missed periods oldest first, one event each, then a log for a frozen period is not aggregated', async () => {
    const s = await streak({ maxFreezes: 3 });
    const m = await member();
    const first = await log(s.id, m, '2027-02-01T10:00:00Z');
    await grant(first.streakProgress.id, { count: 2 }, '2027-02-01T12:00:00Z');

    const after = await log(s.id, m, '2027-02-04T10:00:00Z');
    expect(after.isAggregated).toBe(true);
    expect(after.streakProgress).toMatchObject({
      id: first.streakProgress.id,
      streakProgressStatus: 'in_progress',
      currentProgressValue: 2,
      freezesAvailable: 0,
      freezesUsed: 2,
      frozenPeriodKeys: ['2027-02-02', '2027-02-03'],
      streakToBeBrokenAt: '2027-02-06T00:00:00.000Z',
      lastCompletedPeriodKey: '2027-02-04',
    });
    const all = await events(m);
    expect(all.map((e) => e.eventCode)).toEqual([
      'streak_progress_non_milestone_completed',
      'streak_progress_freeze_used',
      'streak_progress_freeze_used',
      'streak_progress_non_milestone_completed',
    ]);
    const [firstFreeze, secondFreeze] = [all[1]!.payload, all[2]!.payload];
    expect(firstFreeze.frozenPeriodKey).toBe('2027-02-02');
    expect(firstFreeze.streak).toMatchObject({ id: s.id, maxFreezes: 3 });
    expect(firstFreeze.streakProgress).toMatchObject({
      freezesAvailable: 1,
      freezesUsed: 1,
      frozenPeriodKeys: ['2027-02-02'],
      streakToBeBrokenAt: '2027-02-04T00:00:00.000Z',
    });
    expect(secondFreeze.frozenPeriodKey).toBe('2027-02-03');
    expect(secondFreeze.streakProgress).toMatchObject({ freezesAvailable: 0, freezesUsed: 2 });

    for (const day of ['2027-02-02', '2027-02-03']) {
      const late = await log(s.id, m, `${day}T12:00:00Z`);
      expect(late.isAggregated).toBe(false);
      expect(late.streakProgress).toBeNull();
    }
    expect(await codes(m)).toHaveLength(4);
  });

  it('breaks at the end of the first missed period no freeze covers, and the log starts a new run', async () => {
    const s = await streak({ maxFreezes: 3 });
    const m = await member();
    const first = await log(s.id, m, '2027-03-01T10:00:00Z');
    await grant(first.streakProgress.id, { count: 2 }, '2027-03-01T12:00:00Z');
    const after = await log(s.id, m, '2027-03-05T10:00:00Z');
    expect(after.streakProgress).toMatchObject({
      currentProgressValue: 1,
      streakStartedAt: '2027-03-05T10:00:00.000Z',
      freezesAvailable: 0,
    });
    expect(after.streakProgress.id).not.toBe(first.streakProgress.id);
    expect(await progress(first.streakProgress.id)).toMatchObject({
      streakProgressStatus: 'broken',
      streakBrokenAt: '2027-03-05T00:00:00.000Z',
      currentProgressValue: 1,
      freezesAvailable: 0,
      freezesUsed: 2,
      frozenPeriodKeys: ['2027-03-02', '2027-03-03'],
    });
    expect(await codes(m)).toEqual([
      'streak_progress_non_milestone_completed',
      'streak_progress_freeze_used',
      'streak_progress_freeze_used',
      'streak_progress_broken',
      'streak_progress_non_milestone_completed',
    ]);
  });

  it('a back-fill that completes the required period in time spends no freeze', async () => {
    const s = await streak({ maxFreezes: 1 });
    const m = await member();
    const first = await log(s.id, m, '2027-04-01T10:00:00Z');
    await grant(first.streakProgress.id, { count: 1 }, '2027-04-01T12:00:00Z');
    for (const day of ['02', '03', '04']) await log(s.id, m, `2027-04-${day}T10:00:00Z`);
    expect(await progress(first.streakProgress.id)).toMatchObject({
      currentProgressValue: 4,
      freezesAvailable: 1,
      freezesUsed: 0,
      frozenPeriodKeys: [],
    });
    expect(await codes(m)).not.toContain('streak_progress_freeze_used');
  });

  it('a streak with freezes off breaks as before', async () => {
    const s = await streak({});
    const m = await member();
    const first = await log(s.id, m, '2027-04-01T10:00:00Z');
    await log(s.id, m, '2027-04-03T10:00:00Z');
    expect(await progress(first.streakProgress.id)).toMatchObject({ streakProgressStatus: 'broken', freezesUsed: 0, frozenPeriodKeys: [] });
  });
});

describe('spending freezes in the scheduler', () => {
  it('warns with freezesAvailable, freezes after the grace, and breaks once the freezes are gone', async () => {
    const s = await streak({ maxFreezes: 2, toBeBrokenWarningHours: 4 });
    const m = await member();
    const first = await log(s.id, m, '2027-05-01T10:00:00Z');
    const id = first.streakProgress.id;
    await grant(id, { count: 1 }, '2027-05-01T12:00:00Z');

    expect((await sweep('2027-05-02T20:00:00Z'))['streak warnings']).toBeGreaterThanOrEqual(1);
    expect((await sweep('2027-05-03T00:14:59Z'))['streak breaks']).toBe(0);
    await sweep('2027-05-03T00:15:00Z');
    expect(await progress(id)).toMatchObject({
      streakProgressStatus: 'in_progress',
      freezesAvailable: 0,
      freezesUsed: 1,
      frozenPeriodKeys: ['2027-05-02'],
      streakToBeBrokenAt: '2027-05-04T00:00:00.000Z',
    });
    // The next required day warns again, then breaks.
    await sweep('2027-05-03T20:00:00Z');
    await sweep('2027-05-04T00:15:00Z');
    expect(await progress(id)).toMatchObject({
      streakProgressStatus: 'broken',
      streakBrokenAt: '2027-05-04T00:00:00.000Z',
      freezesUsed: 1,
    });
    const all = await events(m);
    expect(all.map((e) => e.eventCode)).toEqual([
      'streak_progress_non_milestone_completed',
      'streak_progress_to_be_broken',
      'streak_progress_freeze_used',
      'streak_progress_to_be_broken',
      'streak_progress_broken',
    ]);
    expect(all[1]!.payload.freezesAvailable).toBe(1);
    expect(all[1]!.payload.streakProgress.freezesAvailable).toBe(1);
    expect(all[2]!.payload).toMatchObject({ frozenPeriodKey: '2027-05-02', streak: { id: s.id }, streakProgress: { freezesAvailable: 0 } });
    expect(all[3]!.payload.freezesAvailable).toBe(0);
  });

  it('a late sweep settles every missed period at once: one freeze each, then the break', async () => {
    const s = await streak({ maxFreezes: 3 });
    const m = await member();
    const first = await log(s.id, m, '2027-05-10T10:00:00Z');
    await grant(first.streakProgress.id, { count: 2 }, '2027-05-10T12:00:00Z');
    await sweep('2027-05-20T00:00:00Z');
    expect(await progress(first.streakProgress.id)).toMatchObject({
      streakProgressStatus: 'broken',
      streakBrokenAt: '2027-05-14T00:00:00.000Z',
      freezesUsed: 2,
      frozenPeriodKeys: ['2027-05-11', '2027-05-12'],
    });
    expect((await codes(m)).filter((c) => c !== 'streak_progress_to_be_broken')).toEqual([
      'streak_progress_non_milestone_completed',
      'streak_progress_freeze_used',
      'streak_progress_freeze_used',
      'streak_progress_broken',
    ]);
  });
});

describe('freezes across a DST change', () => {
  // Europe/Paris moves to summer time on Sunday 2027-03-28: that local day lasts 23 hours.
  it('a missed local day in a DST week spends exactly one freeze, by a log', async () => {
    const s = await streak({ maxFreezes: 2 });
    const m = await member({ timezone: 'Europe/Paris' });
    const first = await log(s.id, m, '2027-03-27T10:00:00Z');
    await grant(first.streakProgress.id, { count: 2 }, '2027-03-27T12:00:00Z');
    const after = await log(s.id, m, '2027-03-29T10:00:00Z');
    expect(after.streakProgress).toMatchObject({
      id: first.streakProgress.id,
      currentProgressValue: 2,
      freezesAvailable: 1,
      freezesUsed: 1,
      frozenPeriodKeys: ['2027-03-28'],
      streakToBeBrokenAt: '2027-03-30T22:00:00.000Z',
    });
  });

  it('a missed local day in a DST week spends exactly one freeze, by the scheduler', async () => {
    const s = await streak({ maxFreezes: 2 });
    const m = await member({ timezone: 'Europe/Paris' });
    const first = await log(s.id, m, '2027-03-27T10:00:00Z');
    await grant(first.streakProgress.id, { count: 2 }, '2027-03-27T12:00:00Z');
    // 2027-03-28 in Paris ends at 2027-03-28T22:00Z (summer time); the 29th ends 2027-03-29T22:00Z.
    await sweep('2027-03-28T22:14:59Z');
    expect((await progress(first.streakProgress.id)).freezesUsed).toBe(0);
    await sweep('2027-03-28T22:15:00Z');
    await sweep('2027-03-29T21:00:00Z');
    expect(await progress(first.streakProgress.id)).toMatchObject({
      streakProgressStatus: 'in_progress',
      freezesAvailable: 1,
      freezesUsed: 1,
      frozenPeriodKeys: ['2027-03-28'],
      streakToBeBrokenAt: '2027-03-29T22:00:00.000Z',
    });
    const after = await log(s.id, m, '2027-03-29T10:00:00Z');
    expect(after.streakProgress).toMatchObject({ currentProgressValue: 2, freezesUsed: 1 });
  });
});

describe('freezes and leaderboards', () => {
  it('a frozen period keeps the run on current_run and longest_run boards; the break takes it off current_run', async () => {
    const s = await streak({ maxFreezes: 1 });
    const boards = await Promise.all(
      ['current_run', 'longest_run'].map(
        async (rankBy) =>
          (
            await acct.api.post('/schema/leaderboard/record', {
              name: rankBy,
              linkedSchemaSlug: 'streak',
              linkedSchemaRecordId: s.id,
              rankBy,
            })
          ).body.data.id as string,
      ),
    );
    const values = async () =>
      Promise.all(
        boards.map(async (id) =>
          (await acct.api.get(`/schema/leaderboard/record/${id}/standings`)).body.data.entries.map((e: any) => e.value),
        ),
      );
    const m = await member();
    const first = await log(s.id, m, '2027-01-10T10:00:00Z');
    await log(s.id, m, '2027-01-11T10:00:00Z');
    await grant(first.streakProgress.id, { count: 1 }, '2027-01-11T12:00:00Z');
    // 12 January frozen by the log on the 13th: the run goes on from 2 to 3.
    expect((await log(s.id, m, '2027-01-13T10:00:00Z')).streakProgress).toMatchObject({ currentProgressValue: 3, freezesUsed: 1 });
    expect(await values()).toEqual([[3], [3]]);
    // The 14th frozen by the sweep; no freeze left for the 15th: broken, then a new run of 1 from the 16th.
    await grant(first.streakProgress.id, { count: 1 }, '2027-01-13T12:00:00Z');
    await sweep('2027-01-15T00:15:00Z');
    expect(await progress(first.streakProgress.id)).toMatchObject({
      streakProgressStatus: 'in_progress',
      frozenPeriodKeys: ['2027-01-12', '2027-01-14'],
    });
    expect(await values()).toEqual([[3], [3]]);
    await sweep('2027-01-16T00:15:00Z');
    expect(await values()).toEqual([[], [3]]);
    await log(s.id, m, '2027-01-16T10:00:00Z');
    expect(await values()).toEqual([[1], [3]]);
  });
});

describe('the payloads', () => {
  it('of freeze events are what the OpenAPI document says a delivery carries', async () => {
    const codes = await assertEventsDocumented(app, acct.api);
    expect(codes).toContain('streak_progress_freeze_used');
    expect(codes).toContain('streak_progress_freeze_earned');
  });
});
