import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

let app: TestApp;
let acct: TestAccount;
let memberA: { id: string; token: string };
let memberB: { id: string; token: string };
let streakId: string;
let rewardId: string;
let milestoneId: string;

async function member(externalId: string, extra: Record<string, unknown> = {}) {
  const minted = await acct.api.post('/enduser/token', { externalId, firstName: externalId });
  await acct.api.patch(`/schema/account_user/record/${minted.body.data.memberId}`, extra);
  return { id: minted.body.data.memberId as string, token: minted.body.data.accessToken as string };
}

const asMember = (m: { token: string }) => app.anon.with({ 'x-enduser-access-token': m.token, 'x-account-id': acct.accountId });

beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount({ defaultLanguageCode: 'en', timezone: 'Europe/Paris' });
  memberA = await member('shopper-a', { languageCode: 'de', timezone: 'America/New_York' });
  memberB = await member('shopper-b');
  streakId = (
    await acct.api.post('/schema/streak/record', {
      name: 'Internal name',
      description: 'secret plan',
      eudTitle: 'Visit daily',
      completionTargetValue: 10,
    })
  ).body.data.id;
  rewardId = (
    await acct.api.post('/schema/reward/record', {
      name: 'Internal reward',
      description: 'd',
      discountType: 'percentage',
      discountValue: 15,
      rewardExpiryType: 'relative',
      rewardExpiryInDays: 30,
      eudTitle: '15% off',
    })
  ).body.data.id;
  milestoneId = (
    await acct.api.post('/schema/milestone/record', {
      linkedSchemaSlug: 'streak',
      linkedSchemaRecordId: streakId,
      name: 'Week',
      description: 'd',
      milestoneTargetValue: 7,
      status: 'live',
      rewardId,
    })
  ).body.data.id;
  const base = { account_id: acct.accountId };
  for (const m of [memberA, memberB]) {
    const [progress] = await app
      .db('streak_progress')
      .insert({
        ...base,
        streak_id: streakId,
        owned_by_id: m.id,
        unique_identifier: `${streakId}:${m.id}`,
        current_progress_value: 7,
        streak_started_at: new Date('2026-11-01T10:00:00Z'),
        current_period_key: '2026-11-21',
      })
      .returning('id');
    await app.db('task_progress').insert({
      ...base,
      owned_by_id: m.id,
      linked_schema_slug: 'streak_progress',
      linked_schema_record_id: progress.id,
      period_key: '2026-11-21',
      current_progress_value: 1,
      target_value: 1,
      task_progress_status: 'completed',
    });
    await app.db('reward_log').insert({
      ...base,
      reward_id: rewardId,
      milestone_id: milestoneId,
      linked_schema_slug: 'streak',
      linked_schema_record_id: streakId,
      owned_by_id: m.id,
      coupon_code: `CODE-${m.id.slice(0, 4)}`,
      reward_issued_at: new Date('2026-11-21T10:00:00Z'),
      reward_expiry_at: new Date('2026-12-21T03:00:00Z'),
    });
    await app.db('streak_log').insert({
      ...base,
      streak_id: streakId,
      owned_by_id: m.id,
      activity_id: 'visit',
      activity_at: new Date(),
      unique_identifier: `u-${m.id}`,
      is_aggregated: true,
      period_key: '2026-11-21',
    });
    await app.db('event_log').insert({
      ...base,
      event_code: 'streak_progress_milestone_completed',
      owned_by_id: m.id,
      linked_schema_slug: 'streak_progress',
      linked_schema_record_id: progress.id,
      payload: JSON.stringify({ streakLog: { id: 'x' } }),
    });
  }
});
afterAll(() => app.close());

describe('progress and reward reads', () => {
  it('shows an API key everything, with joined records', async () => {
    const progress = await acct.api.get('/schema/streak_progress/record');
    expect(progress.body.data).toHaveLength(2);
    const one = progress.body.data[0];
    expect(one.streak).toMatchObject({ id: streakId, name: 'Internal name' });
    expect(one.ownedBy).toMatchObject({ externalId: expect.stringMatching(/^shopper-/) });
    expect(one.taskProgress).toMatchObject({ periodKey: '2026-11-21', taskProgressStatus: 'completed' });
    const logs = await acct.api.get('/schema/streak_log/record');
    expect(logs.body.data[0]).toMatchObject({ streakId, isAggregated: true, streak: { id: streakId } });
    const events = await acct.api.get('/schema/event_log/record', {
      filters: {
        operator: 'and',
        conditions: [{ fieldSlug: 'eventCode', operator: 'equals', fieldValue: 'streak_progress_milestone_completed' }],
      },
    });
    expect(events.body.data[0].payload).toEqual({ streakLog: { id: 'x' } });
  });

  it('shows a member only their own records, with definitions reduced to public fields', async () => {
    const mine = await asMember(memberA).get('/schema/streak_progress/record');
    expect(mine.status).toBe(200);
    expect(mine.body.data).toHaveLength(1);
    expect(mine.body.data[0].ownedById).toBe(memberA.id);
    expect(mine.body.data[0].streak).toMatchObject({ id: streakId, eudTitle: 'Visit daily', completionTargetValue: 10 });
    expect(mine.body.data[0].streak).not.toHaveProperty('name');
    expect(mine.body.data[0].streak).not.toHaveProperty('description');
    const othersId = (
      await acct.api.get('/schema/streak_progress/record', {
        filters: { operator: 'and', conditions: [{ fieldSlug: 'ownedById', operator: 'equals', fieldValue: memberB.id }] },
      })
    ).body.data[0].id;
    expect((await asMember(memberA).get(`/schema/streak_progress/record/${othersId}`)).status).toBe(404);
    expect((await asMember(memberA).get('/schema/streak_log/record')).status).toBe(403);
    expect((await asMember(memberA).get('/schema/event_log/record')).status).toBe(403);
  });

  it('renders reward texts in the requested language with the expiry in the member locale and zone', async () => {
    const rewards = await asMember(memberA).get('/schema/reward_log/record');
    expect(rewards.body.data).toHaveLength(1);
    const log = rewards.body.data[0];
    expect(log.reward).toEqual({
      id: rewardId,
      rewardKind: 'code',
      discountType: 'percentage',
      discountValue: 15,
      pointsValue: null,
      pointsCost: null,
      eudTitle: '15% off',
      eudRedeemInstructionMessage: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(log.milestone).not.toHaveProperty('name');
    expect(log.eudRewardTitle).toBe('15% off');
    // 2026-12-21T03:00Z is still 20 December in New York; the member reads German dates.
    expect(log.eudRedeemInstructionMessage).toBe('Use the offer code at checkout, valid till 20. Dezember 2026.');
    const french = await asMember(memberA).get('/schema/reward_log/record', { languageCode: 'fr' });
    expect(french.body.data[0].eudRedeemInstructionMessage).toBe(
      "Utilisez le code promo lors du paiement, valable jusqu'au 20. Dezember 2026.",
    );
    await acct.api.patch(`/schema/milestone/record/${milestoneId}`, {
      eudMilestoneRewardInstructionMessage: 'Code {{couponless}} till {{$helpers.rewardValidTill}}',
    });
    const custom = await asMember(memberB).get('/schema/reward_log/record');
    expect(custom.body.data[0].eudRedeemInstructionMessage).toBe('Code  till December 21, 2026');
  });
});
