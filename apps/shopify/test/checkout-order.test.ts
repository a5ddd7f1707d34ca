import { TEST_SHOP, TEST_SHOP_NAME } from '@shopify/shopify-api/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../core/test/support/harness';
import { giftReward } from './support/programs';
import { extensionToken, fromExtension, refusedTokens, type TokenOptions } from './support/extensions';
import { adminLoad, customerPayload, orderPayload, type OrderSpec, refundPayload } from './support/orders';
import { type Production, startProduction } from './support/production';
import { creatorFor } from './support/programs';
import { webhookRequest } from './support/stack';
import { until } from './support/until';

/**
 * The thank-you and order status pages' route, through the production build: a paid order
 * delivered by Shopify's signed webhook, then read back with session tokens signed as Shopify signs
 * a checkout UI extension's (HS256 with the app's secret, `dest` = the shop, `sub` = the customer
 * when signed in), and every token or order the route must refuse.
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

function ask(token: string | null, order: string | null, method = 'GET'): Promise<Response> {
  const url = new URL('/checkout/order', prod.url);
  if (order) url.searchParams.set('order', order);
  return fromExtension(url, token, method);
}

interface Answer {
  friendGift: string | null;
  order: {
    name: string;
    state: string;
    points: { earned: number; reversed: number } | null;
    counted: { kind: string; definitionId: string; value: number; reversed: number }[];
    rewardLogIds: string[];
  } | null;
  accessToken: string;
  expiresAt: string;
  accountId: string;
  coreUrl: string;
}

/** Delivers a webhook as Shopify does and waits for the worker to be done with its subject. */
async function delivered(topic: string, payload: Record<string, unknown>, subject: string): Promise<void> {
  expect((await prod.send(await webhookRequest(topic, payload))).status).toBe(200);
  await until(`${subject} worked off`, async () => {
    const { rows } = await prod.appPool.query<{ status: string }>('select status from shopify_webhooks where shop = $1 and subject = $2', [
      TEST_SHOP,
      subject,
    ]);
    return rows[0]?.status === 'done';
  });
}

const paid = (id: number, spec: OrderSpec, email?: string) =>
  delivered('orders/paid', { ...orderPayload(id, spec), ...(email ? { email } : {}) }, `order:${id}`);

// 2 shoes at 25 with 5 off the line (45) and a hat at 30: 75 of products, 80 points with the 5 per order.
const SHOES_AND_HAT = (id: number | null): OrderSpec => ({
  customer: id === null ? null : { id },
  lines: [
    { product: 10, quantity: 2, price: '25.00', discount: '5.00' },
    { product: 20, quantity: 1, price: '30.00' },
  ],
});

let streak: { id: string };

