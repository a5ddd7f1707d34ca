import { TEST_SHOP, TEST_SHOP_NAME, USER_ID } from '@shopify/shopify-api/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../core/test/support/harness';
import { Core, type IdStore, Redeemer, withCode } from '../../../extensions/loyalty-pos/src/load';
import { extensionToken, fromExtension, refusedTokens, type TokenOptions } from './support/extensions';
import { adminLoad, customerPayload, orderPayload, type OrderSpec } from './support/orders';
import { type Production, startProduction } from './support/production';
import { creatorFor } from './support/programs';
import { webhookRequest } from './support/stack';
import { until } from './support/until';

/**
 * Shopify POS through the production build: the POS extension's route with session tokens signed
 * as Shopify signs a POS UI extension's (HS256 with the app's secret, `dest` = the shop, `sub` = the
 * user signed into POS), the redemption the extension makes with the token it gets, against the
 * core's built binary and the app's Shopify discounts; and POS sales, delivered by the same signed
 * orders/paid webhook as online orders, earning like them.
 */
let prod: Production;
let api: Client;
const created = creatorFor(() => api);
const OTHER_SHOP_NAME = 'other-shop';
const customerGid = (id: number) => `gid://shopify/Customer/${id}`;

async function install(shopName: string): Promise<void> {
  expect((await adminLoad(prod.url, '/app', shopName)).status).toBe(200);
}

/**
 * A POS session token, as `shopify.session.getSessionToken()` hands the extension: the user's
 * token (iss the shop's admin, `dest` the shop with its scheme, `sub` the user's numeric id).
 */
const posToken = (claims: Record<string, unknown> = {}, options?: TokenOptions) => extensionToken(claims, options);

function ask(token: string | null, customer: string | null, method = 'GET'): Promise<Response> {
  const url = new URL('/pos/customer', prod.url);
  if (customer !== null) url.searchParams.set('customer', customer);
  return fromExtension(url, token, method);
}

type Access = { accessToken: string; expiresAt: string; accountId: string; coreUrl: string; currency: string | null };

const me = (access: { accessToken: string }, accountId: string) =>
  new Client(`${prod.core.url}/api/v1.0`).get('/schema/account_user/me', undefined, {
    'x-enduser-access-token': access.accessToken,
    'x-account-id': accountId,
  });

const where = (fieldSlug: string, fieldValue: unknown) => ({
  operator: 'and',
  conditions: [{ fieldSlug, operator: 'equals', fieldValue }],
});

async function memberOf(customer: number): Promise<{ id: string; pointsBalance: number } | undefined> {
  return (await api.get('/schema/account_user/record', { filters: where('externalId', customerGid(customer)) })).body.data[0];
}

/** Delivers a webhook as Shopify does and waits for the worker to be done with its subject. */
async function delivered(topic: string, payload: Record<string, unknown>, subject: string) {
  expect((await prod.send(await webhookRequest(topic, payload))).status).toBe(200);
  return until(`${subject} worked off`, async () => {
    const { rows } = await prod.appPool.query<{ status: string; last_error: string | null }>(
      'select status, last_error from shopify_webhooks where shop = $1 and subject = $2',
      [TEST_SHOP, subject],
    );
    return rows[0] && rows[0].status !== 'pending' ? rows[0] : undefined;
  });
}

/**
 * orders/paid of a sale rung up in Shopify POS, as the REST Admin API shapes it: the POS channel
 * and its location, device and staff member, paid in cash at the counter, nothing shipped, no
 * checkout; the customer the staff member put on the sale, if any, here one known by phone only
 * (POS takes no e-mail), and the e-mail the staff member took for a guest's receipt, if any.
 */
function posOrderPayload(id: number, spec: OrderSpec, email: string | null = null): Record<string, unknown> {
  const online = orderPayload(id, spec);
  const customer = online.customer as Record<string, unknown> | null;
  return {
    ...online,
    email: customer ? '' : email,
    phone: customer ? '+15555550100' : null,
    customer: customer && { ...customer, email: null, phone: '+15555550100' },
    source_name: 'pos',
    location_id: 9,
    device_id: 3,
    user_id: USER_ID,
    checkout_id: null,
    checkout_token: null,
    cart_token: null,
    landing_site: null,
    referring_site: null,
    gateway: 'cash',
    payment_gateway_names: ['cash'],
    fulfillment_status: 'fulfilled',
    total_tip_received: '0.00',
    shipping_lines: [],
  };
}

