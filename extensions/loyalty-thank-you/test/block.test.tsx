import type { Definition, RewardLog, StreakProgress } from '@loyalty/view-model';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { APP_URL } from '../src/app-url.js';
import { OrderBlock, WAIT_MS } from '../src/block.js';
import { loadOrder, type OrderFacts } from '../src/load.js';
import { LANGUAGES, wordsFor } from '../src/words.js';
import { defineBareElements, text } from '../../test-support/dom.js';

const TAGS = ['section', 'stack', 'heading', 'paragraph', 'text', 'badge', 'progress', 'button', 'spinner', 'text-field', 'clipboard-item'];
beforeAll(() => {
  defineBareElements(TAGS);
});

afterEach(() => {
  render(null, document.body);
  document.body.replaceChildren();
  vi.unstubAllGlobals();
});

const all = (selector: string) => [...document.body.querySelectorAll(selector)].map(text);

const APP = 'https://app.example';
const CORE = 'https://core.example';
const DAY_MS = 86_400_000;
const now = Date.now();

const def = (id: string, extra: Partial<Definition>): Definition => ({
  id,
  eudTitle: `Title ${id}`,
  eudDescription: null,
  eudIcon: null,
  eudCompletedMessage: null,
  aggregationPeriod: 'daily',
  completionTargetValue: null,
  milestones: [],
  ...extra,
});
const streak = def('s1', { aggregationTargetValue: 1 });
const challenge = def('c1', { aggregationPeriod: 'monthly', completionTargetValue: 1000 });
const streakProgress: StreakProgress = {
  streakId: 's1',
  streakProgressStatus: 'in_progress',
  currentProgressValue: 3,
  streakToBeBrokenAt: new Date(now + 2 * DAY_MS).toISOString(),
  freezesAvailable: 0,
  frozenPeriodKeys: [],
  taskProgress: {
    taskId: null,
    periodKey: new Date(now).toISOString().slice(0, 10),
    currentProgressValue: 1,
    targetValue: 1,
    taskProgressStatus: 'completed',
  },
};
const held: RewardLog = {
  id: 'r1',
  rewardLogStatus: 'pending',
  confirmAt: '2030-02-14T12:00:00.000Z',
  couponCode: null,
  rewardIssuedAt: null,
  rewardExpiryAt: null,
  eudRewardTitle: 'Ten off',
  eudRedeemInstructionMessage: null,
};
// A milestone whose reward gave points: no code comes for it.
const stars: RewardLog = {
  ...held,
  id: 'r2',
  rewardLogStatus: 'issued',
  confirmAt: null,
  eudRewardTitle: 'Bonus Stars',
  reward: { rewardKind: 'points' },
};
const tier = (id: string, eudTitle: string, pointsThreshold: number, earnMultiplier: number) => ({
  id,
  pointsThreshold,
  earnMultiplier,
  eudTitle,
  eudDescription: null,
  eudIcon: null,
});
const ORDER: OrderFacts = {
  name: '#1001',
  state: 'earned',
  points: { earned: 160, reversed: 0 },
  counted: [
    { kind: 'streak', definitionId: 's1', value: 1, reversed: 0 },
    { kind: 'challenge', definitionId: 'c1', value: 75, reversed: 0 },
  ],
  rewardLogIds: ['r1', 'r2', 'r3'],
};

type Call = { url: URL; headers: Record<string, string> };

/**
 * Stands in for the network: the app's /checkout/order answers as the route does (`order`, or a
 * status with the route's error body), the core's records API as the core does for the member.
 */
