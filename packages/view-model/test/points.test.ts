import { afterEach, describe, expect, it, vi } from 'vitest';
import { Api, ApiError } from '../src/api.js';
import { stringsFor } from '../src/i18n.js';
import type { Definition, Member, PointEntry, PointsSetting, Reward, RewardLog, Tier } from '../src/model.js';
import {
  loadPoints,
  multiplierText,
  pointHistory,
  pointsExpiry,
  pointsName,
  type RedeemOutcome,
  redeemInto,
  tierBoost,
  tierView,
  toNextTier,
  waysToEarn,
  bonusText,
  loadNudge,
  nudgeText,
  orderNote,
  pointSource,
} from '../src/points.js';
import { milestoneEarns, rewardGives } from '../src/progress.js';

const t = stringsFor('en');
const STARS = { one: 'Star', other: 'Stars' };
const STERNE = { one: 'Stern', other: 'Sterne' };
const setting: PointsSetting = {
  id: 's',
  eudCurrencyName: 'Stars',
  pointsPerCurrencyUnit: 1.5,
  pointsPerOrder: 0,
  pointsOnSignUp: 100,
  pointsOnNewsletter: 0,
  pointsOnBirthday: 0,
  pointsOnReferral: 0,
  pointsOnReferredOrder: 0,
  expiryMonthsOfInactivity: 0,
};
const tier = (id: string, pointsThreshold: number): Tier => ({
  id,
  pointsThreshold,
  earnMultiplier: 1,
  eudTitle: id,
  eudDescription: null,
  eudIcon: null,
});
const tiers = [tier('Silver', 0), tier('Gold', 500), tier('Platinum', 2000)];
const member = (pointsEarnedInTierWindow: number, tierId: string | null): Member => ({
  id: 'm',
  pointsBalance: 40,
  pointsEarnedInTierWindow,
  tierId,
  lastPointEntryAt: null,
  birthday: null,
  referralCode: 'K7M3QX9P',
});

/** A daily streak titled "Daily visit" with `milestones`. */
const dailyVisit = (milestones: Definition['milestones']): Definition => ({
  id: 'd',
  eudTitle: 'Daily visit',
  eudDescription: null,
  eudIcon: null,
  eudCompletedMessage: null,
  aggregationPeriod: 'daily',
  completionTargetValue: null,
  milestones,
});

describe('points said by how many', () => {
  it('says one with the name of one and every other amount with the name of many, as each language counts', () => {
    const named = { ...setting, pointsPerCurrencyUnit: 1, eudCurrencyNameOne: 'Star' };
    expect(waysToEarn(named, [], t, 'en')[0]!.earns).toBe('+1 Star');
    expect(waysToEarn({ ...named, pointsPerCurrencyUnit: 2 }, [], t, 'en')[0]!.earns).toBe('+2 Stars');
    // A merchant who named only the many: that name for every amount.
    expect(waysToEarn({ ...named, eudCurrencyNameOne: null }, [], t, 'en')[0]!.earns).toBe('+1 Stars');
    // Named nothing: the language's own words for one and many.
    const unnamed = { ...named, eudCurrencyName: null };
    expect(waysToEarn(unnamed, [], stringsFor('de'), 'de')[0]!.earns).toBe('+1 Punkt');
    expect(waysToEarn({ ...unnamed, pointsPerCurrencyUnit: 1.5 }, [], stringsFor('de'), 'de')[0]!.earns).toBe('+1,5 Punkte');
    // French says 1.5 as one; English says it as many.
    expect(waysToEarn({ ...unnamed, pointsPerCurrencyUnit: 1.5 }, [], stringsFor('fr'), 'fr')[0]!.earns).toBe('+1,5 Point');
    expect(waysToEarn({ ...unnamed, pointsPerCurrencyUnit: 1.5 }, [], t, 'en')[0]!.earns).toBe('+1.5 Points');
    expect(toNextTier(tierView(tiers, member(499, 'Silver')), STARS, t, 'en')).toBe('1 Star to Gold');
    // A tag the runtime refuses counts as English does, as numbers are written.
    expect(waysToEarn(named, [], t, 'en_US')[0]!.earns).toBe('+1 Star');
  });
});

