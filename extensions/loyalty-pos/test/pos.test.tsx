import type { Definition, RewardLog, StreakProgress } from '@loyalty/view-model';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { APP_URL } from '../src/app-url.js';
import { CustomerBlock, RedeemModal } from '../src/block.js';
import { type IdStore, loadCustomer, Redeemer } from '../src/load.js';
import { LANGUAGES, wordsFor } from '../src/words.js';
import { defineBareElements, text } from '../../test-support/dom.js';

const TAGS = ['pos-block', 'box', 'stack', 'text', 'heading', 'badge', 'button', 'page', 'scroll-box', 'section', 'banner'];
beforeAll(() => {
  defineBareElements(TAGS);
});

afterEach(() => {
  render(null, document.body);
  document.body.replaceChildren();
  vi.unstubAllGlobals();
});

const all = (selector: string) => [...document.body.querySelectorAll(selector)].map(text);
const one = (selector: string) => document.body.querySelector(selector);

const APP = 'https://app.example';
const CORE = 'https://core.example';
const CUSTOMER = 7001;
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
const log = (id: string, extra: Partial<RewardLog>): RewardLog => ({
  id,
  rewardLogStatus: 'issued',
  confirmAt: null,
  couponCode: null,
  rewardIssuedAt: new Date(now - DAY_MS).toISOString(),
  rewardExpiryAt: null,
  eudRewardTitle: `Reward ${id}`,
  eudRedeemInstructionMessage: null,
  ...extra,
});
const tier = (id: string, eudTitle: string, pointsThreshold: number) => ({
  id,
  pointsThreshold,
  earnMultiplier: 1,
  eudTitle,
  eudDescription: null,
  eudIcon: null,
});
const PERCENT = { discountType: 'percentage', discountValue: 10 };
const reward = (
  id: string,
  eudTitle: string | null,
  pointsCost: number,
  off: { discountType: string; discountValue: number } = PERCENT,
) => ({
  id,
  rewardKind: 'code',
  ...off,
  pointsValue: null,
  pointsCost,
  eudTitle,
  eudRedeemInstructionMessage: null,
});

type Call = { url: URL; method: string; headers: Record<string, string>; body: unknown };

interface Member {
  balance: number;
  earned: number;
  logs: RewardLog[];
  /** Off: the points setting reads as none. */
  points: boolean;
  /** Rewards whose codes the app stamps (Shopify discounts): a redemption's log has none until read this many times. */
  stampAfter: Record<string, number>;
  /** Of those, the ones the app issues as store credit: it stamps the credit's amount and currency. */
  credits: string[];
  /** The answer to the next redemption is lost on its way back (it is made all the same). */
  loseNextAnswer: boolean;
  /** The app answers 503, as when it cannot reach the core. */
  appDown: boolean;
  /** Paused by the shop (a customer tag leaves them out): the core refuses their redemptions. */
  status: 'live' | 'paused';
}

/**
 * Stands in for the network with the app's and the core's real answers: the app's /pos/customer
 * route (the access, or a refusal); the core's records API as the member, keeping the member's
 * balance, reward logs and redemptions by uniqueIdentifier as the core does (a replay → 409
 * duplicate_unique_identifier, too few points → 409 insufficient_points).
 */