function network(
  orders: (OrderFacts | null | { status: number; code?: string })[],
  more: { answer?: Record<string, unknown>; setting?: Record<string, unknown>; me?: Record<string, unknown>; logs?: RewardLog[] } = {},
): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: string | URL, init?: RequestInit) => {
    const url = new URL(input);
    calls.push({ url, headers: (init?.headers ?? {}) as Record<string, string> });
    if (url.pathname === '/checkout/order') {
      const next = orders.length > 1 ? orders.shift()! : orders[0]!;
      if (next && 'status' in next)
        return Response.json(next.code ? { error: { code: next.code, message: 'refused' } } : {}, { status: next.status });
      return Response.json({
        order: next,
        accessToken: 'end-user',
        expiresAt: '2030-01-01T00:00:00Z',
        accountId: 'acc',
        coreUrl: CORE,
        friendGift: null,
        ...more.answer,
      });
    }
    const slug = url.pathname.replace('/api/v1.0/schema/', '').replace('/record', '');
    const lists: Record<string, unknown> = {
      streak: [streak],
      challenge: [challenge],
      mission: [],
      streak_progress: [streakProgress],
      challenge_progress: [
        {
          challengeId: 'c1',
          challengeProgressStatus: 'in_progress',
          currentProgressValue: 75,
          challengeToBeFailedAt: new Date(now + DAY_MS).toISOString(),
        },
      ],
      mission_progress: [],
      reward_log: more.logs ?? [
        held,
        stars,
        { ...stars, id: 'r3', eudRewardTitle: 'Store credit', reward: { rewardKind: 'code' }, couponCode: '7.50 EUR' },
      ],
      points_setting: [
        { id: 'ps', eudCurrencyName: 'Stars', pointsPerCurrencyUnit: 1, pointsPerOrder: 5, pointsOnSignUp: 0, ...more.setting },
      ],
      reward: [],
      tier: [tier('silver', 'Silver', 0, 1), tier('gold', 'Gold', 100, 2), tier('platinum', 'Platinum', 2000, 3)],
    };
    if (slug === 'account_user/me')
      return Response.json({ data: { id: 'me', pointsBalance: 240, pointsEarnedInTierWindow: 240, tierId: 'gold', ...more.me } });
    return Response.json({ data: lists[slug] ?? [] });
  });
  return calls;
}

async function show(lang: string, order = 'gid://shopify/OrderIdentity/1001', storefrontUrl: string | null = 'https://shop.example') {
  await act(async () => {
    render(
      <OrderBlock
        load={() => loadOrder(APP, async () => 'session', order, lang)}
        lang={lang}
        accountUrl="https://shop.example/account"
        storefrontUrl={storefrontUrl ?? undefined}
      />,
      document.body,
    );
  });
  await vi.waitFor(() => expect(document.body.querySelector('s-spinner')).toBeNull());
}

