import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPendingStandings } from '../../src/engine/standings.js';
import { accepted, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

// A leaderboard over a definition larger than LOYALTY_STANDINGS_INLINE_MAX is answered at once and
// its standings are built in the background, while logs keep coming (issue 32, CONTRACT §15).
let app: TestApp;
let acct: TestAccount;
beforeAll(async () => {
  app = await startTestApp({ LOYALTY_STANDINGS_INLINE_MAX: '3' });
  acct = await app.createAccount({ timezone: 'UTC' });
  app.running.services.records.now = () => new Date('2027-03-10T12:00:00Z');
});
afterAll(() => app.close());

let seq = 0;
const create = (slug: string, body: Record<string, unknown>) => accepted(acct.api.post(`/schema/${slug}/record`, body));
const member = async () => (await create('account_user', { externalId: `lb-${++seq}`, firstName: `M${seq}` })).id as string;
const streakLog = (streakId: string, ownedById: string, day: number) =>
  acct.api.post('/schema/streak_log/record', {
    streakId,
    ownedById,
    activityId: 'visit',
    activityAt: `2027-03-${String(day).padStart(2, '0')}T10:00:00Z`,
    uniqueIdentifier: `lb-${++seq}`,
  });
const missionLog = (missionId: string, ownedById: string, day: number) =>
  acct.api.post('/schema/mission_log/record', {
    missionId,
    ownedById,
    activityId: 'order',
    activityAt: `2027-03-${String(day).padStart(2, '0')}T10:00:00Z`,
    uniqueIdentifier: `lb-${++seq}`,
  });
const standings = (id: string) => acct.api.get(`/schema/leaderboard/record/${id}/standings`, { limit: '10' });
const byOwner = (rows: { ownedById: string; value: number }[]) => Object.fromEntries(rows.map((r) => [r.ownedById, r.value]));

describe('standings built in the background', () => {
  it('answers the create at once and 503 until built; then every log before and during the build counts', async () => {
    const streak = await create('streak', { name: 'Visits' });
    const mission = await create('mission', {
      name: 'Orders',
      aggregationPeriod: 'daily',
      isRepeatable: true,
      tasks: [{ name: 'Order', activityId: 'order', targetValue: 1 }],
    });
    const members = [];
    for (let i = 0; i < 8; i++) members.push(await member());
    // Runs of 1..8 days ending on the 9th; a first, broken run of 5 days for the first three.
    for (const [i, m] of members.entries()) {
      if (i < 3) for (let d = 1; d <= 5; d++) expect((await streakLog(streak.id, m, d)).status).toBe(200);
      for (let d = 9 - i; d <= 9; d++) expect((await streakLog(streak.id, m, d)).status).toBe(200);
      for (let d = 1; d <= 1 + (i % 3); d++) expect((await missionLog(mission.id, m, d)).status).toBe(200);
    }

    const boards = {
      current: await create('leaderboard', { name: 'Now', linkedSchemaSlug: 'streak', linkedSchemaRecordId: streak.id, size: 10 }),
      longest: await create('leaderboard', {
        name: 'Best',
        linkedSchemaSlug: 'streak',
        linkedSchemaRecordId: streak.id,
        rankBy: 'longest_run',
        size: 10,
      }),
      completions: await create('leaderboard', { name: 'Done', linkedSchemaSlug: 'mission', linkedSchemaRecordId: mission.id, size: 10 }),
    };
    for (const board of Object.values(boards)) {
      expect(board.standingsReady).toBe(false);
      const early = await standings(board.id);
      expect(early.status).toBe(503);
      expect(early.headers.get('retry-after')).toBe('5');
      expect(early.body.error.code).toBe('unavailable');
    }

    // Logs while the builder runs in batches of two members.
    const during = await Promise.all([
      buildPendingStandings(app.db, 2),
      ...members.map((m) => streakLog(streak.id, m, 10)),
      ...members.slice(0, 4).map((m) => missionLog(mission.id, m, 10)),
    ]);
    expect(during.slice(1).map((r) => (typeof r === 'number' ? 200 : r.status))).toEqual(during.slice(1).map(() => 200));
    await buildPendingStandings(app.db, 2);

    const expected = async (kind: 'streak' | 'mission') =>
      (await acct.api.get(`/schema/${kind}_progress/record`, { limit: '100' })).body.data as Record<string, unknown>[];
    const runs = await expected('streak');
    const missions = await expected('mission');
    const best = (m: string) => Math.max(...runs.filter((r) => r.ownedById === m).map((r) => Number(r.currentProgressValue)));
    const now = (m: string) =>
      Number(runs.find((r) => r.ownedById === m && r.streakProgressStatus === 'in_progress')?.currentProgressValue ?? 0);
    const done = (m: string) => missions.filter((r) => r.ownedById === m && r.missionProgressStatus === 'completed').length;

    for (const [key, value] of [
      ['current', now],
      ['longest', best],
      ['completions', done],
    ] as const) {
      const board = boards[key];
      expect((await acct.api.get(`/schema/leaderboard/record/${board.id}`)).body.data.standingsReady).toBe(true);
      const res = await standings(board.id);
      expect(res.status).toBe(200);
      expect(byOwner(res.body.data.entries), key).toEqual(
        Object.fromEntries(members.map((m) => [m, value(m)]).filter(([, v]) => Number(v) > 0)),
      );
      expect(res.body.data.rankedCount).toBe(members.filter((m) => value(m) > 0).length);
    }
    // The first three's five-day runs were their best until the 10th's log made today's longer.
    expect(best(members[0]!)).toBe(5);
  });

  it('a second board ranking a definition the same way is ready when the first is built, and at once after', async () => {
    const streak = await create('streak', { name: 'More visits' });
    for (let i = 0; i < 5; i++) expect((await streakLog(streak.id, await member(), 9)).status).toBe(200);
    const first = await create('leaderboard', { name: 'A', linkedSchemaSlug: 'streak', linkedSchemaRecordId: streak.id });
    const second = await create('leaderboard', { name: 'B', linkedSchemaSlug: 'streak', linkedSchemaRecordId: streak.id });
    expect([first.standingsReady, second.standingsReady]).toEqual([false, false]);
    await buildPendingStandings(app.db);
    for (const board of [first, second]) expect((await standings(board.id)).body.data.rankedCount).toBe(5);
    const third = await create('leaderboard', { name: 'C', linkedSchemaSlug: 'streak', linkedSchemaRecordId: streak.id });
    expect(third.standingsReady).toBe(true);
    expect((await standings(third.id)).body.data.rankedCount).toBe(5);
  });
});
