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

/** A member at UTC+14 logs at the clock (local 14:00 on 2027-06-01), then moves to UTC-12. */
async function movedMember(slug: 'streak' | 'challenge', definitionId: string): Promise<string> {
  const externalId = `mover-${++seq}`;
  const log = await accepted(
    acct.api.post(`/schema/${slug}_log/record`, {
      [`${slug}Id`]: definitionId,
      ownedBy: { externalId, timezone: 'Pacific/Kiritimati' },
      activityId: 'visit',
      activityAt: clock.toISOString(),
      uniqueIdentifier: `z-${seq}`,
    }),
  );
  await accepted(acct.api.patch(`/schema/account_user/record/${log.ownedById}`, { timezone: 'Etc/GMT+12' }));
  return log[`${slug}Progress`].id;
}

describe('a member who changes time zone mid-run', () => {
  it("keeps a streak until the required day ends in the member's new zone, then breaks it at that end", async () => {
    const streak = await accepted(acct.api.post('/schema/streak/record', { name: 'Daily', status: 'live' }));
    const id = await movedMember('streak', streak.id);
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
    const id = await movedMember('challenge', challenge.id);
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
});
