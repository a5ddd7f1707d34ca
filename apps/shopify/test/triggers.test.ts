import { describe, expect, it } from 'vitest';
import { samplePayload } from '../../core/src/notifications/samples';
import { TRIGGER_EVENT_CODES } from '../app/core/event-subscription.server';
import { issuedRewardLogs, revokedRewardLogIds, rewardExpiry, triggersFor } from '../app/loop/triggers.server';
import { shopifyCustomerId } from '../app/shopify/customer-ids.server';

/**
 * The event → trigger mapping on the core's own sample payloads (the shapes the engine writes, one
 * per code), for the scheduler-driven codes a production test cannot wait for: at risk, broken,
 * freeze used. The log-driven ones are proven end to end in shopify-loop.test.ts.
 */
const now = new Date('2026-03-10T12:00:00.000Z');
const fire = (code: (typeof TRIGGER_EVENT_CODES)[number]) => triggersFor(code, samplePayload(code, now, 'en'), new Set());

describe('triggersFor', () => {
  it('Streak at risk carries the streak, the run, when it breaks and the freezes that will cover it', () => {
    expect(fire('streak_progress_to_be_broken')).toEqual([
      {
        handle: 'loyalty-streak-at-risk',
        subject: '',
        fields: {
          streak_id: expect.any(String),
          streak_name: 'Weekly workouts',
          current_run: expect.any(Number),
          breaks_at: expect.stringMatching(/^\d{4}-/),
          freezes_available: expect.any(Number),
        },
      },
    ]);
  });

  it('Streak broken and Streak freeze used', () => {
    expect(fire('streak_progress_broken')).toEqual([
      {
        handle: 'loyalty-streak-broken',
        subject: '',
        fields: { streak_id: expect.any(String), streak_name: 'Weekly workouts', run_lost: expect.any(Number) },
      },
    ]);
    const [used] = fire('streak_progress_freeze_used');
    expect(used).toMatchObject({
      handle: 'loyalty-streak-freeze-used',
      fields: { streak_name: 'Weekly workouts', frozen_period: expect.stringMatching(/\S/), freezes_available: expect.any(Number) },
    });
  });

  it('every subscribed code maps to its trigger; a reward issued with a milestone adds Reward issued, unless the app issues it as a Shopify discount', () => {
    for (const code of TRIGGER_EVENT_CODES) {
      const handles = fire(code).map((t) => t.handle);
      if (code === 'mission_progress_milestone_completed') expect(handles.filter((h) => h !== 'loyalty-reward-issued')).toEqual([]);
      else expect(handles.length, code).toBeGreaterThan(0);
    }
    const payload = samplePayload('streak_progress_milestone_completed', now, 'en');
    const withReward = triggersFor('streak_progress_milestone_completed', payload, new Set());
    expect(withReward.map((t) => t.handle)).toEqual(['loyalty-streak-milestone', 'loyalty-reward-issued']);
    const issued = (payload.streakLog as { achievedMilestoneRewardLogs: { rewardId: string; couponCode: string | null }[] })
      .achievedMilestoneRewardLogs[0]!;
    // A code from the core is announced now; without one, the discount job announces Shopify's.
    expect(triggersFor('streak_progress_milestone_completed', payload, new Set([issued.rewardId])).map((t) => t.handle)).toEqual([
      'loyalty-streak-milestone',
      'loyalty-reward-issued',
    ]);
    issued.couponCode = null;
    expect(triggersFor('streak_progress_milestone_completed', payload, new Set([issued.rewardId])).map((t) => t.handle)).toEqual([
      'loyalty-streak-milestone',
    ]);
  });

  it('Mission completed names the mission from the log, or from the progress where the scheduler completed the run', () => {
    const payload = samplePayload('mission_progress_completed', now, 'en');
    const log = payload.missionLog as { mission: { id: string; name: string; tasks: unknown[] } };
    const fields = { mission_id: log.mission.id, mission_name: log.mission.name, tasks_completed: log.mission.tasks.length };
    expect(
      triggersFor('mission_progress_completed', payload, new Set()).find((t) => t.handle === 'loyalty-mission-completed')!.fields,
    ).toEqual(fields);
    const swept = { missionProgress: { id: 'p', missionProgressStatus: 'completed', mission: log.mission, nextMilestone: null } };
    expect(triggersFor('mission_progress_completed', swept, new Set())).toEqual([
      { handle: 'loyalty-mission-completed', subject: '', fields },
    ]);
  });

  it('Points earned carries the points, the balance after them, the note and what earned them (CONTRACT §19)', () => {
    const payload = samplePayload('points_earned', now, 'en');
    const entry = payload.pointEntry as { points: number; note: string | null };
    const member = payload.member as { pointsBalance: number };
    expect(entry.points).toBeGreaterThan(0);
    expect(triggersFor('points_earned', payload, new Set())).toEqual([
      {
        handle: 'loyalty-points-earned',
        subject: '',
        fields: { points: entry.points, points_balance: member.pointsBalance, note: entry.note ?? '', source: 'reward' },
      },
    ]);
    // Where the points came from, by the entry's links: a workflow sends a birthday e-mail on `birthday`.
    const from = (linkedSchemaSlug: string | null) =>
      triggersFor('points_earned', { ...payload, pointEntry: { ...entry, linkedSchemaSlug } }, new Set())[0]!.fields.source;
    expect(['shopify_order', 'shopify_customer', 'shopify_newsletter', 'birthday', 'social_follow', 'reward_log', null].map(from)).toEqual([
      'order',
      'sign_up',
      'newsletter',
      'birthday',
      'social_follow',
      'reward',
      'other',
    ]);
  });

  it('Tier changed names the tiers before and after, whether it went up, and the points in the window (CONTRACT §19)', () => {
    const payload = samplePayload('tier_changed', now, 'en');
    const after = payload.tierAfter as { name: string };
    const member = payload.member as { pointsEarnedInTierWindow: number };
    const [send] = triggersFor('tier_changed', payload, new Set());
    expect(send).toEqual({
      handle: 'loyalty-tier-changed',
      subject: '',
      fields: expect.objectContaining({ tier: after.name, points_in_window: member.pointsEarnedInTierWindow }),
    });
    const up = { ...payload, tierBefore: null, tierAfter: { name: 'Gold', pointsThreshold: 500 } };
    expect(triggersFor('tier_changed', up, new Set())[0]!.fields).toMatchObject({ tier: 'Gold', previous_tier: '', upgraded: true });
    const down = { ...payload, tierBefore: { name: 'Gold', pointsThreshold: 500 }, tierAfter: { name: 'Silver', pointsThreshold: 100 } };
    expect(triggersFor('tier_changed', down, new Set())[0]!.fields).toMatchObject({
      tier: 'Silver',
      previous_tier: 'Gold',
      upgraded: false,
    });
    const out = { ...payload, tierBefore: { name: 'Silver', pointsThreshold: 100 }, tierAfter: null };
    expect(triggersFor('tier_changed', out, new Set())[0]!.fields).toMatchObject({ tier: '', previous_tier: 'Silver', upgraded: false });
  });

  it('Points expiring carries the points, when they expire and the balance', () => {
    const payload = samplePayload('points_to_expire', now, 'en');
    expect(triggersFor('points_to_expire', payload, new Set())).toEqual([
      {
        handle: 'loyalty-points-expiring',
        subject: '',
        fields: {
          expiring_points: payload.expiringPoints,
          expires_at: payload.expiresAt,
          points_balance: (payload.member as { pointsBalance: number }).pointsBalance,
        },
      },
    ]);
  });

  it('a reward bought with points is issued like one earned, so a Shopify discount reward gets its code', () => {
    const payload = samplePayload('points_redeemed', now, 'en');
    const log = payload.rewardLog as { id: string; rewardId: string };
    expect(issuedRewardLogs('points_redeemed', payload).map((r) => r.id)).toEqual([log.id]);
  });

  it('only Shopify Customer GIDs are customers', () => {
    expect(shopifyCustomerId('gid://shopify/Customer/1001')).toBe(1001);
    for (const other of ['customer-10452', 'gid://shopify/Order/1', '1001', null]) expect(shopifyCustomerId(other)).toBeNull();
  });

  it('an unstamped reward log expires by its reward’s rule counted from its creation, the same instant on every call', () => {
    const log = {
      id: 'l',
      rewardId: 'r',
      status: 'issued' as const,
      couponCode: null,
      rewardExpiryAt: null,
      createdAt: '2026-03-10T12:00:00.123Z',
      reward: { rewardExpiryType: 'relative', rewardExpiryInDays: 30 },
    };
    expect(rewardExpiry(log)).toBe('2026-04-09T12:00:00.123Z');
    expect(rewardExpiry({ ...log, rewardIssuedAt: '2026-03-11T00:00:00.000Z' })).toBe('2026-04-10T00:00:00.000Z');
    expect(rewardExpiry({ ...log, rewardExpiryAt: '2026-05-01T00:00:00.000Z' })).toBe('2026-05-01T00:00:00.000Z');
    // A held one counts from the day it was issued.
    expect(rewardExpiry({ ...log, confirmAt: '2026-03-24T12:00:00.123Z' })).toBe('2026-04-23T12:00:00.123Z');
  });
});