describe('the order block, for a member', () => {
  it('shows the points the order earned after the tier multiplier, the tier and the way to the next, what it counted for and the reward held', async () => {
    const calls = network([ORDER]);
    await show('en');
    const section = document.body.querySelector('[data-order="#1001"]')!;
    expect(section.getAttribute('heading')).toBe('Your rewards for this order');
    expect(text(section.querySelector('[data-earned]'))).toBe('This order earned you 160 Stars.');
    expect(text(section.querySelector('[data-balance]'))).toBe('Your balance: 240 Stars');
    expect(text(section.querySelector('[data-tier]'))).toBe('Gold');
    const bar = section.querySelector('[data-points] s-progress')!;
    expect([bar.getAttribute('value'), bar.getAttribute('max')]).toEqual(['240', '2000']);
    expect(all('[data-points] s-stack s-text')).toEqual(['1,760 Stars to Platinum: 240 / 2,000']);
    expect(all('[data-counted-for]')).toEqual(['Title s1 3 in a row', 'Title c1 This month: 75 / 1,000']);
    expect(text(section.querySelector('[data-counted] s-heading'))).toBe('This order counted for');
    expect(all('[data-reward]')).toEqual([
      'Ten off Yours on February 14, 2030, once the return window has passed.',
      'Bonus Stars Added to your balance.',
      'Store credit €7.50',
    ]);
    expect(section.querySelector('[data-reward]')!.getAttribute('data-status')).toBe('pending');

    // The app is asked about the page's order with the session token; the core as the member, in the page's language.
    expect(calls[0]!.url.href).toBe(`${APP}/checkout/order?order=${encodeURIComponent('gid://shopify/OrderIdentity/1001')}`);
    expect(calls[0]!.headers).toEqual({ authorization: 'Bearer session' });
    for (const read of calls.slice(1)) {
      expect(read.url.origin).toBe(CORE);
      expect(read.url.searchParams.get('languageCode')).toBe('en');
      expect(read.headers).toEqual({ 'x-account-id': 'acc', 'x-enduser-access-token': 'end-user' });
    }
    const definitions = calls.find((c) => c.url.pathname.endsWith('/schema/challenge/record'))!;
    expect(JSON.parse(definitions.url.searchParams.get('filters')!)).toEqual({
      operator: 'and',
      conditions: [{ fieldSlug: 'id', operator: 'in', fieldValue: ['c1'] }],
    });
    // Nothing of missions is read: the order counted for none.
    expect(calls.some((c) => c.url.pathname.includes('mission'))).toBe(false);
  });

  it('gives the member their referral link with what a friend and they get, the button saying when it is copied', async () => {
    const referrals = { setting: { pointsOnReferral: 500, pointsOnReferredOrder: 250 }, me: { referralCode: 'K7M3QX9P' } };
    network([ORDER], referrals);
    await show('en');
    const card = document.body.querySelector('[data-referral]')!;
    expect(text(card.querySelector('s-heading'))).toBe('Refer a friend');
    // The member's 500 are times Gold's 2, as the core credits them.
    expect(text(card.querySelector('s-paragraph'))).toBe(
      'Give friends 250 Stars on their first order and get 1,000 Stars when they place it.',
    );
    const field = card.querySelector('s-text-field')!;
    expect([field.getAttribute('label'), field.getAttribute('value')]).toEqual([
      'Your referral link',
      'https://shop.example/?loyalty_ref=K7M3QX9P',
    ]);
    expect(text(card.querySelector('s-button'))).toBe('Copy link');
    await act(async () => {
      card.querySelector('s-clipboard-item')!.dispatchEvent(new Event('copy'));
    });
    expect(text(card.querySelector('s-button'))).toBe('Link copied');

    // The shop's gift for friends is said instead of their points.
    render(null, document.body);
    network([ORDER], { ...referrals, answer: { friendGift: '$10 off your first order' } });
    await show('en');
    expect(text(document.body.querySelector('[data-referral] s-paragraph'))).toBe(
      'Friends get “$10 off your first order”, and you get 1,000 Stars when they place their first order.',
    );
    // Without the storefront's address there is no link to give; without a referral rate or gift, nothing to say.
    render(null, document.body);
    await show('en', undefined, null);
    expect(document.body.querySelector('[data-referral]')).toBeNull();
    render(null, document.body);
    network([ORDER], { me: { referralCode: 'K7M3QX9P' } });
    await show('en');
    expect(document.body.querySelector('[data-order]')).not.toBeNull();
    expect(document.body.querySelector('[data-referral]')).toBeNull();
  });

  it('tells a member the shop paused (left out by a customer tag) why, and gives no referral link that would earn them nothing', async () => {
    network([ORDER], { setting: { pointsOnReferral: 500 }, me: { referralCode: 'K7M3QX9P', status: 'paused' } });
    await show('en');
    expect(text(document.body.querySelector('[data-paused]'))).toBe('Your membership is paused: you can’t earn or redeem for now.');
    expect(text(document.body.querySelector('[data-balance]'))).toBe('Your balance: 240 Stars');
    expect(document.body.querySelector('[data-referral]')).toBeNull();
    // Live, the same member has the link and no such sentence.
    render(null, document.body);
    network([ORDER], { setting: { pointsOnReferral: 500 }, me: { referralCode: 'K7M3QX9P', status: 'live' } });
    await show('en');
    expect(document.body.querySelector('[data-paused]')).toBeNull();
    expect(document.body.querySelector('[data-referral]')).not.toBeNull();
  });

  it('offers a code the order earned for the next order: a link that opens the storefront with it applied to the cart', async () => {
    const code = { ...held, id: 'r4', rewardLogStatus: 'issued' as const, confirmAt: null, couponCode: 'TEN-K7M3' };
    network([{ ...ORDER, rewardLogIds: ['r4'] }], { logs: [code] });
    await show('en');
    const link = document.body.querySelector('[data-reward="r4"] [data-apply]')!;
    expect(text(link)).toBe('Apply to my cart');
    expect([link.getAttribute('href'), link.getAttribute('target')]).toEqual([
      'https://shop.example/discount/TEN-K7M3?redirect=%2Fcart',
      '_blank',
    ]);
    // Without the storefront's address (the shop has no online store) there is nowhere to apply it.
    render(null, document.body);
    network([{ ...ORDER, rewardLogIds: ['r4'] }], { logs: [code] });
    await show('en', undefined, null);
    expect(document.body.querySelector('[data-reward="r4"]')).not.toBeNull();
    expect(document.body.querySelector('[data-apply]')).toBeNull();
  });

  it('speaks German', async () => {
    network([ORDER]);
    await show('de');
    expect(document.body.querySelector('[data-order]')!.getAttribute('heading')).toBe('Deine Prämien für diese Bestellung');
    expect(text(document.body.querySelector('[data-earned]'))).toBe('Diese Bestellung hat dir 160 Stars eingebracht.');
    expect(text(document.body.querySelector('[data-balance]'))).toBe('Dein Guthaben: 240 Stars');
    expect(all('[data-counted-for]')[0]).toBe('Title s1 3 in Folge');
    expect(all('[data-reward]')[0]).toContain('14. Februar 2030');
  });

  it('says what a refund took back, and that a returned order gave back what it counted for', async () => {
    network([{ ...ORDER, state: 'refunded', points: { earned: 160, reversed: 160 } }]);
    await show('en');
    expect(text(document.body.querySelector('[data-returned]'))).toBe(
      'This order was returned or cancelled, so what it earned was taken back.',
    );
    expect(text(document.body.querySelector('[data-taken-back]'))).toBe('160 Stars taken back by a refund or cancellation.');
    expect(document.body.querySelector('[data-counted]')).toBeNull();
  });

  it('waits for an order the app has not received yet, then shows what it earned', async () => {
    network([null, ORDER]);
    await show('en');
    expect(text(document.body.querySelector('[data-waiting]'))).toBe('Adding up what this order earned…');
    await vi.waitFor(() => expect(document.body.querySelector('[data-earned]')).not.toBeNull(), { timeout: WAIT_MS + 2000 });
    expect(document.body.querySelector('[data-waiting]')).toBeNull();
  });

  it('shows nothing when the app refuses or fails, and nothing for a test order', async () => {
    for (const answer of [
      { status: 401 },
      { status: 404, code: 'not_found' },
      { status: 503, code: 'unavailable' },
      { ...ORDER, state: 'skipped' as const },
    ]) {
      network([answer]);
      await show('en');
      expect(document.body.innerHTML, JSON.stringify(answer)).toBe('');
    }
  });
});