function network(member: Partial<Member> = {}) {
  const state: Member = {
    balance: 240,
    earned: 240,
    logs: [
      log('held', { rewardLogStatus: 'pending', confirmAt: '2030-02-14T12:00:00.000Z', rewardIssuedAt: null, eudRewardTitle: 'Ten off' }),
      log('old', { couponCode: 'TY-OLD', eudRewardTitle: 'Welcome' }),
      log('gone', { rewardLogStatus: 'revoked', couponCode: 'TY-GONE' }),
      log('stars', { reward: { rewardKind: 'points' }, eudRewardTitle: 'Bonus Stars' }),
      log('late', { couponCode: 'TY-LATE', rewardExpiryAt: new Date(now - DAY_MS).toISOString(), eudRewardTitle: 'Expired' }),
    ],
    points: true,
    stampAfter: {},
    credits: [],
    loseNextAnswer: false,
    appDown: false,
    status: 'live',
    ...member,
  };
  const calls: Call[] = [];
  const redemptions = new Map<string, { logId: string; entryId: string }>();
  const reads = new Map<string, number>();
  const costs: Record<string, number> = { five: 100, big: 1000, gone: 50 };
  vi.stubGlobal('fetch', async (input: string | URL, init?: RequestInit) => {
    const url = new URL(input);
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ url, method, headers: (init?.headers ?? {}) as Record<string, string>, body });
    if (url.pathname === '/pos/customer' && state.appDown)
      return Response.json({ error: { code: 'unavailable', message: 'The loyalty service is unreachable.' } }, { status: 503 });
    if (url.pathname === '/pos/customer')
      return Response.json({
        accessToken: 'end-user',
        expiresAt: '2030-01-01T00:00:00Z',
        accountId: 'acc',
        coreUrl: CORE,
        currency: 'EUR',
      });
    const path = url.pathname.replace('/api/v1.0/schema/', '');
    const refuse = (code: string) => Response.json({ error: { status: 409, code, message: 'refused', details: [] } }, { status: 409 });
    const redeem = /^reward\/record\/([^/]+)\/action\/redeem$/.exec(path);
    if (redeem && method === 'POST') {
      const rewardId = redeem[1]!;
      const uniqueIdentifier = (body as { uniqueIdentifier: string }).uniqueIdentifier;
      if (redemptions.has(uniqueIdentifier)) return refuse('duplicate_unique_identifier');
      if (rewardId === 'gone' || state.status === 'paused') return refuse('not_redeemable');
      if (state.balance < costs[rewardId]!) return refuse('insufficient_points');
      state.balance -= costs[rewardId]!;
      const made = log(`r${redemptions.size + 1}`, {
        eudRewardTitle: `Redeemed ${rewardId}`,
        couponCode: rewardId in state.stampAfter ? null : `CODE-${redemptions.size + 1}`,
      });
      state.logs.unshift(made);
      redemptions.set(uniqueIdentifier, { logId: made.id, entryId: `e${redemptions.size + 1}` });
      if (state.loseNextAnswer) {
        state.loseNextAnswer = false;
        throw new TypeError('Network request failed');
      }
      return Response.json({ data: { rewardLog: made, pointsBalance: state.balance } });
    }
    const filters = url.searchParams.get('filters');
    const condition = filters ? (JSON.parse(filters) as { conditions: { fieldSlug: string; fieldValue: unknown }[] }).conditions[0]! : null;
    if (path === 'point_entry/record') {
      const found = redemptions.get(condition!.fieldValue as string);
      return Response.json({
        data: found
          ? [
              {
                id: found.entryId,
                points: -100,
                reason: 'redeemed',
                note: null,
                uniqueIdentifier: condition!.fieldValue,
                linkedSchemaSlug: 'reward_log',
                linkedSchemaRecordId: found.logId,
                createdAt: new Date().toISOString(),
              },
            ]
          : [],
      });
    }
    if (path === 'reward_log/record' && condition?.fieldSlug === 'id') {
      const id = (condition.fieldValue as string[])[0]!;
      const found = state.logs.find((l) => l.id === id);
      const times = (reads.get(id) ?? 0) + 1;
      reads.set(id, times);
      // The app stamps the Shopify discount's code on the log a moment after the redemption.
      const rewardId = found?.eudRewardTitle?.replace('Redeemed ', '') ?? '';
      if (found && !found.couponCode && times >= (state.stampAfter[rewardId] ?? 0))
        found.couponCode = state.credits.includes(rewardId) ? '7.50 EUR' : `SHOP-${id}`;
      return Response.json({ data: found ? [found] : [] });
    }
    if (path === 'account_user/me')
      return Response.json({
        data: { id: 'me', pointsBalance: state.balance, pointsEarnedInTierWindow: state.earned, tierId: 'gold', status: state.status },
      });
    const lists: Record<string, unknown> = {
      'streak/record': [def('s1', { eudTitle: 'Order days' })],
      'streak_progress/record': state.earned ? [streakProgress] : [],
      'challenge/record': [def('c1', { eudTitle: 'Spend', aggregationPeriod: 'monthly', completionTargetValue: 1000 })],
      'challenge_progress/record': state.earned
        ? [{ challengeId: 'c1', challengeProgressStatus: 'in_progress', currentProgressValue: 75, challengeToBeFailedAt: null }]
        : [],
      'reward_log/record': state.logs,
      'points_setting/record': state.points
        ? [{ id: 'ps', eudCurrencyName: 'Stars', pointsPerCurrencyUnit: 1, pointsPerOrder: 5, pointsOnSignUp: 0 }]
        : [],
      // Untitled, a fixed amount says what it takes off in the shop's currency, which the app names.
      'reward/record': [
        reward('five', null, 100, { discountType: 'fixed_amount', discountValue: 5 }),
        reward('big', 'Big one', 1000),
        reward('gone', 'Retired', 50),
      ],
      'tier/record': [tier('silver', 'Silver', 0), tier('gold', 'Gold', 100), tier('platinum', 'Platinum', 2000)],
    };
    return Response.json({ data: lists[path] ?? [] });
  });
  return { calls, state, redemptions };
}