describe('waysToEarn', () => {
  it('lists the rates set above 0, then the milestones that earn points, in the merchant’s name for points', () => {
    const streak = dailyVisit([
      {
        id: 'm3',
        milestoneTargetValue: 3,
        eudTitle: 'Three days',
        eudDescription: null,
        reward: { rewardKind: 'points', pointsValue: 1500, discountType: null, discountValue: null, eudTitle: null },
      },
      {
        id: 'm7',
        milestoneTargetValue: 7,
        eudTitle: 'A week',
        eudDescription: null,
        reward: { rewardKind: 'code', discountType: 'percentage', discountValue: 10, eudTitle: null },
      },
    ]);
    expect(waysToEarn(setting, [streak], t, 'en')).toEqual([
      { key: 'spend', label: 'For every 1 spent', earns: '+1.5 Stars' },
      { key: 'signup', label: 'Creating an account', earns: '+100 Stars' },
      { key: 'm3', label: 'Daily visit · Three days', earns: '+1,500 Stars' },
    ]);
    expect(
      waysToEarn(
        {
          ...setting,
          eudCurrencyName: null,
          pointsOnNewsletter: 50,
          pointsOnBirthday: 200,
          pointsOnReferral: 500,
          pointsOnReferredOrder: 250,
        },
        [],
        stringsFor('de'),
        'de',
      ).map((row) => [row.key, row.label, row.earns]),
    ).toEqual([
      ['spend', 'Pro 1 Einkaufswert', '+1,5 Punkte'],
      ['signup', 'Kontoerstellung', '+100 Punkte'],
      ['newsletter', 'Newsletter abonnieren', '+50 Punkte'],
      ['birthday', 'Dein Geburtstag', '+200 Punkte'],
      // The referrer's rate: what the friend gets is the referral card's to say, beside the member's link.
      ['referral', 'Freunde werben', '+500 Punkte'],
    ]);
    // With the shop's currency, one unit of it as the shopper's language writes it; a code Intl does not know is left out.
    expect(waysToEarn(setting, [], t, 'en', 'EUR')[0]!.label).toBe('For every €1 spent');
    expect(waysToEarn(setting, [], stringsFor('de'), 'de', 'EUR')[0]!.label).toBe('Pro 1 € Einkaufswert');
    expect(waysToEarn(setting, [], stringsFor('ja'), 'ja', 'JPY')[0]!.label).toBe('ご利用額￥1につき');
    expect(waysToEarn(setting, [], t, 'en', 'NOT-A-CODE')[0]!.label).toBe('For every 1 spent');
    expect(milestoneEarns(streak.milestones[0]!, t, 'de', { points: STERNE })).toBe('+1.500 Sterne');
    expect(milestoneEarns(streak.milestones[0]!, stringsFor('fr'), 'fr')).toBe('+1\u202f500 Points');
    expect(pointsName({ ...setting, eudCurrencyName: null }, stringsFor('ja'))).toEqual({ one: 'ポイント', other: 'ポイント' });
    // A reward to redeem without a title says what it gives, unless that is an amount of a currency the storefront does not know.
    const fixed = { rewardKind: 'code', discountType: 'fixed_amount', discountValue: 5, pointsValue: null, eudTitle: null } as const;
    expect(rewardGives({ ...fixed, discountType: 'percentage', discountValue: 20 }, t, 'en')).toBe('20% off');
    expect(rewardGives(fixed, t, 'en')).toBeNull();
    expect(rewardGives(fixed, t, 'en', { currency: 'NOT-A-CODE' })).toBeNull();
    // An amount of the shop's currency as the shopper's language writes it, with cents only when it has some.
    expect(rewardGives(fixed, t, 'en', { currency: 'EUR' })).toBe('€5 off');
    expect(rewardGives(fixed, stringsFor('de'), 'de', { currency: 'EUR' })).toBe('5\u00a0€ Rabatt');
    expect(rewardGives({ ...fixed, discountValue: 7.5 }, stringsFor('fr'), 'fr', { currency: 'EUR' })).toBe('7,50\u00a0€ de réduction');
    expect(rewardGives({ ...fixed, discountValue: 500 }, stringsFor('ja'), 'ja', { currency: 'JPY' })).toBe('￥500オフ');
    expect(milestoneEarns({ ...streak.milestones[0]!, reward: fixed }, t, 'en', { points: STARS, currency: 'USD' })).toBe('$5 off');
    // Free shipping and a free product take no amount off (0): their title says what they give, never "$0 off".
    const free = { ...fixed, discountValue: 0, eudTitle: 'Free Tote bag' };
    expect(rewardGives(free, t, 'en', { currency: 'USD' })).toBeNull();
    expect(milestoneEarns({ ...streak.milestones[0]!, eudMilestoneRewardTitle: null, reward: free }, t, 'en', { currency: 'USD' })).toBe(
      'Free Tote bag',
    );
  });
  it('says a bonus points event while it runs, and multiplies what an order earns by it then, as the app earns it', () => {
    const event = {
      ...setting,
      pointsPerOrder: 5,
      bonusMultiplier: 2,
      bonusStartsAt: '2026-12-11T23:00:00Z',
      bonusEndsAt: '2026-12-13T23:00:00Z',
    };
    const during = Date.parse('2026-12-12T12:00:00Z');
    const earns = (now: number, s = event) => waysToEarn(s, [], t, 'en', 'EUR', 1, [], now).map((row) => row.earns);
    // 1.5 a unit and 5 an order, doubled; sign-up as ever.
    expect(earns(during)).toEqual(['+3 Stars', '+10 Stars', '+100 Stars']);
    // Before it starts and from its end on, the rates as they are.
    for (const now of [Date.parse('2026-12-11T22:59:59Z'), Date.parse('2026-12-13T23:00:00Z')]) {
      expect(earns(now)).toEqual(['+1.5 Stars', '+5 Stars', '+100 Stars']);
      expect(bonusText(event, t, 'en', now)).toBeNull();
    }
    // One and a half times 5 an order earns 7, rounded down as the app does; a tier multiplies that.
    expect(earns(during, { ...event, bonusMultiplier: 1.5 })[1]).toBe('+7 Stars');
    expect(waysToEarn({ ...event, bonusMultiplier: 1.5 }, [], t, 'en', 'EUR', 2, [], during)[1]!.earns).toBe('+14 Stars');
    const end = (lang: string) =>
      new Intl.DateTimeFormat(lang, { day: 'numeric', month: 'long', hour: 'numeric', minute: '2-digit' }).format(
        new Date(event.bonusEndsAt),
      );
    expect(bonusText(event, t, 'en', during)).toBe(`2× points on orders until ${end('en')}`);
    expect(bonusText({ ...event, bonusMultiplier: 1.5 }, stringsFor('de'), 'de', during)).toBe(
      `1,5-fache Punkte auf Bestellungen bis ${end('de')}`,
    );
    // No event: none said, nothing multiplied.
    expect(bonusText({ ...event, bonusMultiplier: 1 }, t, 'en', during)).toBeNull();
    expect(bonusText({ ...setting }, t, 'en', during)).toBeNull();
  });

  it('shows a member what they earn: every earned entry times their tier’s multiplier, rounded down as the core credits it', () => {
    // The demo's program: 2 a unit spent, 10 an order, 100 on sign-up, and a milestone of 50; a Gold member earns 1.5×.
    const demo = { ...setting, pointsPerCurrencyUnit: 2, pointsPerOrder: 10, pointsOnSignUp: 100 };
    const streak = dailyVisit([
      {
        id: 'm5',
        milestoneTargetValue: 5,
        eudTitle: 'Five days',
        eudDescription: null,
        reward: { rewardKind: 'points', pointsValue: 7, discountType: null, discountValue: null, eudTitle: null },
      },
    ]);
    const earns = (multiplier?: number, s = demo) => waysToEarn(s, [streak], t, 'en', 'EUR', multiplier).map((row) => row.earns);
    expect(earns()).toEqual(['+2 Stars', '+10 Stars', '+100 Stars', '+7 Stars']);
    expect(earns(1)).toEqual(earns());
    // 7 × 1.5 = 10.5 credits 10; a rate per unit is no entry: 1.5 × 1.5 a unit reads 2.25.
    expect(earns(1.5)).toEqual(['+3 Stars', '+15 Stars', '+150 Stars', '+10 Stars']);
    expect(earns(1.5, { ...demo, pointsPerCurrencyUnit: 1.5 })[0]).toBe('+2.25 Stars');
    // One-decimal multipliers carry no float drift below the integer: 10 × 1.2 is 12, not 11.
    expect(earns(1.2)).toEqual(['+2.4 Stars', '+12 Stars', '+120 Stars', '+8 Stars']);
    expect(earns(2)).toEqual(['+4 Stars', '+20 Stars', '+200 Stars', '+14 Stars']);
    // The definition's own milestones say the same as the ways to earn.
    expect(milestoneEarns(streak.milestones[0]!, t, 'en', { points: STARS, multiplier: 1.5 })).toBe('+10 Stars');
    expect(milestoneEarns(streak.milestones[0]!, stringsFor('de'), 'de', { points: STERNE, multiplier: 2 })).toBe('+14 Sterne');
    // The labels stay what to do.
    expect(waysToEarn(demo, [streak], t, 'en', 'EUR', 1.5).map((row) => row.label)).toEqual(
      waysToEarn(demo, [streak], t, 'en', 'EUR').map((row) => row.label),
    );
    // The multiplier as the shopper's language writes it, beside the heading; nothing for a tier that multiplies nothing.
    expect(multiplierText(tier('Gold', 500), 'en')).toBeNull();
    expect(multiplierText({ earnMultiplier: 1.5 }, 'en')).toBe('×1.5');
    expect(multiplierText({ earnMultiplier: 1.5 }, 'de')).toBe('×1,5');
    expect(multiplierText({ earnMultiplier: 2 }, 'fr')).toBe('×2');
    expect(multiplierText(undefined, 'en')).toBeNull();
  });
});