// A cap at 30, 1 points per unit spent and 5 per order: 35 points.
const CAP = (customer: OrderSpec['customer']): OrderSpec => ({ customer, lines: [{ product: 30, quantity: 1, price: '30.00' }] });

let streak: { id: string };
let challenge: { id: string };
let reward: { id: string };

beforeAll(async () => {
  prod = await startProduction();
  await install(TEST_SHOP_NAME);
  await install(OTHER_SHOP_NAME);
  // The customers POS shows: the shop has them.
  for (const id of [4001, 4101]) prod.admin.customers.set(customerGid(id), { firstName: 'Ada', lastName: 'Lovelace', email: null });
  const account = (await prod.shops.find(TEST_SHOP))!;
  api = new Client(`${prod.core.url}/api/v1.0`, { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
  const setting = (await api.get('/schema/points_setting/record')).body.data[0];
  const on = await api.patch(`/schema/points_setting/record/${setting.id}`, {
    status: 'live',
    pointsPerCurrencyUnit: 1,
    pointsPerOrder: 5,
  });
  expect(on.status, JSON.stringify(on.body)).toBe(200);
  // Redeemed at the counter, issued as a Shopify discount the app creates (CONTRACT §16).
  reward = await created('/schema/reward/record', {
    name: 'Ten off',
    description: 'd',
    discountType: 'percentage',
    discountValue: 10,
    rewardExpiryType: 'no_expiry',
    handleCoupon: false,
    pointsCost: 100,
    status: 'live',
  });
  await prod.appPool.query('insert into shopify_discount_rewards (shop, reward_id) values ($1, $2)', [TEST_SHOP, reward.id]);
  streak = await created('/schema/streak/record', { name: 'Order days', status: 'live', aggregationPeriod: 'daily' });
  challenge = await created('/schema/challenge/record', {
    name: 'Spend',
    status: 'live',
    aggregationPeriod: 'monthly',
    aggregationMethod: 'sum',
    completionTargetValue: 1000,
  });
  for (const [kind, definition] of [
    ['streak', streak],
    ['challenge', challenge],
  ] as const)
    await prod.appPool.query('insert into earning_rules (shop, kind, definition_id, source, collection_ids) values ($1, $2, $3, $4, $5)', [
      TEST_SHOP,
      kind,
      definition.id,
      'orders',
      '[]',
    ]);
}, 180_000);

afterAll(() => prod?.close());

describe('GET /pos/customer', () => {
  it("answers the end-user token of the customer POS shows, as the customer's own member, with CORS and no-store", async () => {
    for (const customer of ['4001', customerGid(4001)]) {
      const res = await ask(await posToken(), customer);
      const body = (await res.json()) as Access;
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(Object.keys(body).sort()).toEqual(['accessToken', 'accountId', 'coreUrl', 'currency', 'expiresAt']);
      // The shop's currency, which the extension writes a reward's fixed amount in.
      expect(body.currency).toBe(prod.admin.currencyCode);
      const account = (await prod.shops.find(TEST_SHOP))!;
      expect(body.accountId).toBe(account.accountId);
      expect(body.coreUrl).toBe(prod.core.url);
      const member = await me(body, account.accountId);
      expect(member.status).toBe(200);
      // The member the app proxy, the Rewards page and the earning worker use for that customer.
      expect(member.body.data.externalId).toBe(customerGid(4001));
    }
  });

  it('answers the CORS preflight without a token', async () => {
    const res = await ask(null, null, 'OPTIONS');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toContain('Authorization');
  });

  it('refuses a missing, forged, tampered, expired or not-yet-valid session token, readably across origins', async () => {
    for (const token of await refusedTokens(posToken, { dest: `https://${OTHER_SHOP_NAME}.myshopify.com` })) {
      const res = await ask(token, '4001');
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

  it("refuses a shopper's token, signed with the same secret: a customer account or checkout token names a customer or nobody", async () => {
    // A signed claim of another type too: an object a pattern would turn into text (its toString no function) is no staff member.
    for (const sub of [customerGid(4001), undefined, '', 'gid://shopify/StaffMember/1', { toString: 0 }, 42, ['42']]) {
      const res = await ask(await posToken({ sub, iss: undefined, sid: undefined }), '4001');
      expect(res.status, JSON.stringify(sub)).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_staff');
    }
  });

  it('asks the shop whether it has the customer before making them a member: an unknown id makes none, and Shopify is asked once per token', async () => {
    const lookups = () => prod.admin.requests.filter((r) => r.operation === 'LoyaltyCustomer').map((r) => r.variables.id);
    const before = lookups().length;
    const unknown = await ask(await posToken(), '4999');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: { code: string } }).error.code).toBe('unknown_customer');
    expect(await memberOf(4999)).toBeUndefined();
    // Shopify not answering (the stub then records nothing): 503, and still no member.
    prod.admin.customers.set(customerGid(4998), { firstName: null, lastName: null, email: null });
    prod.admin.failWith = 500;
    try {
      expect((await ask(await posToken(), '4998')).status).toBe(503);
    } finally {
      prod.admin.failWith = null;
    }
    expect(await memberOf(4998)).toBeUndefined();
    expect((await ask(await posToken(), '4998')).status).toBe(200);
    expect(await memberOf(4998)).toBeDefined();
    // The customer's token is handed out again without asking Shopify again.
    expect((await ask(await posToken(), customerGid(4998))).status).toBe(200);
    expect(lookups().slice(before)).toEqual([customerGid(4999), customerGid(4998)]);
  });

  it('answers 400 for a customer that is no customer id', async () => {
    for (const customer of [null, '', 'abc', '0', '-4', '12.5', 'gid://shopify/Order/4001', 'gid://shopify/Customer/', '4001 ']) {
      const res = await ask(await posToken(), customer);
      expect(res.status, String(customer)).toBe(400);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('bad_customer');
    }
  });

  it("gives another shop's POS that shop's member, which this shop's account refuses; an unknown shop gets none", async () => {
    const res = await ask(await posToken({}, { shopName: OTHER_SHOP_NAME }), '4001');
    const body = (await res.json()) as Access;
    expect(res.status).toBe(200);
    const mine = (await prod.shops.find(TEST_SHOP))!;
    const theirs = (await prod.shops.find(`${OTHER_SHOP_NAME}.myshopify.com`))!;
    expect(body.accountId).toBe(theirs.accountId);
    expect((await me(body, mine.accountId)).status).not.toBe(200);

    const unknown = await ask(await posToken({}, { shopName: 'unknown-shop' }), '4001');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).not.toContain('accessToken');
  });
});

describe('redeeming at the POS', () => {
  it('a double tap redeems once, a retry after a lost answer finds the first: one redeemed entry and one Shopify discount per redemption, each code found', async () => {
    const CUSTOMER = 4101;
    // What the extension does with what the route answers.
    const access = (await (await ask(await posToken(), String(CUSTOMER))).json()) as Access;
    const member = (await memberOf(CUSTOMER))!;
    const topUp = await api.post('/schema/point_entry/record', { ownedById: member.id, points: 250, reason: 'adjusted' });
    expect(topUp.status, JSON.stringify(topUp.body)).toBe(200);
    const core = new Core(access, 'en');
    const storage = new Map<string, unknown>();
    const store: IdStore = {
      get: async (key) => storage.get(key),
      set: async (key, value) => void storage.set(key, value),
      delete: async (key) => storage.delete(key),
    };
    const redeemer = new Redeemer(core, store, { userId: USER_ID, locationId: 9 }, CUSTOMER);

    const [tap, doubleTap] = await Promise.all([redeemer.redeem(reward.id), redeemer.redeem(reward.id)]);
    expect(tap).toMatchObject({ kind: 'redeemed', pointsBalance: 150 });
    expect(doubleTap).toBe(tap);
    if (tap.kind !== 'redeemed') return;
    // The same identifier again, as a retry whose first answer was lost, and five at once: the core
    // answers each as a replay, and the extension finds the first one's reward log.
    const id = `pos:${CUSTOMER}:${reward.id}:${USER_ID}:9:retry`;
    const first = await core.redeem(reward.id, id);
    const replays = await Promise.all(Array.from({ length: 5 }, () => core.redeem(reward.id, id)));
    expect(first).toMatchObject({ kind: 'redeemed', pointsBalance: 50 });
    if (first.kind !== 'redeemed') return;
    for (const replay of replays) expect(replay).toMatchObject({ kind: 'redeemed', pointsBalance: null, log: { id: first.log.id } });

    expect((await memberOf(CUSTOMER))!.pointsBalance).toBe(50);
    const entries = await api.get('/schema/point_entry/record', {
      filters: {
        operator: 'and',
        conditions: [
          { fieldSlug: 'ownedById', operator: 'equals', fieldValue: member.id },
          { fieldSlug: 'reason', operator: 'equals', fieldValue: 'redeemed' },
        ],
      },
    });
    const identifiers = (entries.body.data as { uniqueIdentifier: string }[]).map((e) => e.uniqueIdentifier);
    expect(identifiers).toHaveLength(2);
    expect(identifiers).toContain(id);
    expect(identifiers.find((i) => i !== id)).toMatch(new RegExp(`^pos:${CUSTOMER}:${reward.id}:${USER_ID}:9:[0-9a-z]+$`));

    // The app makes one Shopify discount per reward log and stamps its code; the extension waits for it.
    const logs = [tap.log, first.log];
    const codes = await Promise.all(logs.map((log) => until('its code', async () => (await withCode(core, log)).couponCode)));
    const discounts = [...prod.admin.discounts.values()].filter(
      (d) => (d.input.context as { customers: { add: string[] } }).customers.add[0] === customerGid(CUSTOMER),
    );
    expect(discounts.map((d) => d.input.code).sort()).toEqual([...codes].sort());
    expect(storage.size).toBe(0);
  });
});

describe('POS sales', () => {
  it('a POS sale with a customer counts for the earning rules like an online order: logs order:<id>, points', async () => {
    const CUSTOMER = 4201;
    expect(await delivered('orders/paid', posOrderPayload(42001, CAP({ id: CUSTOMER })), 'order:42001')).toMatchObject({
      status: 'done',
      last_error: null,
    });
    const member = (await memberOf(CUSTOMER))!;
    expect(member.pointsBalance).toBe(35);
    for (const [kind, definition, value] of [
      ['streak', streak, 1],
      ['challenge', challenge, 30],
    ] as const) {
      const logs = await api.get(`/schema/${kind}_log/record`, { filters: where('uniqueIdentifier', 'order:42001') });
      expect(logs.body.data, kind).toEqual([
        expect.objectContaining({ [`${kind}Id`]: definition.id, ownedById: member.id, activityValue: value, activityId: 'order_paid' }),
      ]);
    }
  });

  it('a POS sale without a customer counts for nobody, until a customer is created with the e-mail given for its receipt', async () => {
    expect(await delivered('orders/paid', posOrderPayload(42002, CAP(null), 'walkin@example.com'), 'order:42002')).toMatchObject({
      status: 'done',
      last_error: 'no customer',
    });
    const logs = await api.get('/schema/streak_log/record', { filters: where('uniqueIdentifier', 'order:42002') });
    expect(logs.body.data).toEqual([]);
    expect(await delivered('orders/paid', posOrderPayload(42003, CAP(null)), 'order:42003')).toMatchObject({ last_error: 'no customer' });

    // The shopper signs up later with the e-mail the staff member took for the receipt.
    await delivered('customers/create', { ...customerPayload(4202), email: 'WalkIn@example.com' }, 'customer:4202');
    await until('the POS sale adopted', async () => (await memberOf(4202))?.pointsBalance === 35);
    const adopted = await api.get('/schema/streak_log/record', { filters: where('uniqueIdentifier', 'order:42002') });
    expect(adopted.body.data).toEqual([expect.objectContaining({ ownedById: (await memberOf(4202))!.id })]);
    // The sale without an e-mail stays nobody's.
    expect((await api.get('/schema/streak_log/record', { filters: where('uniqueIdentifier', 'order:42003') })).body.data).toEqual([]);
  });
});
