import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../core/test/support/harness';
import { STUB_SHOP } from './support/admin-stub';
import { call, flowRequest, type Stack, startStack, TEST_SHOP } from './support/stack';
import { streakWithFirstDayReward, streakWithFirstDayStampedReward } from './support/programs';

let stack: Stack;
let api: Client;
type Routes = { action: Parameters<typeof call>[0] };
let routes: Record<'streak' | 'challenge' | 'mission' | 'stamp', Routes>;

const CUSTOMER = 'gid://shopify/Customer/1001';

beforeAll(async () => {
  stack = await startStack();
  stack.admin.customers.set(CUSTOMER, { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' });
  await stack.install();
  const account = (await stack.app.shops.find(TEST_SHOP))!;
  api = stack.core.anon.with({ 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
  routes = {
    streak: await import('../app/routes/flow.execute-streak'),
    challenge: await import('../app/routes/flow.execute-challenge'),
    mission: await import('../app/routes/flow.execute-mission'),
    stamp: await import('../app/routes/flow.stamp-coupon'),
  } as typeof routes;
});

afterAll(async () => {
  await stack?.close();
});

async function created<T = any>(path: string, body: unknown): Promise<T> {
  const res = await api.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as T;
}

async function flow(kind: keyof typeof routes, handle: string, properties: Record<string, unknown>, overrides?: Record<string, unknown>) {
  const res = await call(routes[kind].action, await flowRequest(handle, properties, overrides));
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

async function member(externalId = CUSTOMER) {
  const res = await api.get('/schema/account_user/record', {
    filters: { operator: 'and', conditions: [{ fieldSlug: 'externalId', operator: 'equals', fieldValue: externalId }] },
  });
  return res.body.data[0];
}

async function count(path: string) {
  return (await api.get(path, { fetchTotalCount: true })).body.paging.total as number;
}

describe('install', () => {
  it('provisions the account once per shop, keeps one live key, and writes the metafields in both namespaces', async () => {
    const first = (await stack.app.shops.find(TEST_SHOP))!;
    const again = await stack.install();
    expect(again).toEqual({ accountId: first.accountId, organizationId: first.organizationId });
    const second = (await stack.app.shops.find(TEST_SHOP))!;
    expect(second.apiKeyId).not.toBe(first.apiKeyId);
    // The replaced key is retired; the stored one works.
    expect(
      (await stack.core.anon.with({ 'x-api-key': first.apiKey, 'x-api-secret': first.apiSecret }).get('/schema/streak/record')).status,
    ).toBe(401);
    api = stack.core.anon.with({ 'x-api-key': second.apiKey, 'x-api-secret': second.apiSecret });
    expect((await api.get('/schema/streak/record')).status).toBe(200);
    for (const namespace of ['loyalty', '$app:loyalty']) {
      expect(stack.admin.metafields.get(`${STUB_SHOP.id}|${namespace}|account_id`)).toBe(first.accountId);
      expect(stack.admin.metafields.get(`${STUB_SHOP.id}|${namespace}|organization_id`)).toBe(first.organizationId);
    }
    expect(stack.admin.metafields.get(`${STUB_SHOP.id}|$app:loyalty|base_url`)).toBe(stack.core.url);
  });

  it('keeps the credentials and the session token encrypted at rest', async () => {
    const account = (await stack.app.shops.find(TEST_SHOP))!;
    const { rows } = await stack.app.pool.query('select * from shops where shop = $1', [TEST_SHOP]);
    const stored = JSON.stringify(rows[0]);
    expect(stored).not.toContain(account.apiSecret);
    expect(stored).not.toContain(account.apiKey);
    expect(rows[0].api_secret_encrypted).toMatch(/^v1:/);
    // The Shopify session's access token too; the session still loads.
    const sessions = await stack.app.pool.query('select * from shopify_sessions');
    expect(JSON.stringify(sessions.rows)).not.toContain('totally_real_token');
    expect((await stack.app.sessionStorage.loadSession(`offline_${TEST_SHOP}`))?.accessToken).toBe('totally_real_token');
  });
});

describe('execute-streak', () => {
  it('logs for the Flow customer, aggregates, issues the milestone reward, and counts a replay once', async () => {
    const { streak } = await streakWithFirstDayReward(created, { couponCodePrefix: 'FLOW-', completionTargetValue: 5 });

    const runId = 'run-streak-1';
    const first = await flow('streak', 'execute-streak', { customer_id: 1001, streak_id: streak.id }, { action_run_id: runId });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({ ok: true, isAggregated: true });

    const m = await member();
    expect(m).toMatchObject({ externalId: CUSTOMER, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' });
    const progress = (
      await api.get('/schema/streak_progress/record', {
        filters: { operator: 'and', conditions: [{ fieldSlug: 'ownedById', operator: 'equals', fieldValue: m.id }] },
      })
    ).body.data;
    expect(progress).toHaveLength(1);
    expect(progress[0]).toMatchObject({ streakId: streak.id, currentProgressValue: 1, streakProgressStatus: 'in_progress' });
    const rewards = (
      await api.get('/schema/reward_log/record', {
        filters: { operator: 'and', conditions: [{ fieldSlug: 'ownedById', operator: 'equals', fieldValue: m.id }] },
      })
    ).body.data;
    expect(rewards).toHaveLength(1);
    expect(rewards[0].couponCode).toMatch(/^FLOW-/);

    const logsBefore = await count('/schema/streak_log/record');
    const replay = await flow('streak', 'execute-streak', { customer_id: 1001, streak_id: streak.id }, { action_run_id: runId });
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({ ok: true, replay: true, logId: first.body.logId });
    expect(await count('/schema/streak_log/record')).toBe(logsBefore);
  });

  it('prefers the idempotency key over the run id', async () => {
    const streak = await created('/schema/streak/record', { name: 'Keyed', status: 'live' });
    const a = await flow('streak', 'execute-streak', { customer_id: '1001', streak_id: streak.id, idempotency_key: 'order-77' });
    const b = await flow('streak', 'execute-streak', {
      customer_id: 'gid://shopify/Customer/1001',
      streak_id: streak.id,
      idempotency_key: 'order-77',
    });
    expect(a.body.replay).toBeUndefined();
    expect(b.body).toMatchObject({ ok: true, replay: true, logId: a.body.logId });
    const log = (await api.get(`/schema/streak_log/record/${a.body.logId}`)).body.data;
    expect(log).toMatchObject({ uniqueIdentifier: 'order-77', activityId: 'shopify_flow', activityValue: 1 });
  });
});

describe('execute-challenge', () => {
  it('sends the activity value of a sum challenge and the given activity time', async () => {
    const challenge = await created('/schema/challenge/record', {
      name: 'Spend 100',
      status: 'live',
      aggregationMethod: 'sum',
      aggregationPeriod: 'monthly',
      completionTargetValue: 100,
    });
    const missing = await flow('challenge', 'execute-challenge', { customer_id: 1001, challenge_id: challenge.id });
    expect(missing.status).toBe(400);
    expect(missing.body.error.property).toBe('activity_value');

    const at = new Date(Date.now() - 60_000).toISOString();
    const res = await flow('challenge', 'execute-challenge', {
      customer_id: 1001,
      challenge_id: challenge.id,
      activity_value: '42.5',
      activity_at: at,
      activity_id: 'order_paid',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const log = (await api.get(`/schema/challenge_log/record/${res.body.logId}`)).body.data;
    expect(log).toMatchObject({ activityValue: 42.5, activityId: 'order_paid', activityAt: at });
    const progress = (
      await api.get('/schema/challenge_progress/record', {
        filters: { operator: 'and', conditions: [{ fieldSlug: 'challengeId', operator: 'equals', fieldValue: challenge.id }] },
      })
    ).body.data;
    expect(progress[0]).toMatchObject({ currentProgressValue: 42.5, challengeProgressStatus: 'in_progress' });
  });
});

describe('execute-mission', () => {
  it('counts tasks by activity id and completes the mission with its reward', async () => {
    const reward = await created('/schema/reward/record', {
      name: 'Mission prize',
      description: 'd',
      discountType: 'fixed_amount',
      discountValue: 5,
      rewardExpiryType: 'relative',
      rewardExpiryInDays: 30,
      handleCoupon: true,
      handleCouponAutoGeneration: true,
    });
    const mission = await created('/schema/mission/record', {
      name: 'Welcome',
      status: 'live',
      aggregationPeriod: 'weekly',
      rewardId: reward.id,
      tasks: [
        { name: 'Buy', activityId: 'purchase', aggregationMethod: 'count', targetValue: 1 },
        { name: 'Spend', activityId: 'spend', aggregationMethod: 'sum', targetValue: 50 },
      ],
    });
    const noTask = await flow('mission', 'execute-mission', { customer_id: 1001, mission_id: mission.id, activity_id: 'wishlist' });
    expect(noTask.status).toBe(400);
    expect(noTask.body.error.property).toBe('activity_id');

    // By its name, as the admin shows it (case and surrounding spaces aside): what a merchant types in Flow.
    const buy = await flow('mission', 'execute-mission', {
      customer_id: 1001,
      mission_id: ' welcome ',
      activity_id: 'purchase',
      activity_value: 99,
    });
    expect(buy.status, JSON.stringify(buy.body)).toBe(200);
    expect((await api.get(`/schema/mission_log/record/${buy.body.logId}`)).body.data.activityValue).toBe(1);
    const spend = await flow('mission', 'execute-mission', {
      customer_id: 1001,
      mission_id: mission.id,
      activity_id: 'spend',
      activity_value: 50,
    });
    expect(spend.status).toBe(200);
    const m = await member();
    const progress = (
      await api.get('/schema/mission_progress/record', {
        filters: {
          operator: 'and',
          conditions: [
            { fieldSlug: 'ownedById', operator: 'equals', fieldValue: m.id },
            { fieldSlug: 'missionId', operator: 'equals', fieldValue: mission.id },
          ],
        },
      })
    ).body.data;
    expect(progress[0].missionProgressStatus).toBe('completed');
    const rewardLogs = (
      await api.get('/schema/reward_log/record', {
        filters: { operator: 'and', conditions: [{ fieldSlug: 'rewardId', operator: 'equals', fieldValue: reward.id }] },
      })
    ).body.data;
    expect(rewardLogs).toHaveLength(1);
    expect(rewardLogs[0].couponCode).toBeTruthy();
  });
});

describe('stamp-coupon', () => {
  it('stamps the code on a reward log the core left empty; a repeat is 200, a different code 409', async () => {
    const { reward, streak } = await streakWithFirstDayStampedReward(created);
    expect((await flow('streak', 'execute-streak', { customer_id: 1001, streak_id: streak.id })).status).toBe(200);
    const log = (
      await api.get('/schema/reward_log/record', {
        filters: { operator: 'and', conditions: [{ fieldSlug: 'rewardId', operator: 'equals', fieldValue: reward.id }] },
      })
    ).body.data[0];
    expect(log.couponCode).toBeNull();

    const expiry = new Date(Date.now() + 7 * 86_400_000).toISOString();
    const stamped = await flow('stamp', 'stamp-coupon', { reward_log_id: log.id, coupon_code: 'SHOPIFY-15', reward_expiry_at: expiry });
    expect(stamped.status, JSON.stringify(stamped.body)).toBe(200);
    expect(stamped.body).toMatchObject({ ok: true, couponCode: 'SHOPIFY-15', rewardExpiryAt: expiry });
    expect((await api.get(`/schema/reward_log/record/${log.id}`)).body.data).toMatchObject({
      couponCode: 'SHOPIFY-15',
      rewardExpiryAt: expiry,
    });

    expect(
      (await flow('stamp', 'stamp-coupon', { reward_log_id: log.id, coupon_code: 'SHOPIFY-15', reward_expiry_at: expiry })).status,
    ).toBe(200);
    expect((await flow('stamp', 'stamp-coupon', { reward_log_id: log.id, coupon_code: 'OTHER' })).status).toBe(409);
  });
});

describe('bad input', () => {
  let streakId: string;
  beforeAll(async () => {
    streakId = (await created('/schema/streak/record', { name: 'Guarded', status: 'live' })).id;
    await created('/schema/streak/record', { name: 'Twin', status: 'live' });
    await created('/schema/streak/record', { name: 'twin', status: 'live' });
  });

  it('takes a name that only paused streaks share to mean the live one of that name', async () => {
    const live = await created('/schema/streak/record', { name: 'Seasonal', status: 'live' });
    await created('/schema/streak/record', { name: 'Seasonal', status: 'draft' });
    const res = await flow('streak', 'execute-streak', { customer_id: 1001, streak_id: 'SEASONAL' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect((await api.get(`/schema/streak_log/record/${res.body.logId}`)).body.data.streakId).toBe(live.id);
  });

  it.each([
    { name: 'customer_id missing', properties: { streak_id: 'S' }, status: 400, property: 'customer_id' },
    { name: 'customer_id wrong type', properties: { customer_id: true, streak_id: 'S' }, status: 400, property: 'customer_id' },
    { name: 'streak_id missing', properties: { customer_id: 1001 }, status: 400, property: 'streak_id' },
    { name: 'streak_id wrong type', properties: { customer_id: 1001, streak_id: 12 }, status: 400, property: 'streak_id' },
    { name: 'streak_id naming no streak', properties: { customer_id: 1001, streak_id: 'Guard' }, status: 404, property: 'streak_id' },
    { name: 'streak_id naming two live streaks', properties: { customer_id: 1001, streak_id: 'twin' }, status: 400, property: 'streak_id' },
    {
      name: 'streak_id over 256 characters',
      properties: { customer_id: 1001, streak_id: 'x'.repeat(257) },
      status: 400,
      property: 'streak_id',
    },
    {
      name: 'activity_value not a number',
      properties: { customer_id: 1001, streak_id: 'S', activity_value: 'lots' },
      status: 400,
      property: 'activity_value',
    },
    {
      name: 'activity_at not a date-time',
      properties: { customer_id: 1001, streak_id: 'S', activity_at: 'yesterday' },
      status: 400,
      property: 'activity_at',
    },
    {
      name: 'unknown streak',
      properties: { customer_id: 1001, streak_id: '00000000-0000-4000-8000-000000000000' },
      status: 404,
      property: 'streak_id',
    },
    { name: 'unknown customer', properties: { customer_id: 999, streak_id: 'S' }, status: 404, property: 'customer_id' },
    {
      name: 'activity_at in the future (the core refuses)',
      properties: { customer_id: 1001, streak_id: 'S', activity_at: new Date(Date.now() + 3_600_000).toISOString() },
      status: 400,
      property: 'activity_at',
    },
  ])('$name → $status naming $property, nothing written', async ({ properties, status, property }) => {
    const logs = await count('/schema/streak_log/record');
    const members = await count('/schema/account_user/record');
    const props = Object.fromEntries(Object.entries(properties as Record<string, unknown>).map(([k, v]) => [k, v === 'S' ? streakId : v]));
    const res = await flow('streak', 'execute-streak', props);
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.error.property).toBe(property);
    expect(await count('/schema/streak_log/record')).toBe(logs);
    expect(await count('/schema/account_user/record')).toBe(members);
  });

  it('properties that are not an object → 400', async () => {
    const res = await flow('streak', 'execute-streak', undefined as never, { properties: 'nope' });
    expect(res.status).toBe(400);
    expect(res.body.error.property).toBe('properties');
  });

  it('stamp-coupon: unknown reward log → 404, missing code → 400', async () => {
    const unknown = await flow('stamp', 'stamp-coupon', { reward_log_id: '00000000-0000-4000-8000-000000000000', coupon_code: 'X' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.property).toBe('reward_log_id');
    const missing = await flow('stamp', 'stamp-coupon', { reward_log_id: '00000000-0000-4000-8000-000000000000' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.property).toBe('coupon_code');
  });

  it('a bad HMAC is refused before any work', async () => {
    const asked = stack.admin.requests.length;
    const logs = await count('/schema/streak_log/record');
    const signed = await flowRequest('execute-streak', { customer_id: 1001, streak_id: streakId });
    const body = await signed.text();
    const forged = new Request(signed.url, {
      method: 'POST',
      headers: {
        ...Object.fromEntries(signed.headers),
        'x-shopify-hmac-sha256': 'AAAA' + signed.headers.get('x-shopify-hmac-sha256')!.slice(4),
      },
      body,
    });
    const res = await call(routes.streak.action, forged);
    expect(res.status).toBe(400);
    const tampered = new Request(signed.url, { method: 'POST', headers: signed.headers, body: body.replace('1001', '1002') });
    expect((await call(routes.streak.action, tampered)).status).toBe(400);
    expect(stack.admin.requests.length).toBe(asked);
    expect(await count('/schema/streak_log/record')).toBe(logs);
  });

  it('the Admin API failing is 503, so Flow retries', async () => {
    stack.admin.failWith = 502;
    try {
      const res = await flow('streak', 'execute-streak', { customer_id: 1001, streak_id: streakId });
      expect(res.status).toBe(503);
    } finally {
      stack.admin.failWith = null;
    }
  });
});