/** POS's persistent storage as the Storage API behaves: async, JSON values, delete answers whether the key was there. */
function posStorage(): IdStore & { entries: Map<string, unknown> } {
  const entries = new Map<string, unknown>();
  return {
    entries,
    get: async (key) => entries.get(key),
    set: async (key, value) => void entries.set(key, value),
    delete: async (key) => entries.delete(key),
  };
}

const SESSION = { userId: 41, locationId: 9 };
type SessionToken = () => Promise<string | undefined>;
const SIGNED_IN: SessionToken = async () => 'session';
const load =
  (lang: string, sessionToken = SIGNED_IN) =>
  () =>
    loadCustomer(APP, sessionToken, CUSTOMER, lang);

async function showBlock(lang: string, sessionToken = SIGNED_IN) {
  const open = vi.fn();
  await act(async () => {
    render(<CustomerBlock load={load(lang, sessionToken)} lang={lang} open={open} />, document.body);
  });
  await vi.waitFor(() => expect(text(one('s-box'))).not.toBe(wordsFor(lang).t.loading));
  return open;
}

async function showModal(lang: string, storage = posStorage(), apply = vi.fn(async (_code: string) => undefined)) {
  await act(async () => {
    render(
      <RedeemModal load={load(lang)} lang={lang} redeemer={(data) => new Redeemer(data.core, storage, SESSION, CUSTOMER)} apply={apply} />,
      document.body,
    );
  });
  await vi.waitFor(() => expect(one('[data-codes]')).not.toBeNull());
  return { apply, storage };
}

const tap = async (selector: string, times = 1) => {
  const button = one(`${selector} s-button`) as HTMLElement;
  await act(async () => {
    for (let i = 0; i < times; i++) button.click();
  });
};
const notice = () => vi.waitFor(() => expect(one('[data-notice]')).not.toBeNull()).then(() => one('[data-notice]')!);
const redeems = (calls: Call[]) => calls.filter((c) => c.method === 'POST');

