import {
  Api,
  ApiError,
  type Definition,
  type Member,
  pageLanguage,
  type PointEntry,
  type Points,
  type RewardLog,
  type StreakProgress,
} from '@loyalty/view-model';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadPage, type PageData } from '../src/load.js';
import { RewardsPage } from '../src/page.js';
import { defineBareElements, text } from '../../test-support/dom.js';

const TAGS = [
  'page',
  'section',
  'stack',
  'heading',
  'paragraph',
  'text',
  'badge',
  'progress',
  'unordered-list',
  'list-item',
  'button',
  'clipboard-item',
  'text-field',
  'banner',
  'spinner',
];
beforeAll(() => {
  defineBareElements(TAGS);
});

let root: HTMLElement;
/** What the page said in Shopify's toasts. */
let toasts: string[] = [];
afterEach(() => {
  render(null, root);
  root.remove();
  toasts = [];
  vi.unstubAllGlobals();
});

async function show(load: () => Promise<PageData>, lang = 'en'): Promise<HTMLElement> {
  root = document.createElement('div');
  document.body.append(root);
  await act(async () => {
    render(<RewardsPage load={load} lang={lang} toast={(message) => toasts.push(message)} />, root);
  });
  return root;
}

const DAY_MS = 86_400_000;
const now = Date.now();
const day = (offset: number) => new Date(now + offset * DAY_MS).toISOString().slice(0, 10);
const milestone = (id: string, target: number) => ({
  id,
  milestoneTargetValue: target,
  eudTitle: `Milestone ${target}`,
  eudDescription: null,
});
const def = (id: string, extra: Partial<Definition>): Definition => ({
  id,
  eudTitle: `Title ${id}`,
  eudDescription: `About ${id}`,
  eudIcon: null,
  eudCompletedMessage: null,
  aggregationPeriod: 'daily',
  completionTargetValue: null,
  milestones: [],
  ...extra,
});

const tenOff = { rewardKind: 'code', discountType: 'percentage', discountValue: 10, pointsValue: null, eudTitle: null } as const;
const streak = def('s1', {
  aggregationTargetValue: 1,
  maxFreezes: 2,
  milestones: [milestone('m3', 3), { ...milestone('m7', 7), reward: tenOff }],
});
const challenge = def('c1', { aggregationPeriod: 'weekly', completionTargetValue: 10, milestones: [milestone('m5', 5)] });
const mission = def('n1', {
  tasks: [
    { id: 't1', targetValue: 1, eudTitle: 'Sign up', eudDescription: null },
    { id: 't2', targetValue: 3, eudTitle: 'Buy three', eudDescription: null },
  ],
});
const streakProgress: StreakProgress = {
  streakId: 's1',
  streakProgressStatus: 'in_progress',
  currentProgressValue: 3,
  streakToBeBrokenAt: new Date(now + 2 * DAY_MS).toISOString(),
  freezesAvailable: 1,
  frozenPeriodKeys: [day(-1)],
  taskProgress: { taskId: null, periodKey: day(0), currentProgressValue: 1, targetValue: 1, taskProgressStatus: 'completed' },
};
const log = (
  id: string,
  couponCode: string | null,
  rewardExpiryAt: string | null,
  held: Pick<RewardLog, 'rewardLogStatus' | 'confirmAt'> = { rewardLogStatus: 'issued', confirmAt: null },
): RewardLog => ({
  id,
  ...held,
  couponCode,
  rewardIssuedAt: null,
  rewardExpiryAt,
  eudRewardTitle: `Reward ${id}`,
  eudRedeemInstructionMessage: couponCode ? 'Use it at checkout.' : null,
});

const member: PageData = {
  streaks: [streak],
  streakProgress: [streakProgress],
  challenges: [challenge],
  challengeProgress: [
    {
      challengeId: 'c1',
      challengeProgressStatus: 'in_progress',
      currentProgressValue: 6,
      challengeToBeFailedAt: new Date(now + DAY_MS).toISOString(),
    },
  ],
  missions: [mission],
  missionProgress: [
    {
      missionId: 'n1',
      missionProgressStatus: 'in_progress',
      missionToBeFailedAt: null,
      taskProgresses: [
        { taskId: 't1', periodKey: null, currentProgressValue: 1, targetValue: 1, taskProgressStatus: 'completed' },
        { taskId: 't2', periodKey: null, currentProgressValue: 2, targetValue: 3, taskProgressStatus: 'in_progress' },
      ],
    },
  ],
  boards: [
    {
      board: {
        id: 'b1',
        linkedSchemaSlug: 'challenge',
        linkedSchemaRecordId: 'c1',
        eudTitle: 'Top shoppers',
        eudDescription: null,
        def: challenge,
      },
      standings: {
        entries: [{ rank: 1, value: 40, displayName: 'Ada L.', isCaller: false }],
        caller: { rank: 12, value: 6 },
        rankedCount: 30,
      },
    },
    {
      board: {
        id: 'b2',
        linkedSchemaSlug: 'streak',
        linkedSchemaRecordId: 's1',
        eudTitle: 'Longest runs',
        eudDescription: null,
        def: streak,
      },
      standings: { entries: [{ rank: 1, value: 12, displayName: 'Ada L.', isCaller: false }], caller: null, rankedCount: 1 },
    },
    {
      board: {
        id: 'b3',
        linkedSchemaSlug: 'mission',
        linkedSchemaRecordId: 'n1',
        eudTitle: 'Mission masters',
        eudDescription: null,
        def: mission,
      },
      standings: { entries: [{ rank: 1, value: 3, displayName: 'Ada L.', isCaller: false }], caller: null, rankedCount: 1 },
    },
  ],
  logs: [
    log('r1', 'SAVE-10', '2030-01-31T12:00:00.000Z'),
    log('r2', null, null),
    log('r3', null, null, { rewardLogStatus: 'pending', confirmAt: '2030-02-14T12:00:00.000Z' }),
    log('r4', 'GONE-5', null, { rewardLogStatus: 'revoked', confirmAt: null }),
    { ...log('r5', null, null), reward: { rewardKind: 'points' } },
    { ...log('r6', '7.50 EUR', null), eudRedeemInstructionMessage: 'Credited to your account: use it at checkout.' },
    log('r7', 'LATE-5', '2020-01-31T12:00:00.000Z'),
  ],
  points: null,
  api: {
    redeem: () => Promise.reject(new Error('not here')),
    me: () => Promise.reject(new Error('not here')),
    list: () => Promise.reject(new Error('not here')),
    setBirthday: () => Promise.reject(new Error('not here')),
    follow: () => Promise.reject(new Error('not here')),
  },
};

