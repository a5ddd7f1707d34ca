import { describe, expect, it } from 'vitest';
import { type Board, boardValue, rankRows } from '../src/boards.js';
import type { Definition, Milestone, RewardLog } from '../src/model.js';
import { stringsFor } from '../src/i18n.js';
import { applyCodeLink, milestoneEarns, milestoneRows, missionTasks, offersCode, rewardView } from '../src/progress.js';

const entry = (rank: number, isCaller = false) => ({ rank, value: 100 - rank, displayName: `M${rank}`, isCaller });

describe('rankRows', () => {
  it('badges the member among the top entries', () => {
    const rows = rankRows({ entries: [entry(1), entry(2, true)], caller: { rank: 2, value: 98 }, rankedCount: 2 }, 'You');
    expect(rows).toEqual([
      { rank: 1, displayName: 'M1', value: 99, isCaller: false, badge: false },
      { rank: 2, displayName: 'M2', value: 98, isCaller: true, badge: true },
    ]);
  });

  it('adds a gap (null) and the member as "you" below the top', () => {
    const rows = rankRows({ entries: [entry(1)], caller: { rank: 40, value: 3 }, rankedCount: 50 }, 'You');
    expect(rows.slice(1)).toEqual([null, { rank: 40, displayName: 'You', value: 3, isCaller: true, badge: false }]);
  });

  it('shows only the top for an unranked member', () => {
    expect(rankRows({ entries: [entry(1)], caller: null, rankedCount: 1 }, 'You')).toHaveLength(1);
  });
});

describe('boardValue', () => {
  const board = (linkedSchemaSlug: string, def: Record<string, unknown> = {}) => ({ linkedSchemaSlug, def }) as unknown as Board;
  const stars = board('points_setting', { eudCurrencyName: 'Stars', eudCurrencyNameOne: 'Star' });

  it("says what a value counts: the points by the merchant's name, one apart from others, a streak's periods in a row", () => {
    expect(boardValue(stars, 1200, stringsFor('en'), 'en')).toBe('1,200 Stars');
    expect(boardValue(stars, 1, stringsFor('en'), 'en')).toBe('1 Star');
    expect(boardValue(board('points_setting'), 3, stringsFor('de'), 'de')).toBe('3 Punkte');
    expect(boardValue(board('streak'), 1234, stringsFor('de'), 'de')).toBe('1.234 in Folge');
    expect(boardValue(board('streak'), 12, stringsFor('ja'), 'ja')).toBe('12回連続');
  });

  it("counts a mission's completions as times, in the shopper's language", () => {
    expect(boardValue(board('mission'), 7, stringsFor('en'), 'en')).toBe('7×');
    expect(boardValue(board('mission'), 1234, stringsFor('de'), 'de')).toBe('1.234×');
    expect(boardValue(board('mission'), 3, stringsFor('ja'), 'ja')).toBe('3回');
    expect(boardValue(board('mission'), 3, stringsFor('zh-CN'), 'zh-CN')).toBe('3次');
  });

  it("leaves a challenge's value, whose unit is the merchant's, a number in the shopper's language", () => {
    expect(boardValue(board('challenge'), 1234, stringsFor('fr'), 'fr')).toMatch(/^1\s234$/);
  });
});

const milestone = (id: string, target: number): Milestone => ({ id, milestoneTargetValue: target, eudTitle: id, eudDescription: null });

describe('milestoneEarns', () => {
  const reward = (discountType: 'percentage' | 'fixed_amount', discountValue: number) => ({
    discountType,
    discountValue,
    eudTitle: 'Gift',
  });
  it("formats a percentage in the shopper's language, names any other reward, and says nothing without one", () => {
    const earns = (m: Partial<Milestone>, lang: string) => milestoneEarns({ ...milestone('a', 3), ...m }, stringsFor(lang), lang);
    expect(earns({ reward: reward('percentage', 10) }, 'en')).toBe('10% off');
    expect(earns({ reward: reward('percentage', 12.5) }, 'fr')).toMatch(/^12,5\s% de réduction$/);
    expect(earns({ reward: reward('percentage', 15) }, 'de')).toMatch(/^15\s% Rabatt$/);
    // The payload carries no currency for a fixed amount: the milestone's reward title, else the reward's name.
    expect(earns({ reward: reward('fixed_amount', 5), eudMilestoneRewardTitle: '€5 off' }, 'en')).toBe('€5 off');
    expect(earns({ reward: reward('fixed_amount', 5) }, 'en')).toBe('Gift');
    expect(earns({ reward: null, eudMilestoneRewardTitle: 'A tote bag' }, 'en')).toBe('A tote bag');
    expect(earns({ reward: null }, 'en')).toBeNull();
    expect(earns({}, 'en')).toBeNull();
  });
});

describe('milestoneRows', () => {
  it('marks the reached ones and the next for a member, neither for a guest', () => {
    const list = [milestone('a', 3), milestone('b', 7), milestone('c', 30)];
    expect(milestoneRows(list, 7, true).map((r) => [r.reached, r.next])).toEqual([
      [true, false],
      [true, false],
      [false, true],
    ]);
    expect(milestoneRows(list, 7, false).every((r) => !r.reached && !r.next)).toBe(true);
  });
});

