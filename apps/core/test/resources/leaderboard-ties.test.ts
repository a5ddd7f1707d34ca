import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPendingStandings } from '../../src/engine/standings.js';
import { accepted, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

// Tied members in the order they reached the value (CONTRACT §15) on a board built from their
// progress (the first board of its definition and ranking, created after their logs), inline or in
// the background, as on one kept since before them: a later write that leaves the value as it was
// (a log completing no period, a window failing) does not move a member behind one who reached it after them.
let app: TestApp;
let acct: TestAccount;
beforeAll(async () => {
  app = await startTestApp({ LOYALTY_STANDINGS_INLINE_MAX: '3' });
  acct = await app.createAccount({ timezone: 'UTC' });
  // A clock that moves on at every read: each write is later than the one before.
  let now = Date.parse('2027-03-10T12:00:00Z');
  app.running.services.records.now = () => new Date((now += 1000));
});
afterAll(() => app.close());

let seq = 0;
const create = (slug: string, body: Record<string, unknown>) => accepted(acct.api.post(`/schema/${slug}/record`, body));
const member = async () => (await create('account_user', { externalId: `tie-${++seq}`, firstName: `T${seq}` })).id as string;
const log = async (slug: string, body: Record<string, unknown>, day: number) => {
  const res = await acct.api.post(`/schema/${slug}/record`, {
    activityId: 'visit',
    activityAt: `2027-03-${String(day).padStart(2, '0')}T10:00:00Z`,
    uniqueIdentifier: `tie-${++seq}`,
    ...body,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const board = (linkedSchemaSlug: string, linkedSchemaRecordId: string, rankBy: string) =>
  create('leaderboard', { name: `B${++seq}`, linkedSchemaSlug, linkedSchemaRecordId, rankBy, size: 10 });
/** The board's members in order, with their ranks, once it is built. */
async function order(id: string, query: Record<string, string> = {}): Promise<string[]> {
  await buildPendingStandings(app.db, 2);
  const rows = (await accepted(acct.api.get(`/schema/leaderboard/record/${id}/standings`, { limit: '10', ...query }))).entries as {
    ownedById: string;
    rank: number;
  }[];
  return rows.map((r) => `${r.rank}:${r.ownedById}`);
}

describe('tied members on a board built from their progress', () => {
  it.each([['inline', 0] as const, ['in the background', 3] as const])(
    'streak runs, current and longest: the first to reach the value first (%s)',
    async (_, fillers) => {
      const streak = await create('streak', { name: `S${++seq}`, aggregationTargetValue: 2 });
      const [a, b] = [await member(), await member()];
      // Each reaches a run of 1 on the 1st, a first, then b.
      for (const m of [a, b]) for (let i = 0; i < 2; i++) await log('streak_log', { streakId: streak.id, ownedById: m }, 1);
      // a's log of the 2nd completes nothing: the value stays, the progress row is written.
      await log('streak_log', { streakId: streak.id, ownedById: a }, 2);
      for (let i = 0; i < fillers; i++) {
        const f = await member();
        for (const day of [1, 1, 2, 2]) await log('streak_log', { streakId: streak.id, ownedById: f }, day);
      }
      const built = [await board('streak', streak.id, 'current_run'), await board('streak', streak.id, 'longest_run')];
      for (const made of built) expect((await order(made.id)).slice(fillers)).toEqual([`${fillers + 1}:${a}`, `${fillers + 1}:${b}`]);
    },
  );

  it('challenge windows: a member whose window then failed still comes first for the value reached first', async () => {
    const challenge = await create('challenge', {
      name: `C${++seq}`,
      aggregationMethod: 'sum',
      aggregationPeriod: 'daily',
      completionTargetValue: 100,
    });
    const [a, b] = [await member(), await member()];
    for (const m of [a, b]) await log('challenge_log', { challengeId: challenge.id, ownedById: m, activityValue: 5 }, 1);
    // A log for the 2nd fails a's window of the 1st.
    await log('challenge_log', { challengeId: challenge.id, ownedById: a, activityValue: 1 }, 2);
    const built = await board('challenge', challenge.id, 'window_progress');
    const day1 = { periodKey: '2027-03-01' };
    expect(await order(built.id, day1)).toEqual([`1:${a}`, `1:${b}`]);
  });
});