describe('nudgeText', () => {
  const reward = (id: string, pointsCost: number, extra: Partial<Reward> = {}): Reward => ({
    id,
    rewardKind: 'code',
    discountType: 'fixed_amount',
    discountValue: pointsCost / 100,
    pointsValue: null,
    pointsCost,
    eudTitle: null,
    eudRedeemInstructionMessage: null,
    ...extra,
  });
  // Cheapest first, as loadPoints reads them.
  const rewards = [reward('five', 500), reward('ten', 1000, { eudTitle: 'Ten off your next order' }), reward('twenty', 2000)];
  const points = (balance: number | null, over: Partial<PointsSetting> = {}) => ({
    setting: { ...setting, ...over },
    rewards,
    tiers,
    member: balance === null ? null : { ...member(0, null), pointsBalance: balance },
  });
  const event = { pointsPerOrder: 5, bonusMultiplier: 2, bonusStartsAt: '2026-12-11T23:00:00Z', bonusEndsAt: '2026-12-13T23:00:00Z' };
  const during = Date.parse('2026-12-12T12:00:00Z');

  it('tells a member the best reward their balance covers, by the name its Redeem button has', () => {
    expect(nudgeText(points(1200), t, 'en', 'EUR')).toBe('You have 1,200 Stars: enough for Ten off your next order.');
    expect(nudgeText(points(700), t, 'en', 'EUR')).toBe('You have 700 Stars: enough for €5 off.');
    expect(nudgeText(points(2000), stringsFor('de'), 'de', 'EUR')).toBe('Du hast 2.000 Stars: genug für 20\u00a0€ Rabatt.');
  });

  it('tells a guest what creating an account earns', () => {
    expect(nudgeText(points(null), t, 'en')).toBe('Create an account and get 100 Stars.');
    expect(nudgeText(points(null), stringsFor('fr'), 'fr')).toBe('Créez un compte et recevez 100 Stars.');
  });

  it('says a bonus points event before what a reward still takes, and to a guest who earns nothing on signing up', () => {
    expect(nudgeText(points(100, event), t, 'en', 'EUR', during)).toBe(bonusText({ ...setting, ...event }, t, 'en', during));
    expect(nudgeText(points(null, { ...event, pointsOnSignUp: 0 }), t, 'en', 'EUR', during)).toMatch(/^2× points on orders until /);
    expect(nudgeText(points(null, { pointsOnSignUp: 0 }), t, 'en', 'EUR', during)).toBeNull();
  });

  it('tells a member whose balance covers no reward the nearest one and what it still takes, as its row in the panel does', () => {
    expect(nudgeText(points(100), t, 'en', 'EUR')).toBe('€5 off: 400 Stars to go');
    expect(nudgeText(points(0), t, 'en', 'EUR')).toBe('€5 off: 500 Stars to go');
    expect(nudgeText(points(490), stringsFor('de'), 'de', 'EUR')).toBe('5\u00a0€ Rabatt: Noch 10 Stars');
    // An unnamed fixed amount the page gives no currency for has no name to say: the nearest named one instead.
    expect(nudgeText(points(100), t, 'en')).toBe('Ten off your next order: 900 Stars to go');
    // Covered, though unnamed: the best named one it covers, else the nearest named one.
    expect(nudgeText(points(700), t, 'en')).toBe('Ten off your next order: 300 Stars to go');
    expect(nudgeText(points(1500), t, 'en')).toBe('You have 1,500 Stars: enough for Ten off your next order.');
    expect(nudgeText({ ...points(100), rewards: [] }, t, 'en', 'EUR')).toBeNull();
    // A member the shop paused (left out by tag) is reminded of nothing.
    const paused = points(1500);
    expect(nudgeText({ ...paused, member: { ...paused.member!, status: 'paused' } }, t, 'en', 'EUR')).toBeNull();
  });
});

