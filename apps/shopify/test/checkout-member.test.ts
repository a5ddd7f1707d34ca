import { TEST_SHOP, TEST_SHOP_NAME } from '@shopify/shopify-api/test-helpers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Client } from '../../core/test/support/harness';
import { loadMember } from '../../../extensions/loyalty-checkout-rewards/src/load';
import { redeemOnce, redemptionKey } from '../../../extensions/loyalty-checkout-rewards/src/redeem';
import { type RewardLog, storeCredit } from '../../../packages/view-model/src/index';
import { storeCreditStamp } from '../app/shopify/reward-issuing';
import { extensionToken, fromExtension, refusedTokens, type TokenOptions } from './support/extensions';
import { adminLoad, BROWSER, orderPayload } from './support/orders';
import { type Production, startProduction } from './support/production';
import { creatorFor } from './support/programs';
import { webhookRequest } from './support/stack';
import { until } from './support/until';

/**
 * The checkout rewards block's route and its redemptions, through what ships: the app's production
 * build answering session tokens signed as Shopify signs a checkout UI extension's (HS256 with the
 * app's secret, `dest` = the shop, `sub` = the signed-in buyer), and the block's own load and
 * redeem code talking to the core's built binary as the member it is given.
 */
let prod: Production;
let api: Client;
const created = creatorFor(() => api);
const OTHER_SHOP_NAME = 'other-shop';
const customer = (id: number) => `gid://shopify/Customer/${id}`;

/** A session token as `shopify.sessionToken.get()` hands the block: no `sid`, and `sub` only for a signed-in buyer. */
const sessionToken = (claims: Record<string, unknown>, { shopName = TEST_SHOP_NAME, secret }: TokenOptions = {}) =>
  extensionToken({ iss: undefined, sid: undefined, dest: `${shopName}.myshopify.com`, ...claims }, { shopName, secret });

const forCustomer = (id: number, options?: TokenOptions) => sessionToken({ sub: customer(id) }, options);

const ask = (token: string | null, method = 'GET') => fromExtension(new URL('/checkout/member', prod.url), token, method);

interface Answer {
  accessToken: string;
  expiresAt: string;
  accountId: string;
  coreUrl: string;
  usedCodes: string[];
  currency: string | null;
}

const asMember = (body: Answer) => ({ 'x-enduser-access-token': body.accessToken, 'x-account-id': body.accountId });

