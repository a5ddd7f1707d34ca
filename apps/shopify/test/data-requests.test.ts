import { readFile } from 'node:fs/promises';
import { getJwt, setUpValidSession, TEST_SHOP_NAME } from '@shopify/shopify-api/test-helpers';
import { decode } from 'turbo-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AdminApp, startAdminApp } from './support/admin';
import type { AdminBrowser } from './support/browser';
import { call, flowRequest, SHOPIFY, type Stack, TEST_SHOP, webhookRequest } from './support/stack';

/**
 * The merchant's view of customers/data_request exports: the page in Chromium and the file route,
 * served from the production build, each shop seeing only its own requests.
 */
let admin: AdminApp;
let stack: Stack;
let server: AdminApp['server'];
let browser: AdminBrowser;
const CUSTOMER = 'gid://shopify/Customer/3003';
const OTHER_SHOP_NAME = 'other-shop';
const OTHER_SHOP = `${OTHER_SHOP_NAME}.myshopify.com`;

type Action = Parameters<typeof call>[0];

beforeAll(async () => {
  admin = await startAdminApp(async (installed) => {
    installed.admin.customers.set(CUSTOMER, { firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com' });
    const account = (await installed.app.shops.find(TEST_SHOP))!;
    const api = installed.core.anon.with({ 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
    // Loyalty data for the customer: a streak visit logged through the Flow action.
    const streakRoute = (await import('../app/routes/flow.execute-streak')) as { action: Action };
    const streak = await api.post('/schema/streak/record', { name: 'Visits', status: 'live' });
    expect(
      (await call(streakRoute.action, await flowRequest('execute-streak', { customer_id: 3003, streak_id: streak.body.data.id }))).status,
    ).toBe(200);
    // A second shop, signed in, with a request of its own.
    await installed.app.sessionStorage.storeSession(setUpValidSession({ shop: OTHER_SHOP, scope: 'read_customers' }));
    await installed.app.shops.saveDataRequest(OTHER_SHOP, '91', 'gid://shopify/Customer/9001', { member: null });
  });
  ({ stack, server, browser } = admin);
}, 120_000);

afterAll(() => admin?.close());

// The library answers 410 to bots, and Node's fetch reads as one.
const USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

/** A request to the built app as App Bridge's fetch sends it: with a session token of `shopName`. */
async function fetchAs(shopName: string, path: string, secret: string = SHOPIFY.apiSecretKey): Promise<Response> {
  const { token } = await getJwt(shopName, SHOPIFY.apiKey, secret);
  return fetch(`${server.url}${path}`, { headers: { authorization: `Bearer ${token}`, 'user-agent': USER_AGENT }, redirect: 'manual' });
}

/** The page's loader data as Remix's client fetches it (single fetch: `.data`, turbo-stream encoded). */
const listData = async (shopName: string) => {
  const route = 'routes/app.data-requests._index';
  const res = await fetchAs(shopName, `/app/data-requests.data?_routes=${encodeURIComponent(route)}`);
  expect(res.status).toBe(200);
  const decoded = await decode(res.body!);
  await decoded.done;
  const routes = decoded.value as Record<
    string,
    { data: { rows: { requestId: string; customerExternalId: string; receivedAt: string }[] } }
  >;
  return routes[route]!.data.rows;
};

const storedExport = async (shop: string, requestId: string) =>
  (
    await stack.app.pool.query<{ export: unknown }>('select export from data_requests where shop = $1 and request_id = $2', [
      shop,
      requestId,
    ])
  ).rows[0]!.export;

describe('customer data requests in the admin', () => {
  it('empty state before any request; the nav menu links the page', async () => {
    await browser.open('/app/data-requests');
    const page = browser.page;
    await page.getByRole('heading', { name: 'Customer data requests' }).waitFor();
    await page.getByText('No data requests yet').waitFor();
    expect(await page.locator('ui-nav-menu a[href="/app/data-requests"]').innerText()).toBe('Data requests');
    await browser.shot('data-requests-empty');
  });

  it('after a signed customers/data_request the page lists it, newest first, and Download saves exactly the stored export', async () => {
    const dataRequest = (await import('../app/routes/webhooks.customers.data_request')) as { action: Action };
    const send = (customer: number, request: number) =>
      webhookRequest('customers/data_request', {
        shop_domain: TEST_SHOP,
        customer: { id: customer, email: 'grace@example.com' },
        data_request: { id: request },
      });
    expect((await call(dataRequest.action, await send(3003, 77))).status).toBe(200);
    // A customer the programme knows nothing about still gets an answer.
    expect((await call(dataRequest.action, await send(3004, 78))).status).toBe(200);
    const stored = (await storedExport(TEST_SHOP, '77')) as { member: Record<string, unknown>; streakLogs: unknown[] };
    expect(stored.member).toMatchObject({ externalId: CUSTOMER, email: 'grace@example.com' });
    expect(stored.streakLogs).toHaveLength(1);

    await browser.open('/app/data-requests');
    const page = browser.page;
    await page.getByRole('button', { name: 'Download request 77' }).waitFor();
    const rows = await page.locator('table tbody tr').allInnerTexts();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain('78');
    // Each customer as a link to their page in the Shopify admin, not as a gid.
    const customerLinks = page.locator('table tbody tr').getByRole('link', { name: 'Open in Shopify' });
    expect(await customerLinks.evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual([
      'shopify:admin/customers/3004',
      'shopify:admin/customers/3003',
    ]);
    expect(rows.join('\n')).not.toContain('gid://');
    // The date as the admin's language writes it (Intl), not an ISO date.
    expect(rows[1]).toMatch(/[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M/);
    // Another shop's request is not listed.
    expect(rows.join('\n')).not.toContain('9001');
    await browser.shot('data-requests');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download request 77' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('data-request-77.json');
    expect(JSON.parse(await readFile((await download.path())!, 'utf8'))).toEqual(stored);
  });

  it('the file route answers the export as a JSON attachment', async () => {
    const res = await fetchAs(TEST_SHOP_NAME, '/app/data-requests/77');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="data-request-77.json"');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(JSON.parse(await res.text())).toEqual(await storedExport(TEST_SHOP, '77'));
    expect((await fetchAs(TEST_SHOP_NAME, '/app/data-requests/404404')).status).toBe(404);
  });

  it("a second shop's session sees only its own requests: neither the row nor the download of another shop's", async () => {
    expect((await listData(OTHER_SHOP_NAME)).map((r) => r.requestId)).toEqual(['91']);
    expect((await listData(TEST_SHOP_NAME)).map((r) => r.requestId)).toEqual(['78', '77']);
    const refused = await fetchAs(OTHER_SHOP_NAME, '/app/data-requests/77');
    expect(refused.status).toBe(404);
    expect(await refused.text()).not.toContain('grace@example.com');
    // The session is good: its own request downloads.
    const own = await fetchAs(OTHER_SHOP_NAME, '/app/data-requests/91');
    expect(own.status).toBe(200);
    expect(await own.json()).toEqual({ member: null });
  });

  it('refuses the download without a valid session token', async () => {
    // No token: a document request without a shop is sent to the login page.
    const anonymous = await fetch(`${server.url}/app/data-requests/77`, { headers: { 'user-agent': USER_AGENT }, redirect: 'manual' });
    expect(anonymous.status).toBe(302);
    expect(new URL(anonymous.headers.get('location')!, server.url).pathname).toBe('/auth/login');
    expect(await anonymous.text()).not.toContain('grace@example.com');
    // A token not signed with the app's secret.
    const forged = await fetchAs(TEST_SHOP_NAME, '/app/data-requests/77', 'not-the-app-secret');
    expect(forged.status).toBe(401);
    expect(await forged.text()).not.toContain('grace@example.com');
  });
});
