import type { PointEntry, Reward, RewardLog } from '@loyalty/view-model';
import type { DiscountCodeChange, DiscountCodeChangeResult } from '@shopify/ui-extensions/checkout';
import { render } from 'preact';
import { act } from 'preact/test-utils';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { APP_URL } from '../src/app-url.js';
import { type Checkout, CheckoutRewards, type Signal } from '../src/block.js';
import { loadMember } from '../src/load.js';
import { POLL_MS, POLL_TRIES } from '../src/redeem.js';
import { LANGUAGES, wordsFor } from '../src/words.js';
import { defineBareElements, text } from '../../test-support/dom.js';

const TAGS = ['section', 'stack', 'paragraph', 'text', 'badge', 'button'];
beforeAll(() => {
  defineBareElements(TAGS);
});

afterEach(() => {
  render(null, document.body);
  document.body.replaceChildren();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const $ = (selector: string) => document.body.querySelector(selector);
const button = (selector: string) => $(`${selector} s-button`) as HTMLElement;

const APP = 'https://app.example';
const CORE = 'https://core.example';
const CUSTOMER = 'gid://shopify/Customer/7';
const TOKEN = 'c1a2b3';
const key = (rewardId: string) => `checkout:${TOKEN}:${CUSTOMER}:${rewardId}`;

const log = (id: string, couponCode: string | null, extra: Partial<RewardLog> = {}): RewardLog => ({
  id,
  rewardLogStatus: 'issued',
  confirmAt: null,
  couponCode,
  rewardIssuedAt: couponCode ? '2026-11-01T10:00:00.000Z' : null,
  rewardExpiryAt: null,
  eudRewardTitle: `Title ${id}`,
  eudRedeemInstructionMessage: null,
  ...extra,
});
const reward = (id: string, pointsCost: number, extra: Partial<Reward> = {}): Reward => ({
  id,
  rewardKind: 'code',
  discountType: 'percentage',
  discountValue: 10,
  pointsValue: null,
  pointsCost,
  eudTitle: `Reward ${id}`,
  eudRedeemInstructionMessage: null,
  ...extra,
});

/**
 * The core as the member meets it, kept in memory: reward logs, point entries and the balance,
 * the redeem action with its refusals (409 insufficient_points, duplicate_unique_identifier with the
 * first entry's id, as CONTRACT §2 and §19 give them). A reward in `issuedByApp` gets its code as
 * the app's PATCH gives it, `stampAfter` reads of the log later (never when null).
 */
interface Core {
  balance: number;
  logs: RewardLog[];
  entries: PointEntry[];
  rewards: Reward[];
  issuedByApp: Set<string>;
  stampAfter: number | null;
  /** The next redeem request reaches the core and commits, but its answer is lost on the way back. */
  loseNextAnswer: boolean;
  /** Paused by the shop (a customer tag leaves them out): the core refuses their redemptions. */
  status: 'live' | 'paused';
}

type Call = { url: URL; method: string; headers: Record<string, string>; body: unknown };

function network(core: Partial<Core> = {}, app: { status: number; code?: string } | null = null) {
  const state: Core = {
    balance: 800,
    logs: [],
    entries: [],
    rewards: [],
    issuedByApp: new Set(),
    stampAfter: null,
    loseNextAnswer: false,
    status: 'live',
    ...core,
  };
  const reads = new Map<string, number>();
  const calls: Call[] = [];
  const conflict = (code: string, details: unknown[] = []) =>
    Response.json({ error: { status: 409, code, message: code, details, requestId: 'r' } }, { status: 409 });
  vi.stubGlobal('fetch', async (input: string | URL, init?: RequestInit) => {
    const url = new URL(input);
    const method = init?.method ?? 'GET';
    calls.push({
      url,
      method,
      headers: (init?.headers ?? {}) as Record<string, string>,
      body: init?.body && JSON.parse(String(init.body)),
    });
    if (url.pathname === '/checkout/member') {
      if (app) return Response.json(app.code ? { error: { code: app.code, message: 'refused' } } : {}, { status: app.status });
      return Response.json({
        accessToken: 'end-user',
        expiresAt: '2030-01-01T00:00:00Z',
        accountId: 'acc',
        coreUrl: CORE,
        usedCodes: ['USED9'],
        currency: 'EUR',
      });
    }
    const path = url.pathname.replace('/api/v1.0/schema/', '');
    const redeem = /^reward\/record\/([^/]+)\/action\/redeem$/.exec(path);
    if (redeem && method === 'POST') {
      const { uniqueIdentifier } = JSON.parse(String(init!.body)) as { uniqueIdentifier: string };
      const first = state.entries.find((e) => e.uniqueIdentifier === uniqueIdentifier);
      if (first)
        return conflict('duplicate_unique_identifier', [{ field: 'uniqueIdentifier', code: 'duplicate', existingRecordId: first.id }]);
      const bought = state.rewards.find((r) => r.id === redeem[1])!;
      if (state.balance < bought.pointsCost) return conflict('insufficient_points');
      const made = log(`log-${state.logs.length + 1}`, state.issuedByApp.has(bought.id) ? null : `CODE-${state.logs.length + 1}`);
      state.logs.unshift(made);
      state.balance -= bought.pointsCost;
      state.entries.push({
        id: `entry-${state.entries.length + 1}`,
        points: -bought.pointsCost,
        reason: 'redeemed',
        uniqueIdentifier,
        note: null,
        createdAt: new Date().toISOString(),
        linkedSchemaSlug: 'reward_log',
        linkedSchemaRecordId: made.id,
      });
      if (state.loseNextAnswer) {
        state.loseNextAnswer = false;
        throw new TypeError('Failed to fetch');
      }
      return Response.json({ data: { rewardLog: made, pointsBalance: state.balance } });
    }
    const filters = JSON.parse(url.searchParams.get('filters') ?? '{"conditions":[]}') as {
      conditions: { fieldSlug: string; fieldValue: unknown }[];
    };
    const where = (field: string) => filters.conditions.find((c) => c.fieldSlug === field)?.fieldValue;
    if (path === 'account_user/me')
      return Response.json({
        data: { id: 'me', pointsBalance: state.balance, pointsEarnedInTierWindow: 0, tierId: null, status: state.status },
      });
    if (path === 'reward_log/record') {
      const ids = where('id') as string[] | undefined;
      if (!ids) return Response.json({ data: state.logs.filter((l) => l.rewardLogStatus === 'issued') });
      const found = state.logs.filter((l) => ids.includes(l.id));
      for (const l of found) {
        const n = (reads.get(l.id) ?? 0) + 1;
        reads.set(l.id, n);
        if (!l.couponCode && state.stampAfter !== null && n >= state.stampAfter) l.couponCode = `SHOPIFY-${l.id}`;
      }
      return Response.json({ data: found.map((l) => ({ ...l })) });
    }
    if (path === 'point_entry/record')
      return Response.json({ data: state.entries.filter((e) => e.uniqueIdentifier === where('uniqueIdentifier')) });
    const lists: Record<string, unknown> = {
      points_setting: [{ id: 'ps', eudCurrencyName: 'Stars', pointsPerCurrencyUnit: 1, pointsPerOrder: 0, pointsOnSignUp: 0 }],
      reward: state.rewards,
      tier: [],
    };
    return Response.json({ data: lists[path.replace('/record', '')] ?? [] });
  });
  return { state, calls, redeems: () => calls.filter((c) => c.method === 'POST') };
}

/** A signal as the checkout's: its value, and subscribers told of each change. */
function signal<T>(initial: T): Signal<T> & { set(value: T): void } {
  let value = initial;
  const subscribers = new Set<(value: T) => void>();
  return {
    get value() {
      return value;
    },
    set(next: T) {
      value = next;
      for (const fn of subscribers) fn(next);
    },
    subscribe(fn) {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
  };
}

/**
 * The checkout's API as the block uses it: applying a code adds it to `discountCodes` as the checkout
 * does, unless the code is one it refuses (its result then as Shopify gives it, with a message).
 */
function checkout({ applied = [] as string[], canUpdate = true, customer = CUSTOMER as string | null, refused = [] as string[] } = {}) {
  const discountCodes = signal(applied.map((code) => ({ code })));
  const changes: DiscountCodeChange[] = [];
  const api: Checkout = {
    discountCodes,
    instructions: signal({ discounts: { canUpdateDiscountCodes: canUpdate } }),
    checkoutToken: signal<string | undefined>(TOKEN),
    customer: signal(customer ? { id: customer } : undefined),
    async applyDiscountCodeChange(change): Promise<DiscountCodeChangeResult> {
      changes.push(change);
      if (refused.includes(change.code)) return { type: 'error', message: 'Enter a valid discount code' };
      discountCodes.set([...discountCodes.value, { code: change.code }]);
      return { type: 'success' };
    },
  };
  return { api, changes, discountCodes };
}

/** Renders the block and waits until what it loaded (if it loaded anything) is on screen. */
async function show(host: Checkout, lang = 'en') {
  let loaded: Promise<unknown> = Promise.resolve();
  const load = () => {
    const member = loadMember(APP, async () => 'session', lang);
    loaded = member;
    return member;
  };
  await act(async () => {
    render(<CheckoutRewards load={load} checkout={host} lang={lang} />, document.body);
  });
  await act(async () => {
    await loaded.catch(() => undefined);
  });
}

async function click(el: HTMLElement) {
  await act(async () => {
    el.click();
  });
}

describe('the checkout rewards block', () => {
  it("lists the member's codes (applied ones as applied, one still being prepared) and the rewards their points buy", async () => {
    const { calls } = network({
      balance: 600,
      logs: [
        log('l1', 'WELCOME10'),
        log('l2', 'SPRING5'),
        log('l3', null),
        log('old', 'EXPIRED', { rewardExpiryAt: '2020-01-01T00:00:00.000Z' }),
        log('credit', '7.50 EUR'),
        log('spent', 'used9'),
        log('stars', null, { reward: { rewardKind: 'points' } }),
      ],
      rewards: [
        reward('fiver', 400, { discountType: 'fixed_amount', discountValue: 5, eudTitle: null }),
        reward('cheap', 500),
        reward('dear', 5000),
        reward('points', 100, { rewardKind: 'points' }),
      ],
    });
    await show(checkout({ applied: ['spring5'] }).api);
    const block = $('[data-checkout-rewards]')!;
    expect(block.getAttribute('heading')).toBe('Your rewards');
    expect(text($('[data-code="l1"]'))).toBe('Title l1 WELCOME10 Apply');
    // Codes are case-insensitive: the checkout's "spring5" is this code.
    expect(text($('[data-code="l2"]'))).toBe('Title l2 SPRING5 Applied');
    expect(text($('[data-code="l3"]'))).toBe('Title l3 Your code is being prepared. It will be here in a moment.');
    // Expired codes, codes an order used (the app's usedCodes, upper-cased), store credit (credited at payment,
    // not a code) and a reward that gave points (no code either) are not offered; nor what 600 Stars do not buy. An untitled fixed amount is in the shop's currency, which the app names.
    expect([...document.body.querySelectorAll('[data-code]')].map((e) => e.getAttribute('data-code'))).toEqual(['l1', 'l2', 'l3']);
    expect([...document.body.querySelectorAll('[data-redeem]')].map((e) => text(e))).toEqual([
      '€5 off Redeem 400 Stars and apply',
      'Reward cheap Redeem 500 Stars and apply',
    ]);

    // The app is asked with the session token; the core as the member, in the checkout's language.
    expect(calls[0]!.url.href).toBe(`${APP}/checkout/member`);
    expect(calls[0]!.headers).toEqual({ authorization: 'Bearer session' });
    for (const read of calls.slice(1)) {
      expect(read.url.origin).toBe(CORE);
      expect(read.url.searchParams.get('languageCode')).toBe('en');
      expect(read.headers).toEqual({ 'x-account-id': 'acc', 'x-enduser-access-token': 'end-user' });
    }
    const logs = calls.find((c) => c.url.pathname.endsWith('/reward_log/record'))!;
    expect(JSON.parse(logs.url.searchParams.get('filters')!)).toEqual({
      operator: 'and',
      conditions: [{ fieldSlug: 'rewardLogStatus', operator: 'in', fieldValue: ['issued'] }],
    });
  });

  it('applies a code with one click, and says so when the checkout refuses one', async () => {
    network({ logs: [log('l1', 'WELCOME10'), log('l2', 'USED1')] });
    const host = checkout({ refused: ['USED1'] });
    await show(host.api);
    await click(button('[data-code="l1"]'));
    await vi.waitFor(() => expect(text($('[data-code="l1"]'))).toBe('Title l1 WELCOME10 Applied'));
    expect(host.changes).toEqual([{ type: 'addDiscountCode', code: 'WELCOME10' }]);

    await click(button('[data-code="l2"]'));
    await vi.waitFor(() => expect(text($('[data-code="l2"] [data-reason]'))).toBe('The checkout did not accept this code.'));
    // Shopify's message is not localised and not for buyers: it is not shown.
    expect(document.body.textContent).not.toContain('Enter a valid discount code');
  });

  it('says discount codes cannot be added where the checkout does not take them, and offers no button', async () => {
    network({ logs: [log('l1', 'WELCOME10')], rewards: [reward('cheap', 500)] });
    const host = checkout({ canUpdate: false });
    await show(host.api);
    expect(text($('[data-not-allowed]'))).toBe('Discount codes can’t be added to this checkout.');
    expect(button('[data-code="l1"]').hasAttribute('disabled')).toBe(true);
    expect(button('[data-redeem="cheap"]').hasAttribute('disabled')).toBe(true);
  });

  it('redeems points for a reward and applies its code, keyed by the checkout, the buyer and the reward', async () => {
    const { state, redeems } = network({ balance: 900, rewards: [reward('cheap', 500), reward('other', 600)] });
    const host = checkout();
    await show(host.api);
    expect(text($('[data-redeem="other"]'))).toBe('Reward other Redeem 600 Stars and apply');
    await click(button('[data-redeem="cheap"]'));
    await vi.waitFor(() => expect(host.changes).toEqual([{ type: 'addDiscountCode', code: 'CODE-1' }]));
    expect(redeems().map((c) => [c.url.pathname, c.body])).toEqual([
      ['/api/v1.0/schema/reward/record/cheap/action/redeem', { uniqueIdentifier: key('cheap') }],
    ]);
    expect(state.balance).toBe(400);
    // The reward's row gives way to its code, applied; 400 Stars left do not buy the other any more.
    await vi.waitFor(() => expect(text($('[data-code="log-1"]'))).toBe('Title log-1 CODE-1 Applied'));
    expect($('[data-redeem="cheap"]')).toBeNull();
    expect(text($('[data-redeem="other"]'))).toBe('Reward other You need 200 Stars more for this reward.');
  });

  it('offers redemption once the checkout has its token, which keys it', async () => {
    const { redeems } = network({ rewards: [reward('cheap', 500)] });
    const host = checkout();
    const token = signal<string | undefined>(undefined);
    await show({ ...host.api, checkoutToken: token });
    const redeem = button('[data-redeem="cheap"]');
    expect(redeem.hasAttribute('disabled')).toBe(true);
    await click(redeem);
    expect(redeems()).toEqual([]);
    await act(async () => token.set(TOKEN));
    expect(redeem.hasAttribute('disabled')).toBe(false);
    await click(redeem);
    await vi.waitFor(() => expect(host.changes).toEqual([{ type: 'addDiscountCode', code: 'CODE-1' }]));
    expect(redeems().map((c) => c.body)).toEqual([{ uniqueIdentifier: key('cheap') }]);
  });

  it('turns a second click away while the first redemption runs: one redeem request', async () => {
    const { state, redeems } = network({ balance: 2000, rewards: [reward('cheap', 500)] });
    await show(checkout().api);
    const redeem = button('[data-redeem="cheap"]');
    await act(async () => {
      redeem.click();
      redeem.click();
      redeem.click();
    });
    await vi.waitFor(() => expect($('[data-code="log-1"]')).not.toBeNull());
    expect(redeems()).toHaveLength(1);
    expect([state.entries.length, state.logs.length, state.balance]).toEqual([1, 1, 1500]);
  });

  it('applies the code an earlier redemption in this checkout made (a reload, a lost answer) instead of redeeming again', async () => {
    // An earlier load of the block redeemed this reward in this checkout; the new one lists its code and still offers the reward.
    const { state, redeems, calls } = network({
      balance: 1500,
      rewards: [reward('cheap', 500)],
      logs: [log('log-0', 'FIRST')],
      entries: [
        {
          id: 'e0',
          points: -500,
          reason: 'redeemed',
          uniqueIdentifier: key('cheap'),
          note: null,
          createdAt: new Date().toISOString(),
          linkedSchemaSlug: 'reward_log',
          linkedSchemaRecordId: 'log-0',
        },
      ],
    });
    const host = checkout();
    await show(host.api);
    await click(button('[data-redeem="cheap"]'));
    await vi.waitFor(() => expect(host.changes).toEqual([{ type: 'addDiscountCode', code: 'FIRST' }]));
    expect(redeems()).toHaveLength(1);
    const lookup = calls.find((c) => c.url.pathname.endsWith('/point_entry/record'))!;
    expect(JSON.parse(lookup.url.searchParams.get('filters')!)).toEqual({
      operator: 'and',
      // Among redemptions: an entry of another kind may hold the same identifier.
      conditions: [
        { fieldSlug: 'uniqueIdentifier', operator: 'equals', fieldValue: key('cheap') },
        { fieldSlug: 'reason', operator: 'equals', fieldValue: 'redeemed' },
      ],
    });
    expect([state.entries.length, state.logs.length, state.balance]).toEqual([1, 1, 1500]);
    await vi.waitFor(() => expect(text($('[data-code="log-0"]'))).toBe('Title log-0 FIRST Applied'));
    expect(document.body.querySelectorAll('[data-code]')).toHaveLength(1);

    // A redemption whose answer is lost on the way back is sent again under the same key: it finds the log it made.
    const lost = network({ balance: 1500, rewards: [reward('cheap', 500)], loseNextAnswer: true });
    render(null, document.body);
    const again = checkout();
    await show(again.api);
    await click(button('[data-redeem="cheap"]'));
    await vi.waitFor(() => expect(again.changes).toEqual([{ type: 'addDiscountCode', code: 'CODE-1' }]));
    expect(lost.redeems().map((c) => c.body)).toEqual([{ uniqueIdentifier: key('cheap') }, { uniqueIdentifier: key('cheap') }]);
    expect([lost.state.entries.length, lost.state.logs.length, lost.state.balance]).toEqual([1, 1, 1000]);
  });

  it('waits for the code of a reward the app issues as a Shopify discount, then applies it; says it is being prepared when it does not come', async () => {
    // Each check lets the block's next read of the reward log come, on the checkout's clock.
    const poll = async (check: () => void) =>
      vi.waitFor(
        async () => {
          await act(async () => {
            await vi.advanceTimersByTimeAsync(POLL_MS);
          });
          check();
        },
        { interval: 5, timeout: 5000 },
      );
    const { state } = network({ rewards: [reward('shopify', 500)], issuedByApp: new Set(['shopify']), stampAfter: 3 });
    const host = checkout();
    await show(host.api);
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    await click(button('[data-redeem="shopify"]'));
    await poll(() => expect(host.changes).toEqual([{ type: 'addDiscountCode', code: 'SHOPIFY-log-1' }]));
    expect(state.entries).toHaveLength(1);
    vi.useRealTimers();

    render(null, document.body);
    const never = network({ rewards: [reward('shopify', 500)], issuedByApp: new Set(['shopify']), stampAfter: null });
    const late = checkout();
    await show(late.api);
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    await click(button('[data-redeem="shopify"]'));
    await poll(() => expect(text($('[data-code="log-1"]'))).toBe('Title log-1 Your code is being prepared. It will be here in a moment.'));
    // It reads the log POLL_TRIES times, then stops asking.
    const reads = never.calls.filter((c) => c.url.searchParams.get('filters')?.includes('"fieldSlug":"id"'));
    expect(reads).toHaveLength(POLL_TRIES);
    expect(late.changes).toEqual([]);
  });

  it('says how many points are missing when the balance moved since the block loaded', async () => {
    const { state } = network({ balance: 600, rewards: [reward('cheap', 500)] });
    await show(checkout().api);
    // Spent in another tab meanwhile.
    state.balance = 350;
    await click(button('[data-redeem="cheap"]'));
    await vi.waitFor(() => expect(text($('[data-redeem="cheap"]'))).toBe('Reward cheap You need 150 Stars more for this reward.'));
    expect(state.entries).toEqual([]);
  });

  it('shows nothing for a guest, a member the program has nothing for, or when the app or the core fails', async () => {
    const guest = network();
    await show(checkout({ customer: null }).api);
    expect(document.body.innerHTML).toBe('');
    // A guest is never asked about: no session token sent anywhere.
    expect(guest.calls).toEqual([]);
    const cases: [Partial<Core>, { status: number; code: string } | null][] = [
      [{}, { status: 401, code: 'no_customer' }],
      [{}, { status: 404, code: 'not_installed' }],
      [{}, { status: 503, code: 'unavailable' }],
      [{ balance: 10, rewards: [reward('dear', 500)] }, null],
    ];
    for (const [core, app] of cases) {
      network(core, app);
      await show(checkout().api);
      expect(document.body.innerHTML, JSON.stringify(app)).toBe('');
      render(null, document.body);
    }
  });

  it('offers a member the shop paused (left out by a customer tag) their codes but nothing to redeem, and nothing at all without codes', async () => {
    network({ status: 'paused', balance: 600, logs: [log('l1', 'WELCOME10')], rewards: [reward('cheap', 500)] });
    await show(checkout().api);
    expect(text($('[data-code="l1"]'))).toBe('Title l1 WELCOME10 Apply');
    expect($('[data-redeem]')).toBeNull();
    render(null, document.body);
    // Live, the same member's 600 Stars buy the reward: what pausing takes away.
    network({ balance: 600, rewards: [reward('cheap', 500)] });
    await show(checkout().api);
    expect($('[data-redeem="cheap"]')).not.toBeNull();
    render(null, document.body);
    network({ status: 'paused', balance: 600, rewards: [reward('cheap', 500)] });
    await show(checkout().api);
    expect(document.body.innerHTML).toBe('');
  });

  it('speaks the checkout’s language', async () => {
    network({ balance: 600, logs: [log('l1', 'WELCOME10')], rewards: [reward('cheap', 500), reward('x', 700)] });
    await show(checkout({ canUpdate: false }).api, 'de');
    expect($('[data-checkout-rewards]')!.getAttribute('heading')).toBe('Deine Prämien');
    expect(text($('[data-code="l1"] s-button'))).toBe('Anwenden');
    expect(text($('[data-redeem="cheap"] s-button'))).toBe('500 Stars einlösen und anwenden');
    expect(text($('[data-not-allowed]'))).toBe('In diesem Checkout können keine Rabattcodes hinzugefügt werden.');
  });
});

describe('the extension module', () => {
  it("reads the checkout's API from the global `shopify`, in the buyer's language, and asks the app at its configured URL", async () => {
    const { calls } = network({ logs: [log('l1', 'WELCOME10')] });
    const host = checkout();
    vi.stubGlobal('shopify', {
      localization: { language: signal({ isoCode: 'fr-CA' }) },
      sessionToken: { get: async () => 'session' },
      buyerIdentity: { customer: host.api.customer },
      discountCodes: host.discountCodes,
      instructions: host.api.instructions,
      checkoutToken: host.api.checkoutToken,
      applyDiscountCodeChange: host.api.applyDiscountCodeChange,
    });
    const { default: run } = await import('../src/CheckoutRewards.js');
    await act(async () => {
      await run();
    });
    await vi.waitFor(() => expect($('[data-checkout-rewards]')).not.toBeNull());
    expect(calls[0]!.url.href).toBe(`${new URL(APP_URL).origin}/checkout/member`);
    expect($('[data-checkout-rewards]')!.getAttribute('heading')).toBe('Vos récompenses');
    await click(button('[data-code="l1"]'));
    await vi.waitFor(() => expect(host.changes).toEqual([{ type: 'addDiscountCode', code: 'WELCOME10' }]));
  });
});

describe('the words', () => {
  it('come in the nine languages of the widget, each word of its own', () => {
    expect(LANGUAGES).toEqual(['en', 'fr', 'es', 'de', 'it', 'pt', 'ja', 'ko', 'zh-CN']);
    const english = wordsFor('en').w;
    for (const lang of LANGUAGES.slice(1)) {
      const { w } = wordsFor(lang);
      expect(Object.keys(w)).toEqual(Object.keys(english));
      for (const k of Object.keys(english) as (keyof typeof english)[]) expect(w[k], `${lang} ${k}`).not.toBe(english[k]);
      expect(w.redeemApply).toContain('{n}');
      expect(w.short).toContain('{n}');
    }
  });
});

describe('Korean words', () => {
  it('leave no particle for the reader to choose ("이(가)"): an amount or name takes any final sound', () => {
    expect(Object.values(wordsFor('ko').w).filter((text) => /\([\uac00-\ud7af]+\)/.test(String(text)))).toEqual([]);
  });
});