describe('the block on the customer’s details', () => {
  it('shows the balance, tier and the way to the next, streaks, challenges and codes; its action opens the modal', async () => {
    const { calls } = network();
    const open = await showBlock('en');
    const block = one('s-pos-block')!;
    expect(block.getAttribute('heading')).toBe('Loyalty');
    expect(text(one('[data-balance]'))).toBe('Balance: 240 Stars');
    expect(text(one('[data-tier]'))).toBe('Gold');
    expect(text(one('[data-next-tier]'))).toBe('1,760 Stars to Platinum');
    expect(all('[data-streak]')).toEqual(['Order days · 3 in a row']);
    expect(all('[data-challenge]')).toEqual(['Spend · This month: 75 / 1,000']);
    // A revoked or expired reward is no code to offer, nor one that gave points; a held one says when it comes.
    expect(all('[data-code]')).toEqual(['Ten off · Yours on February 14, 2030, once the return window has passed.', 'Welcome · TY-OLD']);
    expect(one('[data-not-member]')).toBeNull();

    const action = one('s-button[slot="secondary-actions"]') as HTMLElement;
    expect(text(action)).toBe('Redeem rewards');
    action.click();
    expect(open).toHaveBeenCalledOnce();

    // The app is asked for the customer POS shows with the staff member's session token; the core as the customer's member.
    expect(calls[0]!.url.href).toBe(`${APP}/pos/customer?customer=${CUSTOMER}`);
    expect(calls[0]!.headers).toEqual({ authorization: 'Bearer session' });
    for (const read of calls.slice(1)) {
      expect(read.url.origin).toBe(CORE);
      expect(read.url.searchParams.get('languageCode')).toBe('en');
      expect(read.headers).toEqual({ 'x-account-id': 'acc', 'x-enduser-access-token': 'end-user' });
    }
  });

  it('says a customer with nothing yet is not a member, and that the sale counts for them', async () => {
    network({ balance: 0, earned: 0, logs: [] });
    await showBlock('en');
    expect(text(one('[data-not-member]'))).toBe('Not a member yet: with this customer on the sale, it counts toward their rewards.');
    expect(one('[data-codes]')).toBeNull();
  });

  it('tells a staff member without the app’s permission so, and offers a retry when the app or the core fails', async () => {
    const { calls } = network();
    // POS gives no session token to a user without the app's permission.
    await showBlock('en', async () => undefined);
    expect(text(one('[data-no-access]'))).toBe('Your POS account has no access to the loyalty app.');
    expect(calls).toEqual([]);
    expect(one('s-button[slot="secondary-actions"]')).toBeNull();

    const { state } = network({ appDown: true });
    render(null, document.body);
    await showBlock('en');
    expect(text(one('[data-failed]'))).toBe('Rewards are unavailable right now. Try again');
    state.appDown = false;
    await tap('[data-failed]');
    await vi.waitFor(() => expect(text(one('[data-balance]'))).toBe('Balance: 240 Stars'));
  });

  it('says a customer the shop paused (left out by a customer tag) earns nothing and cannot redeem, and offers no Redeem to tap', async () => {
    network({ status: 'paused' });
    await showBlock('en');
    expect(text(one('[data-paused]'))).toBe('This customer’s membership is paused: their sales earn nothing and they can’t redeem.');
    render(null, document.body);
    await showModal('en');
    expect(text(one('[data-paused]'))).toBe('This customer’s membership is paused: their sales earn nothing and they can’t redeem.');
    // Five costs 100 of the customer's 240: live, its Redeem would be enabled.
    expect(one('[data-reward="five"] s-button')!.getAttribute('disabled')).not.toBeNull();
    // The codes they have are theirs still.
    expect(one('[data-code="old"] s-button')!.getAttribute('disabled')).toBeNull();
    render(null, document.body);
    await showBlock('de');
    expect(text(one('[data-paused]'))).toBe(
      'Die Mitgliedschaft dieses Kunden ist pausiert: Seine Einkäufe bringen nichts, und er kann nichts einlösen.',
    );
  });

  it('speaks the POS device’s language', async () => {
    network();
    await showBlock('ja');
    expect(one('s-pos-block')!.getAttribute('heading')).toBe('ロイヤルティ');
    expect(text(one('[data-balance]'))).toBe('残高：240 Stars');
    expect(text(one('s-button[slot="secondary-actions"]'))).toBe('リワードを交換');
  });
});

