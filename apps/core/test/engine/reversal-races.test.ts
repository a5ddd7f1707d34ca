import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confirmHeldRewards } from '../../src/scheduler/confirm.js';
import { runSweeps } from '../../src/scheduler/sweeps.js';
import { accepted, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

// Reversals racing logs, each other, the scheduler's sweeps and its confirm pass (CONTRACT §17):
// nothing lost, nothing counted twice.
let app: TestApp;
let acct: TestAccount;
beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount({ timezone: 'UTC' });
});
afterAll(() => app.close());

let seq = 0;
const create = (slug: string, body: Record<string, unknown>) => accepted(acct.api.post(`/schema/${slug}/record`, body));
const member = async () => (await create('account_user', { externalId: `race-${++seq}` })).id as string;
const reverse = (kind: string, id: string, body: unknown = {}) => acct.api.post(`/schema/${kind}_log/record/${id}/action/reverse`, body);
const byOwner = (memberId: string) => ({
  operator: 'and',
  conditions: [{ fieldSlug: 'ownedById', operator: 'equals', fieldValue: memberId }],
});
const list = async (slug: string, memberId: string) =>
  (await acct.api.get(`/schema/${slug}/record`, { filters: byOwner(memberId), limit: '1000' })).body.data as any[];
const at = (time: string) => {
  const now = new Date(time);
  app.running.services.records.now = () => now;
};

