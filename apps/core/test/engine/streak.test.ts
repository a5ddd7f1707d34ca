import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accepted, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

let app: TestApp;
let acct: TestAccount;
beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount({ timezone: 'UTC' });
  app.running.services.records.now = () => new Date('2026-11-30T12:00:00Z');
});
afterAll(() => app.close());

let seq = 0;
const log = (streakId: string, externalId: string, activityAt: string, extra: Record<string, unknown> = {}) =>
  acct.api.post('/schema/streak_log/record', {
    streakId,
    ownedBy: { externalId },
    activityId: 'visit',
    activityAt,
    uniqueIdentifier: `u-${++seq}`,
    ...extra,
  });

async function events(memberId: string) {
  const res = await acct.api.get('/schema/event_log/record', {
    filters: { operator: 'and', conditions: [{ fieldSlug: 'ownedById', operator: 'equals', fieldValue: memberId }] },
    sortBy: [{ fieldSlug: 'createdAt', order: 'ASC' }],
    limit: '1000',
  });
  return res.body.data.map((e: any) => e.eventCode);
}

describe('streak logs', () => {
  it('count consecutive days, achieve milestones with pooled coupons, complete, and restart', async () => {
    const streak = (await acct.api.post('/schema/streak/record', { name: 'Daily', completionTargetValue: 3, eudTitle: 'Come back daily' }))
      .body.data;
    const reward = (
      await acct.api.post('/schema/reward/record', {
        name: 'R',
        description: 'd',
        discountType: 'percentage',
        discountValue: 10,
        rewardExpiryType: 'relative',
        rewardExpiryInDays: 7,
        handleCoupon: true,
      })
    ).body.data;
    await acct.api.post(`/schema/reward/record/${reward.id}/action/import_coupons`, { couponCodes: ['POOL-1', 'POOL-2'] });
    await acct.api.post('/schema/milestone/record', {
      linkedSchemaSlug: 'streak',
      linkedSchemaRecordId: streak.id,
      name: 'Two',
      description: 'd',
      milestoneTargetValue: 2,
      status: 'live',
      rewardId: reward.id,
    });

    const first = await log(streak.id, 'alice', '2026-11-20T10:00:00Z');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const d1 = first.body.data;
    expect(d1).toMatchObject({
      isAggregated: true,
      periodKey: '2026-11-20',
      streakProgress: { currentProgressValue: 1, streakProgressStatus: 'in_progress', streakToBeBrokenAt: '2026-11-22T00:00:00.000Z' },
    });
    // Completed when the log says, as a back-fill describes it, not when it arrived.
    expect(d1.taskProgress).toMatchObject({
      periodKey: '2026-11-20',
      currentProgressValue: 1,
      taskProgressStatus: 'completed',
      completedAt: '2026-11-20T10:00:00.000Z',
    });
    expect(d1.nextMilestone).toMatchObject({ milestoneTargetValue: 2 });
    expect(d1.achievedMilestone).toBeNull();
    expect(d1.streak.milestones).toHaveLength(1);

    const sameDay = (await log(streak.id, 'alice', '2026-11-20T18:00:00Z')).body.data;
    expect(sameDay.streakProgress.currentProgressValue).toBe(1);

    const d2 = (await log(streak.id, 'alice', '2026-11-21T09:00:00Z')).body.data;
    expect(d2.streakProgress.currentProgressValue).toBe(2);
    expect(d2.achievedMilestone).toMatchObject({ milestoneTargetValue: 2 });
    expect(d2.achievedMilestoneRewardLog).toMatchObject({
      couponCode: 'POOL-1',
      rewardExpiryAt: expect.any(String),
      rewardIssuedAt: '2026-11-30T12:00:00.000Z',
    });

    const d3 = (await log(streak.id, 'alice', '2026-11-22T09:00:00Z')).body.data;
    expect(d3.streakProgress).toMatchObject({ currentProgressValue: 3, streakProgressStatus: 'completed' });

    const afterDone = (await log(streak.id, 'alice', '2026-11-22T20:00:00Z')).body.data;
    expect(afterDone.isAggregated).toBe(false);
    const restart = (await log(streak.id, 'alice', '2026-11-23T09:00:00Z')).body.data;
    expect(restart.streakProgress).toMatchObject({ currentProgressValue: 1, streakProgressStatus: 'in_progress' });
    expect(restart.streakProgress.id).not.toBe(d3.streakProgress.id);

    expect(await events(d1.ownedById)).toEqual([
      'streak_progress_non_milestone_completed',
      'streak_progress_in_progress',
      'streak_progress_milestone_completed',
      'streak_progress_completed',
      'streak_progress_non_milestone_completed',
    ]);
  });

  it('completes a run with its next period once the target is lowered below its value, as a challenge does', async () => {
    const streak = await accepted(acct.api.post('/schema/streak/record', { name: 'Lowered', completionTargetValue: 10 }));
    for (const day of ['20', '21', '22', '23']) await log(streak.id, 'lowered', `2026-11-${day}T10:00:00Z`);
    await accepted(acct.api.patch(`/schema/streak/record/${streak.id}`, { completionTargetValue: 3 }));
    // A log in a period already completed changes nothing.
    expect((await log(streak.id, 'lowered', '2026-11-23T18:00:00Z')).body.data.streakProgress.streakProgressStatus).toBe('in_progress');
    const next = (await log(streak.id, 'lowered', '2026-11-24T10:00:00Z')).body.data;
    expect(next.streakProgress).toMatchObject({ currentProgressValue: 5, streakProgressStatus: 'completed' });
  });

  it('counts a period once: a target raised within a completed period does not complete it again', async () => {
    const reward = await accepted(
      acct.api.post('/schema/reward/record', {
        name: 'Raised',
        description: 'd',
        discountType: 'percentage',
        discountValue: 5,
        rewardExpiryType: 'no_expiry',
      }),
    );
    const streak = await accepted(acct.api.post('/schema/streak/record', { name: 'Raised', completionTargetValue: 3 }));
    await accepted(
      acct.api.post('/schema/milestone/record', {
        name: 'Two',
        description: 'd',
        linkedSchemaSlug: 'streak',
        linkedSchemaRecordId: streak.id,
        milestoneTargetValue: 2,
        rewardId: reward.id,
        status: 'live',
      }),
    );
    const first = (await log(streak.id, 'raised', '2026-11-25T08:00:00Z')).body.data;
    expect(first.streakProgress.currentProgressValue).toBe(1);
    for (const [target, hour] of [
      [2, '10'],
      [3, '12'],
    ] as const) {
      await accepted(acct.api.patch(`/schema/streak/record/${streak.id}`, { aggregationTargetValue: target }));
      const answer = (await log(streak.id, 'raised', `2026-11-25T${hour}:00:00Z`)).body.data;
      expect(answer.streakProgress).toMatchObject({ currentProgressValue: 1, streakProgressStatus: 'in_progress' });
      expect(answer.achievedMilestone).toBeNull();
    }
    expect(await events(first.ownedById)).toEqual([
      'streak_progress_non_milestone_completed',
      'streak_progress_in_progress',
      'streak_progress_in_progress',
    ]);
    // The next day counts by the raised target.
    for (const [hour, value] of [
      ['08', 1],
      ['09', 1],
      ['10', 2],
    ] as const)
      expect((await log(streak.id, 'raised', `2026-11-26T${hour}:00:00Z`)).body.data.streakProgress.currentProgressValue).toBe(value);
  });

  it('refuses a new aggregationPeriod once members have progress (409), as a challenge does; before that it may change', async () => {
    for (const kind of ['streak', 'challenge'] as const) {
      const body = kind === 'streak' ? { name: `P-${kind}` } : { name: `P-${kind}`, completionTargetValue: 5 };
      const made = await accepted(acct.api.post(`/schema/${kind}/record`, body));
      await accepted(acct.api.patch(`/schema/${kind}/record/${made.id}`, { aggregationPeriod: 'monthly' }));
      await accepted(acct.api.patch(`/schema/${kind}/record/${made.id}`, { aggregationPeriod: 'daily' }));
      await accepted(
        acct.api.post(`/schema/${kind}_log/record`, {
          [`${kind}Id`]: made.id,
          ownedBy: { externalId: `period-${kind}` },
          activityId: 'visit',
          activityAt: '2026-11-20T10:00:00Z',
          uniqueIdentifier: `u-${++seq}`,
        }),
      );
      const refused = await acct.api.patch(`/schema/${kind}/record/${made.id}`, { aggregationPeriod: 'weekly' });
      expect(refused.status, kind).toBe(409);
      expect(refused.body.error.details).toEqual([expect.objectContaining({ field: 'aggregationPeriod', code: 'in_use' })]);
      // The same period again, with other changes, is no change of period.
      await accepted(acct.api.patch(`/schema/${kind}/record/${made.id}`, { aggregationPeriod: 'daily', name: `Q-${kind}` }));
      expect((await accepted(acct.api.get(`/schema/${kind}/record/${made.id}`))).aggregationPeriod).toBe('daily');
    }
  });

  it('breaks on a missed day at the next log, and refuses late logs', async () => {
    const streak = (await acct.api.post('/schema/streak/record', { name: 'Daily 2' })).body.data;
    await log(streak.id, 'bob', '2026-11-20T10:00:00Z');
    await log(streak.id, 'bob', '2026-11-21T10:00:00Z');
    const gap = (await log(streak.id, 'bob', '2026-11-23T10:00:00Z')).body.data;
    expect(gap.streakProgress.currentProgressValue).toBe(1);
    const late = (await log(streak.id, 'bob', '2026-11-22T10:00:00Z')).body.data;
    expect(late.isAggregated).toBe(false);
    const progresses = (
      await acct.api.get('/schema/streak_progress/record', {
        sortBy: [{ fieldSlug: 'createdAt', order: 'ASC' }],
        filters: { operator: 'and', conditions: [{ fieldSlug: 'ownedById', operator: 'equals', fieldValue: gap.ownedById }] },
      })
    ).body.data;
    expect(progresses.map((p: any) => [p.streakProgressStatus, p.currentProgressValue, p.streakBrokenAt])).toEqual([
      ['broken', 2, '2026-11-23T00:00:00.000Z'],
      ['in_progress', 1, null],
    ]);
    const codes = await events(gap.ownedById);
    expect(codes.slice(-2)).toEqual(['streak_progress_broken', 'streak_progress_non_milestone_completed']);
  });

  it('answers with every record’s timestamps, as a read of it gives them, never updated before created', async () => {
    const streak = (await acct.api.post('/schema/streak/record', { name: 'Stamped' })).body.data;
    const answer = (await log(streak.id, 'stamped', '2026-11-30T10:00:00Z')).body.data;
    const parts: [string, { id: string; createdAt: string; updatedAt: string }][] = [
      ['streak_log', answer],
      ['streak_progress', answer.streakProgress],
      ['task_progress', answer.taskProgress],
    ];
    for (const [slug, part] of parts) {
      expect(part.createdAt, slug).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(Date.parse(part.updatedAt), slug).toBeGreaterThanOrEqual(Date.parse(part.createdAt));
      const read = (await acct.api.get(`/schema/${slug}/record/${part.id}`)).body.data;
      expect([part.createdAt, part.updatedAt], slug).toEqual([read.createdAt, read.updatedAt]);
    }
  });

  it('refuses an activityAt outside the years 1 to 9999 by naming it, and makes no member', async () => {
    const streak = (await acct.api.post('/schema/streak/record', { name: 'Ancient' })).body.data;
    for (const activityAt of ['0000-06-01T00:00:00Z', '0001-01-01T00:30:00+01:00']) {
      const res = await log(streak.id, 'ancient', activityAt);
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'activityAt', code: 'invalid_format' })]);
    }
    const members = await acct.api.get('/schema/account_user/record', {
      filters: { operator: 'and', conditions: [{ fieldSlug: 'externalId', operator: 'equals', fieldValue: 'ancient' }] },
    });
    expect(members.body.data).toEqual([]);
  });

  it('refuses replays with the first log id', async () => {
    const streak = (await acct.api.post('/schema/streak/record', { name: 'Daily 3' })).body.data;
    const body = {
      streakId: streak.id,
      ownedBy: { externalId: 'carol' },
      activityId: 'visit',
      activityAt: '2026-11-20T10:00:00Z',
      uniqueIdentifier: 'same',
    };
    const first = await acct.api.post('/schema/streak_log/record', body);
    const replay = await acct.api.post('/schema/streak_log/record', body);
    expect(replay.status).toBe(409);
    expect(replay.body.error.code).toBe('duplicate_unique_identifier');
    expect(replay.body.error.details[0].existingRecordId).toBe(first.body.data.id);
  });
});
