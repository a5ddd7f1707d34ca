import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../core/test/support/harness';
import { creatorFor } from './support/programs';
import { type AdminApp, startAdminApp } from './support/admin';
import { type Stack, TEST_SHOP } from './support/stack';

/**
 * The reward page's Shopify discount card in Chromium (production build, real core): switching a
 * reward to Shopify discounts, and a failed issuance listed with its reason and retried.
 */
let admin: AdminApp;
let stack: Stack;
let api: Client;
let reward: { id: string };
let pendingLog: string;
const CUSTOMER = 'gid://shopify/Customer/5005';

const created = creatorFor(() => api);

beforeAll(async () => {
  admin = await startAdminApp(async (installed) => {
    const account = (await installed.app.shops.find(TEST_SHOP))!;
    api = installed.core.anon.with({ 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
    reward = await created('/schema/reward/record', {
      name: 'Shop discount',
      description: 'd',
      discountType: 'fixed_amount',
      discountValue: 5,
      rewardExpiryType: 'no_expiry',
      handleCoupon: true,
      handleCouponAutoGeneration: true,
    });
    const streak = await created('/schema/streak/record', { name: 'Visits', status: 'live' });
    await created('/schema/milestone/record', {
      name: 'Day one',
      description: 'd',
      linkedSchemaSlug: 'streak',
      linkedSchemaRecordId: streak.id,
      milestoneTargetValue: 1,
      status: 'live',
      rewardId: reward.id,
    });
    // Issued while the core still handled codes; the failed discount below stands for it after the switch.
    await api.request('PATCH', `/schema/reward/record/${reward.id}`, { body: { handleCoupon: false }, validate: false });
    const log = await created('/schema/streak_log/record', {
      streakId: streak.id,
      ownedBy: { externalId: CUSTOMER },
      activityId: 'visit',
      activityAt: DateTime.now().toUTC().toISO(),
      uniqueIdentifier: 'b1',
    });
    pendingLog = log.achievedMilestoneRewardLog.id;
    await api.request('PATCH', `/schema/reward/record/${reward.id}`, { body: { handleCoupon: true }, validate: false });
  });
  stack = admin.stack;
}, 120_000);

afterAll(() => admin?.close());

describe('Shopify discounts on the reward page', () => {
  it('"Issue as a Shopify discount" is kept by the app and turns the core\'s own codes off', async () => {
    const { browser } = admin;
    await browser.open(`/app/r/reward/${reward.id}`);
    const card = browser.page.getByRole('region', { name: 'Shopify discount' });
    // The box shows the stored setting, so it turns checked once the app has saved it.
    await card.getByLabel('Issue as a Shopify discount').click();
    await card.getByText('Rewards will be issued as Shopify discounts.').waitFor();
    expect(await card.getByLabel('Issue as a Shopify discount').isChecked()).toBe(true);
    expect((await api.get(`/schema/reward/record/${reward.id}`)).body.data.handleCoupon).toBe(false);
    const { rows } = await stack.app.pool.query('select reward_id from shopify_discount_rewards where shop = $1', [TEST_SHOP]);
    expect(rows.map((r) => r.reward_id)).toEqual([reward.id]);
    await browser.shot('reward-shopify-discount');
  });

  it('a failed issuance is listed with its reason; Retry issues and stamps the code', async () => {
    const { browser } = admin;
    await stack.app.pool.query(
      `insert into reward_discounts (shop, reward_log_id, reward_id, customer_gid, code, discount, status, attempts, last_error)
       values ($1, $2, $3, $4, 'LOYALTY-BROWSER01', $5, 'failed', 6, 'Admin API: Shopify is throttling requests')`,
      [
        TEST_SHOP,
        pendingLog,
        reward.id,
        CUSTOMER,
        JSON.stringify({
          title: 'Loyalty reward: Shop discount',
          discountType: 'fixed_amount',
          discountValue: 5,
          endsAt: null,
          triggerFields: {},
        }),
      ],
    );
    await browser.open(`/app/r/reward/${reward.id}`);
    const card = browser.page.getByRole('region', { name: 'Shopify discount' });
    await card.getByText('Shopify is throttling requests').waitFor();
    await browser.shot('reward-discount-failed');
    await card.getByRole('button', { name: 'Retry' }).click();
    await card.getByText('Retrying the discount.').waitFor();
    const deadline = Date.now() + 15_000;
    let code: string | null = null;
    while (!code && Date.now() < deadline) {
      code = (await api.get(`/schema/reward_log/record/${pendingLog}`)).body.data.couponCode;
      if (!code) await new Promise((r) => setTimeout(r, 200));
    }
    expect(code).toBe('LOYALTY-BROWSER01');
    const calls = stack.admin.requests.filter((r) => r.operation === 'LoyaltyDiscountCreate');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.variables.basicCodeDiscount).toMatchObject({
      code: 'LOYALTY-BROWSER01',
      customerGets: { value: { discountAmount: { amount: '5.00', appliesOnEachItem: false } } },
    });
    await browser.open(`/app/r/reward/${reward.id}`);
    await browser.page.getByRole('region', { name: 'Shopify discount' }).getByLabel('Issue as a Shopify discount').waitFor();
    expect(await browser.page.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    await browser.shot('reward-discount-retried');
  });
});