describe('pointHistory', () => {
  it('says what each entry came from by the links the Shopify app writes: an order, signing up, subscribing to the newsletter, a referral', () => {
    const entry = (id: string, points: number, reason: PointEntry['reason'], links: Partial<PointEntry>): PointEntry => ({
      id,
      points,
      reason,
      uniqueIdentifier: null,
      linkedSchemaSlug: null,
      linkedSchemaRecordId: null,
      note: null,
      createdAt: '2026-12-04T10:00:00Z',
      ...links,
    });
    const customer = { linkedSchemaRecordId: 'gid://shopify/Customer/7' };
    // The referrer's entry names the friend's order by its gid only, without its name.
    const friendsOrder = { linkedSchemaRecordId: 'gid://shopify/Order/2' };
    const entries = [
      entry('x', -500, 'reversed', { linkedSchemaSlug: 'point_entry', linkedSchemaRecordId: 'f' }),
      entry('f', 500, 'earned', { linkedSchemaSlug: 'shopify_referral', ...friendsOrder }),
      entry('g', 250, 'earned', { linkedSchemaSlug: 'shopify_referred_order', ...friendsOrder }),
      entry('r', -30, 'reversed', { linkedSchemaSlug: 'point_entry', linkedSchemaRecordId: 'o' }),
      entry('o', 30, 'earned', { linkedSchemaSlug: 'shopify_order', linkedSchemaRecordId: 'gid://shopify/Order/1', note: '#1001' }),
      entry('b', 200, 'earned', { linkedSchemaSlug: 'birthday', linkedSchemaRecordId: '2026' }),
      entry('n', 50, 'earned', { linkedSchemaSlug: 'shopify_newsletter', ...customer }),
      entry('s', 100, 'earned', { linkedSchemaSlug: 'shopify_customer', ...customer }),
    ];
    expect(pointHistory(entries, [], t, STARS, 'en').map((row) => [row.what, row.points])).toEqual([
      ['Taken back: A friend you referred', '−500 Stars'],
      ['A friend you referred', '+500 Stars'],
      ['Referred by a friend', '+250 Stars'],
      ['Taken back: Order #1001', '−30 Stars'],
      ['Order #1001', '+30 Stars'],
      ['Your birthday', '+200 Stars'],
      ['Subscribing to our newsletter', '+50 Stars'],
      ['Creating an account', '+100 Stars'],
    ]);
    expect(pointHistory(entries, [], stringsFor('fr'), { one: 'Point', other: 'Points' }, 'fr').map((row) => row.what)).toEqual([
      'Annulation : Parrainage d’un ami',
      'Parrainage d’un ami',
      'Invitation d’un ami',
      'Annulation : Commande #1001',
      'Commande #1001',
      'Votre anniversaire',
      'S’abonner à notre newsletter',
      'Création de compte',
    ]);
  });

  it('says an order placed in a bonus points event with its multiplier, which the app notes beside the order’s name', () => {
    const order = (id: string, name: string, bonus: number, links: Partial<PointEntry> = {}): PointEntry => ({
      id,
      points: 160,
      reason: 'earned',
      uniqueIdentifier: null,
      linkedSchemaSlug: 'shopify_order',
      linkedSchemaRecordId: 'gid://shopify/Order/1',
      note: orderNote(name, bonus),
      createdAt: '2026-12-04T10:00:00Z',
      ...links,
    });
    expect([orderNote('#1001', 2), orderNote('#1002', 1.5), orderNote('#1003', 1)]).toEqual(['#1001 ×2', '#1002 ×1.5', '#1003']);
    const entries = [
      order('t', '#1001', 1, { points: -60, reason: 'reversed', linkedSchemaSlug: 'point_entry', linkedSchemaRecordId: 'a', note: null }),
      order('a', '#1001', 2),
      order('b', '#1002', 1.5),
      // An order whose name ends in what is not a multiplier is only its name.
      order('c', '#1003 x2', 1),
    ];
    expect(pointHistory(entries, [], t, STARS, 'en').map((row) => row.what)).toEqual([
      'Taken back: Order #1001 · 2× points',
      'Order #1001 · 2× points',
      'Order #1002 · 1.5× points',
      'Order #1003 x2',
    ]);
    expect(pointHistory(entries, [], stringsFor('de'), STERNE, 'de').map((row) => row.what)).toEqual([
      'Zurückgenommen: Bestellung #1001 · 2-fache Punkte',
      'Bestellung #1001 · 2-fache Punkte',
      'Bestellung #1002 · 1,5-fache Punkte',
      'Bestellung #1003 x2',
    ]);
    expect(pointSource(entries[1]!, new Map())).toEqual({ kind: 'order', name: '#1001', bonus: 2 });
  });
});