describe('missionTasks', () => {
  it("caps each task's value at its target and counts the completed ones", () => {
    const def = {
      id: 'm',
      tasks: [
        { id: 't1', targetValue: 2, eudTitle: 'One', eudDescription: null },
        { id: 't2', targetValue: 5, eudTitle: 'Two', eudDescription: null },
      ],
    } as Definition;
    const task = (taskId: string, value: number, done: boolean) => ({
      taskId,
      periodKey: null,
      currentProgressValue: value,
      targetValue: 0,
      taskProgressStatus: done ? ('completed' as const) : ('in_progress' as const),
    });
    const view = missionTasks(def, {
      missionId: 'm',
      missionProgressStatus: 'in_progress',
      missionToBeFailedAt: null,
      taskProgresses: [task('t1', 4, true), task('t2', 1, false)],
    });
    expect(view.done).toBe(1);
    expect(view.rows.map((r) => [r.id, r.value, r.complete])).toEqual([
      ['t1', 2, true],
      ['t2', 1, false],
    ]);
    expect(missionTasks(def, undefined).rows.map((r) => r.value)).toEqual([0, 0]);
  });
});

describe('applyCodeLink', () => {
  it("is Shopify's link that applies a code, then shows the cart, in the shopper's language and on the shop's storefront when given", () => {
    expect(applyCodeLink('SAVE10-K7M3')).toBe('/discount/SAVE10-K7M3?redirect=%2Fcart');
    expect(applyCodeLink('SAVE 10/€', { then: '/fr/cart' })).toBe('/discount/SAVE%2010%2F%E2%82%AC?redirect=%2Ffr%2Fcart');
    expect(applyCodeLink('SAVE10', { origin: 'https://shop.example/' })).toBe('https://shop.example/discount/SAVE10?redirect=%2Fcart');
  });
});

describe('rewardView', () => {
  const log = (extra: Partial<RewardLog>): RewardLog => ({
    id: 'l',
    rewardLogStatus: 'issued',
    confirmAt: null,
    couponCode: null,
    rewardIssuedAt: null,
    rewardExpiryAt: null,
    eudRewardTitle: 'Five days',
    eudRedeemInstructionMessage: null,
    ...extra,
  });
  const t = stringsFor('en');

  it('shows a code, or that it is on its way', () => {
    expect(rewardView(log({ couponCode: 'SAVE10', reward: { rewardKind: 'code' } }), t, 'en')).toEqual({ kind: 'code', code: 'SAVE10' });
    expect(rewardView(log({}), t, 'en')).toEqual({ kind: 'note', text: 'Your code is on its way.', gone: false });
  });

  it('shows store credit (the app stamps its amount and currency as the code) as an amount, not a code to copy', () => {
    expect(rewardView(log({ couponCode: '7.50 EUR' }), t, 'en')).toEqual({ kind: 'credit', amount: '€7.50' });
    expect(rewardView(log({ couponCode: '7.50 EUR' }), stringsFor('de'), 'de')).toEqual({ kind: 'credit', amount: '7,50\u00a0€' });
    // A code that only looks like an amount is still a code.
    expect(rewardView(log({ couponCode: '7.50EUR' }), t, 'en')).toEqual({ kind: 'code', code: '7.50EUR' });
  });

  it('says when a code or a credit expired, instead of offering it', () => {
    const past = { rewardExpiryAt: '2020-01-31T12:00:00.000Z' };
    expect(rewardView(log({ couponCode: 'SAVE10', ...past }), t, 'en')).toEqual({
      kind: 'note',
      text: 'Expired on January 31, 2020.',
      gone: true,
    });
    expect(rewardView(log({ couponCode: '7.50 EUR', ...past }), stringsFor('fr'), 'fr')).toMatchObject({
      text: 'Expiré le 31 janvier 2020.',
    });
    // Until then it is the code, however close the date.
    const now = Date.parse('2020-01-31T11:59:59.000Z');
    expect(rewardView(log({ couponCode: 'SAVE10', ...past }), t, 'en', now)).toEqual({ kind: 'code', code: 'SAVE10' });
  });

  it('offers as codes only what is or will be one: not revoked, expired, points or store credit', () => {
    expect([log({ couponCode: 'SAVE10' }), log({})].map((l) => offersCode(l))).toEqual([true, true]);
    const none = [
      log({ couponCode: 'GONE', rewardLogStatus: 'revoked' }),
      log({ couponCode: 'LATE', rewardExpiryAt: '2020-01-31T12:00:00.000Z' }),
      log({ reward: { rewardKind: 'points' } }),
      log({ couponCode: '7.50 EUR' }),
    ];
    expect(none.map((l) => offersCode(l))).toEqual([false, false, false, false]);
  });

  it('says a reward of points went to the balance rather than promising a code', () => {
    expect(rewardView(log({ reward: { rewardKind: 'points' } }), t, 'en')).toEqual({
      kind: 'note',
      text: 'Added to your balance.',
      gone: false,
    });
    expect(rewardView(log({ reward: { rewardKind: 'points' } }), stringsFor('de'), 'de')).toMatchObject({
      text: 'Deinem Guthaben gutgeschrieben.',
    });
    // Held and revoked ones say so, whatever they give.
    const held = rewardView(
      log({ reward: { rewardKind: 'points' }, rewardLogStatus: 'pending', confirmAt: '2030-02-14T12:00:00.000Z' }),
      t,
      'en',
    );
    expect(held).toMatchObject({ kind: 'note', text: expect.stringContaining('February 14, 2030') });
    expect(rewardView(log({ reward: { rewardKind: 'points' }, rewardLogStatus: 'revoked' }), t, 'en')).toMatchObject({ gone: true });
  });
});
