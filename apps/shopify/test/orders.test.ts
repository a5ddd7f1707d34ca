import { TEST_SHOP } from '@shopify/shopify-api/test-helpers';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../core/test/support/harness';
import { customerPayload, adminLoad, orderPayload, type OrderSpec, refundPayload } from './support/orders';
import { type Production, startProduction } from './support/production';
import { creatorFor } from './support/programs';
import { flowRequest, proxyRequest, webhookRequest } from './support/stack';
import { until } from './support/until';

/**
 * CONTRACT §17 through what ships: Shopify's order and customer webhooks, signed by its test
 * helpers, into the production build under its own `start`; the core's built binary behind a gate
 * that can hold the app's calls; the Admin API stub answering the products' collections.
 */
let prod: Production;
let api: Client;
const created = creatorFor(() => api);

const SHOES = 'gid://shopify/Collection/77';
const SHOE = 10;
const HAT = 20;
const CUSTOMER = 501;

type Def = { id: string };
let streak: Def;
let visits: Def;
let spend: Def;
let shoes: Def;
let orders: Def;
let draft: Def;
let unruled: Def;
let welcome: Def;

async function deliver(topic: string, payload: Record<string, unknown>, webhookId?: string, server?: string) {
  const request = await webhookRequest(topic, payload, webhookId);
  const res = server
    ? await fetch(`${server}/webhooks/${topic}`, { method: 'POST', headers: request.headers, body: await request.text() })
    : await prod.send(request);
  expect(res.status).toBe(200);
}

const webhookRow = async (subject: string) =>
  (
    await prod.appPool.query('select status, attempts, last_error from shopify_webhooks where shop = $1 and subject = $2', [
      TEST_SHOP,
      subject,
    ])
  ).rows[0] as { status: string; attempts: number; last_error: string | null } | undefined;

/** Waits until the worker has worked off the webhook of `subject`; answers its row. */
const worked = (subject: string) =>
  until(`${subject} worked off`, async () => {
    const row = await webhookRow(subject);
    return row && row.status !== 'pending' ? row : undefined;
  });

const paid = async (id: number, spec: OrderSpec) => {
  await deliver('orders/paid', orderPayload(id, spec));
  return worked(`order:${id}`);
};

type Log = {
  id: string;
  ownedById: string;
  activityValue: number;
  activityAt: string;
  activityId: string;
  reversedValue?: number;
  uniqueIdentifier: string;
  isAggregated: boolean;
  notAggregatedReason: string | null;
};

