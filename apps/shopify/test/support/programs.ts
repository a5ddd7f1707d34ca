import { TEST_SHOP } from '@shopify/shopify-api/test-helpers';
import type pg from 'pg';
import { expect } from 'vitest';
import type { Client } from '../../../core/test/support/harness';

/** Creates a record through the core's API and answers it (each suite has its own client). */
export type Create = (path: string, body: unknown) => Promise<{ id: string } & Record<string, any>>;

/**
 * A `Create` through the suite's core client, read when called (suites make it once the shop is
 * installed); the seeding requests skip the OpenAPI response check, which other tests make.
 */
export const creatorFor =
  (client: () => Client): Create =>
  async (path, body) => {
    const res = await client().request('POST', path, { body, validate: false });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };

/** A live streak whose first day is a live milestone rewarding `reward`. */
export async function streakRewardingFirstDay(created: Create, reward: { id: string }, streakBody: Record<string, unknown>) {
  const streak = await created('/schema/streak/record', { status: 'live', ...streakBody });
  await created('/schema/milestone/record', {
    name: 'First day',
    description: 'd',
    linkedSchemaSlug: 'streak',
    linkedSchemaRecordId: streak.id,
    milestoneTargetValue: 1,
    rewardId: reward.id,
    status: 'live',
  });
  return streak;
}

/**
 * The program most Flow and trigger tests start from: a live streak whose first day is a
 * milestone rewarding a generated 10 % coupon.
 */
export async function streakWithFirstDayReward(
  created: Create,
  { couponCodePrefix, completionTargetValue }: { couponCodePrefix: string; completionTargetValue: number },
) {
  const reward = await created('/schema/reward/record', {
    name: 'Ten off',
    description: 'd',
    discountType: 'percentage',
    discountValue: 10,
    rewardExpiryType: 'no_expiry',
    handleCoupon: true,
    handleCouponAutoGeneration: true,
    couponCodePrefix,
  });
  const streak = await streakRewardingFirstDay(created, reward, { name: 'Daily visit', completionTargetValue });
  return { reward, streak };
}

/**
 * The stamp-coupon tests' program: the first day rewards 15 % with a code the core leaves empty,
 * for the merchant's Flow to stamp.
 */
export async function streakWithFirstDayStampedReward(created: Create) {
  const reward = await created('/schema/reward/record', {
    name: 'Manual',
    description: 'd',
    discountType: 'percentage',
    discountValue: 15,
    rewardExpiryType: 'no_expiry',
    handleCoupon: false,
  });
  const streak = await streakRewardingFirstDay(created, reward, { name: 'Stamped' });
  return { reward, streak };
}

/**
 * A live reward the app issues as a Shopify discount (as the rewards editor marks one), fit to be
 * referred friends' gift; `eudTitle` is what the friend reads. Answers its id.
 */
export async function giftReward(api: Client, appPool: pg.Pool, reward: { eudTitle: string } & Record<string, unknown>): Promise<string> {
  const made = await api.post('/schema/reward/record', {
    name: 'Friend gift',
    description: 'For referred friends.',
    discountType: 'fixed_amount',
    discountValue: 10,
    rewardExpiryType: 'no_expiry',
    handleCoupon: false,
    ...reward,
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  await appPool.query('insert into shopify_discount_rewards (shop, reward_id) values ($1, $2)', [TEST_SHOP, made.body.data.id]);
  return made.body.data.id as string;
}