describe('tierView', () => {
  it('takes the member’s tier from the core and the next one above it and what they earned', () => {
    expect(tierView(tiers, member(120, 'Silver'))).toMatchObject({ current: { id: 'Silver' }, next: { id: 'Gold' }, earned: 120 });
    expect(toNextTier(tierView(tiers, member(120, 'Silver')), STARS, t, 'en')).toBe('380 Stars to Gold');
    // Not lowered yet (the daily pass does it): the next tier is still the one above.
    expect(tierView(tiers, member(100, 'Gold')).next?.id).toBe('Platinum');
    expect(tierView(tiers, member(2500, 'Platinum')).next).toBeUndefined();
    expect(tierView(tiers.slice(1), member(20, null))).toMatchObject({ current: undefined, next: { id: 'Gold' } });
  });

  it('words a tier without a title (its name is not public) in every language: "the next tier", "Your tier"', () => {
    const untitled: Tier = { ...tier('Bronze', 450), earnMultiplier: 1.2, eudTitle: null };
    const view = tierView([tiers[0]!, untitled, tiers[1]!], member(380, 'Silver'));
    expect(toNextTier(view, STARS, t, 'en')).toBe('70 Stars to the next tier');
    expect(toNextTier(view, STERNE, stringsFor('de'), 'de')).toBe('Noch 70 Sterne bis zur nächsten Stufe');
    expect(tierBoost(untitled, 'en', t)).toBe('Your tier ×1.2');
    expect(tierBoost(untitled, 'de', stringsFor('de'))).toBe('Deine Stufe ×1,2');
    expect(tierBoost({ ...untitled, eudTitle: 'Bronze' }, 'en', t)).toBe('Bronze ×1.2');
    // Without the words (the extensions' call), the multiplier alone; a tier that multiplies nothing says nothing.
    expect(tierBoost(untitled, 'en')).toBe('×1.2');
    expect(tierBoost(tiers[1], 'en', t)).toBeNull();
    // In every language, the points said and nothing left dangling where the name was.
    for (const lang of ['en', 'fr', 'es', 'de', 'it', 'pt', 'ja', 'ko', 'zh-CN'])
      expect(toNextTier(view, { one: 'P', other: 'P' }, stringsFor(lang), lang), lang).toMatch(/70.*\S$/);
  });

  it('shows a member the core has not placed yet in the tier the window reaches: a new member in a tier from 0, a tier made since', () => {
    expect(tierView(tiers, member(0, null))).toMatchObject({ current: { id: 'Silver' }, next: { id: 'Gold' } });
    expect(tierView(tiers, member(600, 'Silver'))).toMatchObject({ current: { id: 'Gold' }, next: { id: 'Platinum' } });
  });
});