/** The logs of one definition whose uniqueIdentifier starts with `prefix`. */
async function logs(kind: 'streak' | 'challenge' | 'mission', definition: Def, prefix: string): Promise<Log[]> {
  const res = await api.request('GET', `/schema/${kind}_log/record`, {
    query: {
      filters: {
        operator: 'and',
        conditions: [
          { fieldSlug: `${kind}Id`, operator: 'equals', fieldValue: definition.id },
          { fieldSlug: 'uniqueIdentifier', operator: 'contains', fieldValue: prefix },
        ],
      },
      limit: 100,
    },
    validate: false,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.data as Log[]).filter((l) => l.uniqueIdentifier.startsWith(prefix));
}

const rule = (kind: 'streak' | 'challenge', definition: Def, source: 'orders' | 'visits', collections: string[] = []) =>
  prod.appPool.query('insert into earning_rules (shop, kind, definition_id, source, collection_ids) values ($1, $2, $3, $4, $5)', [
    TEST_SHOP,
    kind,
    definition.id,
    source,
    JSON.stringify(collections),
  ]);

// 2 shoes at 25 with 5 off the line (45) and a hat at 30: 75 of products; shipping, taxes and the tip earn nothing.
const SHOES_AND_HAT: OrderSpec = {
  lines: [
    { product: SHOE, quantity: 2, price: '25.00', discount: '5.00' },
    { product: HAT, quantity: 1, price: '30.00' },
  ],
};

beforeAll(async () => {
  // A hold's "day" is a second here, and the core's scheduler looks twice a second.
  prod = await startProduction({
    gateCore: true,
    gateDatabase: true,
    coreEnv: { LOYALTY_HOLD_DAY_SECONDS: '1', LOYALTY_SCHEDULER_INTERVAL_MS: '500' },
  });
  prod.admin.customers.set(`gid://shopify/Customer/${CUSTOMER}`, { firstName: 'Ada', lastName: 'Lovelace', email: 'c501@example.com' });
  prod.admin.productCollections.set(`gid://shopify/Product/${SHOE}`, [SHOES, 'gid://shopify/Collection/1']);
  prod.admin.productCollections.set(`gid://shopify/Product/${HAT}`, ['gid://shopify/Collection/1']);
  expect((await adminLoad(prod.url, '/app')).status).toBe(200);
  const account = (await prod.shops.find(TEST_SHOP))!;
  api = new Client(`${prod.core.url}/api/v1.0`, { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
  const challenge = (name: string, method: 'count' | 'sum', status = 'live') =>
    created('/schema/challenge/record', {
      name,
      status,
      aggregationPeriod: 'monthly',
      aggregationMethod: method,
      completionTargetValue: 1000,
    });
  streak = await created('/schema/streak/record', { name: 'Order days', status: 'live', aggregationPeriod: 'daily' });
  visits = await created('/schema/streak/record', { name: 'Visit days', status: 'live', aggregationPeriod: 'daily' });
  spend = await challenge('Spend', 'sum');
  shoes = await challenge('Shoe spend', 'sum');
  orders = await challenge('Orders', 'count');
  draft = await challenge('Draft spend', 'sum', 'draft');
  unruled = await challenge('Flow spend', 'sum');
  welcome = await created('/schema/mission/record', {
    name: 'Welcome',
    status: 'live',
    aggregationPeriod: 'monthly',
    tasks: [
      { name: 'Sign up', activityId: 'account_created', aggregationMethod: 'count', targetValue: 1 },
      { name: 'First order', activityId: 'first_order', aggregationMethod: 'count', targetValue: 1 },
      { name: 'Three orders', activityId: 'order_paid', aggregationMethod: 'count', targetValue: 3 },
    ],
  });
  await rule('streak', streak, 'orders');
  await rule('streak', visits, 'visits');
  await rule('challenge', spend, 'orders');
  await rule('challenge', shoes, 'orders', [SHOES]);
  await rule('challenge', orders, 'orders');
  await rule('challenge', draft, 'orders');
}, 180_000);

afterAll(() => prod?.close());

describe('orders/paid', () => {
  it('feeds every rule: a log per live definition it feeds, order:<id>, at the order’s processing time, product lines after discounts', async () => {
    const processedAt = new Date(Date.now() - 3_600_000).toISOString();
    expect(await paid(1, { ...SHOES_AND_HAT, processedAt })).toMatchObject({ status: 'done' });
    const [streakLog] = await logs('streak', streak, 'order:1');
    expect(streakLog).toMatchObject({ uniqueIdentifier: 'order:1', activityId: 'order_paid', activityValue: 1 });
    expect(Date.parse(streakLog!.activityAt)).toBe(Date.parse(processedAt));
    expect((await logs('challenge', spend, 'order:1')).map((l) => l.activityValue)).toEqual([75]);
    expect((await logs('challenge', shoes, 'order:1')).map((l) => l.activityValue)).toEqual([45]);
    expect((await logs('challenge', orders, 'order:1')).map((l) => l.activityValue)).toEqual([1]);
    expect((await logs('mission', welcome, 'order:1')).map((l) => [l.uniqueIdentifier, l.activityId]).sort()).toEqual([
      ['order:1', 'order_paid'],
      ['order:1:first_order', 'first_order'],
    ]);
    for (const [kind, definition] of [
      ['streak', visits],
      ['challenge', draft],
      ['challenge', unruled],
    ] as const)
      expect(await logs(kind, definition, 'order:1')).toEqual([]);
    const member = (await api.get('/schema/account_user/record', { fields: ['externalId', 'firstName', 'email'] })).body.data;
    expect(member).toEqual([expect.objectContaining({ externalId: `gid://shopify/Customer/${CUSTOMER}`, firstName: 'Ada' })]);
  });

  it('a later order of the customer is no first order; an order without products of the collections adds nothing to that challenge', async () => {
    await paid(2, { lines: [{ product: HAT, quantity: 2, price: '10.00' }] });
    expect((await logs('mission', welcome, 'order:2')).map((l) => l.uniqueIdentifier)).toEqual(['order:2']);
    expect(await logs('challenge', shoes, 'order:2')).toEqual([]);
    expect((await logs('challenge', spend, 'order:2')).map((l) => l.activityValue)).toEqual([20]);
  });

  it('a redelivery, another webhook id for the same order, a second app process and a Flow action for the same order add nothing', async () => {
    const payload = orderPayload(3, SHOES_AND_HAT);
    await deliver('orders/paid', payload, 'delivery-3');
    await deliver('orders/paid', payload, 'delivery-3');
    await deliver('orders/paid', payload, 'delivery-3-again');
    const other = await prod.serveAgain();
    try {
      // Both processes get it at once, as when Shopify retries a delivery it thinks timed out.
      await Promise.all([
        deliver('orders/paid', payload, 'delivery-3-a', other.url),
        deliver('orders/paid', payload, 'delivery-3-b', prod.url),
      ]);
      await worked('order:3');
      const flow = await prod.send(
        await flowRequest('execute-challenge', {
          customer_id: CUSTOMER,
          challenge_id: spend.id,
          activity_value: 75,
          idempotency_key: 'order:3',
        }),
      );
      expect(await flow.json()).toMatchObject({ ok: true, replay: true });
      // Let the second process's worker look too.
      await new Promise((r) => setTimeout(r, 1500));
    } finally {
      await other.close();
    }
    const { rows } = await prod.appPool.query(`select count(*)::int as n from shopify_webhooks where subject = 'order:3'`);
    expect(rows[0].n).toBe(1);
    expect((await logs('challenge', spend, 'order:3')).map((l) => l.activityValue)).toEqual([75]);
    expect(await logs('streak', streak, 'order:3')).toHaveLength(1);
    expect(await logs('mission', welcome, 'order:3')).toHaveLength(1);
  });

  it('a Flow step that took the order’s key for another task of a mission first leaves the order its own task, under a key of its own', async () => {
    const flow = await prod.send(
      await flowRequest('execute-mission', {
        customer_id: CUSTOMER,
        mission_id: welcome.id,
        activity_id: 'account_created',
        idempotency_key: 'order:9107',
      }),
    );
    expect(await flow.json()).toMatchObject({ ok: true });
    await paid(9107, SHOES_AND_HAT);
    // (Beside the first-order task's own log, when this is the customer's first order.)
    const kept = (await logs('mission', welcome, 'order:9107')).filter((l) => l.activityId !== 'first_order');
    expect(kept.map((l) => `${l.uniqueIdentifier} ${l.activityId}`).sort()).toEqual([
      'order:9107 account_created',
      'order:9107:order_paid order_paid',
    ]);
    const { rows } = await prod.appPool.query(
      `select unique_identifier, log_id from shopify_order_logs where shop = $1 and order_id = $2 and kind = 'mission' and activity_id = 'order_paid'`,
      [TEST_SHOP, '9107'],
    );
    // Its refunds take back the order's own log, not the Flow step's.
    expect(rows).toEqual([{ unique_identifier: 'order:9107:order_paid', log_id: kept.find((l) => l.activityId === 'order_paid')!.id }]);
  });

  it('the member takes the language the customer ordered in with the order’s logs; one the core lacks leaves it', async () => {
    await paid(24, { customer: { id: 524 }, locale: 'de-CH', lines: [{ product: HAT, quantity: 1, price: '10.00' }] });
    const member = async () =>
      (
        await api.get('/schema/account_user/record', {
          filters: {
            operator: 'and',
            conditions: [{ fieldSlug: 'externalId', operator: 'equals', fieldValue: 'gid://shopify/Customer/524' }],
          },
        })
      ).body.data[0];
    expect(await member()).toMatchObject({ languageCode: 'de' });
    await paid(25, { customer: { id: 524 }, locale: 'zh-TW', lines: [{ product: HAT, quantity: 1, price: '10.00' }] });
    expect((await logs('challenge', orders, 'order:25')).length).toBe(1);
    expect(await member()).toMatchObject({ languageCode: 'de' });
  });

  it('a customer whose e-mail the core does not take becomes a member without it, and the order earns', async () => {
    expect(
      await paid(26, { customer: { id: 526, email: 'émilie@example.com' }, lines: [{ product: HAT, quantity: 1, price: '10.00' }] }),
    ).toMatchObject({
      status: 'done',
    });
    expect((await logs('challenge', orders, 'order:26')).length).toBe(1);
    const [member] = (
      await api.get('/schema/account_user/record', {
        filters: {
          operator: 'and',
          conditions: [{ fieldSlug: 'externalId', operator: 'equals', fieldValue: 'gid://shopify/Customer/526' }],
        },
      })
    ).body.data;
    expect(member).toMatchObject({ email: null });
  });

  it('test orders, guest orders and orders of gift cards alone earn nothing', async () => {
    expect(await paid(4, { ...SHOES_AND_HAT, test: true })).toMatchObject({ status: 'done', last_error: 'test order' });
    expect(await paid(5, { ...SHOES_AND_HAT, customer: null })).toMatchObject({ status: 'done', last_error: 'no customer' });
    // A gift card earns when it is spent: bought alone, it is no order yet (no day of a streak, no first order).
    expect(
      await paid(97, { customer: { id: 597 }, lines: [{ product: SHOE, quantity: 1, price: '25.00', giftCard: true }] }),
    ).toMatchObject({ status: 'done', last_error: 'gift cards only' });
    for (const id of [4, 5, 97]) {
      expect(await logs('challenge', spend, `order:${id}`)).toEqual([]);
      expect(await logs('streak', streak, `order:${id}`)).toEqual([]);
    }
    // Their refunds have nothing to take back, and are done.
    await deliver('refunds/create', refundPayload(50, 5, [{ position: 1, quantity: 1 }]));
    expect(await worked('refund:50')).toMatchObject({ status: 'done' });
  });

  it('an order in another currency earns the shop-money amounts', async () => {
    await paid(6, {
      presentmentCurrency: 'EUR',
      customer: { id: 502 },
      lines: [
        { product: SHOE, quantity: 1, price: '40.00', presentmentPrice: '37.00' },
        { product: HAT, quantity: 2, price: '12.50', presentmentPrice: '11.60' },
      ],
    });
    expect((await logs('challenge', spend, 'order:6')).map((l) => l.activityValue)).toEqual([65]);
    expect((await logs('challenge', shoes, 'order:6')).map((l) => l.activityValue)).toEqual([40]);
  });

  it('an order whose note and attributes carry a NUL character is kept and earns (PostgreSQL’s jsonb holds none)', async () => {
    await deliver('orders/paid', {
      ...orderPayload(30, { ...SHOES_AND_HAT, customer: { id: 503 } }),
      note: 'gift\u0000wrap',
      note_attributes: [{ name: 'gift', value: 'yes\u0000' }],
    });
    expect(await worked('order:30')).toMatchObject({ status: 'done' });
    expect((await logs('challenge', spend, 'order:30')).map((l) => l.activityValue)).toEqual([75]);
  });
});

describe('orders the core does not take as they come', () => {
  const orderRow = async (id: number) =>
    (await prod.appPool.query('select status, skip_reason from shopify_orders where shop = $1 and order_id = $2', [TEST_SHOP, String(id)]))
      .rows[0];

  it('an order processed ahead of the core’s clock (Shopify’s runs ahead) earns, as an activity of the moment it is worked off', async () => {
    const before = Date.now();
    const ahead = new Date(before + 3_600_000).toISOString();
    expect(
      await paid(31, { customer: { id: 531 }, processedAt: ahead, lines: [{ product: HAT, quantity: 1, price: '10.00' }] }),
    ).toMatchObject({
      status: 'done',
      last_error: null,
    });
    const [log] = await logs('challenge', spend, 'order:31');
    expect(log?.activityValue).toBe(10);
    expect(Date.parse(log!.activityAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(log!.activityAt)).toBeLessThanOrEqual(Date.now());
    expect(await logs('streak', streak, 'order:31')).toHaveLength(1);
    expect(await orderRow(31)).toEqual({ status: 'earned', skip_reason: null });
  });

  it('an order the core refuses every log of is not earned, and its refund has nothing to take back', async () => {
    const refusing = prod.coreGate!.refuse((method, path) => method === 'POST' && /^\/api\/v1\.0\/schema\/\w+_log\/record$/.test(path), {
      status: 404,
      code: 'not_found',
      message: 'The definition was deleted.',
    });
    try {
      expect(await paid(32, { customer: { id: 532 }, lines: [{ product: HAT, quantity: 1, price: '10.00' }] })).toMatchObject({
        status: 'done',
        last_error: 'refused by the loyalty service',
      });
    } finally {
      refusing.restore();
    }
    expect(await orderRow(32)).toEqual({ status: 'skipped', skip_reason: 'refused by the loyalty service' });
    // What was refused stays recorded on the order, log by log.
    const { rows } = await prod.appPool.query('select refused from shopify_order_logs where shop = $1 and order_id = $2', [
      TEST_SHOP,
      '32',
    ]);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.refused).toBe('404: The definition was deleted.');
    expect(await logs('challenge', spend, 'order:32')).toEqual([]);
    await deliver('refunds/create', refundPayload(60, 32, [{ position: 1, quantity: 1 }]));
    expect(await worked('refund:60')).toMatchObject({
      status: 'done',
      last_error: 'the order earned nothing (refused by the loyalty service)',
    });
  });
});

describe('refunds and cancellations', () => {
  const buyer = { id: 701 };
  const reversed = async (kind: 'streak' | 'challenge' | 'mission', definition: Def, order: number) =>
    (await logs(kind, definition, `order:${order}`)).map((l) => [l.uniqueIdentifier, l.reversedValue ?? 0]).sort();
  /** What is left of each log of the order, per definition, as the core has it. */
  const state = async (order: number) => ({
    spend: await reversed('challenge', spend, order),
    shoes: await reversed('challenge', shoes, order),
    orders: await reversed('challenge', orders, order),
    streak: await reversed('streak', streak, order),
    welcome: await reversed('mission', welcome, order),
  });
  const refund = async (id: number, order: number, lines: { position: number; quantity: number }[]) => {
    await deliver('refunds/create', refundPayload(id, order, lines));
    return worked(`refund:${id}`);
  };

  it('a partial refund takes back the refunded lines’ share of amounts; counts stay while something of the order is left', async () => {
    await paid(10, { ...SHOES_AND_HAT, customer: buyer });
    expect(await refund(100, 10, [{ position: 2, quantity: 1 }])).toMatchObject({ status: 'done' });
    expect(await state(10)).toEqual({
      spend: [['order:10', 30]],
      shoes: [['order:10', 0]],
      orders: [['order:10', 0]],
      streak: [['order:10', 0]],
      welcome: [
        ['order:10', 0],
        ['order:10:first_order', 0],
      ],
    });
    // One of the two shoes: half of what the line earned (45 after its discount).
    await refund(101, 10, [{ position: 1, quantity: 1 }]);
    expect((await state(10)).spend).toEqual([['order:10', 52.5]]);
    expect((await state(10)).shoes).toEqual([['order:10', 22.5]]);
    // The same refund delivered again (a new webhook id) takes nothing twice.
    await deliver('refunds/create', refundPayload(101, 10, [{ position: 1, quantity: 1 }]), 'refund-101-again');
    await new Promise((r) => setTimeout(r, 1000));
    expect((await state(10)).spend).toEqual([['order:10', 52.5]]);
  });

  it('a refund of the rest takes back everything the order earned, counts included', async () => {
    await refund(102, 10, [{ position: 1, quantity: 1 }]);
    expect(await state(10)).toEqual({
      spend: [['order:10', 75]],
      shoes: [['order:10', 45]],
      orders: [['order:10', 1]],
      streak: [['order:10', 1]],
      welcome: [
        ['order:10', 1],
        ['order:10:first_order', 1],
      ],
    });
  });

  it('an order a Flow action logged first under its key: refunds and the cancellation take back shares of what the core holds', async () => {
    // The Flow recipe's key, with 10 where the order's products come to 75.
    await api.post('/schema/challenge_log/record', {
      challengeId: spend.id,
      ownedBy: { externalId: 'gid://shopify/Customer/599' },
      activityId: 'order_paid',
      activityAt: new Date(Date.now() - 120_000).toISOString(),
      activityValue: 10,
      uniqueIdentifier: 'order:99',
    });
    await paid(99, { ...SHOES_AND_HAT, customer: { id: 599 } });
    expect((await logs('challenge', spend, 'order:99')).map((l) => l.activityValue)).toEqual([10]);
    // The hat is 30 of the 75: 4 of the 10.
    expect(await refund(990, 99, [{ position: 2, quantity: 1 }])).toMatchObject({ status: 'done' });
    expect(await reversed('challenge', spend, 99)).toEqual([['order:99', 4]]);
    await deliver('orders/cancelled', {
      ...orderPayload(99, { ...SHOES_AND_HAT, customer: { id: 599 } }),
      cancelled_at: new Date().toISOString(),
    });
    expect(await worked('cancel:99')).toMatchObject({ status: 'done' });
    expect(await reversed('challenge', spend, 99)).toEqual([['order:99', 10]]);
  });

  it('a cancellation takes back what remains', async () => {
    await paid(11, { ...SHOES_AND_HAT, customer: buyer });
    await refund(110, 11, [{ position: 2, quantity: 1 }]);
    await deliver('orders/cancelled', {
      ...orderPayload(11, { ...SHOES_AND_HAT, customer: buyer }),
      cancelled_at: new Date().toISOString(),
    });
    expect(await worked('cancel:11')).toMatchObject({ status: 'done' });
    expect(await state(11)).toEqual({
      spend: [['order:11', 75]],
      shoes: [['order:11', 45]],
      orders: [['order:11', 1]],
      streak: [['order:11', 1]],
      welcome: [['order:11', 1]],
    });
  });

  it("a guest's order adopted by the account made after it counts in the account's Welcome mission, its first order included", async () => {
    await deliver('orders/paid', {
      ...orderPayload(98, { ...SHOES_AND_HAT, customer: null, processedAt: new Date(Date.now() - 7_200_000).toISOString() }),
      email: 'guest98@example.com',
    });
    expect(await worked('order:98')).toMatchObject({ status: 'done', last_error: 'no customer' });
    await deliver('customers/create', { ...customerPayload(798), email: 'guest98@example.com' });
    await worked('customer:798');
    expect(await worked('order:98')).toMatchObject({ status: 'done', last_error: null });
    const counted = (await logs('mission', welcome, 'order:98')).map((l) => [l.uniqueIdentifier, l.isAggregated]);
    expect(counted.sort()).toEqual([
      ['order:98', true],
      ['order:98:first_order', true],
    ]);
  });

  it('a refund of an order the Welcome mission counted leaves it completed when a later order makes up for it', async () => {
    const customer = { id: 704 };
    await deliver('customers/create', customerPayload(704));
    await worked('customer:704');
    for (const order of [40, 41, 42, 43]) await paid(order, { ...SHOES_AND_HAT, customer });
    // The third order completed the mission: the fourth counted for nothing.
    const [fourth] = await logs('mission', welcome, 'order:43');
    expect(fourth).toMatchObject({ isAggregated: false, notAggregatedReason: 'mission_completed' });
    const progress = async () =>
      (
        await api.get('/schema/mission_progress/record', {
          filters: {
            operator: 'and',
            conditions: [
              { fieldSlug: 'missionId', operator: 'equals', fieldValue: welcome.id },
              { fieldSlug: 'ownedById', operator: 'equals', fieldValue: fourth!.ownedById },
            ],
          },
        })
      ).body.data.map((p: { missionProgressStatus: string }) => p.missionProgressStatus);
    expect(await progress()).toEqual(['completed']);

    // The second order refunded whole: three orders are still paid, so the mission stays completed.
    expect(
      await refund(410, 41, [
        { position: 1, quantity: 2 },
        { position: 2, quantity: 1 },
      ]),
    ).toMatchObject({ status: 'done' });
    expect((await reversed('mission', welcome, 41)).find(([id]) => id === 'order:41')).toEqual(['order:41', 1]);
    expect(await progress()).toEqual(['completed']);
    expect((await logs('mission', welcome, 'order:43'))[0]).toMatchObject({ isAggregated: true, notAggregatedReason: null });
  });

  it('a refund that arrives before its order waits for it, and ends as if it had come after', async () => {
    const spec = { ...SHOES_AND_HAT, customer: { id: 702 } };
    expect(await refund(120, 12, [{ position: 1, quantity: 1 }])).toMatchObject({ status: 'waiting' });
    await paid(12, spec);
    // The order woke it.
    await until('the waiting refund done', async () => (await webhookRow('refund:120'))?.status === 'done');
    // The same, in order, for another customer.
    await paid(13, { ...spec, customer: { id: 703 } });
    await refund(130, 13, [{ position: 1, quantity: 1 }]);
    const inOrder = await state(13);
    const early = await state(12);
    const renamed = (list: (string | number)[][]) => list.map(([id, value]) => [String(id).replace('order:13', 'order:12'), value]);
    expect(early).toEqual(Object.fromEntries(Object.entries(inOrder).map(([k, v]) => [k, renamed(v)])));
    expect(early.spend).toEqual([['order:12', 22.5]]);
  });
});

describe('holds and Shopify discounts', () => {
  type RewardLog = {
    id: string;
    rewardLogStatus: string;
    confirmAt: string | null;
    couponCode: string | null;
    ownedBy: { externalId: string };
  };
  let reward: Def;

  /** A live challenge adding order amounts, held `holdDays`, whose milestone at 50 issues a Shopify discount. */
  async function heldSpend(name: string, holdDays: number): Promise<Def> {
    const challenge = await created('/schema/challenge/record', {
      name,
      status: 'live',
      aggregationPeriod: 'monthly',
      aggregationMethod: 'sum',
      completionTargetValue: 1000,
      rewardHoldDays: holdDays,
    });
    await created('/schema/milestone/record', {
      name: `${name}: 50`,
      description: 'd',
      linkedSchemaSlug: 'challenge',
      linkedSchemaRecordId: challenge.id,
      milestoneTargetValue: 50,
      rewardId: reward.id,
      status: 'live',
    });
    await rule('challenge', challenge, 'orders');
    return challenge;
  }

  /** The customer's reward logs of a challenge. */
  const rewardLogs = async (definition: Def, customer: number): Promise<RewardLog[]> =>
    (
      await api.request('GET', '/schema/reward_log/record', {
        query: {
          filters: { operator: 'and', conditions: [{ fieldSlug: 'linkedSchemaRecordId', operator: 'equals', fieldValue: definition.id }] },
        },
        validate: false,
      })
    ).body.data.filter((r: RewardLog) => r.ownedBy.externalId === `gid://shopify/Customer/${customer}`);

  const discountsFor = (customer: number) =>
    [...prod.admin.discounts.values()].filter((d) => (d.input.context as any).customers.add[0] === `gid://shopify/Customer/${customer}`);
  const deactivations = (discountId: string) =>
    prod.admin.requests.filter((r) => r.operation === 'LoyaltyDiscountDeactivate' && r.variables.id === discountId).length;
  const discountRow = async (rewardLogId: string) =>
    (await prod.appPool.query('select status, deactivation from reward_discounts where reward_log_id = $1', [rewardLogId])).rows[0];

  beforeAll(async () => {
    reward = await created('/schema/reward/record', {
      name: 'Ten off',
      description: 'd',
      discountType: 'fixed_amount',
      discountValue: 10,
      rewardExpiryType: 'relative',
      rewardExpiryInDays: 30,
      handleCoupon: false,
    });
    await prod.appPool.query('insert into shopify_discount_rewards (shop, reward_id) values ($1, $2)', [TEST_SHOP, reward.id]);
    await prod.appPool.query(
      `insert into flow_trigger_usage (shop, handle, enabled, notified_at) values ($1, 'loyalty-reward-issued', true, now())`,
      [TEST_SHOP],
    );
  });

  it('a held reward waits: no discount and no Reward issued while pending; the scheduler issues it, then the discount is made once', async () => {
    const challenge = await heldSpend('Held spend', 3);
    await paid(20, { ...SHOES_AND_HAT, customer: { id: 801 } });
    const [pending] = await rewardLogs(challenge, 801);
    expect(pending).toMatchObject({ rewardLogStatus: 'pending', couponCode: null, confirmAt: expect.any(String) });
    await new Promise((r) => setTimeout(r, 1000));
    expect(discountsFor(801)).toEqual([]);
    const code = await until(
      'the held reward issued and its discount stamped',
      async () => (await rewardLogs(challenge, 801))[0]?.couponCode,
    );
    const [issued] = await rewardLogs(challenge, 801);
    expect(issued!.rewardLogStatus).toBe('issued');
    expect(Date.now()).toBeGreaterThanOrEqual(Date.parse(pending!.confirmAt!));
    expect(discountsFor(801).map((d) => d.input.code)).toEqual([code]);
    const sent = await until('Reward issued', async () =>
      prod.admin.requests.find((r) => r.operation === 'LoyaltyFlowTrigger' && (r.variables.payload as any).reward_log_id === issued!.id),
    );
    expect(sent.variables.payload).toMatchObject({ customer_id: 801, coupon_code: code });
  });

  it('a held reward revoked by a refund before its day: never a discount, never a Reward issued', { timeout: 60_000 }, async () => {
    // Days of a second each: long enough that the refund is worked off before it even under CI's load.
    const challenge = await heldSpend('Long hold', 15);
    await paid(21, { ...SHOES_AND_HAT, customer: { id: 802 } });
    const [pending] = await rewardLogs(challenge, 802);
    expect(pending!.rewardLogStatus).toBe('pending');
    await deliver(
      'refunds/create',
      refundPayload(210, 21, [
        { position: 1, quantity: 2 },
        { position: 2, quantity: 1 },
      ]),
    );
    await worked('refund:210');
    expect((await rewardLogs(challenge, 802))[0]!.rewardLogStatus).toBe('revoked');
    // Past its day, and a sweep more.
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(pending!.confirmAt!) - Date.now()) + 2000));
    expect((await rewardLogs(challenge, 802))[0]).toMatchObject({ rewardLogStatus: 'revoked', couponCode: null });
    expect(discountsFor(802)).toEqual([]);
    expect(
      prod.admin.requests.filter((r) => r.operation === 'LoyaltyFlowTrigger' && (r.variables.payload as any).reward_log_id === pending!.id),
    ).toEqual([]);
  });

  it('a revoked reward’s unused discount is deactivated once, however often the revocation is delivered', async () => {
    const challenge = await heldSpend('No hold', 0);
    await paid(22, { ...SHOES_AND_HAT, customer: { id: 803 } });
    const code = await until('the discount stamped', async () => (await rewardLogs(challenge, 803))[0]?.couponCode);
    const [log] = await rewardLogs(challenge, 803);
    const discount = prod.admin.discounts.get(code)!;
    await deliver(
      'refunds/create',
      refundPayload(220, 22, [
        { position: 1, quantity: 2 },
        { position: 2, quantity: 1 },
      ]),
    );
    await until('the discount deactivated', async () => (await discountRow(log!.id))?.deactivation === 'deactivated');
    expect(discount.active).toBe(false);
    // The forwarder records a delivery once the app has answered it, which may be after the worker
    // has already acted on it.
    const delivery = await until('the reversal delivered', () =>
      prod.deliveries.find((d) => d.body.includes('challenge_progress_reversed') && d.body.includes(log!.id)),
    );
    const replay = () => fetch(`${prod.url}/loyalty/events`, { method: 'POST', headers: delivery.headers, body: delivery.body });
    expect((await Promise.all([replay(), replay()])).map((r) => r.status)).toEqual([200, 200]);
    await new Promise((r) => setTimeout(r, 1500));
    expect(deactivations(discount.id)).toBe(1);
  });

  it('a revoked reward’s discount already used is left, and recorded as used', async () => {
    const challenge = await heldSpend('Used', 0);
    await paid(23, { ...SHOES_AND_HAT, customer: { id: 804 } });
    const code = await until('the discount stamped', async () => (await rewardLogs(challenge, 804))[0]?.couponCode);
    const [log] = await rewardLogs(challenge, 804);
    const discount = prod.admin.discounts.get(code)!;
    // The shopper spent it at checkout.
    discount.usageCount = 1;
    await deliver('orders/cancelled', {
      ...orderPayload(23, { ...SHOES_AND_HAT, customer: { id: 804 } }),
      cancelled_at: new Date().toISOString(),
    });
    await until('the discount found used', async () => (await discountRow(log!.id))?.deactivation === 'used');
    expect(discount.active).toBe(true);
    expect(deactivations(discount.id)).toBe(0);
  });
});