const all = (el: Element, selector: string) => [...el.querySelectorAll(selector)].map(text);

describe('the Rewards page', () => {
  it('shows a member every kind of progress, their rank and their codes', async () => {
    const page = await show(() => Promise.resolve(member));
    expect(page.querySelector('s-page')!.getAttribute('heading')).toBe('Rewards');
    expect(page.querySelector('[data-empty]')).toBeNull();
    expect([...page.querySelectorAll('s-section')].map((s) => s.getAttribute('heading'))).toEqual([
      'Streaks',
      'Challenges',
      'Missions',
      'Leaderboards',
      'Your rewards',
    ]);

    const s = page.querySelector('[data-streak="s1"]')!;
    expect(text(s.querySelector('s-heading'))).toBe('Title s1');
    expect(text(s.querySelector('s-text[type="strong"]'))).toBe('3 in a row');
    expect(text(s.querySelector('[data-freezes]'))).toBe('Freezes: 1');
    const slots = [...s.querySelectorAll('[data-strip] s-badge')].map((b) => [b.getAttribute('data-key'), b.getAttribute('data-state')]);
    expect(slots).toEqual([
      [day(-3), 'done'],
      [day(-2), 'done'],
      [day(-1), 'frozen'],
      [day(0), 'done'],
      [day(1), 'next'],
    ]);
    // What a milestone earns, as the widget says it.
    expect(all(s, '[data-milestones] s-list-item')).toEqual(['3 · Milestone 3 Reached', '7 · Milestone 7 · 10% off Next']);

    const c = page.querySelector('[data-challenge="c1"]')!;
    expect(text(c.querySelector('s-text'))).toBe('This week: 6 / 10');
    const bar = c.querySelector('s-progress')!;
    expect([bar.getAttribute('value'), bar.getAttribute('max')]).toEqual(['6', '10']);
    expect(all(c, 's-list-item')).toEqual(['5 · Milestone 5 Reached']);

    const m = page.querySelector('[data-mission="n1"]')!;
    expect(text(m.querySelector('s-text[type="strong"]'))).toBe('1 of 2 tasks done');
    expect(all(m, '[data-tasks] s-list-item')).toEqual(['1/1 · Sign up Completed', '2/3 · Buy three']);

    const b = page.querySelector('[data-board="b1"]')!;
    expect(text(b.querySelector('s-heading'))).toBe('Top shoppers');
    expect(all(b, 's-list-item')).toEqual(['1. Ada L. · 40', '⋯', '12. You · 6']);
    expect(b.querySelector('s-list-item[data-me="true"]')).not.toBeNull();
    expect(text(b.querySelector('s-text'))).toBe('30 ranked');
    // A streak's board says its values are periods in a row, a mission's times; a challenge's, whose unit it does not know, a number.
    expect(all(page.querySelector('[data-board="b2"]')!, 's-list-item')).toEqual(['1. Ada L. · 12 in a row']);
    expect(all(page.querySelector('[data-board="b3"]')!, 's-list-item')).toEqual(['1. Ada L. · 3×']);

    const coded = page.querySelector('[data-reward="r1"]')!;
    expect(text(coded.querySelector('s-text[type="strong"]'))).toBe('SAVE-10');
    const clip = coded.querySelector('s-clipboard-item')!;
    expect(clip.getAttribute('text')).toBe('SAVE-10');
    const copy = coded.querySelector('s-button')!;
    expect(copy.getAttribute('commandFor') ?? copy.getAttribute('commandfor')).toBe(clip.id);
    expect(text(copy)).toBe('Copy code');
    clip.dispatchEvent(new Event('copy'));
    await vi.waitFor(() => expect(toasts).toEqual(['Code copied']));
    toasts = [];
    // No storefront known (the Storefront API did not say): nothing to apply the code with.
    expect(coded.querySelector('[data-apply]')).toBeNull();
    expect(all(coded, 's-text[color="subdued"]')).toEqual(['Valid until January 31, 2030']);
    expect(text(coded.querySelector('s-paragraph'))).toBe('Use it at checkout.');
    const pending = page.querySelector('[data-reward="r2"]')!;
    expect(pending.querySelector('s-clipboard-item')).toBeNull();
    expect(text(pending.querySelector('s-paragraph'))).toBe('Your code is on its way.');
    // A held reward says when it comes; a revoked one says it was taken back and shows no code.
    const held = page.querySelector('[data-reward="r3"]')!;
    expect(text(held.querySelector('s-paragraph'))).toBe('Yours on February 14, 2030, once the return window has passed.');
    const revoked = page.querySelector('[data-reward="r4"]')!;
    expect(revoked.querySelector('s-clipboard-item')).toBeNull();
    expect(text(revoked.querySelector('s-paragraph'))).toBe('Taken back: the purchase that earned it was returned or cancelled.');
    // A reward of points has no code coming: its points are on the balance.
    expect(text(page.querySelector('[data-reward="r5"] s-paragraph'))).toBe('Added to your balance.');
    // Store credit (the app stamps its amount as the code) is an amount with its instruction, nothing to copy.
    const credit = page.querySelector('[data-reward="r6"]')!;
    expect(credit.querySelector('s-clipboard-item')).toBeNull();
    expect(text(credit.querySelector('s-text[type="strong"]'))).toBe('€7.50');
    expect(text(credit.querySelector('s-paragraph'))).toBe('Credited to your account: use it at checkout.');
    // An expired code says when it stopped working, and is nothing to copy.
    const late = page.querySelector('[data-reward="r7"]')!;
    expect(late.querySelector('s-clipboard-item')).toBeNull();
    expect(all(late, 's-paragraph')).toEqual(['Expired on January 31, 2020.']);
  });

  it("opens the shop's storefront with a code applied to the customer's cart, in a new tab, for codes only", async () => {
    const page = await show(() => Promise.resolve({ ...member, storefrontUrl: 'https://shop.example' }));
    const apply = page.querySelector('[data-reward="r1"] [data-apply]')!;
    expect(text(apply)).toBe('Apply to my cart');
    expect([apply.getAttribute('href'), apply.getAttribute('target')]).toEqual([
      'https://shop.example/discount/SAVE-10?redirect=%2Fcart',
      '_blank',
    ]);
    // Pending, held, revoked, points, store credit and expired rewards have no code to apply.
    expect(page.querySelectorAll('[data-apply]')).toHaveLength(1);
  });

  it("speaks the customer's language", async () => {
    const page = await show(() => Promise.resolve(member), pageLanguage('fr-CA'));
    expect(page.querySelector('s-page')!.getAttribute('heading')).toBe('Récompenses');
    expect(text(page.querySelector('[data-reward="r1"] s-button'))).toBe('Copier le code');
    expect(text(page.querySelector('[data-reward="r1"] s-text[color="subdued"]'))).toBe("Valable jusqu'au 31 janvier 2030");
    expect(pageLanguage('zh-Hans')).toBe('zh-CN');
    expect(pageLanguage('nl')).toBe('en');
  });

  it('greets a customer with no activity quietly, with what there is to earn', async () => {
    const page = await show(() =>
      Promise.resolve({
        ...member,
        streakProgress: [],
        challengeProgress: [],
        missionProgress: [],
        logs: [],
        boards: member.boards.map((b) => ({ ...b, standings: { ...b.standings, caller: null } })),
      }),
    );
    expect(text(page.querySelector('[data-empty]'))).toContain('Here is what you can earn.');
    expect(page.querySelector('[data-empty]')!.getAttribute('heading')).toBe('No activity yet');
    expect([...page.querySelectorAll('s-section')].map((s) => s.getAttribute('heading'))).toEqual([
      'No activity yet',
      'Streaks',
      'Challenges',
      'Missions',
    ]);
    expect(text(page.querySelector('[data-streak="s1"] s-text[type="strong"]'))).toBe('0 in a row');
    expect(all(page, '[data-milestones] s-badge')).toEqual(['Next', 'Next']);
    expect(page.querySelector('s-banner')).toBeNull();
  });

  it('shows an error with a retry that loads again', async () => {
    const load = vi.fn<() => Promise<PageData>>().mockRejectedValueOnce(new Error('503')).mockResolvedValueOnce(member);
    const page = await show(load);
    const banner = page.querySelector('s-banner')!;
    expect(banner.getAttribute('tone')).toBe('critical');
    expect(banner.getAttribute('heading')).toBe('Rewards are unavailable right now.');
    expect(page.querySelector('s-section')).toBeNull();
    await act(async () => {
      (banner.querySelector('s-button') as HTMLElement).click();
    });
    expect(load).toHaveBeenCalledTimes(2);
    await vi.waitFor(() => expect(page.querySelector('[data-streak="s1"]')).not.toBeNull());
    expect(page.querySelector('s-banner')).toBeNull();
  });
});