describe('loadPoints and redeem', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads nothing more while points are off, and the member’s own record only in member mode', async () => {
    const paths: string[] = [];
    vi.stubGlobal('fetch', async (input: URL) => {
      paths.push(input.pathname.replace('/api/v1.0/schema/', ''));
      return Response.json({ data: input.pathname.endsWith('/me') ? member(0, null) : [] });
    });
    expect(await loadPoints(new Api({ baseUrl: 'https://core.example', accountId: 'a' }))).toBeNull();
    expect(paths).toEqual(['points_setting/record']);
    paths.length = 0;
    vi.stubGlobal('fetch', async (input: URL) => {
      paths.push(input.pathname.replace('/api/v1.0/schema/', ''));
      return Response.json({
        data: input.pathname.includes('points_setting') ? [setting] : input.pathname.endsWith('/me') ? member(0, null) : [],
      });
    });
    const guest = await loadPoints(new Api({ baseUrl: 'https://core.example', accountId: 'a' }));
    expect(guest).toEqual({ setting, rewards: [], tiers: [], member: null });
    expect(paths.sort()).toEqual(['points_setting/record', 'reward/record', 'tier/record']);
    const signedIn = await loadPoints(new Api({ baseUrl: 'https://core.example', accountId: 'a', accessToken: 'tok' }));
    expect(signedIn?.member).toEqual(member(0, null));
  });

  it('reads for the reminder what it says: the setting alone for a guest, the rewards by cost and the record for a member', async () => {
    const paths: string[] = [];
    vi.stubGlobal('fetch', async (input: URL) => {
      paths.push(`${input.pathname.replace('/api/v1.0/schema/', '')}${input.searchParams.has('sortBy') ? ' by cost' : ''}`);
      return Response.json({
        data: input.pathname.includes('points_setting') ? [setting] : input.pathname.endsWith('/me') ? member(0, null) : [],
      });
    });
    expect(await loadNudge(new Api({ baseUrl: 'https://core.example', accountId: 'a' }))).toEqual({ setting, rewards: [], member: null });
    expect(paths).toEqual(['points_setting/record']);
    paths.length = 0;
    const signedIn = await loadNudge(new Api({ baseUrl: 'https://core.example', accountId: 'a', accessToken: 'tok' }));
    expect(signedIn?.member).toEqual(member(0, null));
    expect(paths.sort()).toEqual(['account_user/me', 'points_setting/record', 'reward/record by cost']);
  });

  it('posts a redemption and rejects with the core’s error code', async () => {
    const calls: { url: URL; method: string | undefined }[] = [];
    vi.stubGlobal('fetch', async (url: URL, init?: RequestInit) => {
      calls.push({ url, method: init?.method });
      return Response.json({ error: { status: 409, code: 'insufficient_points', message: 'Not enough points.' } }, { status: 409 });
    });
    const api = new Api({ baseUrl: 'https://core.example/', accountId: 'a', accessToken: 'tok', languageCode: 'fr' });
    const refused = await api.redeem('r1').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 409, code: 'insufficient_points' });
    expect(calls[0]!.method).toBe('POST');
    expect(calls[0]!.url.href).toBe('https://core.example/api/v1.0/schema/reward/record/r1/action/redeem?languageCode=fr');
  });

  it('sends a uniqueIdentifier as the JSON body when given, and no body without one', async () => {
    const sent: { body: unknown; type: string | undefined }[] = [];
    vi.stubGlobal('fetch', async (_url: URL, init: RequestInit) => {
      const headers = init.headers as Record<string, string>;
      sent.push({ body: init.body, type: headers['content-type'] });
      return Response.json({ data: { rewardLog: { id: 'l1' }, pointsBalance: 10 } });
    });
    const api = new Api({ baseUrl: 'https://core.example', accountId: 'a', accessToken: 'tok' });
    expect(await api.redeem('r1', 'checkout:t:r1')).toEqual({ rewardLog: { id: 'l1' }, pointsBalance: 10 });
    await api.redeem('r1');
    expect(sent).toEqual([
      { body: '{"uniqueIdentifier":"checkout:t:r1"}', type: 'application/json' },
      { body: undefined, type: undefined },
    ]);
  });
});