beforeAll(async () => {
  prod = await startProduction();
  expect((await adminLoad(prod.url, '/app')).status).toBe(200);
  expect((await adminLoad(prod.url, '/app', OTHER_SHOP_NAME)).status).toBe(200);

  const account = (await prod.shops.find(TEST_SHOP))!;
  api = new Client(`${prod.core.url}/api/v1.0`, { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
  const setting = (await api.get('/schema/points_setting/record')).body.data[0];
  const on = await api.patch(`/schema/points_setting/record/${setting.id}`, {
    status: 'live',
    pointsPerCurrencyUnit: 1,
    pointsPerOrder: 5,
  });
  expect(on.status, JSON.stringify(on.body)).toBe(200);
  // A streak fed by orders whose first day rewards a code, held through a 14-day return window.
  const reward = await created('/schema/reward/record', {
    name: 'Ten off',
    description: 'd',
    discountType: 'percentage',
    discountValue: 10,
    rewardExpiryType: 'no_expiry',
    handleCoupon: true,
    handleCouponAutoGeneration: true,
    couponCodePrefix: 'TY',
  });
  streak = await created('/schema/streak/record', { name: 'Order days', status: 'live', aggregationPeriod: 'daily', rewardHoldDays: 14 });
  await created('/schema/milestone/record', {
    name: 'First day',
    description: 'd',
    linkedSchemaSlug: 'streak',
    linkedSchemaRecordId: streak.id,
    milestoneTargetValue: 1,
    rewardId: reward.id,
    status: 'live',
  });
  await prod.appPool.query('insert into earning_rules (shop, kind, definition_id, source, collection_ids) values ($1, $2, $3, $4, $5)', [
    TEST_SHOP,
    'streak',
    streak.id,
    'orders',
    '[]',
  ]);
}, 180_000);

afterAll(() => prod?.close());

describe('GET /checkout/order', () => {
  it('answers the CORS preflight without a token', async () => {
    const res = await ask(null, null, 'OPTIONS');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toContain('Authorization');
  });

  it('says the order is not in yet before its webhook, then what it earned: points, the streak it counted for, the reward held through the return window', async () => {
    const before = await ask(await forCustomer(901), 'gid://shopify/OrderIdentity/1');
    expect(before.status).toBe(200);
    expect(((await before.json()) as Answer).order).toBeNull();

    await paid(1, SHOES_AND_HAT(901));
    // The thank-you page names the order OrderIdentity, the order status page Order: the same order.
    for (const gid of ['gid://shopify/OrderIdentity/1', 'gid://shopify/Order/1']) {
      const res = await ask(await forCustomer(901), gid);
      const body = (await res.json()) as Answer;
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(body.order).toEqual({
        name: '#1',
        state: 'earned',
        points: { earned: 80, reversed: 0 },
        counted: [{ kind: 'streak', definitionId: streak.id, value: 1, reversed: 0 }],
        rewardLogIds: [expect.any(String)],
      });
      expect(body.accountId).toBe((await prod.shops.find(TEST_SHOP))!.accountId);
      // The end-user token reads the customer's own member in the core: the balance, and the reward still held.
      const asMember = { 'x-enduser-access-token': body.accessToken, 'x-account-id': body.accountId };
      const core = new Client(`${prod.core.url}/api/v1.0`);
      const me = await core.get('/schema/account_user/me', undefined, asMember);
      expect(me.body.data).toMatchObject({ externalId: customer(901), pointsBalance: 80 });
      const held = await core.get(`/schema/reward_log/record/${body.order!.rewardLogIds[0]}`, undefined, asMember);
      expect(held.status).toBe(200);
      expect(held.body.data).toMatchObject({ rewardLogStatus: 'pending', couponCode: null });
      const days = (Date.parse(held.body.data.confirmAt) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(13.9);
      expect(days).toBeLessThanOrEqual(14);
      // The shop gives referred friends no gift yet.
      expect(body.friendGift).toBeNull();
    }
    // With one, the block's referral card names it.
    const giftId = await giftReward(api, prod.appPool, { eudTitle: '$10 off your first order' });
    const setting = (await api.get('/schema/points_setting/record')).body.data[0];
    expect((await api.patch(`/schema/points_setting/record/${setting.id}`, { referralRewardId: giftId })).status).toBe(200);
    const withGift = (await (await ask(await forCustomer(901), 'gid://shopify/Order/1')).json()) as Answer;
    expect(withGift.friendGift).toBe('$10 off your first order');
    expect((await api.patch(`/schema/points_setting/record/${setting.id}`, { referralRewardId: null })).status).toBe(200);
  });

  it("shows nothing of another customer's order or a guest's, answering as for an order not received: which ids exist stays unknown", async () => {
    await paid(2, SHOES_AND_HAT(null));
    const unknown = (await (await ask(await forCustomer(902), 'gid://shopify/Order/424242')).json()) as Answer;
    for (const [token, order] of [
      [await forCustomer(902), 'gid://shopify/Order/1'],
      [await forCustomer(901), 'gid://shopify/Order/2'],
    ] as const) {
      const res = await ask(token, order);
      const body = (await res.json()) as Answer;
      expect(res.status).toBe(200);
      expect(body.order).toBeNull();
      expect(Object.keys(body).sort()).toEqual(Object.keys(unknown).sort());
      expect(JSON.stringify(body)).not.toMatch(/#1|#2|points/);
    }
  });

  it("counts a guest's recent order for the account its shopper then creates with the same e-mail, its refund taken back after", async () => {
    await paid(3, SHOES_AND_HAT(null), 'shopper@example.com');
    // The hat (30 of the 75 spent) comes back while the order is still a guest's: nothing to take back yet.
    await delivered('refunds/create', refundPayload(30, 3, [{ position: 2, quantity: 1 }]), 'refund:30');
    expect((await ask(await sessionToken({ sub: undefined }), 'gid://shopify/OrderIdentity/3')).status).toBe(401);

    await delivered('customers/create', { ...customerPayload(903), email: 'Shopper@Example.com' }, 'customer:903');
    const answer = await until('the adopted order earned', async () => {
      const res = await ask(await forCustomer(903), 'gid://shopify/OrderIdentity/3');
      const body = (await res.json()) as Answer;
      return res.status === 200 && body.order?.points?.reversed ? body.order : undefined;
    });
    expect(answer).toMatchObject({ name: '#3', state: 'partly_refunded', points: { earned: 80, reversed: 30 } });
    expect(answer.counted).toEqual([{ kind: 'streak', definitionId: streak.id, value: 1, reversed: 0 }]);
    // Another guest's order, with another e-mail, stays theirs.
    expect(((await (await ask(await forCustomer(903), 'gid://shopify/Order/2')).json()) as Answer).order).toBeNull();
  });

  it("leaves a guest's order alone for an account made with its e-mail until Shopify says the e-mail is verified", async () => {
    await paid(4, SHOES_AND_HAT(null), 'victim@example.com');
    const stranger = { ...customerPayload(904), email: 'Victim@Example.com', verified_email: false };
    await delivered('customers/create', stranger, 'customer:904');
    // An update that still shows the e-mail unproved is answered and not kept.
    expect((await prod.send(await webhookRequest('customers/update', { ...stranger, first_name: 'Eve' }))).status).toBe(200);
    const kept = () =>
      prod.appPool
        .query('select 1 from shopify_webhooks where shop = $1 and topic = $2', [TEST_SHOP, 'customers/update'])
        .then((r) => r.rowCount);
    expect(await kept()).toBe(0);
    const orderOf904 = async () => ((await (await ask(await forCustomer(904), 'gid://shopify/OrderIdentity/4')).json()) as Answer).order;
    expect(await orderOf904()).toBeNull();

    await delivered('customers/update', { ...stranger, verified_email: true }, 'verified:904');
    expect(await until('the order adopted once verified', async () => (await orderOf904())?.points?.earned === 80)).toBe(true);
    // Later updates of the verified customer are not kept again.
    expect((await prod.send(await webhookRequest('customers/update', { ...stranger, verified_email: true, last_name: 'B' }))).status).toBe(
      200,
    );
    expect(await kept()).toBe(1);
  });

  it('counts a guest order for the verified account made before its webhook came, as for one made after', async () => {
    // Paid as a guest an hour ago; Shopify's webhooks came the other way round: the account first.
    await delivered('customers/create', { ...customerPayload(905), email: 'early@example.com' }, 'customer:905');
    await delivered(
      'orders/paid',
      {
        ...orderPayload(5, { ...SHOES_AND_HAT(null), processedAt: new Date(Date.now() - 3_600_000).toISOString() }),
        email: 'Early@Example.com',
      },
      'order:5',
    );
    const answer = await until('the order counted', async () => {
      const body = (await (await ask(await forCustomer(905), 'gid://shopify/OrderIdentity/5')).json()) as Answer;
      return body.order?.points?.earned ? body.order : undefined;
    });
    expect(answer).toMatchObject({ name: '#5', points: { earned: 80, reversed: 0 } });
    expect(answer.counted).toEqual([{ kind: 'streak', definitionId: streak.id, value: 1, reversed: 0 }]);
    // An unverified account with an order's e-mail gets nothing of a later guest order either.
    await delivered('customers/create', { ...customerPayload(906), email: 'late@example.com', verified_email: false }, 'customer:906');
    await paid(6, SHOES_AND_HAT(null), 'late@example.com');
    expect(((await (await ask(await forCustomer(906), 'gid://shopify/OrderIdentity/6')).json()) as Answer).order).toBeNull();
  });

  it('refuses a missing, forged, tampered, expired or not-yet-valid session token, readably across origins', async () => {
    const refused = await refusedTokens((claims, options) => sessionToken({ sub: customer(901), ...claims }, options), {
      sub: customer(902),
    });
    for (const token of refused) {
      const res = await ask(token, 'gid://shopify/Order/1');
      expect(res.status, String(token)).toBe(401);
      // Readable by the extension's fetch across origins, as its other answers are.
      expect(res.headers.get('access-control-allow-origin'), String(token)).toBe('*');
      expect(res.headers.get('cache-control'), String(token)).toBe('no-store');
      const body = await res.text();
      expect(body).not.toContain('points');
      // The app's error body, not the library's empty one.
      expect(JSON.parse(body), String(token)).toMatchObject({ error: { code: 'unauthenticated' } });
    }
  });

  it('refuses a token without a customer with no_customer, on which the block invites the guest', async () => {
    // A list names nobody, though its text is a customer's gid (it reached the core as an externalId: 503).
    for (const sub of [undefined, '', '901', 'gid://shopify/StaffMember/1', ['gid://shopify/Customer/901']]) {
      const res = await ask(await sessionToken({ sub }), 'gid://shopify/Order/1');
      expect(res.status, String(sub)).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('no_customer');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it("refuses an unknown shop's token; another installed shop's never sees this shop's order", async () => {
    const unknown = await ask(await forCustomer(901, { shopName: 'unknown-shop' }), 'gid://shopify/Order/1');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('not_installed');

    const other = await ask(await forCustomer(901, { shopName: OTHER_SHOP_NAME }), 'gid://shopify/Order/1');
    const body = (await other.json()) as Answer;
    expect(other.status).toBe(200);
    expect(body.order).toBeNull();
    expect(body.accountId).toBe((await prod.shops.find(`${OTHER_SHOP_NAME}.myshopify.com`))!.accountId);
    expect(body.accountId).not.toBe((await prod.shops.find(TEST_SHOP))!.accountId);
  });

  it('refuses a request without an order gid', async () => {
    for (const order of [null, '1', 'gid://shopify/Customer/1', 'gid://shopify/Order/abc']) {
      const res = await ask(await forCustomer(901), order);
      expect(res.status, String(order)).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('bad_order');
    }
  });
});
