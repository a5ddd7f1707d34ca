import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSweeps } from '../../src/scheduler/sweeps.js';
import { accepted, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

// A member who moves to another time zone mid-run: periods are calendar periods in the member's
// zone (CONTRACT §8), so a deadline set in the zone they left moves to where their period ends now.
let app: TestApp;
let acct: TestAccount;
const GRACE = 900;
let clock = new Date('2027-06-01T00:00:00Z');
beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount({ timezone: 'UTC' });
  app.running.services.records.now = () => clock;
});
afterAll(() => app.close());

const sweep = (at: string) => runSweeps(app.running.services.records, new Date(at), GRACE);
let seq = 0;

/**
 * A member at UTC+14 logs at `at` (by default the clock: local 14:00 on 2027-06-01), then moves to
 * UTC-12; or the other way round (`east`).
 */
async function movedMember(
  slug: 'streak' | 'challenge',
  definitionId: string,
  { east = false, at = clock.toISOString() }: { east?: boolean; at?: string } = {},
): Promise<{ id: string; memberId: string }> {
  const [from, to] = east ? ['Etc/GMT+12', 'Pacific/Kiritimati'] : ['Pacific/Kiritimati', 'Etc/GMT+12'];
  const externalId = `mover-${++seq}`;
  const log = await accepted(
    acct.api.post(`/schema/${slug}_log/record`, {
      [`${slug}Id`]: definitionId,
      ownedBy: { externalId, timezone: from },
      activityId: 'visit',
      activityAt: at,
      uniqueIdentifier: `z-${seq}`,
    }),
  );
  await accepted(acct.api.patch(`/schema/account_user/record/${log.ownedById}`, { timezone: to }));
  return { id: log[`${slug}Progress`].id, memberId: log.ownedById };
}

describe('a member who changes time zone mid-run', () => {
  it("keeps a streak until the required day ends in the member's new zone, then breaks it at that end", async () => {
    const streak = await accepted(acct.api.post('/schema/streak/record', { name: 'Daily', status: 'live' }));
    const { id } = await movedMember('streak', streak.id);
    const read = async () => accepted(acct.api.get(`/schema/streak_progress/record/${id}`));
    // Set in Kiritimati: the end of 2027-06-02 there, 10:00Z. In UTC-12 that day ends at 2027-06-03T12:00Z.
    expect((await read()).streakToBeBrokenAt).toBe('2027-06-02T10:00:00.000Z');
    await sweep('2027-06-02T12:00:00Z');
    expect(await read()).toMatchObject({
      streakProgressStatus: 'in_progress',
      streakBrokenAt: null,
      streakToBeBrokenAt: '2027-06-03T12:00:00.000Z',
    });
    await sweep('2027-06-03T12:16:00Z');
    expect(await read()).toMatchObject({ streakProgressStatus: 'broken', streakBrokenAt: '2027-06-03T12:00:00.000Z' });
  });

  it("fails a challenge's window only once it has ended in the member's new zone, at that end", async () => {
    const challenge = await accepted(
      acct.api.post('/schema/challenge/record', {
        name: 'Daily ten',
        status: 'live',
        aggregationPeriod: 'daily',
        completionTargetValue: 10,
      }),
    );
    const { id } = await movedMember('challenge', challenge.id);
    const read = async () => accepted(acct.api.get(`/schema/challenge_progress/record/${id}`));
    expect((await read()).challengeToBeFailedAt).toBe('2027-06-01T10:00:00.000Z');
    await sweep('2027-06-01T10:20:00Z');
    expect(await read()).toMatchObject({
      challengeProgressStatus: 'in_progress',
      challengeFailedAt: null,
      challengeToBeFailedAt: '2027-06-02T12:00:00.000Z',
    });
    await sweep('2027-06-02T12:20:00Z');
    expect(await read()).toMatchObject({ challengeProgressStatus: 'failed', challengeFailedAt: '2027-06-02T12:00:00.000Z' });
  });
  it('closes a streak and a challenge of a member who moved east as of their end in the new zone, the deadline then reading that end', async () => {
    const streak = await accepted(acct.api.post('/schema/streak/record', { name: 'Daily east', status: 'live' }));
    const challenge = await accepted(
      acct.api.post('/schema/challenge/record', {
        name: 'Daily east ten',
        status: 'live',
        aggregationPeriod: 'daily',
        completionTargetValue: 10,
      }),
    );
    // At UTC-12, 2027-05-31T13:00Z is 01:00 on 05-31. The next day, 06-01, ends there at 2027-06-02T12:00Z;
    // at UTC+14 it ended at 2027-06-01T10:00Z, and 05-31 at 2027-05-31T10:00Z.
    const at = '2027-05-31T13:00:00Z';
    const run = await movedMember('streak', streak.id, { east: true, at });
    const windowed = await movedMember('challenge', challenge.id, { east: true, at });
    const read = async (slug: string, id: string) => accepted(acct.api.get(`/schema/${slug}/record/${id}`));
    expect((await read('streak_progress', run.id)).streakToBeBrokenAt).toBe('2027-06-02T12:00:00.000Z');
    // Nothing is swept before the deadline set in the zone left; then each closes at its end in the new zone.
    await sweep('2027-06-02T12:16:00Z');
    const broken = await read('streak_progress', run.id);
    expect(broken).toMatchObject({ streakProgressStatus: 'broken', streakBrokenAt: '2027-06-01T10:00:00.000Z' });
    expect(broken.streakToBeBrokenAt).toBe(broken.streakBrokenAt);
    const failed = await read('challenge_progress', windowed.id);
    // Window 05-31 ended on Kiritimati before its first log: failed as of that log, never before the run began.
    expect(failed).toMatchObject({
      challengeProgressStatus: 'failed',
      challengeStartedAt: at.replace('Z', '.000Z'),
      challengeFailedAt: at.replace('Z', '.000Z'),
      challengeToBeFailedAt: at.replace('Z', '.000Z'),
    });
  });
});