describe('redeemInto', () => {
  afterEach(() => vi.unstubAllGlobals());

  /** One piece of a view's state as a Preact state hook keeps it, with every value it went through. */
  function piece<T>(start: T) {
    const values = [start];
    const set = (next: T | ((current: T) => T)) => void values.push(next instanceof Function ? next(values.at(-1)!) : next);
    return { values, set, now: () => values.at(-1)! };
  }
  function view(start: Member) {
    const busy = piece<string | undefined>(undefined);
    const outcome = piece<RedeemOutcome | undefined>(undefined);
    const owner = piece<Member | null>(start);
    const logs = piece<RewardLog[]>([]);
    const history = piece<PointEntry[]>([]);
    const setters = { setBusy: busy.set, setOutcome: outcome.set, setMember: owner.set, setLogs: logs.set, setHistory: history.set };
    return { busy, outcome, owner, logs, history, setters };
  }
  const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

  it('shows the reward log first among the member’s, the balance after, and their history read again', async () => {
    const log = { id: 'l1' } as RewardLog;
    const entry = { id: 'e1', points: -40, reason: 'redeemed' } as PointEntry;
    vi.stubGlobal('fetch', async (url: URL) =>
      Response.json({ data: url.pathname.endsWith('/action/redeem') ? { rewardLog: log, pointsBalance: 0 } : [entry] }),
    );
    const v = view(member(0, null));
    const before = Date.now();
    await redeemInto(new Api({ baseUrl: 'https://core.example', accountId: 'a', accessToken: 'tok' }), 'r1', t, STARS, v.setters);
    await settled();
    expect(v.busy.values).toEqual([undefined, 'r1', undefined]);
    expect(v.outcome.values).toEqual([undefined, undefined, { id: 'r1', log }]);
    expect(v.owner.now()?.pointsBalance).toBe(0);
    // The redemption is the member's newest entry: their points' expiry counts from it.
    expect(Date.parse(v.owner.now()!.lastPointEntryAt!)).toBeGreaterThanOrEqual(before);
    expect(v.logs.now()).toEqual([log]);
    expect(v.history.now()).toEqual([entry]);
  });

  it('says a short balance in the points’ name and reads the member and their history again; any other refusal in general words', async () => {
    const current = { ...member(0, null), pointsBalance: 5 };
    const spent = { id: 'e2', points: -200, reason: 'adjusted' } as PointEntry;
    vi.stubGlobal('fetch', async (url: URL) =>
      url.pathname.endsWith('/me')
        ? Response.json({ data: current })
        : url.pathname.includes('point_entry')
          ? Response.json({ data: [spent] })
          : Response.json({ error: { status: 409, code: 'insufficient_points', message: 'Not enough points.' } }, { status: 409 }),
    );
    const api = new Api({ baseUrl: 'https://core.example', accountId: 'a', accessToken: 'tok' });
    const v = view(member(0, null));
    await redeemInto(api, 'r1', t, STARS, v.setters);
    await settled();
    expect(v.busy.values).toEqual([undefined, 'r1', undefined]);
    expect(v.outcome.now()).toEqual({ id: 'r1', error: 'Not enough Stars for this reward.' });
    expect(v.owner.now()).toEqual(current);
    // The entry that took the balance down, which the history shows beside the new balance.
    expect(v.history.now()).toEqual([spent]);
    expect(v.logs.now()).toEqual([]);

    vi.stubGlobal('fetch', async () => Response.json({ error: { status: 409, code: 'not_redeemable', message: 'No.' } }, { status: 409 }));
    const other = view(member(0, null));
    await redeemInto(api, 'r2', t, STARS, other.setters);
    await settled();
    expect(other.outcome.now()).toEqual({ id: 'r2', error: t.error });
    expect(other.owner.values).toEqual([member(0, null)]);
  });

  it('gives up a redemption the core holds unanswered (asked twice), frees the button and says so; the next click sends its key again', async () => {
    const keys: string[] = [];
    vi.stubGlobal(
      'fetch',
      (url: URL, init: RequestInit) =>
        new Promise((resolve, reject) => {
          if (!url.pathname.endsWith('/action/redeem')) return resolve(Response.json({ data: [] }));
          keys.push(JSON.parse(String(init.body)).uniqueIdentifier);
          init.signal!.addEventListener('abort', () => reject(init.signal!.reason));
        }),
    );
    const api = new Api({ baseUrl: 'https://core.example', accountId: 'a', accessToken: 'tok' }, 50);
    const v = view(member(0, null));
    await redeemInto(api, 'r1', t, STARS, v.setters);
    expect(v.busy.values).toEqual([undefined, 'r1', undefined]);
    expect(v.outcome.now()).toEqual({ id: 'r1', error: t.error });
    expect(keys).toHaveLength(2);
    await redeemInto(api, 'r1', t, STARS, v.setters);
    expect(keys).toHaveLength(4);
    expect(new Set(keys).size).toBe(1);
  });

  it('asks again at once, with its key, a redemption whose answer was lost, and shows the one it made though the balance left allows no click; a later one has a key of its own', async () => {
    const log = { id: 'l1' } as RewardLog;
    const made = { id: 'e1', points: -300, reason: 'redeemed', linkedSchemaSlug: 'reward_log', linkedSchemaRecordId: 'l1' } as PointEntry;
    const after = { ...member(0, null), pointsBalance: 100 };
    const keys: string[] = [];
    let redeems = 0;
    vi.stubGlobal('fetch', async (url: URL, init?: RequestInit) => {
      if (url.pathname.endsWith('/action/redeem')) {
        keys.push(JSON.parse(String(init?.body)).uniqueIdentifier);
        redeems += 1;
        // The first redemption is made, and its answer lost; the core then knows its key.
        if (redeems === 1) throw new TypeError('Failed to fetch');
        if (redeems === 2)
          return Response.json({ error: { status: 409, code: 'duplicate_unique_identifier', message: 'Replay.' } }, { status: 409 });
        return Response.json({ data: { rewardLog: { id: 'l2' }, pointsBalance: 100 } });
      }
      if (url.pathname.endsWith('/me')) return Response.json({ data: after });
      if (url.pathname.includes('reward_log')) return Response.json({ data: [log] });
      return Response.json({ data: [made] });
    });
    const api = new Api({ baseUrl: 'https://core.example', accountId: 'a', accessToken: 'tok' });
    const v = view(member(0, null));
    await redeemInto(api, 'r1', t, STARS, v.setters);
    await settled();
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    expect(v.outcome.values).toEqual([undefined, undefined, { id: 'r1', log }]);
    expect(v.logs.now()).toEqual([log]);
    // The balance is read again: the redemption made spent it.
    expect(v.owner.now()).toEqual(after);
    await redeemInto(api, 'r1', t, STARS, v.setters);
    expect(keys[2]).not.toBe(keys[0]);
    expect(v.outcome.now()).toEqual({ id: 'r1', log: { id: 'l2' } });
  });
});

