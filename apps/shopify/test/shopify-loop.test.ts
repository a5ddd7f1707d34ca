import { createHmac, randomUUID } from 'node:crypto';
import { getJwt, TEST_SHOP, TEST_SHOP_NAME } from '@shopify/shopify-api/test-helpers';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../core/test/support/harness';
import { TRIGGER_HANDLES } from '../app/shopify/flow-extensions';
import { type Production, startProduction } from './support/production';
import { flowLifecycleRequest, flowRequest, SHOPIFY } from './support/stack';
import { creatorFor, streakRewardingFirstDay, streakWithFirstDayReward } from './support/programs';
import { until } from './support/until';

/**
 * CONTRACT §16 through what ships: the core's built binary delivering real webhooks to the app's
 * production build, Flow's lifecycle callbacks signed by Shopify's test helpers, and the Admin API
 * stub recording every flowTriggerReceive and discountCodeBasicCreate.
 */
let prod: Production;
let api: Client;
const CUSTOMER = 'gid://shopify/Customer/1001';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
// Left disabled in Flow, so never sent.
const UNUSED = 'loyalty-challenge-milestone';

async function adminLoad(path: string): Promise<Response> {
  const { token } = await getJwt(TEST_SHOP_NAME, SHOPIFY.apiKey, SHOPIFY.apiSecretKey);
  const url = new URL(path, prod.url);
  url.searchParams.set('embedded', '1');
  url.searchParams.set('shop', TEST_SHOP);
  url.searchParams.set('host', Buffer.from(`admin.shopify.com/store/${TEST_SHOP_NAME}`).toString('base64'));
  url.searchParams.set('id_token', token);
  return fetch(url, { headers: { 'user-agent': BROWSER }, redirect: 'manual' });
}

async function lifecycle(handle: string, enabled: boolean, timestamp = new Date()): Promise<number> {
  return (await prod.send(await flowLifecycleRequest(handle, enabled, timestamp))).status;
}

// The OpenAPI document is being reworked beside this suite; what is checked here is the app's side.
const created = creatorFor(() => api);

const triggers = (handle: string) =>
  prod.admin.requests
    .filter((r) => r.operation === 'LoyaltyFlowTrigger' && r.variables.handle === handle)
    .map((r) => r.variables.payload as Record<string, any>);
const discountCalls = () => prod.admin.requests.filter((r) => r.operation === 'LoyaltyDiscountCreate');

/** Lets in-flight deliveries and the app's outbox settle, then the counts are final. */
const settle = () => new Promise((r) => setTimeout(r, 2500));

const at = (daysAgo: number) => DateTime.now().minus({ days: daysAgo }).toUTC().toISO();

/** A fresh streak named `name` whose first day issues `reward` to `customer`; returns the reward log that customer's first log achieved. */
async function earnOnNewStreak(reward: { id: string }, name: string, customer = CUSTOMER): Promise<string> {
  const streak = await streakRewardingFirstDay(created, reward, { name });
  const log = await created('/schema/streak_log/record', {
    streakId: streak.id,
    ownedBy: { externalId: customer },
    activityId: 'visit',
    activityAt: at(0),
    uniqueIdentifier: name,
  });
  return log.achievedMilestoneRewardLog.id as string;
}

/** A reward log's Shopify stamp, as the core reads it. */
const stampOf = async (id: string) =>
  (await api.get(`/schema/reward_log/record/${id}`)).body.data as { couponCode: string | null; rewardExpiryAt: string | null };