describe('customers/create', () => {
  it('does the account_created task of the missions that have one, once', async () => {
    await deliver('customers/create', customerPayload(503));
    await deliver('customers/create', customerPayload(503));
    await worked('customer:503');
    expect((await logs('mission', welcome, 'customer:503')).map((l) => l.activityId)).toEqual(['account_created']);
  });

  it('counts a customer created ahead of the core’s clock, at the moment it is worked off', async () => {
    const before = Date.now();
    await deliver('customers/create', { ...customerPayload(504), created_at: new Date(before + 3_600_000).toISOString() });
    await worked('customer:504');
    const [log] = await logs('mission', welcome, 'customer:504');
    expect(log?.activityId).toBe('account_created');
    expect(Date.parse(log!.activityAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(log!.activityAt)).toBeLessThanOrEqual(Date.now());
  });
});

describe('visits through the app proxy', () => {
  const visit = async (query: Record<string, string>) => prod.send(await proxyRequest('/apps/loyalty/visit', query, 'POST'));

  it('count once a day per signed-in shopper, for the streaks fed by visits only', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => visit({ logged_in_customer_id: '601' })));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    // Racing visits of one shopper: one says it counted.
    const said = await Promise.all(answers.map(async (a) => ((await a.json()) as { counted: boolean }).counted));
    expect(said.filter(Boolean)).toHaveLength(1);
    const again = await visit({ logged_in_customer_id: '601' });
    expect(await again.json()).toEqual({ counted: false, logs: 0 });
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
    expect((await logs('streak', visits, 'visit:601:')).map((l) => [l.uniqueIdentifier, l.activityId])).toEqual([
      [`visit:601:${day}`, 'store_visit'],
    ]);
    expect(await logs('streak', streak, 'visit:')).toEqual([]);
  });

  it('names the member as Shopify knows the customer, and counts the visit when Shopify cannot say', async () => {
    prod.admin.customers.set('gid://shopify/Customer/605', {
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      locale: 'de',
    });
    const member = async (id: number) =>
      (
        await api.get('/schema/account_user/record', {
          filters: {
            operator: 'and',
            conditions: [{ fieldSlug: 'externalId', operator: 'equals', fieldValue: `gid://shopify/Customer/${id}` }],
          },
          fields: ['firstName', 'lastName', 'email', 'languageCode'],
        })
      ).body.data[0];
    expect(await (await visit({ logged_in_customer_id: '605' })).json()).toEqual({ counted: true, logs: 1 });
    expect(await member(605)).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', languageCode: 'de' });
    // A customer the shop's Admin API does not return (deleted since): the visit still counts.
    expect(await (await visit({ logged_in_customer_id: '606' })).json()).toEqual({ counted: true, logs: 1 });
    expect(await member(606)).toMatchObject({ firstName: null, email: null });
  });

  it('answers 503 rather than 500 while the core refuses the shop’s key, and counts the visit once it takes it again', async () => {
    const core = new pg.Client({ connectionString: prod.coreDatabaseUrl });
    await core.connect();
    const keyId = (await prod.shops.find(TEST_SHOP))!.apiKeyId;
    try {
      await core.query(`update apikey set status = 'paused' where id = $1`, [keyId]);
      const refused = await until('the paused key refused', async () => {
        const res = await visit({ logged_in_customer_id: '604' });
        return res.status === 200 ? undefined : res;
      });
      expect(refused.status).toBe(503);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('unavailable');
    } finally {
      await core.query(`update apikey set status = 'live' where id = $1`, [keyId]);
      await core.end();
    }
    const counted = await until('the key taken again', async () => {
      const res = await visit({ logged_in_customer_id: '604' });
      return res.status === 200 ? ((await res.json()) as { counted: boolean }) : undefined;
    });
    expect(counted.counted).toBe(true);
  });

  it('takes the customer from Shopify’s signature only: a guest is 401, a changed customer id 400', async () => {
    expect((await visit({})).status).toBe(401);
    const signed = new URL((await proxyRequest('/apps/loyalty/visit', { logged_in_customer_id: '602' }, 'POST')).url);
    signed.searchParams.set('logged_in_customer_id', '603');
    expect((await fetch(`${prod.url}${signed.pathname}${signed.search}`, { method: 'POST' })).status).toBe(400);
    expect(await logs('streak', visits, 'visit:603:')).toEqual([]);
  });
});

