import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { TEST_SHOP } from '@shopify/shopify-api/test-helpers';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../core/test/support/harness';
import { extensionToken, fromExtension } from './support/extensions';
import { adminLoad, customerPayload, orderPayload, refundPayload } from './support/orders';
import { type Production, startProduction } from './support/production';
import { creatorFor } from './support/programs';
import { type Body, bodies, DEEP, ODD_VALUES, oddString, Raw, shaped, toJson } from './support/hostile';
import { SHOPIFY } from './support/stack';
import { until } from './support/until';

/**
 * Every public surface of the production build (Flow actions, webhooks, the app proxy, the UI
 * extensions' routes, the core's deliveries), sent requests signed as their senders sign them but
 * whose bodies, queries and claims are hostile: never a 5xx, every 4xx in the surface's JSON error
 * body, and a refusal changes nothing in the core or in the app's tables.
 */
let prod: Production;
let api: Client;
let coreDb: pg.Pool;
let ids: { streak: string; challenge: string; mission: string; accountId: string };
const CUSTOMER = 7001;
const customerGid = `gid://shopify/Customer/${CUSTOMER}`;
const where = (fieldSlug: string, fieldValue: unknown) => ({
  operator: 'and',
  conditions: [{ fieldSlug, operator: 'equals', fieldValue }],
});
const RUNS = 80;

/** A claim's value: any JSON a token can carry, short enough for a header. */
const oddClaim: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: oddString },
  { weight: 2, arbitrary: fc.constantFrom(...ODD_VALUES.filter((v) => typeof v !== 'string')) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);

const ABSENT = undefined;

/** The bytes a string is sent as (a lone surrogate becomes U+FFFD), which is what is signed. */
const bytes = (text: string) => Buffer.from(text, 'utf8');

/** A request signed as Shopify signs Flow actions and webhooks: HMAC-SHA256 of the raw body with the app's secret. */
function shopifySigned(path: string, body: Body, headers: Record<string, string> = {}): Promise<Response> {
  const raw = bytes(body.text);
  return fetch(`${prod.url}${path}`, {
    method: 'POST',
    headers: {
      'x-shopify-hmac-sha256': createHmac('sha256', SHOPIFY.apiSecretKey).update(raw).digest('base64'),
      'x-shopify-shop-domain': TEST_SHOP,
      ...(body.contentType ? { 'content-type': body.contentType } : {}),
      ...headers,
    },
    body: raw,
  });
}

/** What URLSearchParams makes of a value on the way: a lone surrogate arrives as U+FFFD. */
const wellFormed = (s: string) => s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

/**
 * An app proxy URL signed as Shopify's proxy signs it: the parameters sorted, a repeated one's
 * values joined with commas, HMAC-SHA256 hex with the app's secret.
 */
function proxyUrl(path: string, params: [string, string][]): string {
  const all: [string, string][] = [
    ...params.map(([k, v]): [string, string] => [wellFormed(k), wellFormed(v)]),
    ['shop', TEST_SHOP],
    ['timestamp', String(Math.trunc(Date.now() / 1000) - 1)],
  ];
  const grouped = new Map<string, string[]>();
  for (const [k, v] of all) grouped.set(k, [...(grouped.get(k) ?? []), v]);
  const message = [...grouped]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, vs]) => `${k}=${vs.join(',')}`)
    .join('');
  const url = new URL(path, prod.url);
  for (const [k, v] of all) url.searchParams.append(k, v);
  url.searchParams.set('signature', createHmac('sha256', SHOPIFY.apiSecretKey).update(message).digest('hex'));
  return url.href;
}

/** A request from a UI extension with a session token. */
const extensionGet = (path: string, token: string) => fromExtension(new URL(path, prod.url), token);

/** Every surface refuses in the app's error body, `{error: {code, message}}`, before and after it reads the body. */
function expectErrorBody(status: number, text: string, input: string): void {
  const what = `${status} ${text.slice(0, 300)} for ${input.slice(0, 300)}`;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`a ${status} without a JSON error body: ${what}`);
  }
  const error = (body as { error?: unknown }).error;
  const isApp =
    typeof error === 'object' &&
    error !== null &&
    typeof (error as { code?: unknown }).code === 'string' &&
    typeof (error as { message?: unknown }).message === 'string';
  expect(isApp, what).toBe(true);
}