describe('the modal: redeeming for the cart', () => {
  it('redeems a reward with a uniqueIdentifier from the POS session and applies its code to the cart', async () => {
    const { calls, redemptions } = network();
    const { apply, storage } = await showModal('en');
    expect(one('s-page')!.getAttribute('heading')).toBe('Redeem rewards');
    expect(all('[data-reward]')).toEqual([
      '€5 off 100 Stars Redeem',
      'Big one 1,000 Stars Redeem 760 Stars to go',
      'Retired 50 Stars Redeem',
    ]);
    // Out of reach: its button is off.
    expect(one('[data-reward="big"] s-button')!.getAttribute('disabled')).not.toBeNull();
    await tap('[data-reward="five"]');
    expect((await notice()).getAttribute('heading')).toBe('Code CODE-1 applied to the cart.');
    expect(apply.mock.calls).toEqual([['CODE-1']]);
    const [post] = redeems(calls);
    expect(post!.url.href).toBe(`${CORE}/api/v1.0/schema/reward/record/five/action/redeem?languageCode=en`);
    expect(post!.headers).toEqual({ 'x-account-id': 'acc', 'x-enduser-access-token': 'end-user', 'content-type': 'application/json' });
    expect(post!.body).toEqual({ uniqueIdentifier: expect.stringMatching(new RegExp(`^pos:${CUSTOMER}:five:41:9:[0-9a-z]+$`)) });
    expect([...redemptions.keys()]).toEqual([(post!.body as { uniqueIdentifier: string }).uniqueIdentifier]);
    // Settled: the next tap is a new redemption.
    expect(storage.entries.size).toBe(0);
    expect(text(one('[data-balance]'))).toBe('Balance: 140 Stars');
    expect(text(one('[data-code="r1"]'))).toBe('Redeemed five CODE-1 Apply to cart');
  });

  it('a double tap redeems once and applies the code once', async () => {
    const { calls, redemptions } = network();
    const { apply } = await showModal('en');
    await tap('[data-reward="five"]', 2);
    await notice();
    expect(redeems(calls)).toHaveLength(1);
    expect(redemptions.size).toBe(1);
    expect(apply).toHaveBeenCalledOnce();
  });

  it('two redemptions of one reward at once, the same Redeemer asked twice, are one', async () => {
    const { calls } = network();
    const data = await load('en')();
    const redeemer = new Redeemer(data.core, posStorage(), SESSION, CUSTOMER);
    const [a, b] = await Promise.all([redeemer.redeem('five'), redeemer.redeem('five')]);
    expect(a).toBe(b);
    expect(redeems(calls)).toHaveLength(1);
  });

  it('a retry after a lost answer sends the same identifier, finds the first redemption’s reward log and applies its code', async () => {
    const { calls, redemptions, state } = network({ loseNextAnswer: true });
    const storage = posStorage();
    const { apply } = await showModal('en', storage);
    await tap('[data-reward="five"]');
    expect((await notice()).getAttribute('heading')).toBe('The loyalty program didn’t answer. Try again.');
    expect(apply).not.toHaveBeenCalled();
    // The core made it; the identifier waits in POS's storage, even for a modal opened again.
    expect(redemptions.size).toBe(1);
    expect(storage.entries.size).toBe(1);
    render(null, document.body);
    await showModal('en', storage, apply);
    await tap('[data-reward="five"]');
    await vi.waitFor(() => expect(apply).toHaveBeenCalledOnce());
    expect(apply.mock.calls[0]).toEqual(['CODE-1']);
    const [first, second] = redeems(calls);
    expect(second!.body).toEqual(first!.body);
    expect(redemptions.size).toBe(1);
    expect(state.balance).toBe(140);
    expect(calls.some((c) => c.url.pathname.endsWith('/schema/point_entry/record'))).toBe(true);
    expect((await notice()).getAttribute('heading')).toBe('Code CODE-1 applied to the cart.');
    expect(storage.entries.size).toBe(0);
  });

  it('a reward issued as a Shopify discount: waits for the app to stamp its code, then applies it', async () => {
    network({ stampAfter: { five: 2 } });
    const { apply } = await showModal('en');
    await tap('[data-reward="five"]');
    await vi.waitFor(() => expect(apply).toHaveBeenCalledOnce(), { timeout: 5000 });
    expect(apply.mock.calls[0]).toEqual(['SHOP-r1']);
  });

  it('a reward issued as store credit: says it was credited and puts nothing on the cart, nor among the codes', async () => {
    network({ stampAfter: { five: 1 }, credits: ['five'] });
    const { apply } = await showModal('en');
    await tap('[data-reward="five"]');
    // The app stamps the credit a moment after the redemption: the modal reads the log again until it has.
    await vi.waitFor(() => expect(one('[data-notice]')).not.toBeNull(), { timeout: 5000 });
    expect(one('[data-notice]')!.getAttribute('heading')).toBe('€7.50 added to the customer’s store credit, to pay with at checkout.');
    expect(apply).not.toHaveBeenCalled();
    expect(all('[data-code]')).toEqual([
      'Ten off Yours on February 14, 2030, once the return window has passed.',
      'Welcome TY-OLD Apply to cart',
    ]);
  });

  it('says why when it cannot: not enough points, not redeemable, the cart refusing a code, points off', async () => {
    const { state } = network();
    const apply = vi.fn(async () => {
      throw new Error('Invalid discount code');
    });
    await showModal('en', posStorage(), apply);
    // Another device spent the points since the modal read them.
    state.balance = 40;
    await tap('[data-reward="five"]');
    expect((await notice()).getAttribute('heading')).toBe('Not enough Stars: 60 Stars more needed.');
    expect(text(one('[data-balance]'))).toBe('Balance: 40 Stars');
    state.balance = 240;
    render(null, document.body);
    await showModal('en', posStorage(), apply);
    await tap('[data-reward="gone"]');
    expect((await notice()).getAttribute('heading')).toBe('This reward can’t be redeemed right now.');
    await tap('[data-code="old"]');
    await vi.waitFor(() => expect(one('[data-notice]')!.getAttribute('heading')).toBe('The cart didn’t take code TY-OLD.'));

    network({ points: false });
    render(null, document.body);
    await showModal('en');
    expect(text(one('[data-points-off]'))).toBe('Points are off in this shop, so there is nothing to redeem.');
    expect(one('[data-redeem]')).toBeNull();
  });

  it('applies an issued code to the cart with one tap', async () => {
    network();
    const { apply } = await showModal('en');
    // A held reward has no code yet, a revoked or expired one is gone, one that gave points never had one: only the issued code can be applied.
    expect(all('[data-code]')).toEqual([
      'Ten off Yours on February 14, 2030, once the return window has passed.',
      'Welcome TY-OLD Apply to cart',
    ]);
    await tap('[data-code="old"]');
    expect((await notice()).getAttribute('heading')).toBe('Code TY-OLD applied to the cart.');
    expect(apply.mock.calls).toEqual([['TY-OLD']]);
  });

  it('speaks German', async () => {
    const { state } = network();
    await showModal('de');
    expect(one('s-page')!.getAttribute('heading')).toBe('Prämien einlösen');
    expect(one('[data-codes]')!.getAttribute('heading')).toBe('Rabattcodes');
    state.balance = 40;
    await tap('[data-reward="five"]');
    expect((await notice()).getAttribute('heading')).toBe('Nicht genug Stars: Es fehlen 60 Stars.');
  });
});

