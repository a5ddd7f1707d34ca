import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjustMemberPoints, grantFreezes, grantRefusal, resendRewardIssued } from '../app/admin/members.server';
import { accountClient, unreachableAsUnavailable } from '../app/core/client.server';
import type { AdminGraphql } from '../app/shopify/admin-api.server';
import { call, flowRequest, proxyRequest, type Stack, startStack, TEST_SHOP } from './support/stack';

/** The real core, throttled to one request a second per key, then stopped: what the app answers and says then. */
let stack: Stack;
let streakId: string;
type Route = Parameters<typeof call>[0];
let streak: Route;
let token: Route;

beforeAll(async () => {
  stack = await startStack({ LOYALTY_RATE_LIMIT_PER_SECOND: '1' });
  stack.admin.customers.set('gid://shopify/Customer/4004', { firstName: null, lastName: null, email: null });
  await stack.install();
  // The install spent the fresh key's one request a second reading the widget records (for the
  // embed's metafields): the bucket is full again after a second.
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const account = (await stack.app.shops.find(TEST_SHOP))!;
  const api = stack.core.anon.with({ 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
  streakId = (await api.post('/schema/streak/record', { name: 'Throttled', status: 'live' })).body.data.id;
  streak = (await import('../app/routes/flow.execute-streak')).action as Route;
  token = (await import('../app/routes/apps.loyalty.token')).loader as Route;
});

afterAll(async () => {
  await stack?.close();
});

describe('when the core cannot answer', () => {
  it('passes a 429 on with its Retry-After, so Flow retries later', async () => {
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 4; i++) {
      const res = await call(streak, await flowRequest('execute-streak', { customer_id: 4004, streak_id: streakId }));
      statuses.push(res.status);
      if (res.status === 429) retryAfter = res.headers.get('retry-after');
    }
    expect(statuses).toContain(429);
    expect(statuses.every((s) => s === 200 || s === 429)).toBe(true);
    expect(Number(retryAfter)).toBeGreaterThan(0);
  });

  it('answers 503 when the core is down: Flow actions and the app proxy', async () => {
    stack.core.running.server.closeAllConnections();
    await stack.core.running.close();
    const flow = await call(streak, await flowRequest('execute-streak', { customer_id: 4004, streak_id: streakId }));
    expect(flow.status).toBe(503);
    expect(((await flow.json()) as { error: { code: string } }).error.code).toBe('unavailable');
    const proxy = await call(token, await proxyRequest('/apps/loyalty/token', { logged_in_customer_id: '4004' }));
    expect(proxy.status).toBe(503);
  });

  it('the member page’s writes answer an outage, which the page says in the merchant’s words, not a refusal', async () => {
    const account = (await stack.app.shops.find(TEST_SHOP))!;
    // As the admin's pages reach the core (the core is stopped by the test before).
    const api = unreachableAsUnavailable(accountClient(stack.core.url, account));
    const someone = '0b7c2f9e-6a51-4c1e-9d0e-5a4b3c2d1e0f';
    expect(await adjustMemberPoints(api, someone, { points: 5, note: '', key: 'k' })).toMatchObject({ ok: false, reason: 'outage' });
    const granted = await grantFreezes(api, someone, 1);
    expect(granted.ok).toBe(false);
    if (!granted.ok) expect(await grantRefusal(api, someone, granted.failure)).toBe('outage');
    const shopify: AdminGraphql = {
      graphql: () => Promise.reject(new Error('Shopify is not asked when the reward log cannot be read')),
    };
    const resent = await resendRewardIssued({ outbox: stack.app.loop, api, admin: shopify, shop: TEST_SHOP }, someone, someone);
    expect(resent).toEqual({ ok: false, reason: 'outage' });
  });
});