/** What a refusal must leave as it was: the core's members, entries and logs, and the app's own rows. */
async function state(): Promise<string> {
  const core = await coreDb.query(
    `select (select count(*) from account_user) members, (select count(*) from point_entry) entries,
       (select count(*) from streak_log) streaks, (select count(*) from challenge_log) challenges, (select count(*) from mission_log) missions,
       (select count(*) from reward_log) reward_logs, (select coalesce(max(updated_at)::text, '') from reward_log) reward_logs_at,
       (select count(*) from freeze_grant) freezes`,
  );
  const app = await prod.appPool.query(
    `select (select count(*) from shopify_webhooks) webhooks, (select count(*) from flow_action_runs) runs,
       (select coalesce(string_agg(handle || ':' || enabled::text || ':' || notified_at::text, ',' order by handle), '') from flow_trigger_usage) usage,
       (select count(*) from flow_trigger_outbox) triggers, (select count(*) from storefront_visits) visits,
       (select count(*) from data_requests) data_requests, (select count(*) from shops) shops, (select count(*) from shopify_sessions) sessions`,
  );
  return JSON.stringify({ ...core.rows[0], ...app.rows[0] });
}

/** What the app process printed that a client's input must never make it print. */
const CRASH = /uncaught|unhandled|ERR_|RangeError|TypeError|SyntaxError|at .*\.js:\d+/i;

interface Survey<T> {
  arbitrary: fc.Arbitrary<T>;
  send: (input: T) => Promise<Response>;
  /** The state is compared around each refusal (routes that answer after their work is done). */
  unchangedOnRefusal?: boolean;
  describe: (input: T) => string;
}

/** Runs the property: never a 5xx, every 4xx in the surface's error body, nothing changed by one; answers the statuses seen. */
async function survey<T>({ arbitrary, send, unchangedOnRefusal = true, describe: say }: Survey<T>) {
  const seen = new Map<number, number>();
  const printed = prod.appOutput().length;
  await fc.assert(
    fc.asyncProperty(arbitrary, async (input) => {
      const before = unchangedOnRefusal ? await state() : '';
      const res = await send(input).catch((err: Error) => {
        throw new Error(`no answer (${String(err.cause ?? err)}); the app printed:\n${prod.appOutput().slice(-3000)}`);
      });
      const text = await res.text();
      seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
      expect(res.status, `${res.status} ${text.slice(0, 300)} for ${say(input).slice(0, 500)}`).toBeLessThan(500);
      if (res.status >= 400) {
        expectErrorBody(res.status, text, say(input));
        if (unchangedOnRefusal) expect(await state(), `changed by a ${res.status} for ${say(input).slice(0, 500)}`).toBe(before);
      }
    }),
    { numRuns: RUNS },
  );
  expect(prod.appOutput().slice(printed)).not.toMatch(CRASH);
  return Object.fromEntries([...seen].sort(([a], [b]) => a - b));
}

const flowTemplate = (handle: string, properties: Record<string, unknown>) =>
  shaped(
    {
      shop_id: 424242,
      shopify_domain: TEST_SHOP,
      action_run_id: 'run',
      action_definition_id: handle,
      handle,
      properties,
    },
    ['shopify_domain', 'properties'],
  ).map((body) => ({ ...body, action_run_id: body.action_run_id === 'run' ? `run-${randomUUID()}` : body.action_run_id }));

const flowAction = (handle: string) => (body: Body) => shopifySigned(`/flow/${handle}`, body);

/** A valid Flow action (after a property: the route still works); answers its status. */
async function flowStillWorks(handle: string, properties: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
  const body = { shop_id: 424242, shopify_domain: TEST_SHOP, action_run_id: `run-${randomUUID()}`, handle, properties };
  const res = await shopifySigned(`/flow/${handle}`, { text: JSON.stringify(body), contentType: 'application/json' });
  return { status: res.status, body: await res.json() };
}

