import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, flowRequest, proxyRequest, type Stack, startStack, TEST_SHOP } from './support/stack';

/** The real core, throttled to one request a second per key, then stopped. */
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
});