const me = (pointsBalance: number): Member => ({
  id: 'me',
  pointsBalance,
  pointsEarnedInTierWindow: 1200,
  tierId: 'gold',
  lastPointEntryAt: '2030-01-15T10:00:00.000Z',
  birthday: null,
  referralCode: 'K7M3QX9P',
});
const tierOf = (id: string, eudTitle: string, pointsThreshold: number, earnMultiplier = 1) => ({
  id,
  pointsThreshold,
  earnMultiplier,
  eudTitle,
  eudDescription: `${eudTitle} members`,
  eudIcon: null,
});
const reward = (id: string, pointsCost: number, eudTitle: string | null) => ({
  id,
  rewardKind: 'code' as const,
  discountType: 'percentage' as const,
  discountValue: 20,
  pointsValue: null,
  pointsCost,
  eudTitle,
  eudRedeemInstructionMessage: null,
});
const points: Points = {
  setting: {
    id: 'ps',
    eudCurrencyName: 'Stars',
    pointsPerCurrencyUnit: 2,
    pointsPerOrder: 0,
    pointsOnSignUp: 100,
    pointsOnNewsletter: 40,
    pointsOnBirthday: 0,
    pointsOnReferral: 0,
    pointsOnReferredOrder: 0,
    expiryMonthsOfInactivity: 0,
  },
  rewards: [reward('five', 300, '€5 off'), reward('big', 2000, null)],
  tiers: [tierOf('silver', 'Silver', 0), tierOf('gold', 'Gold', 500, 1.5), tierOf('platinum', 'Platinum', 2000)],
  member: me(1200),
};
const entry = (
  id: string,
  points: number,
  reason: PointEntry['reason'],
  link: [string, string] | null,
  note: string | null = null,
): PointEntry => ({
  id,
  points,
  reason,
  uniqueIdentifier: null,
  linkedSchemaSlug: link?.[0] ?? null,
  linkedSchemaRecordId: link?.[1] ?? null,
  note,
  createdAt: '2030-01-15T12:00:00.000Z',
});
/** One entry of each kind and source, newest first, as the core lists them. */
const history: PointEntry[] = [
  entry('e1', 65, 'earned', ['shopify_order', 'gid://shopify/Order/1001'], '#1001'),
  entry('e2', -30, 'reversed', ['point_entry', 'e1'], 'refund 91 of order #1001'),
  entry('e3', 100, 'earned', ['shopify_customer', 'gid://shopify/Customer/7']),
  entry('e4', 50, 'earned', ['reward_log', 'r5']),
  entry('e5', -300, 'redeemed', ['reward_log', 'r1']),
  entry('e6', 150, 'adjusted', null, 'Sorry for the late parcel'),
  entry('e7', -20, 'adjusted', null),
  entry('e8', -40, 'expired', ['account_user', 'u1']),
  entry(
    'e9',
    -50,
    'reversed',
    ['reward_log', 'r4'],
    'The reward that earned these points was taken back: its purchase was returned or cancelled.',
  ),
  entry('e10', 10, 'earned', null),
  entry('e11', -5, 'reversed', ['point_entry', 'older']),
  // A friend the member referred placed their first order; the member had been referred in turn.
  entry('e12', 750, 'earned', ['shopify_referral', 'gid://shopify/Order/2002']),
  entry('e13', 250, 'earned', ['shopify_referred_order', 'gid://shopify/Order/1000']),
];
const withPoints = (api: Partial<PageData['api']>): PageData => ({
  ...member,
  streaks: [
    {
      ...streak,
      milestones: [
        {
          ...milestone('m5', 5),
          reward: { rewardKind: 'points', pointsValue: 50, discountType: null, discountValue: null, eudTitle: null },
        },
      ],
    },
  ],
  points: { ...points, history },
  api: { ...member.api, ...api },
});
// A bare custom element takes `disabled` as an attribute, as the host's s-button reads it.
const disabled = (el: Element, reward: string) => el.querySelector(`[data-cost="${reward}"] s-button`)!.hasAttribute('disabled');
const click = (el: Element) =>
  act(async () => {
    (el as HTMLElement).click();
  });