const say = (body: Body) => `${body.contentType ?? '(no content-type)'} ${body.text}`;

const pending = async () =>
  Number((await prod.appPool.query("select count(*) from shopify_webhooks where status = 'pending'")).rows[0].count);

beforeAll(async () => {
  prod = await startProduction();
  prod.admin.customers.set(`gid://shopify/Customer/${CUSTOMER}`, { firstName: 'Fuzz', lastName: 'Member', email: 'fuzz@example.com' });
  expect((await adminLoad(prod.url, '/app')).status).toBe(200);
  const account = (await prod.shops.find(TEST_SHOP))!;
  api = new Client(`${prod.core.url}/api/v1.0`, { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
  coreDb = new pg.Pool({ connectionString: prod.coreDatabaseUrl, max: 1 });
  const created = creatorFor(() => api);
  const streak = await created('/schema/streak/record', { name: 'Fuzz days', status: 'live', aggregationPeriod: 'daily', maxFreezes: 10 });
  const challenge = await created('/schema/challenge/record', {
    name: 'Fuzz spend',
    status: 'live',
    aggregationPeriod: 'monthly',
    aggregationMethod: 'sum',
    completionTargetValue: 1000,
  });
  const mission = await created('/schema/mission/record', {
    name: 'Fuzz mission',
    status: 'live',
    aggregationPeriod: 'monthly',
    tasks: [{ name: 'Review', activityId: 'review', aggregationMethod: 'count', targetValue: 5 }],
  });
  ids = { streak: streak.id, challenge: challenge.id, mission: mission.id, accountId: account.accountId };
  // The member, with points and a streak in progress, so the actions have something real to change.
  expect(await flowStillWorks('adjust-points', { customer_id: CUSTOMER, points: 100, note: 'start' })).toMatchObject({ status: 200 });
  expect(await flowStillWorks('execute-streak', { customer_id: CUSTOMER, streak_id: ids.streak })).toMatchObject({ status: 200 });
}, 180_000);

afterAll(async () => {
  await coreDb?.end();
  await prod?.close();
});

describe('Flow actions (HMAC-signed bodies)', () => {
  const actions: [string, Record<string, unknown>][] = [
    ['adjust-points', { customer_id: CUSTOMER, points: 5, note: 'fuzz', idempotency_key: ABSENT }],
    ['set-birthday', { customer_id: CUSTOMER, birthday: '1990-03-14' }],
    ['execute-streak', { customer_id: CUSTOMER, streak_id: 'Fuzz days', activity_id: 'fuzz', activity_value: 1, activity_at: ABSENT }],
    [
      'execute-challenge',
      {
        customer_id: CUSTOMER,
        challenge_id: 'fuzz-challenge',
        activity_id: 'fuzz',
        activity_value: 3,
        activity_at: '2026-03-10T12:00:00Z',
      },
    ],
    ['execute-mission', { customer_id: CUSTOMER, mission_id: 'fuzz-mission', activity_id: 'review', idempotency_key: 'k' }],
    ['grant-streak-freezes', { customer_id: CUSTOMER, streak_id: 'fuzz-streak', count: 1 }],
    ['stamp-coupon', { reward_log_id: randomUUID(), coupon_code: 'FUZZ-1', reward_issued_at: ABSENT, reward_expiry_at: ABSENT }],
  ];
  // Definitions are named by id once they exist.
  const withIds = (properties: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(properties).map(([k, v]) => [
        k,
        v === 'fuzz-challenge' ? ids.challenge : v === 'fuzz-mission' ? ids.mission : v === 'fuzz-streak' ? ids.streak : v,
      ]),
    );

  for (const [handle, properties] of actions) {
    it(`/flow/${handle}: hostile properties and bodies are 4xx in the error body and change nothing`, async () => {
      const statuses = await survey({
        arbitrary: bodies(flowTemplate(handle, withIds(properties))),
        send: flowAction(handle),
        describe: say,
      });
      console.info(`/flow/${handle}`, statuses);
      // stamp-coupon has no reward log to stamp here: its valid request is the not_found refusal.
      const valid = withIds({ ...properties, activity_value: 1, activity_at: ABSENT, idempotency_key: ABSENT, points: 1 });
      const after = await flowStillWorks(handle, valid);
      expect(after.status, JSON.stringify(after.body)).toBe(handle === 'stamp-coupon' ? 404 : 200);
    });
  }

  it('/flow/trigger-lifecycle: hostile bodies are answered without a 5xx, and only a real trigger is recorded', async () => {
    const template = shaped(
      {
        flow_trigger_definition_id: 'loyalty-reward-issued',
        has_enabled_flow: true,
        shop_id: 424242,
        shopify_domain: TEST_SHOP,
        timestamp: new Date().toISOString(),
      },
      ['shopify_domain'],
    );
    const statuses = await survey({
      arbitrary: bodies(template),
      send: (body) => shopifySigned('/flow/trigger-lifecycle', body),
      describe: say,
    });
    console.info('/flow/trigger-lifecycle', statuses);
    const { rows } = await prod.appPool.query<{ handle: string }>('select handle from flow_trigger_usage');
    expect(rows.every((r) => r.handle.startsWith('loyalty-'))).toBe(true);
  });
});

describe('Shopify webhooks (HMAC-signed bodies, worked off by the worker)', () => {
  const COMPLIANCE_CUSTOMER = 7999;
  const topics: [string, Record<string, unknown>][] = [
    [
      'orders/paid',
      orderPayload(90_001, {
        customer: { id: CUSTOMER },
        lines: [{ product: 1, quantity: 1, price: '10.00' }],
        attributes: { _loyalty_ref: 'K7M3QX9P' },
      }),
    ],
    ['orders/cancelled', { ...orderPayload(90_002, { customer: { id: CUSTOMER }, lines: [] }), cancelled_at: new Date().toISOString() }],
    ['refunds/create', refundPayload(90_003, 90_001, [{ position: 1, quantity: 1, subtotal: '10.00' }])],
    ['customers/create', customerPayload(CUSTOMER)],
    ['customers/update', customerPayload(CUSTOMER)],
    [
      'customers/data_request',
      {
        shop_id: 424242,
        shop_domain: TEST_SHOP,
        orders_requested: [90_001],
        customer: { id: COMPLIANCE_CUSTOMER, email: 'x@example.com' },
        data_request: { id: 1 },
      },
    ],
    [
      'customers/redact',
      {
        shop_id: 424242,
        shop_domain: TEST_SHOP,
        customer: { id: COMPLIANCE_CUSTOMER, email: 'x@example.com' },
        orders_to_redact: [90_009],
      },
    ],
    // Its shop is never this one's: a valid shop/redact would erase the account the other properties use.
    ['shop/redact', { shop_id: 424242, shop_domain: 'other-shop.myshopify.com' }],
    ['app/scopes_update', { id: 1, previous: ['read_customers'], current: ['read_customers'], updated_at: new Date().toISOString() }],
  ];

  for (const [topic, payload] of topics) {
    it(`/webhooks/${topic}: hostile payloads are 2xx or 4xx, and the worker settles every one it kept`, async () => {
      const statuses = await survey({
        // The worker changes the core after the answer; the app's rows are compared below instead.
        unchangedOnRefusal: false,
        arbitrary: bodies(shaped(payload)),
        send: async (body) => {
          const before = await prod.appPool.query('select count(*) from shopify_webhooks');
          const res = await shopifySigned(`/webhooks/${topic}`, body, {
            'x-shopify-topic': topic,
            'x-shopify-api-version': '2025-10',
            'x-shopify-webhook-id': randomBytes(8).toString('hex'),
          });
          if (res.status >= 400) expect((await prod.appPool.query('select count(*) from shopify_webhooks')).rows).toEqual(before.rows);
          return res;
        },
        describe: say,
      });
      console.info(`/webhooks/${topic}`, statuses);
      await until(`the ${topic} webhooks worked off`, async () => (await pending()) === 0, 30_000);
      const { rows } = await prod.appPool.query<{ status: string; last_error: string | null; payload: unknown }>(
        "select status, last_error, left(payload::text, 300) as payload from shopify_webhooks where topic = $1 and status = 'failed'",
        [topic],
      );
      expect(rows).toEqual([]);
    });
  }

  it('after them, a valid order still earns and the app process is alive', async () => {
    const res = await shopifySigned(
      '/webhooks/orders/paid',
      {
        text: JSON.stringify(orderPayload(90_100, { customer: { id: CUSTOMER }, lines: [{ product: 1, quantity: 1, price: '10.00' }] })),
        contentType: 'application/json',
      },
      { 'x-shopify-topic': 'orders/paid', 'x-shopify-api-version': '2025-10', 'x-shopify-webhook-id': randomBytes(8).toString('hex') },
    );
    expect(res.status).toBe(200);
    await until('order 90100 worked off', async () => {
      const { rows } = await prod.appPool.query("select status from shopify_webhooks where subject = 'order:90100'");
      return rows[0]?.status === 'done';
    });
    expect((await fetch(`${prod.url}/healthz`)).status).toBe(200);
  });
});

describe('app proxy (signed query)', () => {
  const customerIds = fc.array(fc.oneof(oddString, fc.constant(String(CUSTOMER))), { minLength: 0, maxLength: 3 });
  const params = fc
    .tuple(customerIds, fc.option(fc.tuple(oddString, oddString), { nil: undefined }), fc.option(oddString, { nil: undefined }))
    .map(([ids, extra, prefix]) => [
      ...ids.map((id): [string, string] => ['logged_in_customer_id', id]),
      ...(extra ? [extra] : []),
      ...(prefix === undefined ? [] : [['path_prefix', prefix] as [string, string]]),
    ]);

  it('GET /apps/loyalty/token: odd logged_in_customer_id values are 4xx in the error body or a token for that customer', async () => {
    const statuses = await survey({
      arbitrary: params,
      send: (query) => fetch(proxyUrl('/apps/loyalty/token', query)),
      // Minting a token for a customer who has no member yet makes none.
      describe: (query) => JSON.stringify(query),
    });
    console.info('/apps/loyalty/token', statuses);
    expect((await fetch(proxyUrl('/apps/loyalty/token', [['logged_in_customer_id', String(CUSTOMER)]]))).status).toBe(200);
  });

  it('POST /apps/loyalty/visit: odd logged_in_customer_id values and bodies are 4xx in the error body and record no visit', async () => {
    const statuses = await survey({
      // The route reads no body: the server drops what is left of it (scripts/serve.mjs), whatever its size.
      arbitrary: fc.tuple(params, bodies(shaped({ page: '/' }))),
      send: ([query, body]) =>
        fetch(proxyUrl('/apps/loyalty/visit', query), {
          method: 'POST',
          headers: body.contentType ? { 'content-type': body.contentType } : {},
          body: bytes(body.text),
        }),
      describe: ([query, body]) => `${JSON.stringify(query)} ${say(body)}`,
    });
    console.info('/apps/loyalty/visit', statuses);
    const visit = await fetch(proxyUrl('/apps/loyalty/visit', [['logged_in_customer_id', String(CUSTOMER)]]), { method: 'POST' });
    expect(visit.status, await visit.text()).toBe(200);
  });

  it('/apps/loyalty/referral: odd codes, e-mails and bodies are 4xx in the error body and make no gift', async () => {
    const offers = await survey({
      arbitrary: fc.tuple(params, fc.option(oddString, { nil: undefined })),
      send: ([query, code]) => fetch(proxyUrl('/apps/loyalty/referral', code === undefined ? query : [...query, ['code', code]])),
      describe: (query) => JSON.stringify(query),
    });
    const claims = await survey({
      arbitrary: fc.tuple(params, bodies(shaped({ code: 'K7M3QX9P', email: 'friend@example.com' }))),
      send: ([query, body]) =>
        fetch(proxyUrl('/apps/loyalty/referral', query), {
          method: 'POST',
          headers: body.contentType ? { 'content-type': body.contentType } : {},
          body: bytes(body.text),
        }),
      describe: ([query, body]) => `${JSON.stringify(query)} ${say(body)}`,
    });
    console.info('/apps/loyalty/referral', offers, claims);
    expect((await prod.appPool.query('select count(*)::int as n from shopify_referral_gifts')).rows[0].n).toBe(0);
  });
});

describe('UI extensions (session tokens signed with the app secret)', () => {
  /** Claims as Shopify signs them for an extension, mostly `sub` and `dest` replaced by odd values or left out, now and then the others. */
  const claimsOf = (valid: { sub: string; dest: string }) => {
    const now = Math.floor(Date.now() / 1000);
    const often = (value: unknown) =>
      fc.oneof(
        { weight: 3, arbitrary: fc.constant(value) },
        { weight: 1, arbitrary: fc.constant(ABSENT) },
        { weight: 4, arbitrary: oddClaim },
      );
    const rarely = (value: unknown) => fc.oneof({ weight: 12, arbitrary: fc.constant(value) }, { weight: 1, arbitrary: oddClaim });
    return fc
      .record({
        sub: often(valid.sub),
        dest: often(valid.dest),
        aud: fc.oneof(rarely(SHOPIFY.apiKey), fc.constant([SHOPIFY.apiKey, 'another-app'])),
        exp: rarely(now + 3600),
        nbf: rarely(now - 60),
        iat: rarely(now - 60),
        jti: fc.option(oddClaim, { nil: ABSENT }),
        sid: fc.option(oddClaim, { nil: ABSENT }),
      })
      .chain((c) =>
        fc.dictionary(fc.string({ unit: 'binary', maxLength: 12 }), oddClaim, { maxKeys: 2 }).map((more) => ({ ...more, ...c })),
      );
  };
  const sign = (c: Record<string, unknown>) => extensionToken({ iss: undefined, sid: undefined, jti: undefined, ...c });
  const customerClaims = { sub: `gid://shopify/Customer/${CUSTOMER}`, dest: `https://${TEST_SHOP}` };

  for (const path of ['/customer-account/token', '/checkout/member'])
    it(`GET ${path}: odd claims are 4xx in the error body`, async () => {
      const statuses = await survey({
        arbitrary: claimsOf(customerClaims),
        send: async (c) => extensionGet(path, await sign(c)),
        describe: (c) => JSON.stringify(c),
      });
      console.info(path, statuses);
      expect((await extensionGet(path, await sign(customerClaims))).status).toBe(200);
    });

  it('GET /checkout/order: odd claims and order ids are 4xx in the error body', async () => {
    const statuses = await survey({
      arbitrary: fc.tuple(claimsOf(customerClaims), fc.oneof(oddString, fc.constant('gid://shopify/Order/90001'))),
      send: async ([c, order]) => extensionGet(`/checkout/order?order=${encodeURIComponent(wellFormed(order))}`, await sign(c)),
      describe: ([c, order]) => `${JSON.stringify(c)} order=${order}`,
    });
    console.info('/checkout/order', statuses);
    const res = await extensionGet('/checkout/order?order=gid://shopify/Order/90001', await sign(customerClaims));
    expect(res.status).toBe(200);
  });

  it('GET /pos/customer: odd claims and customer ids are 4xx in the error body', async () => {
    const staff = { sub: '42', dest: `https://${TEST_SHOP}` };
    const statuses = await survey({
      arbitrary: fc.tuple(claimsOf(staff), fc.oneof(oddString, fc.constant(String(CUSTOMER)))),
      send: async ([c, customer]) => extensionGet(`/pos/customer?customer=${encodeURIComponent(wellFormed(customer))}`, await sign(c)),
      describe: ([c, customer]) => `${JSON.stringify(c)} customer=${customer}`,
    });
    console.info('/pos/customer', statuses);
    expect((await extensionGet(`/pos/customer?customer=${CUSTOMER}`, await sign(staff))).status).toBe(200);
  });
});

describe("the core's deliveries (Standard Webhooks signed)", () => {
  /** A body signed as the core signs its deliveries to the shop's subscription: Standard Webhooks and its service signature. */
  async function coreSigned(body: Body): Promise<Response> {
    const { secret } = (await prod.shops.coreWebhook(TEST_SHOP))!;
    const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
    const raw = bytes(body.text);
    const id = `msg_${randomUUID()}`;
    const timestamp = String(Math.floor(Date.now() / 1000));
    return fetch(`${prod.url}/loyalty/events`, {
      method: 'POST',
      headers: {
        ...(body.contentType ? { 'content-type': body.contentType } : {}),
        'webhook-id': id,
        'webhook-timestamp': timestamp,
        'webhook-signature': `v1,${createHmac('sha256', key)
          .update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`), raw]))
          .digest('base64')}`,
        'x-service-signature': createHmac('sha256', secret).update(raw).digest('hex'),
      },
      body: raw,
    });
  }

  /** A delivery's envelope as the core makes it: the account, and events with their member and payload. */
  async function envelope() {
    const member = (await api.get('/schema/account_user/record', { filters: where('externalId', customerGid) })).body.data[0];
    const event = {
      id: 'event',
      eventCode: 'streak_progress_completed',
      ownedById: member.id as string,
      occurredAt: new Date().toISOString(),
      payload: { streakId: ids.streak, streakName: 'Fuzz days', completedAt: new Date().toISOString() },
    };
    return { envelope: { type: 'loyalty.events', accountId: ids.accountId, events: [event] }, event };
  }

  it('POST /loyalty/events: signed envelopes with hostile events are 4xx in the error body and queue nothing', async () => {
    const { envelope: valid, event } = await envelope();
    const template = shaped(valid, ['accountId']).chain((e) =>
      fc.array(shaped(event, ['id']), { maxLength: 3 }).map((events) => ({
        ...e,
        events: Array.isArray(e.events) ? events.map((ev) => (ev.id === 'event' ? { ...ev, id: randomUUID() } : ev)) : e.events,
      })),
    );
    const statuses = await survey({ arbitrary: bodies(template), send: coreSigned, describe: say });
    console.info('/loyalty/events', statuses);
    const res = await coreSigned({
      text: JSON.stringify({ ...valid, events: [{ ...event, id: randomUUID() }] }),
      contentType: 'application/json',
    });
    expect(res.status, await res.text()).toBe(200);
  });
});

describe('what the properties found, as single requests', () => {
  const webhookHeaders = (topic: string) => ({
    'x-shopify-topic': topic,
    'x-shopify-api-version': '2025-10',
    'x-shopify-webhook-id': randomBytes(8).toString('hex'),
  });
  const json = (value: unknown): Body => ({
    text: typeof value === 'string' ? value : toJson(value),
    contentType: 'application/json',
  });
  const kept = async (subject: string) =>
    (await prod.appPool.query<{ payload: unknown }>('select payload from shopify_webhooks where subject = $1', [subject])).rows;

  it('a signed empty body is 400 in the error body, for Flow and for webhooks (the library’s 400 has no body)', async () => {
    for (const res of [
      await shopifySigned('/flow/execute-streak', json('')),
      await shopifySigned('/webhooks/orders/paid', json(''), webhookHeaders('orders/paid')),
    ]) {
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: { code: expect.any(String), message: expect.any(String) } });
    }
  });

  it('a signed Flow action for a shop the app has no session for is 400 in the error body', async () => {
    const body = {
      shopify_domain: 'other-shop.myshopify.com',
      action_run_id: 'r',
      properties: { customer_id: CUSTOMER, streak_id: ids.streak },
    };
    const res = await shopifySigned('/flow/execute-streak', json(body));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: expect.any(String), message: expect.any(String) } });
  });

  it('a webhook whose values and keys hold lone surrogates and NUL (valid JSON, no valid jsonb) is kept, those replaced', async () => {
    const res = await shopifySigned(
      '/webhooks/customers/create',
      json({ ...customerPayload(7101), first_name: '\ud800Ada', note: new Raw('"x\\udfff"'), 'k\u0000\udc00': 1 }),
      webhookHeaders('customers/create'),
    );
    expect(res.status, await res.text()).toBe(200);
    expect(await kept('customer:7101')).toEqual([
      { payload: expect.objectContaining({ first_name: '\ufffdAda', note: 'x\ufffd', 'k\ufffd': 1 }) },
    ]);
  });

  it('a signed body nested past any of Shopify’s is 400 in the error body and kept nowhere', async () => {
    const deep = { ...orderPayload(90_200, { customer: { id: CUSTOMER }, lines: [] }), note_attributes: DEEP[0] };
    const res = await shopifySigned('/webhooks/orders/paid', json(deep), webhookHeaders('orders/paid'));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { code: expect.any(String), message: expect.any(String) } });
    expect(await kept('order:90200')).toEqual([]);
    const flow = await shopifySigned(
      '/flow/adjust-points',
      json({ shopify_domain: TEST_SHOP, action_run_id: 'deep', properties: { customer_id: CUSTOMER, points: 1, note: DEEP[1] } }),
    );
    expect(flow.status).toBe(400);
    expect(await flow.json()).toEqual({ error: { code: expect.any(String), message: expect.any(String) } });
  });

  const flow = (handle: string, body: Record<string, unknown>) =>
    shopifySigned(`/flow/${handle}`, json({ shopify_domain: TEST_SHOP, action_run_id: randomUUID(), ...body }));

  it('a date PostgreSQL cannot hold (year 0, year -100000) in an order or a trigger lifecycle is read as absent, not a 500', async () => {
    const order = { ...orderPayload(90_300, { customer: { id: CUSTOMER }, lines: [] }), processed_at: '0001-01-01T00:00:00+23:59' };
    const res = await shopifySigned('/webhooks/orders/paid', json(order), webhookHeaders('orders/paid'));
    expect(res.status, await res.text()).toBe(200);
    expect(await kept('order:90300')).toHaveLength(1);
    const lifecycle = await flow('trigger-lifecycle', {
      flow_trigger_definition_id: 'loyalty-streak-broken',
      has_enabled_flow: false,
      timestamp: '-100000-01-01T00:00:00Z',
    });
    expect(lifecycle.status, await lifecycle.text()).toBe(200);
    const { rows } = await prod.appPool.query<{ notified_at: Date }>(
      "select notified_at from flow_trigger_usage where handle = 'loyalty-streak-broken'",
    );
    expect(Date.now() - rows[0]!.notified_at.getTime()).toBeLessThan(60_000);
  });

  it('a Flow run key with a NUL (action_run_id or idempotency_key) is 400 naming it, not a 500', async () => {
    const properties = { customer_id: CUSTOMER, streak_id: ids.streak, count: 1 };
    for (const [body, property] of [
      [{ action_run_id: 'run\u0000x', properties }, 'action_run_id'],
      [{ properties: { ...properties, idempotency_key: 'key\u0000x' } }, 'idempotency_key'],
    ] as const) {
      const res = await flow('grant-streak-freezes', body);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ error: expect.objectContaining({ code: 'invalid_property', property }) });
    }
  });

  it('an extension token whose dest holds a NUL names no shop: 404 not_installed, not a 500', async () => {
    const token = await extensionToken({ iss: undefined, sid: undefined, sub: customerGid, dest: 'test-shop\u0000.myshopify.com' });
    const staff = await extensionToken({ iss: undefined, sid: undefined, sub: '42', dest: 'test-shop\u0000.myshopify.com' });
    for (const [path, sent] of [
      ['/customer-account/token', token],
      ['/checkout/member', token],
      ['/checkout/order?order=gid://shopify/Order/90001', token],
      [`/pos/customer?customer=${CUSTOMER}`, staff],
    ] as const) {
      const res = await extensionGet(path, sent);
      expect([path, res.status]).toEqual([path, 404]);
      expect(await res.json()).toEqual({ error: expect.objectContaining({ code: 'not_installed' }) });
    }
  });
});
