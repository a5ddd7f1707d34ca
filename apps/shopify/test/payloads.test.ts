import { describe, expect, it } from 'vitest';
import { isProgramDraft, blankProgram, oneOf, STATUSES } from '../app/admin/program-draft';
import { textFor } from '../app/i18n';
import { issuedRewardLog, rewardIssuedFields } from '../app/loop/triggers.server';
import { complianceCustomerId, dataRequestId, grantedScopes, triggerUsage } from '../app/shopify/payloads.server';

/**
 * What the app reads of the JSON it is sent — Shopify's webhook and Flow payloads, the core's reward
 * logs, the admin's own requests — narrowed field by field instead of trusted whole.
 */
describe("Shopify's payloads", () => {
  it('compliance webhooks name their customer and request by numeric id, or nothing', () => {
    expect(complianceCustomerId({ customer: { id: 3003 } })).toBe(3003);
    expect(complianceCustomerId({ customer: { id: '3003' } })).toBe('3003');
    for (const payload of [{}, null, { customer: null }, { customer: { id: 'gid://x' } }, { customer: { id: -1 } }])
      expect(complianceCustomerId(payload)).toBeNull();
    expect(dataRequestId({ data_request: { id: 77 } })).toBe('77');
    expect(dataRequestId({ data_request: {} })).toBeNull();
  });

  it('the trigger lifecycle callback: the handle, whether enabled, and when (the arrival time when Flow does not say)', () => {
    expect(
      triggerUsage({ flow_trigger_definition_id: 'loyalty-streak-broken', has_enabled_flow: true, timestamp: '2026-03-10T12:00:00Z' }),
    ).toEqual({ handle: 'loyalty-streak-broken', enabled: true, notifiedAt: new Date('2026-03-10T12:00:00Z') });
    const before = Date.now();
    const usage = triggerUsage({ has_enabled_flow: 'yes', timestamp: 'never' });
    expect(usage).toMatchObject({ handle: '', enabled: false });
    expect(usage.notifiedAt.getTime()).toBeGreaterThanOrEqual(before);
  });

  it('app/scopes_update: the scopes the app now has, or nothing', () => {
    expect(grantedScopes({ previous: ['read_customers'], current: ['read_customers', 'write_discounts'] })).toEqual([
      'read_customers',
      'write_discounts',
    ]);
    expect(grantedScopes({ current: [1] })).toBeNull();
    expect(grantedScopes({})).toBeNull();
  });
});

describe("the core's reward logs", () => {
  it('are read field by field, with their reward; anything without an id and a reward is none', () => {
    expect(
      issuedRewardLog({
        id: 'l',
        rewardId: 'r',
        couponCode: 'CODE',
        rewardExpiryAt: null,
        createdAt: '2026-03-10T12:00:00.000Z',
        reward: { name: 'Ten off', discountType: 'percentage', discountValue: '10', rewardExpiryInDays: 30, extra: true },
        eudRewardTitle: 7,
      }),
    ).toEqual({
      id: 'l',
      rewardId: 'r',
      // Without a status it is one from before holds: issued.
      status: 'issued',
      couponCode: 'CODE',
      rewardExpiryAt: null,
      rewardIssuedAt: null,
      confirmAt: null,
      createdAt: '2026-03-10T12:00:00.000Z',
      reward: {
        name: 'Ten off',
        eudTitle: null,
        discountType: 'percentage',
        discountValue: 10,
        rewardExpiryType: null,
        rewardExpiryInDays: 30,
        rewardExpiryAt: null,
      },
      eudRewardTitle: null,
      titled: false,
    });
    // The Reward issued trigger names a reward without a title for shoppers by the merchant's name for it, not "Your reward".
    const untitled = issuedRewardLog({ id: 'l', rewardId: 'r', reward: { name: 'Ten off' }, eudRewardTitle: 'Your reward' })!;
    expect(rewardIssuedFields(untitled, null)).toMatchObject({ reward_title: 'Ten off' });
    const titled = issuedRewardLog({
      id: 'l',
      rewardId: 'r',
      reward: { name: 'Ten off' },
      milestone: { eudMilestoneRewardTitle: '10 % off until {{rewardValidTill}}' },
      eudRewardTitle: '10 % off until 1 May 2026',
    })!;
    expect(rewardIssuedFields(titled, null)).toMatchObject({ reward_title: '10 % off until 1 May 2026' });
    expect(issuedRewardLog({ id: 'l', rewardId: 'r', rewardLogStatus: 'pending', confirmAt: '2026-03-24T12:00:00.000Z' })).toMatchObject({
      status: 'pending',
      confirmAt: '2026-03-24T12:00:00.000Z',
    });
    for (const value of [null, 'l', { id: 'l' }, { rewardId: 'r' }]) expect(issuedRewardLog(value)).toBeNull();
  });
});

describe("the admin's own requests and words", () => {
  it("a program draft has the editor's shape", () => {
    expect(isProgramDraft(blankProgram('mission'))).toBe(true);
    for (const value of [null, {}, { settings: {}, completionReward: {}, milestones: [] }, { ...blankProgram('streak'), milestones: {} }])
      expect(isProgramDraft(value)).toBe(false);
  });

  it("a chosen value is one of the options, else the fallback; a value's words, when the admin has them", () => {
    expect(oneOf(STATUSES, 'live', 'draft')).toBe('live');
    expect(oneOf(STATUSES, 'deleted', 'draft')).toBe('draft');
    expect(textFor({ live: 'Live' }, 'live')).toBe('Live');
    expect(textFor({ live: 'Live' }, 'toString')).toBeUndefined();
  });
});