describe('pointsExpiry', () => {
  const expiring = { ...setting, expiryMonthsOfInactivity: 12 };
  const holding = (pointsBalance: number, lastPointEntryAt: string | null): Member => ({
    ...member(0, null),
    pointsBalance,
    lastPointEntryAt,
  });

  it('says when the balance expires: the newest entry plus the months, in calendar months as the core counts them', () => {
    expect(pointsExpiry(expiring, holding(250, '2026-03-03T10:00:00.000Z'), t, STARS, 'en')).toBe(
      'Your balance of 250 Stars expires on Mar 3, 2027 unless you earn or redeem before then.',
    );
    // January 31st and one month: the last day of February, in a leap year too.
    const monthly = { ...setting, expiryMonthsOfInactivity: 1 };
    expect(pointsExpiry(monthly, holding(5, '2027-01-31T23:30:00.000Z'), t, STARS, 'en')).toContain('Feb 28, 2027');
    expect(pointsExpiry(monthly, holding(5, '2028-01-31T08:00:00.000Z'), t, STARS, 'en')).toContain('Feb 29, 2028');
  });

  it('speaks the shopper’s language', () => {
    expect(pointsExpiry(expiring, holding(1250, '2026-03-03T10:00:00.000Z'), stringsFor('de'), STERNE, 'de')).toBe(
      'Dein Guthaben (1.250 Sterne) verfällt am 03.03.2027, wenn du bis dahin nichts sammelst oder einlöst.',
    );
    // One point: the verb agrees with the balance, not with the number of points.
    const one = holding(1, '2026-03-03T10:00:00.000Z');
    expect(pointsExpiry(expiring, one, t, STARS, 'en')).toBe(
      'Your balance of 1 Star expires on Mar 3, 2027 unless you earn or redeem before then.',
    );
    expect(pointsExpiry(expiring, one, stringsFor('fr'), { one: 'Étoile', other: 'Étoiles' }, 'fr')).toMatch(
      /^Votre solde de 1 Étoile expire le /,
    );
    expect(pointsExpiry(expiring, one, stringsFor('de'), STERNE, 'de')).toMatch(/^Dein Guthaben \(1 Stern\) verfällt am /);
  });

  it('reads right whatever the merchant calls points: no article, agreement or particle depends on the name', () => {
    const at = holding(80, '2026-03-03T10:00:00.000Z');
    const sentence = (lang: string, name: string) => pointsExpiry(expiring, at, stringsFor(lang), { one: name, other: name }, lang);
    const day = (lang: string) =>
      new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date('2027-03-03T10:00:00Z'));
    // Feminine and masculine names alike: no "Tus … alguno", "I tuoi Stelle", "Os seus Estrelas", "스타이(가)".
    expect(sentence('es', 'Estrellas')).toBe(`Tu saldo de 80 Estrellas caduca el ${day('es')} si antes no ganas ni canjeas nada.`);
    expect(sentence('es', 'Puntos')).toBe(`Tu saldo de 80 Puntos caduca el ${day('es')} si antes no ganas ni canjeas nada.`);
    expect(sentence('it', 'Stelle')).toBe(
      `Il tuo saldo di 80 Stelle scade il ${day('it')}, a meno che tu non guadagni o riscatti qualcosa prima.`,
    );
    expect(sentence('pt', 'Estrelas')).toBe(
      `Seu saldo de 80 Estrelas expira em ${day('pt')} se, até lá, você não ganhar nem resgatar nada.`,
    );
    expect(sentence('ko', '스타')).toBe(`${day('ko')}까지 적립하거나 교환하지 않으면 보유한 80 스타 전액이 소멸됩니다.`);
  });

  it('tells a paused member the date alone: earning or redeeming is not theirs to do', () => {
    const paused: Member = { ...holding(250, '2026-03-03T10:00:00.000Z'), status: 'paused' };
    expect(pointsExpiry(expiring, paused, t, STARS, 'en')).toBe('Your balance of 250 Stars expires on Mar 3, 2027.');
    expect(pointsExpiry(expiring, paused, stringsFor('de'), STERNE, 'de')).toBe('Dein Guthaben (250 Sterne) verfällt am 03.03.2027.');
  });

  it('says nothing when points never expire, the member holds none, or has no entry yet', () => {
    expect(pointsExpiry(setting, holding(250, '2026-03-03T10:00:00.000Z'), t, STARS, 'en')).toBeNull();
    expect(pointsExpiry(expiring, holding(0, '2026-03-03T10:00:00.000Z'), t, STARS, 'en')).toBeNull();
    expect(pointsExpiry(expiring, holding(-20, '2026-03-03T10:00:00.000Z'), t, STARS, 'en')).toBeNull();
    expect(pointsExpiry(expiring, holding(250, null), t, STARS, 'en')).toBeNull();
  });
});
