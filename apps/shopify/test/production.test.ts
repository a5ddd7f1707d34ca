import { createHmac } from 'node:crypto';
import pg from 'pg';
import { getJwt, TEST_SHOP, TEST_SHOP_NAME } from '@shopify/shopify-api/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../core/test/support/harness';
import { STUB_SHOP } from './support/admin-stub';
import { type Production, startProduction } from './support/production';
import { until } from './support/until';
import { drawnPage } from './support/orders';
import { flowRequest, proxyRequest, SHOPIFY, webhookRequest } from './support/stack';
import { streakWithFirstDayReward, streakWithFirstDayStampedReward } from './support/programs';

/**
 * The app as deployed: its production build under its own `start` (scripts/serve.mjs) and the core's
 * built binary, over HTTP, driven by requests that Shopify's own test helpers sign. The in-process
 * suites prove the routes' logic; this one proves the server that ships runs them.
 */
let prod: Production;
let api: Client;

const FLOW_CUSTOMER = 'gid://shopify/Customer/1001';
const GDPR_CUSTOMER = 'gid://shopify/Customer/3003';
// The library answers 410 to bots; this is a browser's user agent.
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

beforeAll(async () => {
  prod = await startProduction({ gateCore: true, gateDatabase: true });
  prod.admin.customers.set(FLOW_CUSTOMER, { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', locale: 'fr-CA' });
  prod.admin.customers.set(GDPR_CUSTOMER, { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' });
}, 120_000);

afterAll(() => prod?.close());

/** An admin page as Shopify's admin opens it in the iframe: embedded, with shop, host and a fresh id_token. */
async function adminLoad(path: string, { server = prod.url, shopName = TEST_SHOP_NAME } = {}): Promise<Response> {
  const { token } = await getJwt(shopName, SHOPIFY.apiKey, SHOPIFY.apiSecretKey);
  const url = new URL(path, server);
  url.searchParams.set('embedded', '1');
  url.searchParams.set('shop', `${shopName}.myshopify.com`);
  url.searchParams.set('host', Buffer.from(`admin.shopify.com/store/${shopName}`).toString('base64'));
  url.searchParams.set('id_token', token);
  return fetch(url, { headers: { 'user-agent': BROWSER }, redirect: 'manual' });
}

const asked = (operation: string) => prod.admin.requests.filter((r) => r.operation === operation).length;

async function created(path: string, body: unknown): Promise<{ id: string } & Record<string, any>> {
  const res = await api.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const byField = (fieldSlug: string, fieldValue: string) => ({
  filters: { operator: 'and', conditions: [{ fieldSlug, operator: 'equals', fieldValue }] },
});
const total = async (path: string) => (await api.get(path, { fetchTotalCount: true })).body.paging.total as number;

async function flow(handle: string, properties: Record<string, unknown>, overrides?: Record<string, unknown>) {
  const res = await prod.send(await flowRequest(handle, properties, overrides));
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

describe('the production server', () => {
  it('answers its health route from the process as started', async () => {
    const res = await fetch(`${prod.url}/healthz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('starts its Flow and discount loop only once its tables exist: a fresh database logs no failed pass', async () => {
    // Its first pass starts as the app's module loads, while the tables are being created.
    expect(prod.appOutput()).not.toContain('[loyalty-loop] pass failed');
  });

  it('keeps one connection for order earning and one for balance imports while none is due, not one per lane', async () => {
    // Each loop polls each second; its pool keeps a connection ten seconds after its last use.
    await new Promise((r) => setTimeout(r, 2500));
    const { rows } = await prod.appPool.query(
      `select application_name, count(*)::int n from pg_stat_activity where datname = current_database()
       and application_name in ('loyalty-shopify-earning', 'loyalty-shopify-import') group by 1 order by 1`,
    );
    expect(rows).toEqual([
      { application_name: 'loyalty-shopify-earning', n: 1 },
      { application_name: 'loyalty-shopify-import', n: 1 },
    ]);
  });
});

describe('install by id_token', () => {
  it('concurrent first loads exchange the token, provision the shop once, and render the dashboard', async () => {
    expect(await prod.shops.find(TEST_SHOP)).toBeNull();
    const loads = await Promise.all([adminLoad('/app'), adminLoad('/app'), adminLoad('/app')]);
    for (const res of loads) {
      const html = await res.text();
      expect(res.status, html.slice(0, 300)).toBe(200);
      expect(html).toContain('Loyalty dashboard');
    }
    expect(prod.admin.tokenExchanges.length).toBeGreaterThan(0);
    expect(asked('LoyaltyShop')).toBe(1);
    expect(asked('LoyaltyMetafields')).toBe(1);

    const account = (await prod.shops.find(TEST_SHOP))!;
    expect(account).not.toBeNull();
    api = new Client(`${prod.core.url}/api/v1.0`, { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
    // One provisioning mints one key: a second would have retired the first.
    expect(await total('/schema/apikey/record')).toBe(1);
    expect(prod.admin.metafields.get(`${STUB_SHOP.id}|$app:loyalty|account_id`)).toBe(account.accountId);
    expect(prod.admin.metafields.get(`${STUB_SHOP.id}|$app:loyalty|base_url`)).toBe(prod.core.url);
  });

  it("two app processes racing on a shop's first load provision it once, its account in the shop's language", async () => {
    const second = await prod.serveAgain();
    // This shop sells in German first (fr-CA beside it); the one before it, in English.
    prod.admin.locales = [
      { locale: 'de', primary: true },
      { locale: 'fr-CA', primary: false },
    ];
    try {
      const shopName = 'second-shop';
      const provisioned = asked('LoyaltyShop');
      const servers = [prod.url, second.url, prod.url, second.url];
      const loads = await Promise.all(servers.map((server) => adminLoad('/app', { server, shopName })));
      for (const res of loads) {
        expect(res.status).toBe(200);
        expect(await res.text()).toContain('Loyalty dashboard');
      }
      expect(asked('LoyaltyShop')).toBe(provisioned + 1);
      const account = (await prod.shops.find(`${shopName}.myshopify.com`))!;
      const keys = await new Client(`${prod.core.url}/api/v1.0`, { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret }).get(
        '/schema/apikey/record',
        { fetchTotalCount: true },
      );
      expect(keys.body.paging.total).toBe(1);
      const core = new pg.Client({ connectionString: prod.coreDatabaseUrl });
      await core.connect();
      try {
        const languages = await core.query<{ external_ref: string; default_language_code: string }>(
          'select external_ref, default_language_code from account where external_ref = any($1) order by external_ref',
          [[TEST_SHOP, `${shopName}.myshopify.com`]],
        );
        expect(languages.rows.map((r) => r.default_language_code)).toEqual(['de', 'en']);
      } finally {
        await core.end();
      }
    } finally {
      prod.admin.locales = [{ locale: 'en', primary: true }];
      await second.close();
    }
  });

  it('a later load uses the stored offline session: no token exchange, no provisioning', async () => {
    const exchanges = prod.admin.tokenExchanges.length;
    const provisioned = asked('LoyaltyShop');
    const res = await adminLoad('/app/r/streak');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('Streaks');
    expect(prod.admin.tokenExchanges.length).toBe(exchanges);
    expect(asked('LoyaltyShop')).toBe(provisioned);
  });

  it('an address naming nothing, malformed or unknown, answers 404 inside the admin with a way back, in the merchant’s language', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const path of [
      '/app/programs/streak/xyz',
      '/app/programs/mission/xyz',
      `/app/programs/challenge/${unknown}`,
      '/app/rewards/xyz',
      `/app/tiers/${unknown}`,
    ]) {
      const res = await adminLoad(path);
      const page = await res.text();
      expect(res.status, path).toBe(404);
      expect(page, path).toContain('This page does not exist, or what it showed has been deleted.');
      expect(page, path).toContain('Go to the dashboard');
      expect(page, path).not.toContain('Application Error');
    }
    // A range picked end first, or a day that is none, still shows the figures: never the core's words for the query.
    for (const query of ['from=2026-11-30&to=2026-11-01', 'from=1969-01-01&to=2026-02-30']) {
      const dashboard = await adminLoad(`/app?${query}&locale=de`);
      const page = await dashboard.text();
      expect(dashboard.status, query).toBe(200);
      expect(page, query).not.toMatch(/must not be after|must be a day|query parameter is invalid/);
    }
    const german = await adminLoad('/app/programs/streak/xyz?locale=de');
    expect(german.status).toBe(404);
    expect(await german.text()).toContain('Diese Seite gibt es nicht, oder was sie zeigte, wurde gelöscht.');
  });
});

describe('the app’s own database out of reach', () => {
  /** A request on each surface that needs the app's database, as its sender makes it. */
  async function surfaces(): Promise<[string, () => Promise<Response>][]> {
    const { token } = await getJwt(TEST_SHOP_NAME, SHOPIFY.apiKey, SHOPIFY.apiSecretKey);
    const bearer = { authorization: `Bearer ${token}`, 'user-agent': BROWSER };
    return [
      ['an admin page', () => adminLoad('/app/r/streak')],
      ['its data', () => fetch(new URL('/app/r/streak.data', prod.url), { headers: bearer })],
      [
        'an admin action',
        () =>
          fetch(new URL('/app/onboarding', prod.url), {
            method: 'POST',
            headers: { ...bearer, 'content-type': 'application/json' },
            body: JSON.stringify({ intent: 'widget', language: 'en' }),
          }),
      ],
      ['a webhook', async () => prod.send(await webhookRequest('orders/paid', { id: 1 }))],
      ['a Flow action', async () => prod.send(await flowRequest('execute-streak', { customer_id: 1001, streak_id: 'x' }))],
      ['the app proxy', async () => prod.send(await proxyRequest('/apps/loyalty/token', { logged_in_customer_id: '2002' }))],
    ];
  }

  /** Each surface's answer is the outage's: 503 with Retry-After, the admin's error page or the app's error body. */
  async function expectOutage(surface: string, res: Response): Promise<void> {
    const body = await res.text();
    expect([surface, res.status, res.headers.get('retry-after')]).toEqual([surface, 503, '5']);
    if (surface === 'an admin page') expect(body).toContain('This page could not be shown. Try again in a minute.');
    else if (surface !== 'its data')
      expect([surface, JSON.parse(body)]).toEqual([
        surface,
        { error: { code: 'unavailable', message: 'The app is briefly unavailable; nothing was done. Retry shortly.' } },
      ]);
  }

  /** Everything answers again; after a silence, within the 10 s that connects begun during it hold their pool's places. */
  async function expectBack(): Promise<void> {
    await until('the admin back', async () => (await adminLoad('/app/r/streak')).status === 200);
    expect((await prod.send(await proxyRequest('/apps/loyalty/token', { logged_in_customer_id: '2002' }))).status).toBe(200);
  }

  it('out of connections: 503 with Retry-After on every surface, a page where the admin shows one, and everything comes back with it', async () => {
    const sends = await surfaces();
    const output = prod.appOutput().length;
    const full = prod.databaseGate!.full();
    try {
      for (const [surface, send] of sends) await expectOutage(surface, await send());
    } finally {
      full.restore();
    }
    // Said once a request, in a line: no stack trace for the environment's state.
    const logged = prod.appOutput().slice(output);
    expect(logged).toContain('[database] out of reach: sorry, too many clients already');
    expect(logged).not.toMatch(/^\s+at /m);
    expect(logged).not.toContain('Unexpected Server Error');
    await expectBack();
  });

  /** The worker's loops listening for their tables' notifications, as the database (past the gate) has them. */
  const listeners = async () =>
    (
      await prod.appPool.query<{ name: string }>(
        `select application_name as name from pg_stat_activity
          where datname = current_database() and application_name like 'loyalty-shopify-listen-%' order by 1`,
      )
    ).rows.map((r) => r.name);

  it('not answering (a failover, a partition): the same 503 once a connection could not be had in time, not a request left hanging; the worker listens again', async () => {
    const sends = await surfaces();
    // The worker's four loops (Flow triggers and discounts, earning, exclusions, balance imports), back from the test before.
    const listening = await until('the worker listening', async () => {
      const names = await listeners();
      return names.length === 4 && names;
    });
    const silent = prod.databaseGate!.silent();
    try {
      const started = Date.now();
      const answers = await Promise.all(sends.map(async ([surface, send]) => [surface, await send()] as const));
      for (const [surface, res] of answers) await expectOutage(surface, res);
      // The pool's wait for a connection (10 s), not Shopify's own timeout or the operating system's.
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      silent.restore();
    }
    await expectBack();
    // Its connects on the silent server give up (10 s), and the next poll listens again.
    await until('the worker listening again', async () => (await listeners()).join() === listening.join());
  });
});

describe('a loyalty service the app cannot reach', () => {
  it('shows inside the admin in the merchant’s language, with a way to try again, and the page comes back with it', async () => {
    const streak = await created('/schema/streak/record', { name: 'Unreachable streak' });
    const down = prod.coreGate!.down();
    try {
      // A page that cannot be shown without the core: 503 inside the admin, never the error page.
      const program = await adminLoad(`/app/programs/streak/${streak.id}`);
      const page = await program.text();
      expect(program.status).toBe(503);
      expect(page).toContain('The loyalty service did not answer');
      expect(page).toContain('Nothing you set up has changed; try again in a minute.');
      expect(page).toContain('Try again');
      expect(page).not.toContain('Application Error');
      const german = await adminLoad(`/app/programs/streak/${streak.id}?locale=de`);
      expect(german.status).toBe(503);
      expect(await german.text()).toContain('Der Loyalty-Dienst hat nicht geantwortet');
      // A list shows its page with the outage said where the records would be.
      const list = await adminLoad('/app/r/streak');
      expect(list.status).toBe(200);
      const listed = await list.text();
      expect(listed).toContain('The loyalty service did not answer');
    } finally {
      down.restore();
    }
    const back = await adminLoad(`/app/programs/streak/${streak.id}`);
    expect(back.status).toBe(200);
    expect(await back.text()).toContain('Unreachable streak');
  });
});

/** An admin action as App Bridge's fetch sends it: JSON with the session token. */
async function adminPost(path: string, body: Record<string, unknown>): Promise<{ status: number; body: any }> {
  const { token } = await getJwt(TEST_SHOP_NAME, SHOPIFY.apiKey, SHOPIFY.apiSecretKey);
  const res = await fetch(new URL(path, prod.url), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'user-agent': BROWSER },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

describe('the app’s own webhook in the admin', () => {
  it('is shown with its deliveries but kept as the app made it: no save, delete or new secret, which would stop Flow triggers and discounts', async () => {
    const hook = (await prod.shops.coreWebhook(TEST_SHOP))!;
    const page = await adminLoad(`/app/r/webhook/${hook.id}`);
    expect(page.status).toBe(200);
    const html = await drawnPage(page);
    expect(html).toContain('The app keeps this webhook');
    expect(html).not.toContain('Rotate secret');
    const before = (await api.get(`/schema/webhook/record/${hook.id}`)).body.data;
    for (const intent of [
      { intent: 'save', inputs: { name: 'Mine now', endpointUrl: 'https://example.com/hook' } },
      { intent: 'rotate-secret' },
      { intent: 'delete' },
    ]) {
      const { token } = await getJwt(TEST_SHOP_NAME, SHOPIFY.apiKey, SHOPIFY.apiSecretKey);
      const res = await fetch(new URL(`/app/r/webhook/${hook.id}`, prod.url), {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'user-agent': BROWSER },
        body: JSON.stringify({ ...intent, language: 'en' }),
        redirect: 'manual',
      });
      // The page again, not the list a delete would lead to.
      expect([intent.intent, res.status]).toEqual([intent.intent, 200]);
      expect(await res.text()).toContain('The app keeps this webhook');
    }
    const after = await api.get(`/schema/webhook/record/${hook.id}`);
    expect(after.status).toBe(200);
    expect(after.body.data).toMatchObject({
      name: before.name,
      endpointUrl: before.endpointUrl,
      webhookSecret: hook.secret,
      status: 'live',
    });
  });
});

describe('a write while the loyalty service cannot be reached', () => {
  it('is said in the merchant’s language, not in the app’s English, and leaves nothing behind', async () => {
    const streak = await created('/schema/streak/record', { name: 'Draft while down', status: 'draft' });
    const counts = () => Promise.all(['/schema/streak/record', '/schema/reward/record', '/schema/milestone/record'].map(total));
    const before = await counts();
    const down = prod.coreGate!.down();
    try {
      // The checklist's two clicks: create a program from a template, set a draft live.
      const create = await adminPost('/app/onboarding', {
        intent: 'create',
        template: 'daily-visit',
        status: 'live',
        shopifyDiscounts: false,
        language: 'de',
      });
      expect(create.body).toMatchObject({
        ok: false,
        message: 'Der Loyalty-Dienst hat nicht geantwortet. Versuche es in einer Minute noch einmal.',
        leftOver: [],
      });
      const launch = await adminPost('/app/onboarding', { intent: 'launch', slug: 'streak', id: streak.id, language: 'en' });
      expect(launch.body).toMatchObject({ ok: false, message: 'The loyalty service did not answer. Try again in a minute.' });
      const widget = await adminPost('/app/onboarding', { intent: 'widget', language: 'de' });
      expect(widget.body.message).toBe('Der Loyalty-Dienst hat nicht geantwortet. Versuche es in einer Minute noch einmal.');
    } finally {
      down.restore();
    }
    expect(await counts()).toEqual(before);
    expect((await api.get(`/schema/streak/record/${streak.id}`)).body.data.status).toBe('draft');
  });
});

describe('Flow actions', () => {
  it('execute-streak logs, aggregates and issues the milestone reward; a replayed action_run_id counts once', async () => {
    const { reward, streak } = await streakWithFirstDayReward(created, { couponCodePrefix: 'FLOW-', completionTargetValue: 5 });

    const first = await flow('execute-streak', { customer_id: 1001, streak_id: streak.id }, { action_run_id: 'run-prod-1' });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ ok: true, isAggregated: true });
    const member = (await api.get('/schema/account_user/record', byField('externalId', FLOW_CUSTOMER))).body.data[0];
    // The language Shopify keeps for the customer, as the core has it.
    expect(member).toMatchObject({ firstName: 'Ada', email: 'ada@example.com', languageCode: 'fr' });
    const rewards = (await api.get('/schema/reward_log/record', byField('rewardId', reward.id))).body.data;
    expect(rewards).toHaveLength(1);
    expect(rewards[0].couponCode).toMatch(/^FLOW-/);

    const logs = await total('/schema/streak_log/record');
    const replay = await flow('execute-streak', { customer_id: 1001, streak_id: streak.id }, { action_run_id: 'run-prod-1' });
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ ok: true, replay: true, logId: first.body.logId });
    expect(await total('/schema/streak_log/record')).toBe(logs);
  });

  it('execute-challenge sends the activity value of a sum challenge', async () => {
    const challenge = await created('/schema/challenge/record', {
      name: 'Spend 100',
      status: 'live',
      aggregationMethod: 'sum',
      aggregationPeriod: 'monthly',
      completionTargetValue: 100,
    });
    const res = await flow('execute-challenge', { customer_id: 1001, challenge_id: challenge.id, activity_value: '42.5' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await api.get(`/schema/challenge_log/record/${res.body.logId}`)).body.data.activityValue).toBe(42.5);
  });

  it('execute-mission logs against the task named by activity_id, the mission given by its name', async () => {
    const mission = await created('/schema/mission/record', {
      name: 'Welcome',
      status: 'live',
      aggregationPeriod: 'weekly',
      tasks: [{ name: 'Buy', activityId: 'purchase', aggregationMethod: 'count', targetValue: 2 }],
    });
    const res = await flow('execute-mission', { customer_id: 1001, mission_id: 'Welcome', activity_id: 'purchase' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await api.get(`/schema/mission_log/record/${res.body.logId}`)).body.data).toMatchObject({
      missionId: mission.id,
      activityId: 'purchase',
    });
  });

  it('a key is a replay only of what it counted: another task of the mission or another customer is 409 naming the key, nothing counted', async () => {
    const OTHER = 'gid://shopify/Customer/5005';
    prod.admin.customers.set(OTHER, { firstName: 'Mary', lastName: 'Jackson', email: 'mary@example.com' });
    const mission = await created('/schema/mission/record', {
      name: 'Shop and review',
      status: 'live',
      aggregationPeriod: 'weekly',
      tasks: [
        { name: 'Buy', activityId: 'purchase', aggregationMethod: 'count', targetValue: 2 },
        { name: 'Review', activityId: 'review', aggregationMethod: 'count', targetValue: 1 },
      ],
    });
    const step = (customer_id: number, activity_id: string) =>
      flow('execute-mission', { customer_id, mission_id: mission.id, activity_id, idempotency_key: 'order:77' });
    const first = await step(1001, 'purchase');
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const logs = await total('/schema/mission_log/record');

    expect((await step(1001, 'purchase')).body).toEqual({ ok: true, replay: true, logId: first.body.logId });
    const otherTask = await step(1001, 'review');
    expect(otherTask.status).toBe(409);
    expect(otherTask.body.error).toMatchObject({ code: 'duplicate_unique_identifier', property: 'idempotency_key' });
    expect(otherTask.body.error.message).toContain('“purchase”');
    const otherCustomer = await step(5005, 'purchase');
    expect(otherCustomer.status).toBe(409);
    expect(otherCustomer.body.error).toMatchObject({ code: 'duplicate_unique_identifier', property: 'idempotency_key' });
    expect(otherCustomer.body.error.message).not.toContain(first.body.logId);
    expect(await total('/schema/mission_log/record')).toBe(logs);

    const gift = (customer_id: number) => flow('adjust-points', { customer_id, points: 10, idempotency_key: 'birthday-2026' });
    const given = await gift(1001);
    expect(given.status, JSON.stringify(given.body)).toBe(200);
    expect((await gift(1001)).body).toEqual({ ok: true, replay: true, pointEntryId: given.body.pointEntryId });
    const entries = await total('/schema/point_entry/record');
    const notTheirs = await gift(5005);
    expect(notTheirs.status).toBe(409);
    expect(notTheirs.body.error).toMatchObject({ code: 'duplicate_unique_identifier', property: 'idempotency_key' });
    expect(await total('/schema/point_entry/record')).toBe(entries);
  });

  it('stamp-coupon writes the code onto the reward log; a repeat is 200', async () => {
    const { reward, streak } = await streakWithFirstDayStampedReward(created);
    expect((await flow('execute-streak', { customer_id: 1001, streak_id: streak.id })).status).toBe(200);
    const log = (await api.get('/schema/reward_log/record', byField('rewardId', reward.id))).body.data[0];
    for (let i = 0; i < 2; i++) {
      const stamped = await flow('stamp-coupon', { reward_log_id: log.id, coupon_code: 'SHOPIFY-15' });
      expect(stamped.status, JSON.stringify(stamped.body)).toBe(200);
      expect(stamped.body).toMatchObject({ ok: true, couponCode: 'SHOPIFY-15' });
    }
    expect((await api.get(`/schema/reward_log/record/${log.id}`)).body.data.couponCode).toBe('SHOPIFY-15');
  });

  it('adjust-points adds points for a customer new to the program (a member made from Shopify), once per run; takes off no more than the balance', async () => {
    const NEWCOMER = 'gid://shopify/Customer/4004';
    prod.admin.customers.set(NEWCOMER, { firstName: 'Katherine', lastName: 'Johnson', email: 'katherine@example.com', locale: 'pt-BR' });
    for (let i = 0; i < 2; i++) {
      const added = await flow(
        'adjust-points',
        { customer_id: 4004, points: 250, note: 'Welcome gift' },
        { action_run_id: 'run-points-1' },
      );
      expect(added.status, JSON.stringify(added.body)).toBe(200);
      expect(added.body).toMatchObject({ ok: true, ...(i ? { replay: true } : {}) });
    }
    const member = async () => (await api.get('/schema/account_user/record', byField('externalId', NEWCOMER))).body.data[0];
    expect(await member()).toMatchObject({
      firstName: 'Katherine',
      email: 'katherine@example.com',
      languageCode: 'pt',
      pointsBalance: 250,
    });
    const entries = await api.get('/schema/point_entry/record', byField('ownedById', (await member()).id));
    expect(entries.body.data).toMatchObject([{ points: 250, reason: 'adjusted', note: 'Welcome gift' }]);

    const over = await flow('adjust-points', { customer_id: 4004, points: -300 }, { action_run_id: 'run-points-2' });
    expect(over.status, JSON.stringify(over.body)).toBe(409);
    expect(over.body.error).toMatchObject({ code: 'insufficient_points', property: 'points' });
    const zero = await flow('adjust-points', { customer_id: 4004, points: 0 }, { action_run_id: 'run-points-3' });
    expect(zero.status).toBe(400);
    expect(zero.body.error.property).toBe('points');
    const taken = await flow('adjust-points', { customer_id: 4004, points: -50 }, { action_run_id: 'run-points-4' });
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    expect((await member()).pointsBalance).toBe(200);
  });

  it('set-birthday sets the birthday a form put in a birth_date metafield, over the one the customer gave; refuses what is no birthday', async () => {
    const GRACE = 'gid://shopify/Customer/4005';
    prod.admin.customers.set(GRACE, { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' });
    const member = async () => (await api.get('/schema/account_user/record', byField('externalId', GRACE))).body.data[0];
    // The year of a metafield's date is not kept; a retried run changes nothing more.
    for (let i = 0; i < 2; i++) {
      const set = await flow('set-birthday', { customer_id: 4005, birthday: '1906-12-09' }, { action_run_id: 'run-birthday-1' });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      expect(set.body).toMatchObject({ ok: true, birthday: '12-09' });
    }
    expect(await member()).toMatchObject({ firstName: 'Grace', birthday: '12-09' });
    expect((await flow('set-birthday', { customer_id: 4005, birthday: '02-29' })).body).toMatchObject({ ok: true, birthday: '02-29' });
    for (const [birthday, status] of [
      ['1906-02-30', 400],
      ['December 9', 400],
      ['', 400],
      ['13-01', 400],
    ] as const) {
      const refused = await flow('set-birthday', { customer_id: 4005, birthday });
      expect(refused.status, `${birthday}: ${JSON.stringify(refused.body)}`).toBe(status);
      expect(refused.body.error.property).toBe('birthday');
    }
    expect((await member()).birthday).toBe('02-29');
  });

  it.each([
    { handle: 'execute-streak', properties: { customer_id: 1001, streak_id: 'No such streak' }, status: 404, property: 'streak_id' },
    { handle: 'execute-streak', properties: { customer_id: 1001, streak_id: 'x'.repeat(257) }, status: 400, property: 'streak_id' },
    { handle: 'execute-streak', properties: { streak_id: '00000000-0000-4000-8000-000000000000' }, status: 400, property: 'customer_id' },
    {
      handle: 'execute-challenge',
      properties: { customer_id: 1001, challenge_id: '00000000-0000-4000-8000-000000000000' },
      status: 404,
      property: 'challenge_id',
    },
    {
      handle: 'execute-mission',
      properties: { customer_id: 1001, mission_id: '00000000-0000-4000-8000-000000000000' },
      status: 400,
      property: 'activity_id',
    },
    { handle: 'stamp-coupon', properties: { reward_log_id: '00000000-0000-4000-8000-000000000000' }, status: 400, property: 'coupon_code' },
  ])('$handle with bad properties → $status naming $property, nothing written', async ({ handle, properties, status, property }) => {
    const counts = async () =>
      Promise.all(
        ['/schema/streak_log/record', '/schema/challenge_log/record', '/schema/mission_log/record', '/schema/account_user/record'].map(
          total,
        ),
      );
    const before = await counts();
    const res = await flow(handle, properties);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.error.property).toBe(property);
    expect(await counts()).toEqual(before);
  });

  it('refuses a date that is no calendar day (02-30) instead of logging it two days later', async () => {
    const challenge = await created('/schema/challenge/record', { name: 'Dates', status: 'live', completionTargetValue: 5 });
    const res = await flow('execute-challenge', { customer_id: 1001, challenge_id: challenge.id, activity_at: '2026-02-30T00:00:00Z' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('activity_at');
  });

  it('refuses a time without its offset (it would be read in the server’s zone), a 24th hour and a number that is not plain decimals', async () => {
    const challenge = await created('/schema/challenge/record', {
      name: 'Strict',
      status: 'live',
      aggregationMethod: 'sum',
      completionTargetValue: 500,
    });
    for (const [property, value] of [
      ['activity_at', '2026-12-01T10:00:00'],
      ['activity_at', '2026-12-01T24:00:00Z'],
      ['activity_value', '0x10'],
      ['activity_value', '1e3'],
    ] as const) {
      const res = await flow('execute-challenge', { customer_id: 1001, challenge_id: challenge.id, activity_value: 5, [property]: value });
      expect(res.status, value).toBe(400);
      expect(res.body.error.property, value).toBe(property);
    }
    // A run id the core refuses as a log's uniqueIdentifier is named as the property it came from.
    const longRun = await flow(
      'execute-challenge',
      { customer_id: 1001, challenge_id: challenge.id, activity_value: 5 },
      { action_run_id: 'r'.repeat(300) },
    );
    expect(longRun.status).toBe(400);
    expect(longRun.body.error.property).toBe('action_run_id');
    // What Flow shows the merchant names the property and what is wrong with it.
    expect(longRun.body.error.message).toMatch(/^action_run_id: Must be at most \d+ characters\.$/);
    const fine = await flow('execute-challenge', {
      customer_id: 1001,
      challenge_id: challenge.id,
      activity_value: '12.50',
      activity_at: '2026-12-01T10:00:00+01:00',
    });
    expect(fine.status).toBe(200);
  });

  it('answers a signed body it cannot read with 400 (not retried), and refuses an oversized one unread with 413', async () => {
    // Flow's request without its shop, signed by Shopify's own helper.
    const noShop = await prod.send(await flowRequest('adjust-points', { customer_id: 1001, points: 5 }, { shopify_domain: undefined }));
    expect(noShop.status).toBe(400);
    // A webhook whose body is not JSON cannot come from Shopify's helpers: signed here as Shopify signs webhooks.
    const raw = '{"id":';
    const hmac = createHmac('sha256', SHOPIFY.apiSecretKey).update(raw).digest('base64');
    const signed = await webhookRequest('orders/paid', {});
    const headers = new Headers(signed.headers);
    headers.set('x-shopify-hmac-sha256', hmac);
    headers.delete('content-length');
    expect((await prod.send(new Request(signed.url, { method: 'POST', headers, body: raw }))).status).toBe(400);
    // The signature covers the body only: a shop domain header that names no shop is as unreadable.
    for (const shop of ['evil.example.com', `${TEST_SHOP}.evil.com`]) {
      const valid = await webhookRequest('orders/paid', { id: 1 });
      const body = await valid.text();
      const misnamed = new Headers(valid.headers);
      misnamed.set('x-shopify-shop-domain', shop);
      expect((await prod.send(new Request(valid.url, { method: 'POST', headers: misnamed, body }))).status, shop).toBe(400);
    }
    // Six megabytes, unsigned: refused before its signature is read, the process none the heavier.
    const big = await prod.send(
      new Request(signed.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: 'x'.repeat(6 * 1024 * 1024) }),
    );
    expect(big.status).toBe(413);
  });

  it('answers every request on a connection whose earlier bodies no route read (a refusal before the body is read)', async () => {
    for (const path of ['/apps/loyalty/visit', '/app/onboarding', '/flow/execute-streak'])
      for (let i = 0; i < 4; i++) {
        // One keep-alive connection (fetch's pool), each body too large to sit in the socket's buffers unread.
        const res = await fetch(new URL(path, prod.url), {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: 'x'.repeat(2_000_000),
          signal: AbortSignal.timeout(10_000),
        });
        expect([path, i, res.status < 500]).toEqual([path, i, true]);
        await res.arrayBuffer();
      }
  });

  it('answers another method than POST on the routes Shopify posts to with 405, saying it takes POST', async () => {
    for (const path of ['/webhooks/orders/paid', '/flow/execute-streak', '/apps/loyalty/visit', '/loyalty/events', '/app/onboarding'])
      for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
        const res = await fetch(new URL(path, prod.url), { method });
        expect([path, method, res.status, res.headers.get('allow')]).toEqual([path, method, 405, 'POST']);
      }
    // Signed as the proxy signs a visit, but deleted: nothing counted.
    const res = await prod.send(await proxyRequest('/apps/loyalty/visit', { logged_in_customer_id: '9100' }, 'DELETE'));
    expect([res.status, res.headers.get('allow')]).toEqual([405, 'POST']);
    expect((await prod.appPool.query('select 1 from storefront_visits where customer_id = $1', ['9100'])).rows).toHaveLength(0);
  });

  it('answers another method than GET on the routes only read with 405, saying it takes GET, in the app’s error body', async () => {
    const from = prod.appOutput().length;
    const readOnly = [
      '/apps/loyalty/token',
      '/healthz',
      '/',
      '/app/members.csv',
      '/app/earnings.csv',
      '/app/data-requests/1',
      '/auth/callback',
    ];
    for (const path of readOnly)
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
        const res = await fetch(new URL(path, prod.url), { method });
        expect([path, method, res.status, res.headers.get('allow'), res.headers.get('cache-control')]).toEqual([
          path,
          method,
          405,
          'GET',
          'no-store',
        ]);
        expect(await res.json()).toMatchObject({ error: { code: 'method_not_allowed' } });
      }
    // Signed as the proxy signs a shopper's token request, but posted: no token.
    for (const method of ['POST', 'OPTIONS']) {
      const res = await prod.send(await proxyRequest('/apps/loyalty/token', { logged_in_customer_id: '2002' }, method));
      expect([method, res.status, res.headers.get('allow')]).toEqual([method, 405, 'GET']);
      expect(await res.text()).not.toContain('accessToken');
    }
    await expect.poll(() => prod.appOutput().slice(from)).toMatch(/^POST \/apps\/loyalty\/token 405 /m);
    // Refusals, not failures: no stack trace.
    expect(prod.appOutput().slice(from)).not.toMatch(/^\s+at /m);
  });

  it('refuses another origin’s action on a page, as a cross-site form posts it, with 403 and the app’s error body, logging no error', async () => {
    const from = prod.appOutput().length;
    for (const path of ['/app', '/app/rewards/new', '/app/members', '/auth/login', '/no-such-page'])
      for (const [method, origin] of [
        ['POST', 'https://evil.example'],
        ['DELETE', 'null'],
      ] as const) {
        const res = await fetch(new URL(path, prod.url), {
          method,
          headers: { origin, 'user-agent': BROWSER, 'content-type': 'application/x-www-form-urlencoded' },
          body: 'intent=delete',
        });
        expect([path, method, res.status, res.headers.get('cache-control')]).toEqual([path, method, 403, 'no-store']);
        expect(await res.json()).toMatchObject({ error: { code: 'cross_origin' } });
      }
    await expect.poll(() => prod.appOutput().slice(from)).toMatch(/^DELETE \/no-such-page 403 /m);
    expect(prod.appOutput().slice(from)).not.toMatch(/^\s+at /m);
  });

  it('refuses another origin’s request other than GET to a route’s data form (`.data`) with 403 and the app’s error body, logging no error', async () => {
    const from = prod.appOutput().length;
    const paths = [
      '/checkout/member.data',
      '/checkout/order.data',
      '/pos/customer.data',
      '/customer-account/token.data',
      '/apps/loyalty/token.data',
      '/apps/loyalty/visit.data',
      '/healthz.data',
      '/app.data',
    ];
    for (const path of paths)
      for (const [method, origin] of [
        ['OPTIONS', 'null'],
        ['POST', 'https://extensions.shopifycdn.com'],
        ['DELETE', 'https://evil.example'],
      ] as const) {
        const res = await fetch(new URL(path, prod.url), { method, headers: { origin, 'user-agent': BROWSER } });
        expect([path, method, res.status, res.headers.get('cache-control')]).toEqual([path, method, 403, 'no-store']);
        expect(await res.json()).toMatchObject({ error: { code: 'cross_origin' } });
      }
    await expect.poll(() => prod.appOutput().slice(from)).toMatch(/^DELETE \/app\.data 403 /m);
    // Refusals, not failures: no stack trace.
    expect(prod.appOutput().slice(from)).not.toMatch(/^\s+at /m);
    // The app's own origin is let through to the route.
    const own = await fetch(new URL('/healthz.data', prod.url), { method: 'POST', headers: { origin: prod.url } });
    expect(own.status).toBe(405);
  });

  it('answers what a stranger sends a page (an unknown address, a method it does not take, a login form that is no form) as a page, logging no error', async () => {
    const from = prod.appOutput().length;
    const missing = await fetch(new URL('/no-such-page', prod.url), { method: 'POST', headers: { 'user-agent': BROWSER } });
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('<h1>Not found</h1>');
    const options = await fetch(new URL('/app', prod.url), { method: 'OPTIONS' });
    expect(options.status).toBe(405);
    expect(await options.text()).toContain('<h1>This page can’t do that</h1>');
    expect((await fetch(new URL('/auth/login', prod.url), { method: 'HEAD' })).status).toBe(200);
    const file = new FormData();
    file.append('shop', new Blob(['my-shop']), 'shop.txt');
    for (const init of [
      { body: file },
      { body: '{"shop":"my-shop"}', headers: { 'content-type': 'application/json' } },
      {},
    ] satisfies RequestInit[]) {
      const res = await fetch(new URL('/auth/login', prod.url), { method: 'POST', redirect: 'manual', ...init });
      expect([res.status, res.headers.get('location')]).toEqual([200, null]);
      expect(await res.text()).toContain('name="shop"');
    }
    const named = await fetch(new URL('/auth/login', prod.url), {
      method: 'POST',
      redirect: 'manual',
      body: new URLSearchParams({ shop: 'my-shop' }),
    });
    expect([named.status, named.headers.get('location')]).toEqual([302, expect.stringContaining('my-shop')]);
    await expect.poll(() => prod.appOutput().slice(from)).toMatch(/^POST \/auth\/login 302 /m);
    expect(prod.appOutput().slice(from)).not.toMatch(/^\s+at |Error/m);
  });

  it('answers a path whose escapes decode to no text with 400 in the app’s error body, logging no error', async () => {
    const from = prod.appOutput().length;
    for (const path of ['/checkout/order%ff', '/app/%E0%A4%A', '/apps/loyalty/token%c0'])
      for (const method of ['GET', 'POST']) {
        const res = await fetch(`${prod.url}${path}`, { method });
        expect([path, method, res.status, res.headers.get('cache-control')]).toEqual([path, method, 400, 'no-store']);
        expect(await res.json()).toMatchObject({ error: { code: 'bad_path' } });
      }
    await expect.poll(() => prod.appOutput().slice(from)).toMatch(/^POST \/apps\/loyalty\/token%c0 400 /m);
    expect(prod.appOutput().slice(from)).not.toMatch(/^\s+at |Error/m);
  });

  it('a tampered body is refused before any work', async () => {
    const signed = await flowRequest('execute-streak', { customer_id: 1001, streak_id: '00000000-0000-4000-8000-000000000000' });
    const tampered = new Request(signed.url, {
      method: 'POST',
      headers: signed.headers,
      body: (await signed.text()).replace('1001', '1002'),
    });
    const before = prod.admin.requests.length;
    const res = await prod.send(tampered);
    expect(res.status).toBe(400);
    expect(prod.admin.requests.length).toBe(before);
  });
});

describe('app proxy token', () => {
  it('mints an end-user token the core accepts for the signed-in customer', async () => {
    const res = await prod.send(await proxyRequest('/apps/loyalty/token', { logged_in_customer_id: '2002', path_prefix: '/apps/loyalty' }));
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const { accessToken } = (await res.json()) as { accessToken: string };
    const account = (await prod.shops.find(TEST_SHOP))!;
    const me = await new Client(`${prod.core.url}/api/v1.0`).get('/schema/account_user/me', undefined, {
      'x-enduser-access-token': accessToken,
      'x-account-id': account.accountId,
    });
    expect(me.status).toBe(200);
    expect(me.body.data.externalId).toBe('gid://shopify/Customer/2002');
  });

  it('answers 401 to a guest', async () => {
    const res = await prod.send(await proxyRequest('/apps/loyalty/token', {}));
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: 'unauthenticated' } });
  });

  it('names no one when the customer parameter is repeated, which the signature cannot tell from one joined value', async () => {
    // A shopper's own ?logged_in_customer_id=2002 beside the proxy's empty one (a guest), signed as
    // Shopify signs a query: keys sorted, a repeated key's values joined by commas.
    for (const [path, method] of [
      ['/apps/loyalty/token', 'GET'],
      ['/apps/loyalty/visit', 'POST'],
    ] as const) {
      const url = new URL(`${SHOPIFY.appUrl}${path}`);
      const pairs: [string, string][] = [
        ['logged_in_customer_id', '2002'],
        ['logged_in_customer_id', ''],
        ['path_prefix', '/apps/loyalty'],
        ['shop', TEST_SHOP],
        ['timestamp', String(Math.trunc(Date.now() / 1000))],
      ];
      for (const [k, v] of pairs) url.searchParams.append(k, v);
      const message = [...new Set(pairs.map(([k]) => k))]
        .sort()
        .map((k) => `${k}=${url.searchParams.getAll(k).join(',')}`)
        .join('');
      url.searchParams.set('signature', createHmac('sha256', SHOPIFY.apiSecretKey).update(message).digest('hex'));
      const res = await prod.send(new Request(url, { method }));
      expect(res.status, path).toBe(401);
      expect(await res.json()).toMatchObject({ error: { code: 'unauthenticated' } });
    }
  });

  it('keeps the token out of caches in its data form too (`.data`, which carries no headers of the route)', async () => {
    const signed = await proxyRequest('/apps/loyalty/token', { logged_in_customer_id: '2002', path_prefix: '/apps/loyalty' });
    const url = new URL(signed.url);
    url.pathname += '.data';
    const res = await prod.send(new Request(url));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('accessToken');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('answers a signed request whose shop names no shop with 400, as a bad signature', async () => {
    for (const shop of ['evil.com', undefined]) {
      const url = new URL(`${SHOPIFY.appUrl}/apps/loyalty/token`);
      url.searchParams.set('logged_in_customer_id', '2002');
      if (shop) url.searchParams.set('shop', shop);
      url.searchParams.set('timestamp', String(Math.trunc(Date.now() / 1000)));
      const message = [...url.searchParams.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, v]) => `${k}=${v}`)
        .join('');
      url.searchParams.set('signature', createHmac('sha256', SHOPIFY.apiSecretKey).update(message).digest('hex'));
      for (const method of ['GET', 'POST'] as const) {
        const res = await prod.send(new Request(method === 'GET' ? url : new URL(url.href.replace('/token', '/visit')), { method }));
        expect([shop, method, res.status]).toEqual([shop, method, 400]);
      }
    }
  });

  it('answers 503 when the core holds the request past the time a shopper waits, instead of hanging', async () => {
    const held = prod.coreGate!.hold((method, path) => method === 'POST' && path.startsWith('/api/v1.0/enduser/token'));
    try {
      const started = Date.now();
      const res = await prod.send(await proxyRequest('/apps/loyalty/token', { logged_in_customer_id: '2468' }));
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ error: { code: 'unavailable' } });
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      held.release();
    }
  }, 40_000);

  it("logs each request by its path, never its query, which carries the admin's id_token and the proxy's signature", async () => {
    const from = prod.appOutput().length;
    expect((await adminLoad('/app')).status).toBe(200);
    expect((await prod.send(await proxyRequest('/apps/loyalty/token', { logged_in_customer_id: '2002' }))).status).toBe(200);
    // Written as each answer ends, and read from the process's output a moment later.
    const logged = () => prod.appOutput().slice(from);
    await expect.poll(logged).toMatch(/^GET \/app 200 /m);
    await expect.poll(logged).toMatch(/^GET \/apps\/loyalty\/token 200 /m);
    expect(logged()).not.toMatch(/id_token|signature=|logged_in_customer_id/);
  });

  it('refuses a tampered or stale signature', async () => {
    const forged = new URL((await proxyRequest('/apps/loyalty/token', { logged_in_customer_id: '2002' })).url);
    forged.searchParams.set('logged_in_customer_id', '3003');
    const refused = await prod.send(new Request(forged));
    expect([refused.status, refused.headers.get('cache-control')]).toEqual([400, 'no-store']);
    expect(await refused.json()).toMatchObject({ error: { code: 'bad_signature' } });

    const stale = new URL(`${SHOPIFY.appUrl}/apps/loyalty/token`);
    stale.searchParams.set('logged_in_customer_id', '2002');
    stale.searchParams.set('shop', TEST_SHOP);
    stale.searchParams.set('timestamp', String(Math.trunc(Date.now() / 1000) - 3600));
    const message = [...stale.searchParams.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}=${v}`)
      .join('');
    stale.searchParams.set('signature', createHmac('sha256', SHOPIFY.apiSecretKey).update(message).digest('hex'));
    const late = await prod.send(new Request(stale));
    expect(late.status).toBe(400);
    expect(await late.json()).toMatchObject({ error: { code: 'bad_signature' } });
  });
});

describe('GDPR and lifecycle webhooks', () => {
  const members = async () => (await api.get('/schema/account_user/record', byField('externalId', GDPR_CUSTOMER))).body.data as unknown[];
  const deliver = async (topic: string, payload: Record<string, unknown>) => (await prod.send(await webhookRequest(topic, payload))).status;

  beforeAll(async () => {
    const streak = await created('/schema/streak/record', { name: 'Visits', status: 'live' });
    expect((await flow('execute-streak', { customer_id: 3003, streak_id: streak.id })).status).toBe(200);
  });

  it('a compliance webhook whose signed body names another shop than its header does nothing', async () => {
    const elsewhere = 'someone-else.myshopify.com';
    expect(await deliver('customers/data_request', { shop_domain: elsewhere, customer: { id: 3003 }, data_request: { id: 87 } })).toBe(400);
    expect(await deliver('customers/redact', { shop_domain: elsewhere, customer: { id: 3003 } })).toBe(400);
    expect(await deliver('shop/redact', { shop_id: 424242, shop_domain: elsewhere })).toBe(400);
    expect(await members()).toHaveLength(1);
    expect(await prod.shops.find(TEST_SHOP)).not.toBeNull();
    expect((await prod.appPool.query('select 1 from data_requests where shop = $1', [TEST_SHOP])).rows).toEqual([]);
  });

  it('with the core down, customers/data_request and customers/redact answer 503 in JSON for Shopify to retry, and keep nothing half-done', async () => {
    const logged = prod.appOutput().length;
    const down = prod.coreGate!.down();
    try {
      for (const [topic, payload] of [
        ['customers/data_request', { shop_domain: TEST_SHOP, customer: { id: 3003 }, data_request: { id: 86 } }],
        ['customers/redact', { shop_domain: TEST_SHOP, customer: { id: 3003 } }],
      ] as const) {
        const res = await prod.send(await webhookRequest(topic, payload));
        expect(res.status, topic).toBe(503);
        expect(await res.json()).toMatchObject({ error: { code: 'unavailable' } });
      }
    } finally {
      down.restore();
    }
    expect((await prod.appPool.query('select 1 from data_requests where shop = $1', [TEST_SHOP])).rows).toEqual([]);
    expect(await members()).toHaveLength(1);
    // Said in a line, not as an error with its stack trace.
    expect(prod.appOutput().slice(logged)).not.toMatch(/\n\s+at /);
  });

  it('customers/data_request keeps an export of the member, once per request', async () => {
    const payload = { shop_domain: TEST_SHOP, customer: { id: 3003 }, data_request: { id: 88 } };
    for (let i = 0; i < 2; i++) expect(await deliver('customers/data_request', payload)).toBe(200);
    const { rows } = await prod.appPool.query('select * from data_requests where shop = $1', [TEST_SHOP]);
    expect(rows).toHaveLength(1);
    expect(rows[0].export.member).toMatchObject({ externalId: GDPR_CUSTOMER, firstName: 'Grace' });
  });

  it('customers/redact erases the member in the core', async () => {
    expect(await members()).toHaveLength(1);
    for (let i = 0; i < 2; i++) expect(await deliver('customers/redact', { shop_domain: TEST_SHOP, customer: { id: 3003 } })).toBe(200);
    expect(await members()).toHaveLength(0);
  });

  it('app/uninstalled drops the sessions; reinstalling provisions the shop again', async () => {
    for (let i = 0; i < 2; i++) expect(await deliver('app/uninstalled', { domain: TEST_SHOP })).toBe(200);
    expect((await prod.appPool.query('select id from shopify_sessions where shop = $1', [TEST_SHOP])).rows).toHaveLength(0);
    const before = (await prod.shops.find(TEST_SHOP))!;
    expect(before).not.toBeNull();

    const exchanges = prod.admin.tokenExchanges.length;
    const written = asked('LoyaltyMetafields');
    const [a, b] = await Promise.all([adminLoad('/app'), adminLoad('/app')]);
    for (const res of [a!, b!]) {
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('Loyalty dashboard');
    }
    expect(prod.admin.tokenExchanges.length).toBeGreaterThan(exchanges);
    expect(asked('LoyaltyMetafields')).toBe(written + 1);
    const after = (await prod.shops.find(TEST_SHOP))!;
    expect(after.accountId).toBe(before.accountId);
    api = new Client(`${prod.core.url}/api/v1.0`, { 'x-api-key': after.apiKey, 'x-api-secret': after.apiSecret });
    expect(await total('/schema/apikey/record')).toBe(1);
  });

  it('shop/redact erases the account and forgets the shop', async () => {
    const { accountId } = (await prod.shops.find(TEST_SHOP))!;
    for (let i = 0; i < 2; i++) expect(await deliver('shop/redact', { shop_id: 424242, shop_domain: TEST_SHOP })).toBe(200);
    expect(await prod.shops.find(TEST_SHOP)).toBeNull();
    // Every table that names a shop, today's and any added later, holds nothing of it.
    const { rows: tables } = await prod.appPool.query<{ table_name: string }>(
      "select table_name from information_schema.columns where table_schema = current_schema() and column_name = 'shop'",
    );
    expect(tables.length).toBeGreaterThan(20);
    for (const { table_name } of tables) {
      const { rows } = await prod.appPool.query(`select 1 from ${table_name} where shop = $1 limit 1`, [TEST_SHOP]);
      expect(rows, table_name).toEqual([]);
    }
    expect((await api.get('/schema/streak/record')).status).toBe(401);
    expect((await prod.core.platform.delete(`/platform/accounts/${accountId}`)).status).toBe(404);
  });
});
