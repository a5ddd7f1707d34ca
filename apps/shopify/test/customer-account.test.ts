import { TEST_SHOP, TEST_SHOP_NAME } from '@shopify/shopify-api/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../core/test/support/harness';
import { extensionToken, fromExtension, refusedTokens, type TokenOptions } from './support/extensions';
import { adminLoad } from './support/orders';
import { type Production, startProduction } from './support/production';
import { proxyRequest, webhookRequest } from './support/stack';

/**
 * The customer account "Rewards" page's token route, through the production build: session tokens
 * signed as Shopify signs them (HS256 with the app's secret, `dest` = shop, `sub` = customer gid).
 */
let prod: Production;
const CUSTOMER = 'gid://shopify/Customer/2002';
const OTHER_SHOP_NAME = 'other-shop';

async function install(shopName: string): Promise<void> {
  const res = await adminLoad(prod.url, '/app', shopName);
  expect(res.status, await res.text().then((t) => t.slice(0, 300))).toBe(200);
}

/** A customer account session token: what `shopify.sessionToken.get()` hands the extension. */
const sessionToken = (claims: Record<string, unknown> = {}, options?: TokenOptions) =>
  extensionToken({ sub: CUSTOMER, iss: undefined, sid: undefined, ...claims }, options);

const ask = (token: string | null, method = 'GET') => fromExtension(`${prod.url}/customer-account/token`, token, method);

async function me(accessToken: string, accountId: string) {
  return new Client(`${prod.core.url}/api/v1.0`).get('/schema/account_user/me', undefined, {
    'x-enduser-access-token': accessToken,
    'x-account-id': accountId,
  });
}

beforeAll(async () => {
  prod = await startProduction();
  await install(TEST_SHOP_NAME);
  await install(OTHER_SHOP_NAME);
}, 180_000);

afterAll(() => prod?.close());