describe('the points section', () => {
  it("shows the member's balance, tier and progress, the rewards to redeem and the ways to earn", async () => {
    const page = await show(() => Promise.resolve(withPoints(member.api)));
    const section = page.querySelector('[data-points]')!;
    expect(section.getAttribute('heading')).toBe('Stars');
    const balance = section.querySelector('[data-balance]')!;
    expect(text(balance.querySelector('s-text[type="strong"]'))).toBe('1,200 Stars');
    expect(text(balance.querySelector('[data-tier]'))).toBe('Gold');
    expect(text(balance.querySelector('s-paragraph'))).toBe('Gold members');
    expect(all(balance, 's-text')).toEqual(['1,200 Stars', '800 Stars to Platinum: 1,200 / 2,000']);
    const bar = balance.querySelector('s-progress')!;
    expect([bar.getAttribute('value'), bar.getAttribute('max')]).toEqual(['1200', '2000']);
    expect(all(section, '[data-cost]')).toEqual(['€5 off 300 Stars Redeem', '20% off 2,000 Stars Redeem 800 Stars to go']);
    expect(disabled(section, 'big')).toBe(true);
    expect(disabled(section, 'five')).toBe(false);
    // What this Gold member earns: each entry times 1.5, rounded down as the core credits it, in the
    // streak's milestones as in the ways to earn.
    expect(all(page, '[data-milestones] s-list-item')[0]).toBe('5 · Milestone 5 · +75 Stars Next');
    expect(text(section.querySelector('[data-earn] s-heading'))).toBe('Ways to earn · Gold ×1.5');
    expect(all(section, '[data-earn] s-list-item')).toEqual([
      'For every 1 spent · +3 Stars',
      'Creating an account · +150 Stars',
      'Subscribing to our newsletter · +60 Stars',
      'Title s1 · Milestone 5 · +75 Stars',
    ]);
  });

  it('tells a member the shop paused (left out by a customer tag) why, with no Redeem, Follow, birthday or referral link to use', async () => {
    const everything = (status: Member['status']): PageData => {
      const data = withPoints(member.api);
      return {
        ...data,
        storefrontUrl: 'https://shop.example',
        points: data.points && {
          ...data.points,
          setting: {
            ...data.points.setting,
            pointsOnBirthday: 100,
            pointsOnReferral: 500,
            pointsOnFollow: 25,
            instagramUrl: 'https://instagram.com/shop',
            expiryMonthsOfInactivity: 12,
          },
          member: data.points.member && { ...data.points.member, status },
        },
      };
    };
    const shown = (page: Element) => ({
      said: text(page.querySelector('[data-balance] [data-paused]')),
      follow: page.querySelector('[data-earn] [data-follow="instagram"] s-button') !== null,
      birthday: page.querySelector('[data-birthday-form]') !== null,
      referral: page.querySelector('[data-referral]') !== null,
    });
    // Live, the member has them all: what pausing takes away.
    expect(shown(await show(() => Promise.resolve(everything('live'))))).toEqual({
      said: undefined,
      follow: true,
      birthday: true,
      referral: true,
    });
    const page = await show(() => Promise.resolve(everything('paused')));
    expect(shown(page)).toEqual({
      said: 'Your membership is paused: you can’t earn or redeem for now.',
      follow: false,
      birthday: false,
      referral: false,
    });
    // Their points still expire, and the date is all they are told: earning or redeeming is not theirs to do.
    expect(text(page.querySelector('[data-balance] [data-expiry]'))).toMatch(/^Your balance of [\d,]+ Stars expires on Jan 15, 2031\.$/);
    const section = page.querySelector('[data-points]')!;
    expect(disabled(section, 'five')).toBe(true);
    expect(disabled(section, 'big')).toBe(true);
    const german = await show(() => Promise.resolve(everything('paused')), 'de');
    expect(text(german.querySelector('[data-paused]'))).toBe(
      'Deine Mitgliedschaft ist pausiert: Du kannst vorerst nichts sammeln oder einlösen.',
    );
  });

  it('says a bonus points event while it runs, beside the ways to earn it multiplies', async () => {
    const now = Date.now();
    const event = (data: PageData): PageData => ({
      ...data,
      points: data.points && {
        ...data.points,
        setting: {
          ...data.points.setting,
          bonusMultiplier: 2,
          bonusStartsAt: new Date(now - 3_600_000).toISOString(),
          bonusEndsAt: new Date(now + 86_400_000).toISOString(),
        },
      },
    });
    const page = await show(() => Promise.resolve(event(withPoints(member.api))));
    const section = page.querySelector('[data-points]')!;
    const ends = new Intl.DateTimeFormat('en', { day: 'numeric', month: 'long', hour: 'numeric', minute: '2-digit' }).format(
      new Date(now + 86_400_000),
    );
    expect(text(section.querySelector('[data-earn] [data-bonus]'))).toBe(`2× points on orders until ${ends}`);
    // 2 a unit spent, doubled, then times Gold's 1.5.
    expect(all(section, '[data-earn] s-list-item')[0]).toBe('For every 1 spent · +6 Stars');
  });

  it('names a tier without a title as the member’s own and the next one as the next tier', async () => {
    const untitled = (data: PageData): PageData => ({
      ...data,
      points: data.points && { ...data.points, tiers: data.points.tiers.map((tier) => ({ ...tier, eudTitle: null })) },
    });
    const page = await show(() => Promise.resolve(untitled(withPoints(member.api))));
    const section = page.querySelector('[data-points]')!;
    const balance = section.querySelector('[data-balance]')!;
    expect(text(balance.querySelector('[data-tier]'))).toBe('Your tier');
    expect(all(balance, 's-text')).toEqual(['1,200 Stars', '800 Stars to the next tier: 1,200 / 2,000']);
    expect(text(section.querySelector('[data-earn] s-heading'))).toBe('Ways to earn · Your tier ×1.5');
  });

  it('lists what each entry came from, never an id or a reason code, in the customer’s language', async () => {
    const page = await show(() => Promise.resolve(withPoints(member.api)));
    const section = page.querySelector('[data-history]')!;
    expect(text(section.querySelector('s-heading'))).toBe('History');
    expect(all(section, 's-list-item')).toEqual([
      'Jan 15, 2030 · Order #1001 · +65 Stars',
      'Jan 15, 2030 · Taken back: Order #1001 · −30 Stars',
      'Jan 15, 2030 · Creating an account · +100 Stars',
      'Jan 15, 2030 · Reward r5 · +50 Stars',
      'Jan 15, 2030 · Redeemed: Reward r1 · −300 Stars',
      'Jan 15, 2030 · Sorry for the late parcel · +150 Stars',
      'Jan 15, 2030 · Adjusted by the shop · −20 Stars',
      'Jan 15, 2030 · Expired · −40 Stars',
      'Jan 15, 2030 · Taken back: Reward r4 · −50 Stars',
      'Jan 15, 2030 · Earned · +10 Stars',
      'Jan 15, 2030 · Taken back · −5 Stars',
      'Jan 15, 2030 · A friend you referred · +750 Stars',
      'Jan 15, 2030 · Referred by a friend · +250 Stars',
    ]);
    const german = await show(() => Promise.resolve(withPoints(member.api)), 'de');
    expect(all(german.querySelector('[data-history]')!, 's-list-item').slice(0, 2)).toEqual([
      '15.01.2030 · Bestellung #1001 · +65 Stars',
      '15.01.2030 · Zurückgenommen: Bestellung #1001 · −30 Stars',
    ]);
  });

  it('says when the balance expires without an entry before it, and moves the date with a redemption', async () => {
    const expiring = { ...points, setting: { ...points.setting, expiryMonthsOfInactivity: 12 } };
    const redeem = vi.fn(async () => ({ rewardLog: log('new', 'STARS-1', null), pointsBalance: 900 }));
    const page = await show(() => Promise.resolve({ ...withPoints({ redeem }), points: expiring }));
    expect(text(page.querySelector('[data-balance] [data-expiry]'))).toBe(
      'Your balance of 1,200 Stars expires on Jan 15, 2031 unless you earn or redeem before then.',
    );
    await click(page.querySelector('[data-cost="five"] s-button')!);
    const inAYear = new Date();
    inAYear.setUTCFullYear(inAYear.getUTCFullYear() + 1);
    const day = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' }).format(inAYear);
    await vi.waitFor(() =>
      expect(text(page.querySelector('[data-balance] [data-expiry]'))).toBe(
        `Your balance of 900 Stars expires on ${day} unless you earn or redeem before then.`,
      ),
    );
    const german = await show(() => Promise.resolve({ ...withPoints(member.api), points: expiring }), 'de');
    expect(text(german.querySelector('[data-expiry]'))).toBe(
      'Dein Guthaben (1.200 Stars) verfällt am 15.01.2031, wenn du bis dahin nichts sammelst oder einlöst.',
    );
  });

  it('asks a member without a birthday for it, by month and day, saves it once and then says it', async () => {
    const birthdays = { ...points, setting: { ...points.setting, pointsOnBirthday: 100 } };
    const setBirthday = vi.fn(async (birthday: string) => ({ ...me(1200), birthday }));
    // The first save fails (the network), and the member has no birthday yet: the form says so and keeps the choice.
    setBirthday.mockRejectedValueOnce(new Error('offline'));
    const meNow = vi.fn(async () => me(1200));
    const page = await show(() => Promise.resolve({ ...withPoints({ setBirthday, me: meNow }), points: birthdays }));
    const form = page.querySelector('[data-birthday-form]')!;
    // A Gold member gets the rate times 1.5, as the core credits it.
    expect(text(form.querySelector('s-paragraph'))).toBe('Tell us your birthday and get 150 Stars on it.');
    expect(text(form.querySelectorAll('s-paragraph')[1]!)).toBe('A birthday less than 30 days away counts from next year.');
    const pick = (select: Element, value: string) =>
      act(async () => {
        (select as HTMLElement & { value: string }).value = value;
        select.dispatchEvent(new Event('change'));
      });
    const month = form.querySelector('[data-month]')!;
    expect(month.getAttribute('label')).toBe('Month');
    expect(all(month, 's-option').slice(0, 3)).toEqual(['January', 'February', 'March']);
    expect(form.querySelector('s-stack s-button')!.hasAttribute('disabled')).toBe(true);
    await pick(form.querySelector('[data-day]')!, '31');
    await pick(month, '2');
    // February offers its 29th (some years have it); the 31st picked before becomes the 29th.
    expect(form.querySelectorAll('[data-day] s-option')).toHaveLength(29);
    expect((form.querySelector('[data-day]') as HTMLElement & { value: string }).value).toBe('29');
    expect(form.querySelector('s-stack s-button')!.hasAttribute('disabled')).toBe(false);
    await click(form.querySelector('s-stack s-button')!);
    await vi.waitFor(() =>
      expect(form.querySelector('s-banner')?.getAttribute('heading')).toBe('Your birthday could not be saved. Please try again.'),
    );
    expect(meNow).toHaveBeenCalled();
    await click(form.querySelector('s-stack s-button')!);
    await vi.waitFor(() => expect(text(page.querySelector('[data-balance] [data-birthday]'))).toBe('Your birthday: February 29'));
    expect(setBirthday).toHaveBeenLastCalledWith('02-29');
    expect(page.querySelector('[data-birthday-form]')).toBeNull();
    // In German, as the customer's language says a day.
    const german = await show(
      () => Promise.resolve({ ...withPoints({}), points: { ...birthdays, member: { ...me(1200), birthday: '03-14' } } }),
      'de',
    );
    expect(text(german.querySelector('[data-birthday]'))).toBe('Dein Geburtstag: 14. März');
    expect(german.querySelector('[data-birthday-form]')).toBeNull();
  });

  it('gives the member their link to the shop’s storefront to copy, with what a referral earns both ways', async () => {
    const referrals = { ...points, setting: { ...points.setting, pointsOnReferral: 500, pointsOnReferredOrder: 250 } };
    const data = { ...withPoints({}), points: referrals, storefrontUrl: 'https://shop.example' };
    const page = await show(() => Promise.resolve(data));
    const card = page.querySelector('[data-referral]')!;
    expect(text(card.querySelector('s-heading'))).toBe('Refer a friend');
    // The member's 500 times Gold's 1.5, as the core credits it; the friend's 250 as set.
    expect(text(card.querySelector('s-paragraph'))).toBe(
      'Give friends 250 Stars on their first order and get 750 Stars when they place it.',
    );
    expect(all(page, '[data-earn] s-list-item')).toContain('Refer a friend · +750 Stars');
    const link = 'https://shop.example/?loyalty_ref=K7M3QX9P';
    const field = card.querySelector('s-text-field')!;
    expect([field.getAttribute('label'), field.getAttribute('value'), field.hasAttribute('readonly')]).toEqual([
      'Your referral link',
      link,
      true,
    ]);
    // Shopify's clipboard item copies it when the button is pressed, and says so when it has.
    const clip = card.querySelector('s-clipboard-item')!;
    expect(clip.getAttribute('text')).toBe(link);
    const copy = card.querySelector('s-button')!;
    expect(copy.getAttribute('commandFor') ?? copy.getAttribute('commandfor')).toBe(clip.id);
    expect(text(copy)).toBe('Copy link');
    expect(toasts).toEqual([]);
    await act(async () => {
      clip.dispatchEvent(new Event('copy'));
    });
    expect(toasts).toEqual(['Link copied']);

    const german = await show(() => Promise.resolve(data), 'de');
    expect(text(german.querySelector('[data-referral] s-heading'))).toBe('Freunde werben');
    expect(text(german.querySelector('[data-referral] s-paragraph'))).toBe(
      'Schenke Freunden 250 Stars auf ihre erste Bestellung und erhalte 750 Stars, wenn sie bestellen.',
    );
    expect(german.querySelector('[data-referral] s-text-field')!.getAttribute('label')).toBe('Dein Empfehlungslink');
    await act(async () => {
      german.querySelector('[data-referral] s-clipboard-item')!.dispatchEvent(new Event('copy'));
    });
    expect(toasts).toEqual(['Link copied', 'Link kopiert']);
  });

  it('says only the referral rate that is on, and shows no link while neither is or without the storefront', async () => {
    const rates = (pointsOnReferral: number, pointsOnReferredOrder: number, storefrontUrl?: string): PageData => ({
      ...withPoints({}),
      points: { ...points, setting: { ...points.setting, pointsOnReferral, pointsOnReferredOrder } },
      ...(storefrontUrl ? { storefrontUrl } : {}),
    });
    const offer = async (data: PageData) => text((await show(() => Promise.resolve(data))).querySelector('[data-referral] s-paragraph'));
    expect(await offer(rates(0, 250, 'https://shop.example'))).toBe('Give friends 250 Stars on their first order.');
    expect(await offer(rates(500, 0, 'https://shop.example'))).toBe('Get 750 Stars when a friend you refer places their first order.');
    expect(await offer(rates(0, 0, 'https://shop.example'))).toBeUndefined();
    // The shop's gift for the friend is said instead of their points.
    const gift = (data: PageData): PageData => ({ ...data, friendGift: '15% off your first order' });
    expect(await offer(gift(rates(500, 250, 'https://shop.example')))).toBe(
      'Friends get “15% off your first order”, and you get 750 Stars when they place their first order.',
    );
    expect(await offer(gift(rates(0, 0, 'https://shop.example')))).toBe('Friends you refer get “15% off your first order”.');
    // Without the storefront's address there is no link to give: the rate is still among the ways to earn.
    const page = await show(() => Promise.resolve(rates(500, 250)));
    expect(page.querySelector('[data-referral]')).toBeNull();
    expect(all(page, '[data-earn] s-list-item')).toContain('Refer a friend · +750 Stars');
  });

  it('says nothing of expiry where points never expire', async () => {
    const page = await show(() => Promise.resolve(withPoints(member.api)));
    expect(page.querySelector('[data-expiry]')).toBeNull();
  });

  it('leaves the history out while the member has no entries', async () => {
    const page = await show(() => Promise.resolve({ ...withPoints(member.api), points: { ...points, history: [] } }));
    expect(page.querySelector('[data-history]')).toBeNull();
  });

  it("names the shop's currency in the earning rate and fixed amounts, as the customer's language writes them", async () => {
    const fiver = { ...reward('fiver', 500, null), discountType: 'fixed_amount' as const, discountValue: 5 };
    const withFiver: PageData = {
      ...withPoints(member.api),
      streaks: [{ ...streak, milestones: [{ ...milestone('m9', 9), reward: fiver }] }],
      points: { ...points, rewards: [...points.rewards, fiver] },
      currency: 'EUR',
    };
    const page = await show(() => Promise.resolve(withFiver), 'de');
    expect(all(page, '[data-earn] s-list-item')[0]).toBe('Pro 1 € Einkaufswert · +3 Stars');
    // An untitled fixed amount says how much of it the reward takes off, to redeem and on a milestone.
    expect(all(page, '[data-cost="fiver"] s-text')[0]).toBe('5 € Rabatt');
    expect(all(page, '[data-milestones] s-list-item')[0]).toBe('9 · Milestone 9 · 5 € Rabatt Nächstes');
  });

  it('redeems a reward: its code, the balance the core answers, and the entry it added to the history', async () => {
    const redeem = vi.fn(async () => ({ rewardLog: log('new', 'STARS-1', null), pointsBalance: 900 }));
    const list = vi.fn(async () => [entry('e0', -300, 'redeemed', ['reward_log', 'new']), ...history]);
    const page = await show(() => Promise.resolve(withPoints({ redeem, list: list as never })));
    await click(page.querySelector('[data-cost="five"] s-button')!);
    await vi.waitFor(() => expect(page.querySelector('[data-cost="five"] s-banner')).not.toBeNull());
    // With the redemption's own key, so a retry after a lost answer finds it rather than spending again.
    expect(redeem).toHaveBeenCalledWith('five', expect.stringMatching(/^redeem-[0-9a-f]{32}$/));
    const banner = page.querySelector('[data-cost="five"] s-banner')!;
    expect([banner.getAttribute('tone'), banner.getAttribute('heading')]).toEqual(['success', 'Redeemed!']);
    expect(banner.querySelector('s-clipboard-item')!.getAttribute('text')).toBe('STARS-1');
    expect(text(page.querySelector('[data-balance] s-text[type="strong"]'))).toBe('900 Stars');
    await vi.waitFor(() => expect(all(page, '[data-history] s-list-item')[0]).toBe('Jan 15, 2030 · Redeemed: Reward new · −300 Stars'));
    expect(list).toHaveBeenCalledWith('point_entry', { sortBy: [{ fieldSlug: 'createdAt', order: 'DESC' }], limit: 20 });
  });

  it('says when the balance no longer covers a reward, and reads it again', async () => {
    const api = {
      redeem: vi.fn(() => Promise.reject(new ApiError(409, 'insufficient_points', 'reward/record/five/action/redeem'))),
      me: vi.fn(async () => me(250)),
    };
    const page = await show(() => Promise.resolve(withPoints(api)), 'fr');
    await click(page.querySelector('[data-cost="five"] s-button')!);
    await vi.waitFor(() => expect(text(page.querySelector('[data-balance] s-text[type="strong"]'))).toBe('250 Stars'));
    const banner = page.querySelector('[data-cost="five"] s-banner')!;
    expect([banner.getAttribute('tone'), banner.getAttribute('heading')]).toEqual([
      'critical',
      'Pas assez de Stars pour cette récompense.',
    ]);
    expect(text(page.querySelector('[data-cost="five"] s-button'))).toBe('Échanger');
    expect(disabled(page, 'five')).toBe(true);
    expect(api.me).toHaveBeenCalledTimes(1);
  });

  describe('following the shop', () => {
    /** The shop offers Instagram at 25 Stars to a member without a multiplier (Silver), who has followed `followed`. */
    const following = (api: PageData['api'], followed?: string[]): PageData => ({
      ...withPoints({}),
      points: {
        ...points,
        setting: { ...points.setting, pointsOnFollow: 25, instagramUrl: 'https://instagram.com/shop' },
        member: { ...me(1200), pointsEarnedInTierWindow: 0, tierId: 'silver', ...(followed ? { socialFollows: followed } : {}) },
      },
      api,
    });
    /** The member's own calls at a stubbed core: what it was sent, a follow answered by `answer`, the member read as `after`. */
    const core = (answer: () => Response | Promise<Response>, after: Member) => {
      const sent: { method: string; path: string; body: unknown }[] = [];
      vi.stubGlobal('fetch', async (input: string | URL, init?: RequestInit) => {
        const url = new URL(input);
        const method = init?.method ?? 'GET';
        sent.push({ method, path: url.pathname, body: init?.body ? JSON.parse(init.body as string) : undefined });
        if (url.pathname.endsWith('/action/follow')) return answer();
        if (url.pathname.endsWith('/account_user/me')) return Response.json({ data: after });
        return Response.json({ data: [] });
      });
      return { sent, api: new Api({ baseUrl: 'https://core.example', accountId: 'acc', accessToken: 'end-user' }) };
    };
    const row = (page: Element) => page.querySelector('[data-earn] [data-follow="instagram"]')!;
    const button = (page: Element) => page.querySelector('[data-earn] [data-follow="instagram"] s-button');
    const silver = (pointsBalance: number, socialFollows: string[]): Member => ({
      ...me(pointsBalance),
      pointsEarnedInTierWindow: 0,
      tierId: 'silver',
      socialFollows,
    });

    it('offers a profile with a Follow button that opens it and credits the follow once, then says Followed', async () => {
      let answer!: () => void;
      const answered = new Promise<void>((resolve) => (answer = resolve));
      const { sent, api } = core(() => answered.then(() => Response.json({ data: { pointsBalance: 1225 } })), silver(1225, ['instagram']));
      const page = await show(() => Promise.resolve(following(api)));
      expect(all(page, '[data-earn] s-list-item')).toContain('Following us on Instagram · +25 Stars Follow');
      const follow = button(page)!;
      expect([follow.getAttribute('href'), follow.getAttribute('target'), follow.getAttribute('accessibilityLabel')]).toEqual([
        'https://instagram.com/shop',
        '_blank',
        'Following us on Instagram',
      ]);
      await click(follow);
      // While the core credits it, the button shows it and takes no second press.
      expect([follow.hasAttribute('loading'), follow.hasAttribute('disabled')]).toEqual([true, true]);
      answer();
      await vi.waitFor(() => expect(text(row(page))).toBe('Following us on Instagram · +25 Stars Followed'));
      expect(button(page)).toBeNull();
      expect(text(page.querySelector('[data-balance] s-text[type="strong"]'))).toBe('1,225 Stars');
      expect(sent.filter((c) => c.method === 'POST')).toEqual([
        { method: 'POST', path: '/api/v1.0/schema/points_setting/record/ps/action/follow', body: { network: 'instagram' } },
      ]);
      expect(row(page).querySelector('s-banner')).toBeNull();
    });

    it('says Followed, with no button, for a profile the member has followed', async () => {
      const page = await show(() => Promise.resolve(following(member.api, ['instagram'])));
      expect(text(row(page))).toBe('Following us on Instagram · +25 Stars Followed');
      expect(row(page).querySelector('s-text[color="subdued"]')).not.toBeNull();
      expect(button(page)).toBeNull();
    });

    it('says a refused follow failed, and keeps the button', async () => {
      const { sent, api } = core(() => Response.json({ error: { code: 'not_earnable' } }, { status: 409 }), silver(1200, []));
      const page = await show(() => Promise.resolve(following(api, [])));
      await click(button(page)!);
      await vi.waitFor(() =>
        expect(row(page).querySelector('s-banner')?.getAttribute('heading')).toBe('That did not work. Please try again.'),
      );
      expect(row(page).querySelector('s-banner')!.getAttribute('tone')).toBe('critical');
      await vi.waitFor(() => expect(button(page)!.hasAttribute('disabled')).toBe(false));
      expect(text(page.querySelector('[data-balance] s-text[type="strong"]'))).toBe('1,200 Stars');
      expect(sent.filter((c) => c.method === 'POST')).toHaveLength(1);
    });
  });

  it('counts a balance as activity', async () => {
    const page = await show(() =>
      Promise.resolve({ ...withPoints(member.api), streakProgress: [], challengeProgress: [], missionProgress: [], logs: [], boards: [] }),
    );
    expect(page.querySelector('[data-empty]')).toBeNull();
    expect(page.querySelector('[data-rewards]')).not.toBeNull();
  });
});

