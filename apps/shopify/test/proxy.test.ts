import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, proxyRequest, SHOPIFY, type Stack, startStack, TEST_SHOP } from './support/stack';

let stack: Stack;
let route: { loader: Parameters<typeof call>[0] };

beforeAll(async () => {
  stack = await startStack();
  await stack.install();
  route = (await import('../app/routes/apps.loyalty.token')) as typeof route;
});

afterAll(async () => {
  await stack?.close();
});

describe('GET /apps/loyalty/token (app proxy)', () => {
  it('mints an end-user token for the signed-in customer, the same member Flow uses', async () => {
    const res = await call(
      route.loader,
      await proxyRequest('/apps/loyalty/token', { logged_in_customer_id: '2002', path_prefix: '/apps/loyalty' }),
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as { accessToken: string; expiresAt: string };
    expect(Object.keys(body).sort()).toEqual(['accessToken', 'expiresAt']);
    const ttl = new Date(body.expiresAt).getTime() - Date.now();
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(1800_000);

    const account = (await stack.app.shops.find(TEST_SHOP))!;
    const me = await stack.core.anon.get('/schema/account_user/me', undefined, {
      'x-enduser-access-token': body.accessToken,
      'x-account-id': account.accountId,
    });
    expect(me.status).toBe(200);
    expect(me.body.data.externalId).toBe('gid://shopify/Customer/2002');
  });

  it('answers 401 to a guest', async () => {
    for (const query of [{}, { logged_in_customer_id: '' }] as Record<string, string>[]) {
      const res = await call(route.loader, await proxyRequest('/apps/loyalty/token', query));
      expect(res.status).toBe(401);
    }
  });

  it('refuses a bad signature or a stale timestamp before any work', async () => {
    const signed = new URL((await proxyRequest('/apps/loyalty/token', { logged_in_customer_id: '2002' })).url);
    const forged = new URL(signed);
    forged.searchParams.set('logged_in_customer_id', '3003');
    expect((await call(route.loader, new Request(forged))).status).toBe(400);

    const stale = new URL(`${SHOPIFY.appUrl}/apps/loyalty/token`);
    stale.searchParams.set('logged_in_customer_id', '2002');
    stale.searchParams.set('shop', TEST_SHOP);
    stale.searchParams.set('timestamp', String(Math.trunc(Date.now() / 1000) - 3600));
    const { createHmac } = await import('node:crypto');
    const message = [...stale.searchParams.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}=${v}`)
      .join('');
    stale.searchParams.set('signature', createHmac('sha256', SHOPIFY.apiSecretKey).update(message).digest('hex'));
    expect((await call(route.loader, new Request(stale))).status).toBe(400);
  });
});