describe('GET /customer-account/token', () => {
  it("answers the signed-in customer's end-user token, the same member as the app proxy, with CORS for the extension", async () => {
    const res = await ask(await sessionToken());
    const body = (await res.json()) as { accessToken: string; expiresAt: string; accountId: string; coreUrl: string; currency: string };
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(Object.keys(body).sort()).toEqual(['accessToken', 'accountId', 'coreUrl', 'currency', 'expiresAt', 'friendGift']);
    // The shop gives referred friends no gift (points.test.ts has one).
    expect((body as { friendGift?: unknown }).friendGift).toBeNull();
    // The shop's currency as the admin's first opening read it: the page's earning rate names it.
    expect(body.currency).toBe(prod.admin.currencyCode);
    const account = (await prod.shops.find(TEST_SHOP))!;
    expect(body.accountId).toBe(account.accountId);
    const ttl = new Date(body.expiresAt).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(1800_000);
    const member = await me(body.accessToken, account.accountId);
    expect(member.status).toBe(200);
    expect(member.body.data.externalId).toBe(CUSTOMER);
  });

  it("names no currency until the app knows it, and learns it when the shop's admin next opens", async () => {
    const shop = `${OTHER_SHOP_NAME}.myshopify.com`;
    await prod.appPool.query('update shops set currency_code = null where shop = $1', [shop]);
    const before = (await (await ask(await sessionToken({}, { shopName: OTHER_SHOP_NAME }))).json()) as { currency: string | null };
    expect(before.currency).toBeNull();
    await install(OTHER_SHOP_NAME);
    const after = (await (await ask(await sessionToken({}, { shopName: OTHER_SHOP_NAME }))).json()) as { currency: string | null };
    expect(after.currency).toBe(prod.admin.currencyCode);
  });

  it("follows a change of the shop's currency at the admin's first opening in a process", async () => {
    const was = prod.admin.currencyCode;
    prod.admin.currencyCode = 'CHF';
    try {
      await prod.crashAndRestart();
      await install(OTHER_SHOP_NAME);
      const body = (await (await ask(await sessionToken({}, { shopName: OTHER_SHOP_NAME }))).json()) as { currency: string | null };
      expect(body.currency).toBe('CHF');
    } finally {
      prod.admin.currencyCode = was;
    }
  });

  it('takes the shop from a dest given without its scheme too', async () => {
    const res = await ask(await sessionToken({ dest: TEST_SHOP }));
    const body = (await res.json()) as { accountId: string };
    expect(res.status).toBe(200);
    expect(body.accountId).toBe((await prod.shops.find(TEST_SHOP))!.accountId);
  });

  it('is asked by GET only, as the checkout and POS token routes are: a write with a valid session token is 405 naming GET, readably across origins, and mints nothing', async () => {
    const routes = [
      ['/customer-account/token', await sessionToken()],
      ['/checkout/member', await sessionToken()],
      ['/checkout/order?order=gid://shopify/Order/1', await sessionToken()],
      ['/pos/customer?customer=2002', await extensionToken({})],
    ] as const;
    for (const [path, token] of routes)
      for (const method of ['POST', 'PUT', 'DELETE']) {
        const res = await fromExtension(`${prod.url}${path}`, token, method);
        expect([path, method, res.status, res.headers.get('allow'), res.headers.get('access-control-allow-origin')]).toEqual([
          path,
          method,
          405,
          'GET, OPTIONS',
          '*',
        ]);
        expect(await res.json()).toEqual({ error: { code: 'method_not_allowed', message: 'This address takes GET only.' } });
      }
  });

  it('answers the CORS preflight without a token', async () => {
    const res = await ask(null, 'OPTIONS');
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toContain('Authorization');
  });

  it('refuses a missing, forged, tampered, expired or not-yet-valid session token, readably across origins', async () => {
    const refused = await refusedTokens(sessionToken, { sub: 'gid://shopify/Customer/3003' });
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

  it('refuses a token without a customer', async () => {
    // Shopify's ids are 64-bit: a gid of 300 digits names no customer (the core would refuse it as an externalId).
    // A `sub` that is a list names nobody, though its text is a customer's gid.
    for (const sub of [undefined, '', '2002', 'gid://shopify/StaffMember/1', `gid://shopify/Customer/1${'0'.repeat(299)}`, [CUSTOMER]]) {
      const res = await ask(await sessionToken({ sub }));
      expect(res.status, String(sub)).toBe(401);
    }
  });

  it("gives another shop's session token that shop's member, never this shop's; an unknown shop gets none", async () => {
    const res = await ask(await sessionToken({}, { shopName: OTHER_SHOP_NAME }));
    const body = (await res.json()) as { accessToken: string; accountId: string };
    expect(res.status).toBe(200);
    const mine = (await prod.shops.find(TEST_SHOP))!;
    const theirs = (await prod.shops.find(`${OTHER_SHOP_NAME}.myshopify.com`))!;
    expect(body.accountId).toBe(theirs.accountId);
    expect(body.accountId).not.toBe(mine.accountId);
    expect((await me(body.accessToken, mine.accountId)).status).not.toBe(200);

    const unknown = await ask(await sessionToken({}, { shopName: 'unknown-shop' }));
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).not.toContain('accessToken');
  });

  it('answers a token that names no shop as one of a shop the app is not in: 404, readably, never a 500', async () => {
    for (const dest of [undefined, '', 12345]) {
      const res = await ask(await sessionToken({ dest }));
      expect(res.status, String(dest)).toBe(404);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.json()).toMatchObject({ error: { code: 'not_installed' } });
    }
  });

  it('keeps its answer out of caches in its data form too (`.data`, which carries no headers of the route)', async () => {
    const data = await fromExtension(`${prod.url}/customer-account/token.data`, await sessionToken());
    expect(data.status).toBe(200);
    expect(await data.text()).toContain('accessToken');
    expect(data.headers.get('cache-control')).toBe('no-store');
  });
});

describe('a shop that uninstalled the app', () => {
  it('gets no token on any shopper surface (the customer account page, checkout, POS, the app proxy) until it installs again', async () => {
    const status = async (res: Response) => [res.status, ((await res.json()) as { error?: { code: string } }).error?.code];
    expect((await prod.send(await webhookRequest('app/uninstalled', { domain: TEST_SHOP }))).status).toBe(200);
    const NEW_CUSTOMER = 'gid://shopify/Customer/7007';
    expect(await status(await ask(await sessionToken({ sub: NEW_CUSTOMER })))).toEqual([404, 'not_installed']);
    expect(await status(await fromExtension(`${prod.url}/checkout/member`, await sessionToken({ sub: NEW_CUSTOMER })))).toEqual([
      404,
      'not_installed',
    ]);
    expect(await status(await fromExtension(`${prod.url}/pos/customer?customer=7007`, await extensionToken({})))).toEqual([
      404,
      'not_installed',
    ]);
    expect(await status(await prod.send(await proxyRequest('/apps/loyalty/token', { logged_in_customer_id: '7007' })))).toEqual([
      404,
      'not_installed',
    ]);
    const account = (await prod.shops.find(TEST_SHOP))!;
    const members = await new Client(`${prod.core.url}/api/v1.0`, { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret }).get(
      '/schema/account_user/record',
      { filters: { operator: 'and', conditions: [{ fieldSlug: 'externalId', operator: 'equals', fieldValue: NEW_CUSTOMER }] } },
    );
    expect(members.body.data).toEqual([]);

    await install(TEST_SHOP_NAME);
    expect((await ask(await sessionToken({ sub: NEW_CUSTOMER }))).status).toBe(200);
  });
});