beforeAll(async () => {
  prod = await startProduction({ gateCore: true });
  prod.admin.customers.set(CUSTOMER, { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' });
}, 120_000);

afterAll(() => prod?.close());

describe('the core webhook', () => {
  it('is registered at install, once, however often and however concurrently the admin opens; its secret is stored encrypted', async () => {
    const loads = await Promise.all([adminLoad('/app'), adminLoad('/app'), adminLoad('/app')]);
    for (const res of loads) expect(res.status).toBe(200);
    const account = (await prod.shops.find(TEST_SHOP))!;
    api = new Client(`${prod.core.url}/api/v1.0`, { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
    expect((await adminLoad('/app/r/streak')).status).toBe(200);
    const hooks = (await api.get('/schema/webhook/record')).body.data as {
      id: string;
      endpointUrl: string;
      status: string;
      eventCodes: string[];
      webhookSecret: string;
    }[];
    expect(hooks).toHaveLength(1);
    expect(hooks[0]).toMatchObject({ status: 'live', endpointUrl: expect.stringMatching(/\/loyalty\/events$/) });
    expect(hooks[0]!.eventCodes).toEqual(
      expect.arrayContaining(['streak_progress_milestone_completed', 'streak_progress_freeze_used', 'mission_progress_completed']),
    );
    const { rows } = await prod.appPool.query('select core_webhook_id, core_webhook_secret_encrypted from shops where shop = $1', [
      TEST_SHOP,
    ]);
    expect(rows[0].core_webhook_id).toBe(hooks[0]!.id);
    expect(rows[0].core_webhook_secret_encrypted).not.toContain(hooks[0]!.webhookSecret.slice(6));
    expect(await prod.shops.coreWebhook(TEST_SHOP)).toEqual({ id: hooks[0]!.id, secret: hooks[0]!.webhookSecret });
  });

  it('is repaired when the admin opens after someone paused it', async () => {
    const hook = (await prod.shops.coreWebhook(TEST_SHOP))!;
    expect((await api.patch(`/schema/webhook/record/${hook.id}`, { status: 'draft' })).status).toBe(200);
    // The repair runs at most once a minute per process: a restart stands in for the minute.
    await prod.crashAndRestart();
    expect((await adminLoad('/app')).status).toBe(200);
    expect((await api.get(`/schema/webhook/record/${hook.id}`)).body.data.status).toBe('live');
    expect((await api.get('/schema/webhook/record', { fetchTotalCount: true })).body.paging.total).toBe(1);
  }, 60_000);
});

describe('Flow triggers', () => {
  beforeAll(async () => {
    for (const handle of TRIGGER_HANDLES) expect(await lifecycle(handle, handle !== UNUSED)).toBe(200);
  });

  it('the lifecycle callback records which triggers are in use, and refuses a request without Shopify’s HMAC', async () => {
    const res = await prod.send(
      new Request(`${SHOPIFY.appUrl}/flow/trigger-lifecycle`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-shopify-hmac-sha256': 'AAAA' },
        body: JSON.stringify({ flow_trigger_definition_id: UNUSED, has_enabled_flow: true, shopify_domain: TEST_SHOP }),
      }),
    );
    expect(res.status).toBe(400);
    const used = async () =>
      (await prod.appPool.query('select handle from flow_trigger_usage where shop = $1 and enabled order by handle', [TEST_SHOP])).rows.map(
        (r) => r.handle,
      );
    expect(await used()).toEqual(TRIGGER_HANDLES.filter((h) => h !== UNUSED).sort());
    // Turned on, then off again (the merchant disabled the last workflow using it).
    expect(await lifecycle(UNUSED, true)).toBe(200);
    expect(await used()).toContain(UNUSED);
    expect(await lifecycle(UNUSED, false)).toBe(200);
    expect(await used()).toEqual(TRIGGER_HANDLES.filter((h) => h !== UNUSED).sort());
    // A callback older than the last one seen arrives late: the newer "disabled" stands.
    expect(await lifecycle(UNUSED, true, new Date(Date.now() - 60_000))).toBe(200);
    expect(await used()).not.toContain(UNUSED);
    // One stamped a year ahead (a skewed clock) counts as arriving now: the next callback still decides.
    expect(await lifecycle(UNUSED, true, new Date(Date.now() + 365 * 86_400_000))).toBe(200);
    expect(await used()).toContain(UNUSED);
    expect(await lifecycle(UNUSED, false, new Date(Date.now() + 1000))).toBe(200);
    expect(await used()).not.toContain(UNUSED);
  });

  it('streak milestone, reward issued and streak completed: one flowTriggerReceive each, with the customer and the typed fields', async () => {
    const { streak } = await streakWithFirstDayReward(created, { couponCodePrefix: 'CORE-', completionTargetValue: 2 });
    const ownedBy = { externalId: CUSTOMER };
    await created('/schema/streak_log/record', {
      streakId: streak.id,
      ownedBy,
      activityId: 'visit',
      activityAt: at(1),
      uniqueIdentifier: 's1',
    });
    await created('/schema/streak_log/record', {
      streakId: streak.id,
      ownedBy,
      activityId: 'visit',
      activityAt: at(0),
      uniqueIdentifier: 's2',
    });
    await until(
      'the streak triggers',
      () => triggers('loyalty-streak-completed').length > 0 && triggers('loyalty-reward-issued').length > 0,
    );
    await settle();
    expect(triggers('loyalty-streak-milestone')).toEqual([
      {
        customer_id: 1001,
        streak_id: streak.id,
        streak_name: 'Daily visit',
        milestone_name: 'First day',
        milestone_target: 1,
        current_run: 1,
      },
    ]);
    expect(triggers('loyalty-streak-completed')).toEqual([
      { customer_id: 1001, streak_id: streak.id, streak_name: 'Daily visit', current_run: 2 },
    ]);
    const [issued] = triggers('loyalty-reward-issued');
    expect(triggers('loyalty-reward-issued')).toHaveLength(1);
    expect(issued).toMatchObject({
      customer_id: 1001,
      // The reward has no title for shoppers: the merchant's name for it.
      reward_title: 'Ten off',
      discount_type: 'percentage',
      discount_value: 10,
      coupon_code: expect.stringMatching(/^CORE-/),
      expires_at: '',
    });
  });

  it('a log that reaches a milestone and completes the streak at once sends Reward issued once for its reward log', async () => {
    const { streak } = await streakWithFirstDayReward(created, { couponCodePrefix: 'ONCE-', completionTargetValue: 1 });
    const log = await created('/schema/streak_log/record', {
      streakId: streak.id,
      ownedBy: { externalId: CUSTOMER },
      activityId: 'visit',
      activityAt: at(0),
      uniqueIdentifier: 'once-1',
    });
    const rewardLogId = log.achievedMilestoneRewardLogs[0].id as string;
    // Both events of the log (milestone reached, streak completed) carry its reward log.
    await until('the completion', () => triggers('loyalty-streak-completed').some((p) => p.streak_id === streak.id));
    await until('Reward issued', () => triggers('loyalty-reward-issued').some((p) => p.reward_log_id === rewardLogId));
    await settle();
    expect(triggers('loyalty-reward-issued').filter((p) => p.reward_log_id === rewardLogId)).toHaveLength(1);
  });

  it('challenge completed is sent; challenge milestone is not, since no enabled workflow uses it', async () => {
    const challenge = await created('/schema/challenge/record', {
      name: 'Spend 100',
      status: 'live',
      aggregationMethod: 'sum',
      aggregationPeriod: 'monthly',
      completionTargetValue: 100,
    });
    await created('/schema/milestone/record', {
      name: 'Halfway',
      description: 'd',
      linkedSchemaSlug: 'challenge',
      linkedSchemaRecordId: challenge.id,
      milestoneTargetValue: 50,
      status: 'live',
    });
    await created('/schema/challenge_log/record', {
      challengeId: challenge.id,
      ownedBy: { externalId: CUSTOMER },
      activityId: 'spend',
      activityValue: 60,
      activityAt: at(0),
      uniqueIdentifier: 'c1',
    });
    await created('/schema/challenge_log/record', {
      challengeId: challenge.id,
      ownedBy: { externalId: CUSTOMER },
      activityId: 'spend',
      activityValue: 50,
      activityAt: at(0),
      uniqueIdentifier: 'c2',
    });
    await until('challenge completed', () => triggers('loyalty-challenge-completed').length > 0);
    await settle();
    expect(triggers('loyalty-challenge-completed')).toEqual([
      { customer_id: 1001, challenge_id: challenge.id, challenge_name: 'Spend 100', progress: 110, period_key: expect.any(String) },
    ]);
    expect(triggers(UNUSED)).toEqual([]);
  });

  it('points earned: one flowTriggerReceive with the points, the balance after them and the note (CONTRACT §19)', async () => {
    const setting = (await api.get('/schema/points_setting/record')).body.data[0];
    expect((await api.patch(`/schema/points_setting/record/${setting.id}`, { status: 'live' })).status).toBe(200);
    const member = await created('/schema/account_user/record', { externalId: 'gid://shopify/Customer/1002' });
    await created('/schema/point_entry/record', {
      ownedById: member.id,
      points: 120,
      reason: 'earned',
      note: 'Birthday',
      uniqueIdentifier: 'p1',
    });
    // An adjustment is not an earning: no trigger.
    await created('/schema/point_entry/record', { ownedById: member.id, points: 5, reason: 'adjusted', uniqueIdentifier: 'p2' });
    await until('points earned', () => triggers('loyalty-points-earned').length > 0);
    await settle();
    expect(triggers('loyalty-points-earned')).toEqual([
      { customer_id: 1002, points: 120, points_balance: 120, note: 'Birthday', source: 'other' },
    ]);
  });

  it('mission completed stays far under the 50 KB payload limit for a twenty-task mission with long names', async () => {
    const long = (i: number) => `Task ${i} `.padEnd(256, 'x');
    const tasks = Array.from({ length: 20 }, (_, i) => ({
      name: long(i),
      activityId: `task_${i}`,
      aggregationMethod: 'count',
      targetValue: 1,
      eudTitle: long(i).slice(0, 48),
    }));
    const mission = await created('/schema/mission/record', {
      name: 'M'.repeat(256),
      description: 'd'.repeat(1000),
      status: 'live',
      aggregationPeriod: 'monthly',
      tasks,
    });
    for (let i = 0; i < 20; i++)
      await created('/schema/mission_log/record', {
        missionId: mission.id,
        ownedBy: { externalId: CUSTOMER },
        activityId: `task_${i}`,
        activityAt: at(0),
        uniqueIdentifier: `m${i}`,
      });
    const [sent] = await until(
      'mission completed',
      () => triggers('loyalty-mission-completed').length > 0 && triggers('loyalty-mission-completed'),
    );
    expect(sent).toMatchObject({ customer_id: 1001, mission_id: mission.id, tasks_completed: 20 });
    expect(sent!.mission_name.length).toBeLessThanOrEqual(255);
    expect(Buffer.byteLength(JSON.stringify(sent))).toBeLessThan(50_000);
  });

  it('a redelivered event (same webhook-id, delivered twice at once) fires nothing twice; a forged one is refused', async () => {
    await settle();
    const before = prod.admin.requests.filter((r) => r.operation === 'LoyaltyFlowTrigger').length;
    const delivery = await until('the completion delivered', () =>
      prod.deliveries.find((d) => d.body.includes('streak_progress_completed')),
    );
    const replay = () => fetch(`${prod.url}/loyalty/events`, { method: 'POST', headers: delivery.headers, body: delivery.body });
    const answers = await Promise.all([replay(), replay()]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const forged = await fetch(`${prod.url}/loyalty/events`, {
      method: 'POST',
      headers: delivery.headers,
      body: delivery.body.replace('Daily visit', 'Daily visiT'),
    });
    expect(forged.status).toBe(401);
    // An account the app does not know is answered as a forged signature is: nothing tells which shops are installed.
    const stranger = await fetch(`${prod.url}/loyalty/events`, {
      method: 'POST',
      headers: delivery.headers,
      body: delivery.body.replace(/"accountId":"[^"]+"/, `"accountId":"${randomUUID()}"`),
    });
    expect([stranger.status, await stranger.json()]).toEqual([forged.status, await forged.json()]);
    // A body past any delivery's size is refused before it is read or parsed.
    const huge = await fetch(`${prod.url}/loyalty/events`, {
      method: 'POST',
      headers: delivery.headers,
      body: 'x'.repeat(2 * 1024 * 1024),
    });
    expect(huge.status).toBe(413);
    await settle();
    expect(prod.admin.requests.filter((r) => r.operation === 'LoyaltyFlowTrigger').length).toBe(before);
  });

  it('a signed delivery whose events are not the core’s is 400 and queues nothing', async () => {
    await settle();
    const { secret } = (await prod.shops.coreWebhook(TEST_SHOP))!;
    /** The headers the core signs a body with: its service signature and the Standard Webhooks one. */
    const signed = (body: string) => {
      const id = `msg_${randomUUID()}`;
      const timestamp = String(Math.floor(Date.now() / 1000));
      const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
      return {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': timestamp,
        'webhook-signature': `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`,
        'x-service-signature': createHmac('sha256', secret).update(body).digest('hex'),
      };
    };
    const delivery = await until('the completion delivered', () =>
      prod.deliveries.find((d) => d.body.includes('streak_progress_completed')),
    );
    const envelope = JSON.parse(delivery.body) as { events: Record<string, unknown>[] };
    const event = envelope.events.find((e) => e.eventCode === 'streak_progress_completed')!;
    // The same event under a new id, so that its rows would be new ones.
    const fresh = { ...event, id: randomUUID() };
    const outbox = async () => (await prod.appPool.query('select count(*)::int as n from flow_trigger_outbox')).rows[0].n as number;
    const queued = await outbox();
    const sent = prod.admin.requests.length;
    for (const events of [
      5,
      null,
      'events',
      { 0: fresh },
      [null, 5, fresh],
      [fresh, []],
      [{ ...fresh, id: 5 }],
      [{ ...fresh, eventCode: null }],
      [{ ...fresh, payload: 'streak' }],
      [{ ...fresh, payload: [] }],
      [{ ...fresh, ownedById: 5 }],
      [{ ...fresh, ownedById: 'someone' }],
    ]) {
      const body = JSON.stringify({ ...envelope, events });
      const res = await fetch(`${prod.url}/loyalty/events`, { method: 'POST', headers: signed(body), body });
      expect([JSON.stringify(events), res.status]).toEqual([JSON.stringify(events), 400]);
      expect(await res.json()).toEqual({ error: { code: expect.any(String), message: expect.any(String) } });
    }
    // The same signing, with the events as the core sends them, is taken: only the shape was refused.
    const body = JSON.stringify({ ...envelope, events: [fresh] });
    expect((await fetch(`${prod.url}/loyalty/events`, { method: 'POST', headers: signed(body), body })).status).toBe(200);
    expect(await outbox()).toBe(queued + 1);
    await settle();
    expect(prod.admin.requests.slice(sent).filter((r) => r.operation === 'LoyaltyFlowTrigger')).toHaveLength(1);
  });

  it('members that are not Shopify customers fire nothing', async () => {
    const before = prod.admin.requests.length;
    const streak = await created('/schema/streak/record', { name: 'CRM only', status: 'live', completionTargetValue: 1 });
    await created('/schema/streak_log/record', {
      streakId: streak.id,
      ownedBy: { externalId: 'crm-42' },
      activityId: 'visit',
      activityAt: at(0),
      uniqueIdentifier: 'x1',
    });
    await until('the delivery', () => prod.deliveries.some((d) => d.body.includes('CRM only') && d.status === 200));
    await settle();
    expect(prod.admin.requests.slice(before).filter((r) => r.operation === 'LoyaltyFlowTrigger')).toEqual([]);
  });

  it('throttling and 5xx are retried with backoff; userErrors are recorded and not retried', async () => {
    prod.admin.scripted.set('LoyaltyFlowTrigger', [{ throttled: true }, { status: 502 }]);
    const streak = await created('/schema/streak/record', { name: 'Throttled', status: 'live', completionTargetValue: 1 });
    await created('/schema/streak_log/record', {
      streakId: streak.id,
      ownedBy: { externalId: CUSTOMER },
      activityId: 'visit',
      activityAt: at(0),
      uniqueIdentifier: 't1',
    });
    await until(
      'the retried trigger',
      async () =>
        (await prod.appPool.query(`select 1 from flow_trigger_outbox where payload->>'streak_id' = $1 and status = 'sent'`, [streak.id]))
          .rows.length > 0,
    );
    const calls = prod.admin.requests.filter(
      (r) => r.operation === 'LoyaltyFlowTrigger' && (r.variables.payload as any).streak_id === streak.id,
    );
    expect(calls).toHaveLength(3);

    prod.admin.scripted.set('LoyaltyFlowTrigger', [{ userErrors: [{ field: ['payload'], message: 'Invalid payload' }] }]);
    const refused = await created('/schema/streak/record', { name: 'Refused', status: 'live', completionTargetValue: 1 });
    await created('/schema/streak_log/record', {
      streakId: refused.id,
      ownedBy: { externalId: CUSTOMER },
      activityId: 'visit',
      activityAt: at(0),
      uniqueIdentifier: 't2',
    });
    const row = await until('the refused trigger', async () =>
      (
        await prod.appPool.query(`select status, last_error, attempts from flow_trigger_outbox where payload->>'streak_id' = $1`, [
          refused.id,
        ])
      ).rows.find((r) => r.status === 'failed'),
    );
    expect(row).toMatchObject({ status: 'failed', attempts: 1, last_error: 'payload: Invalid payload' });
    await settle();
    expect(
      prod.admin.requests.filter((r) => r.operation === 'LoyaltyFlowTrigger' && (r.variables.payload as any).streak_id === refused.id),
    ).toHaveLength(1);
  });
});

describe('Shopify discount codes', () => {
  let reward: { id: string };
  let milestoneStreak = 0;
  const earn = () => earnOnNewStreak(reward, `Discount ${++milestoneStreak}`);

  beforeAll(async () => {
    reward = await created('/schema/reward/record', {
      name: 'Fifteen off',
      description: 'd',
      discountType: 'percentage',
      discountValue: 15,
      rewardExpiryType: 'relative',
      rewardExpiryInDays: 30,
      handleCoupon: false,
    });
    await prod.appPool.query('insert into shopify_discount_rewards (shop, reward_id) values ($1, $2)', [TEST_SHOP, reward.id]);
  });

  it('creates one code discount for the customer, stamps it on the reward log, and sends Reward issued with that code', async () => {
    const id = await earn();
    const stamped = (await until('the stamp', async () => (await stampOf(id)).couponCode))!;
    const { rewardExpiryAt } = await stampOf(id);
    const discount = prod.admin.discounts.get(stamped)!;
    expect(discount.input).toMatchObject({
      code: stamped,
      usageLimit: 1,
      appliesOncePerCustomer: true,
      endsAt: rewardExpiryAt,
      context: { customers: { add: [CUSTOMER] } },
      customerGets: { value: { percentage: 0.15 }, items: { all: true } },
    });
    await until('Reward issued', () => triggers('loyalty-reward-issued').some((p) => p.reward_log_id === id));
    expect(triggers('loyalty-reward-issued').filter((p) => p.reward_log_id === id)).toEqual([
      {
        customer_id: 1001,
        reward_log_id: id,
        reward_title: expect.any(String),
        discount_type: 'percentage',
        discount_value: 15,
        coupon_code: stamped,
        expires_at: rewardExpiryAt,
      },
    ]);
  });

  it('the same event delivered twice concurrently issues one discount', async () => {
    const id = await earn();
    const delivery = await until('the delivery', () => prod.deliveries.find((d) => d.body.includes(id)));
    const replay = () => fetch(`${prod.url}/loyalty/events`, { method: 'POST', headers: delivery.headers, body: delivery.body });
    expect((await Promise.all([replay(), replay()])).map((r) => r.status)).toEqual([200, 200]);
    const code = await until('the stamp', async () => (await stampOf(id)).couponCode);
    await settle();
    expect(discountCalls().filter((c) => (c.variables.basicCodeDiscount as any).code === code)).toHaveLength(1);
    expect(
      [...prod.admin.discounts.values()].filter((d) => (d.input.context as any).customers.add[0] === CUSTOMER && d.input.code === code),
    ).toHaveLength(1);
  });

  it('an app killed between Shopify’s answer and the stamp completes the stamp after restart, without a second discount', async () => {
    let killed!: () => void;
    const down = new Promise<void>((resolve) => (killed = resolve));
    prod.admin.beforeDiscountAnswer = async () => {
      prod.admin.beforeDiscountAnswer = null;
      await prod.killApp();
      killed();
    };
    const id = await earn();
    await down;
    const [made] = [...prod.admin.discounts.values()].slice(-1);
    expect((await stampOf(id)).couponCode).toBeNull();
    await prod.crashAndRestart();
    const code = await until('the stamp after restart', async () => (await stampOf(id)).couponCode, 40_000);
    expect(code).toBe(made!.input.code);
    const calls = discountCalls().filter((c) => (c.variables.basicCodeDiscount as any).code === code);
    // The second call met "code taken": the discount exists once.
    expect(calls).toHaveLength(2);
    expect([...prod.admin.discounts.keys()].filter((c) => c === code)).toHaveLength(1);
  }, 90_000);

  it('a refused discount is recorded with the reason, and the admin’s Retry issues it', async () => {
    prod.admin.scripted.set('LoyaltyDiscountCreate', [
      { userErrors: [{ field: ['basicCodeDiscount', 'customerGets'], code: 'INVALID', message: 'Value is invalid' }] },
    ]);
    const id = await earn();
    const row = await until('the failure', async () =>
      (await prod.appPool.query(`select status, last_error from reward_discounts where reward_log_id = $1`, [id])).rows.find(
        (r) => r.status === 'failed',
      ),
    );
    expect(row.last_error).toBe('basicCodeDiscount.customerGets: Value is invalid');
    expect((await stampOf(id)).couponCode).toBeNull();
  });
});

describe('Store credit', () => {
  let reward: { id: string };
  let n = 0;
  const credits = () => prod.admin.requests.filter((r) => r.operation === 'LoyaltyStoreCredit');
  const creditsOf = (customer: string) => prod.admin.storeCredits.get(customer) ?? [];

  const earn = (customer = CUSTOMER) => earnOnNewStreak(reward, `Credit ${++n}`, customer);

  beforeAll(async () => {
    reward = await created('/schema/reward/record', {
      name: 'Store credit',
      description: 'd',
      discountType: 'fixed_amount',
      discountValue: 7.5,
      rewardExpiryType: 'relative',
      rewardExpiryInDays: 60,
      handleCoupon: false,
    });
    // As the rewards editor saves a store credit reward (its browser test saves one through the page).
    await prod.appPool.query('insert into shopify_discount_rewards (shop, reward_id) values ($1, $2)', [TEST_SHOP, reward.id]);
    await prod.appPool.query('insert into reward_issuing (shop, reward_id, spec) values ($1, $2, $3)', [
      TEST_SHOP,
      reward.id,
      JSON.stringify({
        kind: 'store_credit',
        minimum: null,
        collections: [],
        combinesWith: { orderDiscounts: false, productDiscounts: false, shippingDiscounts: false },
        currencyCode: 'EUR',
      }),
    ]);
  });

  it('credits the customer once in the shop’s currency with the reward’s expiry, and stamps the amount on the reward log', async () => {
    const customer = 'gid://shopify/Customer/3001';
    const id = await earn(customer);
    const stamp = await until('the stamp', async () => (await stampOf(id)).couponCode);
    const { rewardExpiryAt } = await stampOf(id);
    expect(stamp).toBe('7.50 EUR');
    expect(rewardExpiryAt).not.toBeNull();
    const sent = credits().filter((c) => c.variables.id === customer);
    expect(sent.map((c) => c.variables)).toEqual([
      { id: customer, creditInput: { creditAmount: { amount: '7.50', currencyCode: 'EUR' }, expiresAt: rewardExpiryAt } },
    ]);
    expect(creditsOf(customer)).toHaveLength(1);
  });

  it('the core’s event delivered twice at once, with two app processes sending, credits once', async () => {
    const customer = 'gid://shopify/Customer/3002';
    const second = await prod.serveAgain();
    prod.admin.delayMs = 150;
    try {
      const id = await earn(customer);
      const delivery = await until('the delivery', () => prod.deliveries.find((d) => d.body.includes(id)));
      const replay = (url: string) => fetch(`${url}/loyalty/events`, { method: 'POST', headers: delivery.headers, body: delivery.body });
      expect((await Promise.all([replay(prod.url), replay(second.url), replay(prod.url)])).map((r) => r.status)).toEqual([200, 200, 200]);
      await until('the stamp', async () => (await stampOf(id)).couponCode);
      await settle();
    } finally {
      prod.admin.delayMs = 0;
      await second.close();
    }
    expect(credits().filter((c) => c.variables.id === customer)).toHaveLength(1);
    expect(creditsOf(customer)).toHaveLength(1);
  });

  it('a worker killed after Shopify credited but before the commit reconciles after restart: no second credit', async () => {
    const customer = 'gid://shopify/Customer/3003';
    let killed!: () => void;
    const down = new Promise<void>((resolve) => (killed = resolve));
    prod.admin.beforeCreditAnswer = async () => {
      prod.admin.beforeCreditAnswer = null;
      await prod.killApp();
      killed();
    };
    const id = await earn(customer);
    await down;
    expect(creditsOf(customer)).toHaveLength(1);
    expect((await stampOf(id)).couponCode).toBeNull();
    await prod.crashAndRestart();
    const stamp = await until('the stamp after restart', async () => (await stampOf(id)).couponCode, 40_000);
    expect(stamp).toBe('7.50 EUR');
    // The restarted worker read the customer's credits, found the one it made, and did not credit again.
    expect(prod.admin.requests.some((r) => r.operation === 'LoyaltyStoreCredits' && r.variables.id === customer)).toBe(true);
    expect(credits().filter((c) => c.variables.id === customer)).toHaveLength(1);
    expect(creditsOf(customer)).toHaveLength(1);
    const { rows } = await prod.appPool.query('select credit_transaction_gid, status from reward_discounts where reward_log_id = $1', [id]);
    expect(rows).toEqual([{ credit_transaction_gid: creditsOf(customer)[0]!.id, status: 'stamped' }]);
  }, 90_000);

  it('an attempt that never reached Shopify is sent again after the reconciling read finds nothing', async () => {
    const customer = 'gid://shopify/Customer/3004';
    prod.admin.scripted.set('LoyaltyStoreCredit', [{ status: 502 }]);
    const id = await earn(customer);
    const stamp = await until('the stamp after the retry', async () => (await stampOf(id)).couponCode);
    expect(stamp).toBe('7.50 EUR');
    expect(credits().filter((c) => c.variables.id === customer)).toHaveLength(2);
    expect(creditsOf(customer)).toHaveLength(1);
  });

  it('a reward log revoked before its credit is made credits nothing', async () => {
    const customer = 'gid://shopify/Customer/3005';
    const rewardLogId = randomUUID();
    // The reversal's event recorded the revocation before the sender reached the reserved row.
    await prod.appPool.query('insert into reward_log_revocations (shop, reward_log_id) values ($1, $2)', [TEST_SHOP, rewardLogId]);
    await prod.appPool.query(
      `insert into reward_discounts (shop, reward_log_id, reward_id, customer_gid, code, discount) values ($1, $2, $3, $4, $5, $6)`,
      [
        TEST_SHOP,
        rewardLogId,
        reward.id,
        customer,
        'LOYALTY-REVOKEDCREDIT',
        JSON.stringify({
          title: 'Loyalty reward: Store credit',
          discountType: 'fixed_amount',
          discountValue: 7.5,
          endsAt: null,
          triggerFields: {},
          kind: 'store_credit',
          currencyCode: 'EUR',
        }),
      ],
    );
    await prod.appPool.query("select pg_notify('loyalty_shopify_outbox', $1)", [TEST_SHOP]);
    await until('the row revoked', async () =>
      (await prod.appPool.query(`select status from reward_discounts where reward_log_id = $1`, [rewardLogId])).rows.find(
        (r) => r.status === 'revoked',
      ),
    );
    expect(credits().filter((c) => c.variables.id === customer)).toHaveLength(0);
    expect(creditsOf(customer)).toHaveLength(0);
  });
});

describe('Flow action grant-streak-freezes', () => {
  const flow = async (properties: Record<string, unknown>, runId?: string) => {
    const res = await prod.send(await flowRequest('grant-streak-freezes', properties, runId ? { action_run_id: runId } : {}));
    return { status: res.status, body: (await res.json()) as any };
  };
  const progressOf = async (streakId: string) =>
    (
      await api.get('/schema/streak_progress/record', {
        filters: { operator: 'and', conditions: [{ fieldSlug: 'streakId', operator: 'equals', fieldValue: streakId }] },
      })
    ).body.data[0];

  it('grants freezes to the customer’s in-progress run; a replayed action_run_id, even concurrent or after a lost answer, grants once', async () => {
    const streak = await created('/schema/streak/record', { name: 'Frozen', status: 'live', maxFreezes: 5 });
    await created('/schema/streak_log/record', {
      streakId: streak.id,
      ownedBy: { externalId: CUSTOMER },
      activityId: 'visit',
      activityAt: at(0),
      uniqueIdentifier: 'f1',
    });
    const [a, b] = await Promise.all([
      flow({ customer_id: 1001, streak_id: streak.id, count: 2 }, 'grant-run-1'),
      flow({ customer_id: 1001, streak_id: streak.id, count: 2 }, 'grant-run-1'),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body).toEqual(b.body);
    expect(a.body).toMatchObject({ ok: true, freezesAvailable: 2 });
    expect((await progressOf(streak.id)).freezesAvailable).toBe(2);
    expect(await flow({ customer_id: 1001, streak_id: streak.id, count: 2 }, 'grant-run-1')).toMatchObject({
      body: { ...a.body, replay: true },
    });
    // The streak by its name, as a merchant types it in Flow.
    const again = await flow({ customer_id: 1001, streak_id: 'frozen', count: '1' }, 'grant-run-2');
    expect(again).toMatchObject({ status: 200, body: { ok: true, freezesAvailable: 3 } });
    // The app lost run 2's answer after the core granted (its transaction rolled back): Flow's retry grants nothing more.
    await prod.appPool.query('delete from flow_action_runs where shop = $1 and run_key = $2', [
      TEST_SHOP,
      'grant-streak-freezes:grant-run-2',
    ]);
    const retried = await flow({ customer_id: 1001, streak_id: 'frozen', count: '1' }, 'grant-run-2');
    expect(retried).toMatchObject({ status: 200, body: { ok: true, freezesAvailable: 3 } });
    expect((await progressOf(streak.id)).freezesAvailable).toBe(3);
  });

  it('a core slow to grant holds those grants only: the app’s other routes answer meanwhile', async () => {
    const streak = await created('/schema/streak/record', { name: 'Slow', status: 'live', maxFreezes: 10 });
    await created('/schema/streak_log/record', {
      streakId: streak.id,
      ownedBy: { externalId: CUSTOMER },
      activityId: 'visit',
      activityAt: at(0),
      uniqueIdentifier: 'slow-1',
    });
    // More grants at once than the app's database pool has connections.
    const holds = Array.from({ length: 12 }, () =>
      prod.coreGate!.hold((method, path) => method === 'POST' && path.includes('/action/grant_freezes')),
    );
    const grants = holds.map((_, i) => flow({ customer_id: 1001, streak_id: streak.id, count: 1 }, `slow-run-${i}`));
    await Promise.all(holds.map((h) => h.arrived));
    const answered = await Promise.race([
      Promise.all([fetch(`${prod.url}/healthz`), flow({ customer_id: 1001, streak_id: 'Never made', count: 1 }, 'slow-other')]),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000)),
    ]);
    expect(answered && [answered[0].status, answered[1].status]).toEqual([200, 404]);
    for (const h of holds) h.release();
    expect((await Promise.all(grants)).map((g) => g.status)).toEqual(Array(12).fill(200));
    expect((await progressOf(streak.id)).freezesAvailable).toBe(10);
  });

  it('answers 4xx that Flow shows: no run in progress, freezes off, a bad count', async () => {
    const idle = await created('/schema/streak/record', { name: 'Idle', status: 'live', maxFreezes: 2 });
    expect(await flow({ customer_id: 1001, streak_id: idle.id, count: 1 })).toMatchObject({
      status: 404,
      body: { error: { property: 'streak_id' } },
    });
    expect(await flow({ customer_id: 1001, streak_id: 'Idle', count: 1 }, 'grant-by-name')).toMatchObject({
      status: 404,
      body: {
        error: { property: 'streak_id', message: 'streak_id: customer gid://shopify/Customer/1001 has no streak “Idle” in progress' },
      },
    });
    expect(await flow({ customer_id: 1001, streak_id: 'Never made', count: 1 }, 'grant-unknown')).toMatchObject({
      status: 404,
      body: { error: { property: 'streak_id', message: "streak_id: no streak named “Never made” in this shop's program" } },
    });
    const off = await created('/schema/streak/record', { name: 'No freezes', status: 'live' });
    await created('/schema/streak_log/record', {
      streakId: off.id,
      ownedBy: { externalId: CUSTOMER },
      activityId: 'visit',
      activityAt: at(0),
      uniqueIdentifier: 'f2',
    });
    expect((await flow({ customer_id: 1001, streak_id: off.id, count: 1 })).status).toBe(409);
    expect(await flow({ customer_id: 1001, streak_id: off.id, count: 11 })).toMatchObject({
      status: 400,
      body: { error: { property: 'count' } },
    });
  });
});