/** The app's token route's answer, with the shop's currency as given (absent: left out). */
const tokenAnswer = (currency?: string | null, friendGift: string | null = null) =>
  Response.json({
    accessToken: 'end-user',
    expiresAt: '2030-01-01T00:00:00Z',
    accountId: 'acc',
    coreUrl: 'https://core.example',
    ...(currency === undefined ? {} : { currency }),
    friendGift,
  });

describe('loadPage', () => {
  it("trades the session token at the app, then reads the core as the member in the customer's language", async () => {
    const calls: { url: URL; headers: Record<string, string> }[] = [];
    vi.stubGlobal('fetch', async (input: string | URL, init?: RequestInit) => {
      const url = new URL(input);
      calls.push({ url, headers: (init?.headers ?? {}) as Record<string, string> });
      if (url.pathname === '/customer-account/token') return tokenAnswer('CHF', 'Ein Geschenk');
      return Response.json({ data: [] });
    });
    const data = await loadPage(
      'https://app.example',
      async () => 'session',
      'de',
      async () => 'https://shop.example',
    );
    expect(data.logs).toEqual([]);
    expect(data.currency).toBe('CHF');
    expect(data.friendGift).toBe('Ein Geschenk');
    expect(data.storefrontUrl).toBe('https://shop.example');
    expect(calls[0]!.url.href).toBe('https://app.example/customer-account/token');
    expect(calls[0]!.headers).toEqual({ authorization: 'Bearer session' });
    const reads = calls.slice(1);
    // Points are off (the setting reads as none): nothing more of them is read.
    expect(reads.map((c) => c.url.pathname).sort()).toEqual(
      [
        'challenge',
        'challenge_progress',
        'leaderboard',
        'mission',
        'mission_progress',
        'points_setting',
        'reward_log',
        'streak',
        'streak_progress',
      ].map((s) => `/api/v1.0/schema/${s}/record`),
    );
    expect(data.points).toBeNull();
    for (const read of reads) {
      expect(read.url.origin).toBe('https://core.example');
      expect(read.url.searchParams.get('languageCode')).toBe('de');
      expect(read.headers).toEqual({ 'x-account-id': 'acc', 'x-enduser-access-token': 'end-user' });
    }
  });

  it('reads the member’s newest point entries once points are live, beside their record', async () => {
    const entries: URL[] = [];
    vi.stubGlobal('fetch', async (input: string | URL) => {
      const url = new URL(input);
      if (url.pathname === '/customer-account/token') return tokenAnswer();
      if (url.pathname.endsWith('/points_setting/record')) return Response.json({ data: [points.setting] });
      if (url.pathname.endsWith('/account_user/me')) return Response.json({ data: me(10) });
      if (url.pathname.endsWith('/point_entry/record')) {
        entries.push(url);
        return Response.json({ data: history });
      }
      return Response.json({ data: [] });
    });
    const data = await loadPage(
      'https://app.example',
      async () => 'session',
      'en',
      async () => 'https://shop.example',
    );
    expect(data.points?.history).toEqual(history);
    expect(entries).toHaveLength(1);
    expect(Object.fromEntries(entries[0]!.searchParams)).toEqual({
      limit: '20',
      sortBy: JSON.stringify([{ fieldSlug: 'createdAt', order: 'DESC' }]),
      languageCode: 'en',
    });
  });

  it('leaves the currency out when the app does not know it', async () => {
    vi.stubGlobal('fetch', async (input: string | URL) =>
      new URL(input).pathname === '/customer-account/token' ? tokenAnswer(null) : Response.json({ data: [] }),
    );
    expect(
      await loadPage(
        'https://app.example',
        async () => 'session',
        'en',
        async () => undefined,
      ),
    ).not.toHaveProperty('currency');
  });

  it('loads the page without the storefront’s address when the Storefront API fails, leaving the referral link out', async () => {
    vi.stubGlobal('fetch', async (input: string | URL) =>
      new URL(input).pathname === '/customer-account/token' ? tokenAnswer() : Response.json({ data: [] }),
    );
    const data = await loadPage(
      'https://app.example',
      async () => 'session',
      'en',
      () => Promise.reject(new Error('no api_access')),
    );
    expect(data).not.toHaveProperty('storefrontUrl');
    expect(data.logs).toEqual([]);
  });

  it('rejects when the app refuses the session token', async () => {
    vi.stubGlobal('fetch', async () => new Response(null, { status: 401 }));
    await expect(
      loadPage(
        'https://app.example',
        async () => 'forged',
        'en',
        async () => 'https://shop.example',
      ),
    ).rejects.toThrow('401');
  });
});
