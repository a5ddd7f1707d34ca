import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../core/test/support/harness';
import { call, flowRequest, type Stack, startStack, TEST_SHOP, webhookRequest } from './support/stack';

let stack: Stack;
let api: Client;
type Route = { action: Parameters<typeof call>[0] };
let routes: Record<'dataRequest' | 'redact' | 'shopRedact' | 'uninstalled' | 'scopesUpdate' | 'streak', Route>;
let accountId: string;
const CUSTOMER = 'gid://shopify/Customer/3003';

beforeAll(async () => {
  stack = await startStack();
  stack.admin.customers.set(CUSTOMER, { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' });
  accountId = (await stack.install()).accountId;
  const account = (await stack.app.shops.find(TEST_SHOP))!;
  api = stack.core.anon.with({ 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
  routes = {
    dataRequest: await import('../app/routes/webhooks.customers.data_request'),
    redact: await import('../app/routes/webhooks.customers.redact'),
    shopRedact: await import('../app/routes/webhooks.shop.redact'),
    uninstalled: await import('../app/routes/webhooks.app.uninstalled'),
    scopesUpdate: await import('../app/routes/webhooks.app.scopes_update'),
    streak: await import('../app/routes/flow.execute-streak'),
  } as typeof routes;
  const streak = await api.post('/schema/streak/record', { name: 'Visits', status: 'live' });
  const logged = await call(
    routes.streak.action,
    await flowRequest('execute-streak', { customer_id: 3003, streak_id: streak.body.data.id }),
  );
  expect(logged.status).toBe(200);
});

afterAll(async () => {
  await stack?.close();
});

const members = async () =>
  (
    await api.get('/schema/account_user/record', {
      filters: { operator: 'and', conditions: [{ fieldSlug: 'externalId', operator: 'equals', fieldValue: CUSTOMER }] },
    })
  ).body.data;

describe('GDPR and lifecycle webhooks', () => {
  it('refuses a bad HMAC', async () => {
    const signed = await webhookRequest('customers/redact', { shop_domain: TEST_SHOP, customer: { id: 3003 } });
    const forged = new Request(signed.url, {
      method: 'POST',
      headers: { ...Object.fromEntries(signed.headers), 'x-shopify-hmac-sha256': 'bm9wZQ==' },
      body: await signed.text(),
    });
    expect((await call(routes.redact.action, forged)).status).toBe(401);
    expect(await members()).toHaveLength(1);
  });

  it('customers/data_request exports the member and its history, once per request', async () => {
    const payload = { shop_domain: TEST_SHOP, customer: { id: 3003, email: 'grace@example.com' }, data_request: { id: 77 } };
    for (let i = 0; i < 2; i++)
      expect((await call(routes.dataRequest.action, await webhookRequest('customers/data_request', payload))).status).toBe(200);
    const { rows } = await stack.app.pool.query('select * from data_requests where shop = $1', [TEST_SHOP]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ request_id: '77', customer_external_id: CUSTOMER });
    expect(rows[0].export.member).toMatchObject({ externalId: CUSTOMER, firstName: 'Grace', email: 'grace@example.com' });
    expect(rows[0].export.streakLogs).toHaveLength(1);
    expect(rows[0].export.streakProgress).toHaveLength(1);
  });

  it('customers/redact erases the member in the core and the orders the app kept; a redelivery is still 200', async () => {
    await stack.app.pool.query(
      `insert into shopify_orders (shop, order_id, customer_id, name, processed_at, amount, lines, status) values ($1, '77', '3003', '#77', now(), 10, '[]', 'earned')`,
      [TEST_SHOP],
    );
    await stack.app.pool.query(
      `insert into shopify_webhooks (shop, webhook_id, topic, subject, order_id, payload) values ($1, 'w77', 'orders/paid', 'order:77', '77', $2)`,
      [TEST_SHOP, JSON.stringify({ id: 77, customer: { id: 3003, email: 'grace@example.com' } })],
    );
    const payload = { shop_domain: TEST_SHOP, customer: { id: 3003 }, orders_to_redact: [] };
    for (let i = 0; i < 2; i++)
      expect((await call(routes.redact.action, await webhookRequest('customers/redact', payload))).status).toBe(200);
    expect(await members()).toHaveLength(0);
    expect((await api.get('/schema/streak_log/record')).body.data).toHaveLength(0);
    expect((await stack.app.pool.query('select 1 from shopify_orders where shop = $1', [TEST_SHOP])).rowCount).toBe(0);
    // The order's webhook is kept emptied: a late redelivery of it is known.
    expect((await stack.app.pool.query('select subject, payload from shopify_webhooks where shop = $1', [TEST_SHOP])).rows).toEqual([
      { subject: 'order:77', payload: {} },
    ]);
  });

  it("app/scopes_update brings the stored offline session's scope up to date", async () => {
    const id = `offline_${TEST_SHOP}`;
    expect((await stack.app.sessionStorage.loadSession(id))?.scope).toBe('read_customers');
    const payload = {
      id: 1,
      previous: ['read_customers'],
      current: ['read_customers', 'write_discounts'],
      updated_at: new Date().toISOString(),
    };
    for (let i = 0; i < 2; i++)
      expect((await call(routes.scopesUpdate.action, await webhookRequest('app/scopes_update', payload))).status).toBe(200);
    const stored = await stack.app.sessionStorage.loadSession(id);
    expect(stored?.scope).toBe('read_customers,write_discounts');
    expect(stored?.accessToken).toBeTruthy();
  });

  it('app/uninstalled drops the sessions and keeps the account until shop/redact', async () => {
    expect(await stack.app.sessionStorage.findSessionsByShop(TEST_SHOP)).not.toHaveLength(0);
    for (let i = 0; i < 2; i++)
      expect((await call(routes.uninstalled.action, await webhookRequest('app/uninstalled', { domain: TEST_SHOP }))).status).toBe(200);
    expect(await stack.app.sessionStorage.findSessionsByShop(TEST_SHOP)).toHaveLength(0);
    expect(await stack.app.shops.find(TEST_SHOP)).not.toBeNull();
  });

  it('shop/redact erases the account through the platform API and forgets the shop', async () => {
    const payload = { shop_id: 424242, shop_domain: TEST_SHOP };
    for (let i = 0; i < 2; i++)
      expect((await call(routes.shopRedact.action, await webhookRequest('shop/redact', payload))).status).toBe(200);
    expect(await stack.app.shops.find(TEST_SHOP)).toBeNull();
    expect((await api.get('/schema/streak/record')).status).toBe(401);
    expect((await stack.core.platform.delete(`/platform/accounts/${accountId}`)).status).toBe(404);
  });
});