describe('customers/redact while one of the customer’s orders is being earned', () => {
  it('erases the member once the order is done: nothing the order wrote to the core survives', async () => {
    const held = prod.coreGate!.hold((method, path) => method === 'POST' && path.startsWith('/api/v1.0/schema/streak_log/record'));
    await deliver('orders/paid', orderPayload(8801, { ...SHOES_AND_HAT, customer: { id: 881 } }));
    await held.arrived;
    const redacted = deliver('customers/redact', { shop_domain: TEST_SHOP, customer: { id: 881 }, orders_to_redact: [8801] });
    // Time for a redaction that does not wait for the order to reach the core while the order's log is held.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    held.release();
    await redacted;
    expect((await webhookRow('order:8801'))?.status).toBe('done');
    const members = await api.get('/schema/account_user/record', {
      filters: { operator: 'and', conditions: [{ fieldSlug: 'externalId', operator: 'equals', fieldValue: 'gid://shopify/Customer/881' }] },
    });
    expect(members.body.data).toEqual([]);
    expect(await logs('streak', streak, 'order:8801')).toEqual([]);
    expect(await logs('challenge', spend, 'order:8801')).toEqual([]);
  }, 60_000);
});

describe('the app’s database dropping its connections while an order is being earned', () => {
  it('fails that attempt, not the process: the order is earned once on the next', async () => {
    const held = prod.coreGate!.hold((method, path) => method === 'POST' && path.startsWith('/api/v1.0/schema/streak_log/record'));
    await deliver('orders/paid', orderPayload(8901, SHOES_AND_HAT));
    // The worker holds the order's row in a transaction while it waits for the core.
    await held.arrived;
    const output = prod.appOutput().length;
    prod.databaseGate!.full().restore();
    held.release();
    expect(await worked('order:8901')).toMatchObject({ status: 'done' });
    expect(await logs('streak', streak, 'order:8901')).toHaveLength(1);
    expect((await logs('challenge', spend, 'order:8901')).map((l) => l.activityValue)).toEqual([75]);
    expect(prod.appOutput().slice(output)).not.toContain("Unhandled 'error' event");
    expect((await fetch(`${prod.url}/healthz`)).status).toBe(200);
  }, 60_000);
});