describe('reversals racing', () => {
  it('logs and reversals of one member on one challenge: the total is what is left of every log', async () => {
    at('2027-04-30T12:00:00Z');
    const c = await create('challenge', {
      name: `C${++seq}`,
      aggregationPeriod: 'monthly',
      aggregationMethod: 'sum',
      completionTargetValue: 1e6,
    });
    const m = await member();
    const first = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        create('challenge_log', {
          challengeId: c.id,
          ownedById: m,
          activityId: 'order',
          activityAt: `2027-04-0${1 + (i % 9)}T10:00:00Z`,
          uniqueIdentifier: `a-${++seq}`,
          activityValue: 10,
        }),
      ),
    );
    const results = await Promise.all([
      ...first.map((l, i) => reverse('challenge', l.id, { activityValue: 1 + (i % 3) })),
      ...first.slice(0, 5).map((l) => reverse('challenge', l.id, { activityValue: 2 })),
      ...Array.from({ length: 10 }, () =>
        acct.api.post('/schema/challenge_log/record', {
          challengeId: c.id,
          ownedById: m,
          activityId: 'order',
          activityAt: '2027-04-20T10:00:00Z',
          uniqueIdentifier: `b-${++seq}`,
          activityValue: 5,
        }),
      ),
    ]);
    expect(results.map((r) => r.status)).toEqual(results.map(() => 200));
    const logs = await list('challenge_log', m);
    const left = logs.reduce((sum, l) => sum + l.activityValue - l.reversedValue, 0);
    expect(left).toBe(100 - (1 + 2 + 3) * 3 - 1 - 5 * 2 + 10 * 5);
    const [progress] = await list('challenge_progress', m);
    expect(progress.currentProgressValue).toBe(left);
  });

  it('both orders of the day that completed a streak refunded at once, for 20 members: every reversal 200, the day gone', async () => {
    at('2027-05-03T20:00:00Z');
    const s = await create('streak', { name: `S${++seq}`, completionTargetValue: 1 });
    const reward = await create('reward', {
      name: `R${++seq}`,
      description: 'd',
      discountType: 'percentage',
      discountValue: 5,
      rewardExpiryType: 'no_expiry',
    });
    await create('milestone', {
      linkedSchemaSlug: 'streak',
      linkedSchemaRecordId: s.id,
      name: `M${++seq}`,
      description: 'd',
      status: 'live',
      milestoneTargetValue: 1,
      rewardId: reward.id,
    });
    const members = await Promise.all(Array.from({ length: 20 }, () => member()));
    const pairs = await Promise.all(
      members.map(async (m) => {
        const day = (hour: number) =>
          create('streak_log', {
            streakId: s.id,
            ownedById: m,
            activityId: 'order',
            activityAt: `2027-05-03T${hour}:00:00Z`,
            uniqueIdentifier: `o-${++seq}`,
          });
        const first = await day(10);
        // Refused by the completion: the reversal of the first re-decides it.
        const second = await day(11);
        expect(second.notAggregatedReason).toBe('period_completed');
        return [first, second];
      }),
    );
    const answers = await Promise.all(pairs.flat().map((l) => reverse('streak', l.id, { reason: 'refund' })));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    for (const m of members) {
      const [run] = await list('streak_progress', m);
      expect(run).toMatchObject({ currentProgressValue: 0, streakProgressStatus: 'in_progress', lastCompletedPeriodKey: null });
      expect((await list('reward_log', m)).map((r) => r.rewardLogStatus)).toEqual(['revoked']);
    }
  });

  it('reversals with one uniqueIdentifier: one 200, the others 409 naming it, one value taken', async () => {
    at('2027-04-30T12:00:00Z');
    const c = await create('challenge', {
      name: `C${++seq}`,
      aggregationPeriod: 'monthly',
      aggregationMethod: 'sum',
      completionTargetValue: 1e6,
    });
    const m = await member();
    const logs = await Promise.all(
      [1, 2, 3].map((d) =>
        create('challenge_log', {
          challengeId: c.id,
          ownedById: m,
          activityId: 'order',
          activityAt: `2027-04-0${d}T10:00:00Z`,
          uniqueIdentifier: `u-${++seq}`,
          activityValue: 10,
        }),
      ),
    );
    const replies = await Promise.all(
      Array.from({ length: 12 }, (_, i) => reverse('challenge', logs[i % 3]!.id, { uniqueIdentifier: 'refund:42', activityValue: 4 })),
    );
    const won = replies.filter((r) => r.status === 200);
    expect(won).toHaveLength(1);
    const reversalId = won[0]!.body.data.reversals[0].id;
    for (const r of replies.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(409);
      expect(r.body.error).toMatchObject({ code: 'duplicate_unique_identifier', details: [{ existingRecordId: reversalId }] });
    }
    const [progress] = await list('challenge_progress', m);
    expect(progress.currentProgressValue).toBe(26);
  });

  it("one uniqueIdentifier racing on different members' logs of a definition: one 200, every other 409 naming it", async () => {
    at('2027-04-30T12:00:00Z');
    const c = await create('challenge', {
      name: `C${++seq}`,
      aggregationPeriod: 'monthly',
      aggregationMethod: 'sum',
      completionTargetValue: 1e6,
    });
    // Each member's reversal takes its own member's lock: nothing but the identifier orders them.
    const logs = await Promise.all(
      Array.from({ length: 16 }, async () =>
        create('challenge_log', {
          challengeId: c.id,
          ownedById: await member(),
          activityId: 'order',
          activityAt: '2027-04-02T10:00:00Z',
          uniqueIdentifier: `u-${++seq}`,
          activityValue: 10,
        }),
      ),
    );
    for (let round = 0; round < 3; round++) {
      const uid = `shared-${++seq}`;
      const replies = await Promise.all(logs.map((l) => reverse('challenge', l.id, { uniqueIdentifier: uid, activityValue: 1 })));
      const won = replies.filter((r) => r.status === 200);
      expect(won).toHaveLength(1);
      const stored = await app.db('log_reversal').where({ unique_identifier: uid }).select('id');
      expect(stored).toHaveLength(1);
      const reversalId = stored[0]!.id;
      expect(won[0]!.body.data.reversals.map((r: { id: string }) => r.id)).toContain(reversalId);
      for (const r of replies.filter((x) => x.status !== 200))
        expect(r.body.error).toMatchObject({ code: 'duplicate_unique_identifier', details: [{ existingRecordId: reversalId }] });
    }
  });

  it("the scheduler's break pass and a reversal on the same run: one break, one consistent run", async () => {
    at('2027-04-05T12:00:00Z');
    const s = await create('streak', { name: `S${++seq}` });
    const members = await Promise.all(Array.from({ length: 8 }, () => member()));
    const logs = [];
    for (const m of members)
      for (const d of [1, 2, 3])
        logs.push(
          await create('streak_log', {
            streakId: s.id,
            ownedById: m,
            activityId: 'v',
            activityAt: `2027-04-0${d}T10:00:00Z`,
            uniqueIdentifier: `s-${++seq}`,
          }),
        );
    // Day 4 went by uncompleted: every run is due to break once the grace has passed.
    const sweepAt = new Date('2027-04-05T01:00:00Z');
    const lastOfEach = logs.filter((_, i) => i % 3 === 2);
    const [swept] = await Promise.all([
      runSweeps(app.running.services.records, sweepAt, 900),
      ...lastOfEach.map((l) => reverse('streak', l.id)),
    ]);
    await runSweeps(app.running.services.records, sweepAt, 900);
    for (const m of members) {
      const runs = await list('streak_progress', m);
      expect(runs).toHaveLength(1);
      expect(runs[0]).toMatchObject({ streakProgressStatus: 'broken', currentProgressValue: 2 });
      const events = (await list('event_log', m)).filter((e) => e.eventCode === 'streak_progress_broken');
      expect(events.length).toBeLessThanOrEqual(1);
    }
    expect(swept['streak breaks']).toBeLessThanOrEqual(members.length);
  });

  it('the confirm pass under several workers and reversals: each held reward issued once, none after its revocation', async () => {
    at('2027-04-10T12:00:00Z');
    const r = await create('reward', {
      name: `R${++seq}`,
      description: 'd',
      discountType: 'percentage',
      discountValue: 10,
      rewardExpiryType: 'no_expiry',
      handleCoupon: true,
      handleCouponAutoGeneration: true,
    });
    const c = await create('challenge', { name: `C${++seq}`, aggregationPeriod: 'monthly', completionTargetValue: 1, rewardHoldDays: 1 });
    await create('milestone', {
      linkedSchemaSlug: 'challenge',
      linkedSchemaRecordId: c.id,
      name: 'One',
      description: 'd',
      status: 'live',
      milestoneTargetValue: 1,
      rewardId: r.id,
    });
    const members = await Promise.all(Array.from({ length: 30 }, () => member()));
    const logs = await Promise.all(
      members.map((m) =>
        create('challenge_log', {
          challengeId: c.id,
          ownedById: m,
          activityId: 'o',
          activityAt: '2027-04-10T10:00:00Z',
          uniqueIdentifier: `h-${++seq}`,
        }),
      ),
    );
    const due = new Date('2027-04-11T12:00:01Z');
    const reversed = logs.filter((_, i) => i % 3 === 0);
    const outcomes = await Promise.all([
      confirmHeldRewards(app.running.services.records, due),
      confirmHeldRewards(app.running.services.records, due),
      confirmHeldRewards(app.running.services.records, due),
      ...reversed.map((l) => reverse('challenge', l.id)),
    ]);
    const confirmed = (outcomes.slice(0, 3) as number[]).reduce((a, b) => a + b, 0);
    const rewardLogs = (await Promise.all(members.map((m) => list('reward_log', m)))).flat();
    expect(rewardLogs).toHaveLength(30);
    const issued = rewardLogs.filter((l) => l.rewardLogStatus === 'issued');
    const revoked = rewardLogs.filter((l) => l.rewardLogStatus === 'revoked');
    expect(issued.length + revoked.length).toBe(30);
    expect(revoked).toHaveLength(10);
    // A log confirmed before its reversal was issued, then revoked, and keeps its code.
    expect(confirmed).toBe(issued.length + revoked.filter((l) => l.couponCode !== null).length);
    expect(new Set(issued.map((l) => l.couponCode)).size).toBe(issued.length);
    const events = (await Promise.all(members.map((m) => list('event_log', m)))).flat().filter((e) => e.eventCode === 'reward_log_issued');
    expect(events).toHaveLength(confirmed);
    expect(await confirmHeldRewards(app.running.services.records, due)).toBe(0);
  });
});