describe('holds and revocations (CONTRACT §17)', () => {
  const payload = samplePayload('streak_progress_milestone_completed', now, 'en');
  const log = (payload.streakLog as { achievedMilestoneRewardLogs: Record<string, unknown>[] }).achievedMilestoneRewardLogs[0]!;

  it('a held reward log issues nothing with its milestone: no Reward issued, no discount, until the scheduler issues it', () => {
    const held = {
      ...payload,
      streakLog: {
        ...(payload.streakLog as object),
        achievedMilestoneRewardLogs: [{ ...log, rewardLogStatus: 'pending', couponCode: null }],
      },
    };
    expect(issuedRewardLogs('streak_progress_milestone_completed', held)).toEqual([]);
    expect(triggersFor('streak_progress_milestone_completed', held, new Set()).map((t) => t.handle)).toEqual(['loyalty-streak-milestone']);
    const issued = { rewardLog: { ...log, rewardLogStatus: 'issued', couponCode: 'LATER-1' } };
    expect(issuedRewardLogs('reward_log_issued', issued).map((r) => r.id)).toEqual([log.id]);
    expect(triggersFor('reward_log_issued', issued, new Set())).toEqual([
      expect.objectContaining({
        handle: 'loyalty-reward-issued',
        subject: log.id,
        fields: expect.objectContaining({ coupon_code: 'LATER-1' }),
      }),
    ]);
    // Revoked before the scheduler came: nothing, ever.
    expect(issuedRewardLogs('reward_log_issued', { rewardLog: { ...log, rewardLogStatus: 'revoked' } })).toEqual([]);
  });

  it('a reversal names the reward logs it revoked', () => {
    const reversed = { streakLog: {}, streakProgress: {}, revokedRewardLogs: [{ ...log, rewardLogStatus: 'revoked' }] };
    expect(revokedRewardLogIds('streak_progress_reversed', reversed)).toEqual([log.id]);
    expect(revokedRewardLogIds('streak_progress_milestone_completed', reversed)).toEqual([]);
  });
});