describe('an app process killed after Shopify’s delivery was acknowledged', () => {
  it('before the core answered: restarted, it loses nothing and writes nothing twice', async () => {
    const held = prod.coreGate!.hold((method, path) => method === 'POST' && path.startsWith('/api/v1.0/schema/streak_log/record'));
    await deliver('orders/paid', orderPayload(7, SHOES_AND_HAT));
    await held.arrived;
    await prod.killApp();
    // The core answers now, to a process that is gone.
    held.release();
    await until('the held log written', async () => (await logs('streak', streak, 'order:7')).length > 0);
    expect((await webhookRow('order:7'))?.status).toBe('pending');
    await prod.crashAndRestart();
    expect(await worked('order:7')).toMatchObject({ status: 'done' });
    expect(await logs('streak', streak, 'order:7')).toHaveLength(1);
    expect((await logs('challenge', spend, 'order:7')).map((l) => l.activityValue)).toEqual([75]);
    expect((await logs('mission', welcome, 'order:7')).filter((l) => l.uniqueIdentifier === 'order:7')).toHaveLength(1);
    const { rows } = await prod.appPool.query(
      `select kind, log_id from shopify_order_logs where shop = $1 and order_id = '7' order by kind, activity_id`,
      [TEST_SHOP],
    );
    // Every log the order wrote is known to the app, the one written before the crash included.
    expect(rows.length).toBeGreaterThanOrEqual(5);
    for (const row of rows) expect(row.log_id).toEqual(expect.any(String));
    expect(rows.map((r) => r.log_id)).toContain((await logs('streak', streak, 'order:7'))[0]!.id);
  }, 90_000);
});