describe('the extension module', () => {
  const api = (extensionPoint: string, isoCode: string, extra: Record<string, unknown>) => ({
    extensionPoint,
    locale: { current: { value: isoCode, subscribe: () => () => undefined } },
    customer: { id: CUSTOMER },
    session: {
      currentSession: { shopId: 1, userId: 41, shopDomain: 'shop.myshopify.com', locationId: 9, currency: 'USD', posVersion: '10.0.0' },
      getSessionToken: async () => 'session',
    },
    ...extra,
  });

  it('renders the block with the action that presents the modal, and the modal that applies codes to POS’s cart, in the device’s language', async () => {
    const { default: run } = await import('../src/PosRewards.js');
    const { calls } = network();
    const presentModal = vi.fn();
    vi.stubGlobal('shopify', api('pos.customer-details.block.render', 'fr-CA', { action: { presentModal } }));
    await act(async () => {
      await run();
    });
    await vi.waitFor(() => expect(one('[data-balance]')).not.toBeNull());
    expect(one('s-pos-block')!.getAttribute('heading')).toBe('Fidélité');
    // The module asks the app at its configured URL (set-app-url).
    expect(calls[0]!.url.origin).toBe(new URL(APP_URL).origin);
    expect(calls[0]!.url.searchParams.get('customer')).toBe(String(CUSTOMER));
    (one('s-button[slot="secondary-actions"]') as HTMLElement).click();
    expect(presentModal).toHaveBeenCalledOnce();
    render(null, document.body);

    const storage = posStorage();
    const addCartCodeDiscount = vi.fn(async () => undefined);
    vi.stubGlobal('shopify', api('pos.customer-details.action.render', 'zh-Hans-CN', { storage, cart: { addCartCodeDiscount } }));
    await act(async () => {
      await run();
    });
    await vi.waitFor(() => expect(one('[data-codes]')).not.toBeNull());
    expect(one('s-page')!.getAttribute('heading')).toBe('兑换奖励');
    await tap('[data-reward="five"]');
    await vi.waitFor(() => expect(addCartCodeDiscount).toHaveBeenCalledWith('CODE-1'));
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
      expect(w.balance).toContain('{n}');
      expect(w.notEnough).toContain('{name}');
      expect(w.notEnough).toContain('{n}');
      expect(w.applied).toContain('{code}');
      expect(w.notApplied).toContain('{code}');
    }
  });
});

describe('Korean words', () => {
  it('leave no particle for the reader to choose ("이(가)"): an amount or name takes any final sound', () => {
    expect(Object.values(wordsFor('ko').w).filter((text) => /\([\uac00-\ud7af]+\)/.test(String(text)))).toEqual([]);
  });
});