describe('the order block, for a guest', () => {
  it('invites the shopper to create an account, in their language', async () => {
    for (const [lang, title, button, promise] of [
      ['en', 'Earn rewards when you shop', 'Create an account', 'within 30 days: this order counts'],
      ['ja', 'お買い物でリワードを獲得', 'アカウントを作成', '30日以内'],
    ]) {
      const calls = network([{ status: 401, code: 'no_customer' }]);
      await show(lang!);
      const invitation = document.body.querySelector('[data-guest]')!;
      expect(invitation.getAttribute('heading')).toBe(title);
      // The app counts a guest's order of the last 30 days for the account made with its e-mail.
      expect(text(invitation.querySelector('s-paragraph'))).toContain(promise);
      const link = invitation.querySelector('s-button')!;
      expect(text(link)).toBe(button);
      expect(link.getAttribute('href')).toBe('https://shop.example/account');
      // A guest has no member: the core is never asked.
      expect(calls.map((c) => c.url.origin)).toEqual([APP]);
      render(null, document.body);
    }
  });
});

describe('the extension module', () => {
  const api = (page: Record<string, unknown>, isoCode: string) => ({
    localization: { language: { value: { isoCode } } },
    sessionToken: { get: async () => 'session' },
    shop: { id: 'gid://shopify/Shop/1', name: 'Shop', storefrontUrl: 'https://shop.example/', myshopifyDomain: 'shop.myshopify.com' },
    ...page,
  });

  it("reads the thank-you page's order confirmation and the order status page's order", async () => {
    const { default: run } = await import('../src/OrderRewards.js');
    for (const [page, gid, lang, title] of [
      [
        { orderConfirmation: { value: { order: { id: 'gid://shopify/OrderIdentity/7' }, number: 'X1', isFirstOrder: true } } },
        'gid://shopify/OrderIdentity/7',
        'fr-CA',
        'Vos récompenses pour cette commande',
      ],
      [{ order: { value: { id: 'gid://shopify/Order/7', name: '#1007' } } }, 'gid://shopify/Order/7', 'zh-Hans', '此订单获得的奖励'],
    ] as const) {
      const calls = network([ORDER]);
      vi.stubGlobal('shopify', api(page, lang));
      // The module asks the app at its configured URL (set-app-url).
      await act(async () => {
        await run();
      });
      await vi.waitFor(() => expect(document.body.querySelector('[data-order]')).not.toBeNull());
      expect(calls[0]!.url.origin).toBe(new URL(APP_URL).origin);
      expect(calls[0]!.url.searchParams.get('order')).toBe(gid);
      expect(document.body.querySelector('[data-order]')!.getAttribute('heading')).toBe(title);
      render(null, document.body);
    }
  });
});

describe('the words', () => {
  it('come in the nine languages of the widget, each word of its own', () => {
    expect(LANGUAGES).toEqual(['en', 'fr', 'es', 'de', 'it', 'pt', 'ja', 'ko', 'zh-CN']);
    const english = wordsFor('en').w;
    for (const lang of LANGUAGES.slice(1)) {
      const { w } = wordsFor(lang);
      expect(Object.keys(w)).toEqual(Object.keys(english));
      for (const key of Object.keys(english) as (keyof typeof english)[]) expect(w[key], `${lang} ${key}`).not.toBe(english[key]);
      expect(w.earned).toContain('{n}');
    }
  });
});

describe('Korean words', () => {
  it('leave no particle for the reader to choose ("이(가)"): an amount or name takes any final sound', () => {
    expect(Object.values(wordsFor('ko').w).filter((text) => /\([\uac00-\ud7af]+\)/.test(String(text)))).toEqual([]);
  });
});