beforeAll(async () => {
  prod = await startProduction();
  expect((await adminLoad(prod.url, '/app')).status).toBe(200);
  expect((await adminLoad(prod.url, '/app', OTHER_SHOP_NAME)).status).toBe(200);

  const account = (await prod.shops.find(TEST_SHOP))!;
  api = new Client(`${prod.core.url}/api/v1.0`, { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
  const setting = (await api.get('/schema/points_setting/record')).body.data[0];
  const on = await api.patch(`/schema/points_setting/record/${setting.id}`, { status: 'live', eudCurrencyName: 'Stars' });
  expect(on.status, JSON.stringify(on.body)).toBe(200);
}, 180_000);

afterAll(() => prod?.close());

describe('GET /checkout/member', () => {
  it('answers the CORS preflight without a token', async () => {
    const res = await ask(null, 'OPTIONS');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toContain('Authorization');
  });

  it("answers the signed-in buyer's end-user token, which reads the core as that member", async () => {
    const res = await ask(await forCustomer(501));
    const body = (await res.json()) as Answer;
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(Object.keys(body).sort()).toEqual(['accessToken', 'accountId', 'coreUrl', 'currency', 'expiresAt', 'usedCodes']);
    expect(body.usedCodes).toEqual([]);
    // The shop's currency, which the block writes a reward's fixed amount in.
    expect(body.currency).toBe(prod.admin.currencyCode);
    expect(body.accountId).toBe((await prod.shops.find(TEST_SHOP))!.accountId);
    const ttl = Date.parse(body.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(1800_000);
    const me = await new Client(`${prod.core.url}/api/v1.0`).get('/schema/account_user/me', undefined, asMember(body));
    expect(me.status).toBe(200);
    expect(me.body.data.externalId).toBe(customer(501));
  });

  it("names the codes the buyer's paid orders used, which the block does not offer again", async () => {
    const order = orderPayload(8001, {
      customer: { id: 801 },
      lines: [{ product: 10, quantity: 1, price: '20.00' }],
      discountCodes: [
        { code: 'pts-abc', amount: '2.00' },
        { code: 'WELCOME', amount: '1.00' },
      ],
    });
    expect((await prod.send(await webhookRequest('orders/paid', order))).status).toBe(200);
    const answer = await until('the order facts', async () => {
      const body = (await (await ask(await forCustomer(801))).json()) as Answer;
      return body.usedCodes.length ? body : undefined;
    });
    // Upper-cased, as codes are case-insensitive.
    expect(answer.usedCodes).toEqual(['PTS-ABC', 'WELCOME']);
    expect(((await (await ask(await forCustomer(802))).json()) as Answer).usedCodes).toEqual([]);
  });

  it('refuses a missing, forged, tampered, expired or not-yet-valid session token, readably across origins', async () => {
    const refused = await refusedTokens((claims, options) => sessionToken({ sub: customer(501), ...claims }, options), {
      sub: customer(502),
    });
    for (const token of refused) {
      const res = await ask(token);
      expect(res.status, String(token)).toBe(401);
      // Readable by the extension's fetch across origins, as its other answers are.
      expect(res.headers.get('access-control-allow-origin'), String(token)).toBe('*');
      expect(res.headers.get('cache-control'), String(token)).toBe('no-store');
      const body = await res.text();
      expect(body).not.toContain('accessToken');
      // The app's error body, not the library's empty one.
      expect(JSON.parse(body), String(token)).toMatchObject({ error: { code: 'unauthenticated' } });
    }
  });

  it('refuses a token without a customer with no_customer, on which the block shows nothing', async () => {
    for (const sub of [undefined, '', '501', 'gid://shopify/StaffMember/1']) {
      const res = await ask(await sessionToken({ sub }));
      expect(res.status, String(sub)).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('no_customer');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it("gives another shop's token that shop's member, never this shop's; a shop without the app gets none", async () => {
    const res = await ask(await forCustomer(501, { shopName: OTHER_SHOP_NAME }));
    const body = (await res.json()) as Answer;
    expect(res.status).toBe(200);
    const mine = (await prod.shops.find(TEST_SHOP))!;
    expect(body.accountId).toBe((await prod.shops.find(`${OTHER_SHOP_NAME}.myshopify.com`))!.accountId);
    expect(body.accountId).not.toBe(mine.accountId);
    const core = new Client(`${prod.core.url}/api/v1.0`);
    expect((await core.get('/schema/account_user/me', undefined, { ...asMember(body), 'x-account-id': mine.accountId })).status).not.toBe(
      200,
    );

    const unknown = await ask(await forCustomer(501, { shopName: 'unknown-shop' }));
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('not_installed');
  });
});

describe('a redemption at checkout', () => {
  // The block's requests leave a browser's worker, with its user agent (the library answers bots 410).
  beforeAll(() => {
    const send = globalThis.fetch;
    vi.stubGlobal('fetch', (input: string | URL, init: RequestInit = {}) =>
      send(input, { ...init, headers: { ...(init.headers as Record<string, string>), 'user-agent': BROWSER } }),
    );
  });
  afterAll(() => vi.unstubAllGlobals());

  /** The block's load for a buyer given `points` to spend (the first load makes the member). */
  async function buyerWith(id: number, points: number) {
    const load = async () => (await loadMember(prod.url, () => forCustomer(id), 'en'))!;
    const me = await (await load()).api.me();
    expect((await api.post('/schema/point_entry/record', { ownedById: me.id, points, reason: 'earned' })).status).toBe(200);
    return { data: await load(), memberId: me.id };
  }
  const ownedBy = (memberId: string) => ({
    filters: { operator: 'and', conditions: [{ fieldSlug: 'ownedById', operator: 'equals', fieldValue: memberId }] },
  });
  const entriesOf = async (memberId: string) =>
    (
      await api.get<{ data: { reason: string; points: number; uniqueIdentifier: string | null; linkedSchemaRecordId: string | null }[] }>(
        '/schema/point_entry/record',
        ownedBy(memberId),
      )
    ).body.data;
  const rewardLogsOf = async (memberId: string) =>
    (await api.get<{ data: { id: string; couponCode: string | null }[] }>('/schema/reward_log/record', ownedBy(memberId))).body.data;

  it('racing clicks and a retry under one key redeem once: one redeemed entry, one reward log, the same code for each', async () => {
    const reward = await created('/schema/reward/record', {
      name: 'Ten off for points',
      description: 'd',
      status: 'live',
      discountType: 'percentage',
      discountValue: 10,
      rewardExpiryType: 'no_expiry',
      handleCoupon: true,
      handleCouponAutoGeneration: true,
      couponCodePrefix: 'PTS',
      pointsCost: 500,
    });
    const { data, memberId } = await buyerWith(601, 1200);
    expect(data.redeemable.map((r) => r.id)).toContain(reward.id);
    const key = redemptionKey('checkout-token-601', customer(601), reward.id);

    const raced = await Promise.all([1, 2, 3, 4].map(() => redeemOnce(data.api, reward.id, key)));
    const retried = await redeemOnce(data.api, reward.id, key);
    const codes = [...raced, retried].map((r) => (r.kind === 'code' ? r.code : r.kind));
    expect(new Set(codes).size, codes.join()).toBe(1);
    expect(codes[0]).toMatch(/^PTS/);

    const entries = await entriesOf(memberId);
    const redeemed = entries.filter((e) => e.reason === 'redeemed');
    expect(redeemed).toEqual([expect.objectContaining({ points: -500, uniqueIdentifier: key })]);
    const logs = await rewardLogsOf(memberId);
    expect(logs).toEqual([expect.objectContaining({ id: redeemed[0]!.linkedSchemaRecordId, couponCode: codes[0] })]);
    expect((await data.api.me()).pointsBalance).toBe(700);

    // Another checkout is another redemption.
    const next = await redeemOnce(data.api, reward.id, redemptionKey('checkout-token-602', customer(601), reward.id));
    expect(next.kind === 'code' && next.code).not.toBe(codes[0]);
    expect(await rewardLogsOf(memberId)).toHaveLength(2);
    expect((await data.api.me()).pointsBalance).toBe(200);
  });

  it('waits for the code of a reward issued as a Shopify discount: one discount however many clicks', async () => {
    prod.admin.customers.set(customer(701), { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' });
    const reward = await created('/schema/reward/record', {
      name: 'Fifteen off for points',
      description: 'd',
      status: 'live',
      discountType: 'percentage',
      discountValue: 15,
      rewardExpiryType: 'relative',
      rewardExpiryInDays: 30,
      handleCoupon: false,
      pointsCost: 300,
    });
    // As the rewards editor saves "Issue as a Shopify discount".
    await prod.appPool.query('insert into shopify_discount_rewards (shop, reward_id) values ($1, $2)', [TEST_SHOP, reward.id]);
    const { data, memberId } = await buyerWith(701, 1000);
    const key = redemptionKey('checkout-token-701', customer(701), reward.id);

    const outcomes = await Promise.all([1, 2, 3].map(() => redeemOnce(data.api, reward.id, key)));
    // Under load the app may stamp the code after the block stopped waiting ("being prepared"): a click then finds it.
    const code = await until('the code', async () => {
      const again = await redeemOnce(data.api, reward.id, key);
      return again.kind === 'code' && again.code;
    });
    for (const outcome of outcomes)
      expect(outcome.kind === 'code' ? outcome.code : outcome.kind).toMatch(new RegExp(`^(${code}|preparing)$`));
    expect(prod.admin.discounts.get(code)?.input).toMatchObject({ code, usageLimit: 1, context: { customers: { add: [customer(701)] } } });
    // One discount for this buyer, made by one call.
    const forBuyer = (input: Record<string, unknown>) => JSON.stringify(input).includes(customer(701));
    expect([...prod.admin.discounts.values()].filter((d) => forBuyer(d.input))).toHaveLength(1);
    const calls = prod.admin.requests.filter((r) => r.operation === 'LoyaltyDiscountCreate' && forBuyer(r.variables));
    expect(calls).toHaveLength(1);
    expect((await entriesOf(memberId)).filter((e) => e.reason === 'redeemed')).toHaveLength(1);
    expect(await rewardLogsOf(memberId)).toHaveLength(1);
  });

  it('knows the store credit stamp the app writes, which the storefront never offers as a code', () => {
    const stamped = (couponCode: string): RewardLog => ({
      id: 'log',
      rewardLogStatus: 'issued',
      confirmAt: null,
      couponCode,
      rewardIssuedAt: null,
      rewardExpiryAt: null,
      eudRewardTitle: null,
      eudRedeemInstructionMessage: null,
    });
    expect(storeCredit(stamped(storeCreditStamp(7.5, 'EUR')))).toEqual({ amount: 7.5, currency: 'EUR' });
    expect(storeCredit(stamped('PTS7XK2Q9'))).toBeNull();
  });
});
