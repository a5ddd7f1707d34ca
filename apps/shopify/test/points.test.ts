import { TEST_SHOP } from '@shopify/shopify-api/test-helpers';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../core/test/support/harness';
import { CLAIMS_PER_DAY } from '../app/earning/referral-gifts.server';
import { answerOf, adminFetch } from './support/admin-fuzz';
import { extensionToken, fromExtension } from './support/extensions';
import { adminLoad, customerPayload, drawnPage, orderPayload, type OrderSpec, refundPayload } from './support/orders';
import { type Production, startProduction } from './support/production';
import { giftReward } from './support/programs';
import { flowLifecycleRequest, flowRequest, proxyRequest, webhookRequest } from './support/stack';
import { until } from './support/until';

/**
 * CONTRACT §19's earning rules through what ships: Shopify's order, refund and customer webhooks,
 * signed by its test helpers, into the production build; the points the earning worker writes, read
 * back from the core's built binary.
 */
let prod: Production;
let api: Client;

async function deliver(topic: string, payload: Record<string, unknown>, webhookId?: string) {
  const res = await prod.send(await webhookRequest(topic, payload, webhookId));
  expect(res.status).toBe(200);
}

const worked = (subject: string) =>
  until(`${subject} worked off`, async () => {
    const { rows } = await prod.appPool.query<{ status: string; last_error: string | null }>(
      'select status, last_error from shopify_webhooks where shop = $1 and subject = $2',
      [TEST_SHOP, subject],
    );
    return rows[0] && rows[0].status !== 'pending' ? rows[0] : undefined;
  });

const paid = async (id: number, spec: OrderSpec) => {
  await deliver('orders/paid', orderPayload(id, spec));
  return worked(`order:${id}`);
};

const refund = async (id: number, order: number, lines: { position: number; quantity: number }[]) => {
  await deliver('refunds/create', refundPayload(id, order, lines));
  return worked(`refund:${id}`);
};

type Entry = { points: number; reason: string; note: string | null; uniqueIdentifier: string | null; linkedSchemaSlug: string | null };

const where = (fieldSlug: string, fieldValue: unknown) => ({
  operator: 'and',
  conditions: [{ fieldSlug, operator: 'equals', fieldValue }],
});

async function memberOf(customer: number): Promise<{ id: string; pointsBalance: number; languageCode: string | null } | undefined> {
  return (await api.get('/schema/account_user/record', { filters: where('externalId', `gid://shopify/Customer/${customer}`) })).body
    .data[0];
}

/** The point entries of the customer's member, oldest first, and their balance. */
async function pointsOf(customer: number): Promise<{ entries: Entry[]; balance: number }> {
  const member = await memberOf(customer);
  if (!member) return { entries: [], balance: 0 };
  const entries = await api.get('/schema/point_entry/record', {
    filters: where('ownedById', member.id),
    sortBy: [{ fieldSlug: 'createdAt', order: 'ASC' }],
    limit: 100,
  });
  return { entries: entries.body.data, balance: member.pointsBalance };
}

const sum = (entries: Entry[]) => entries.reduce((s, e) => s + e.points, 0);

// 2 shoes at 25 with 5 off the line (45) and a hat at 30: 75 of products; shipping, taxes and the tip earn nothing.
const SHOES_AND_HAT = (customer: number): OrderSpec => ({
  customer: { id: customer },
  lines: [
    { product: 10, quantity: 2, price: '25.00', discount: '5.00' },
    { product: 20, quantity: 1, price: '30.00' },
  ],
});

let settingId: string;
const rates = (values: Record<string, unknown>) => api.patch(`/schema/points_setting/record/${settingId}`, values);

beforeAll(async () => {
  // The core's scheduler runs its daily points pass within half a second of a new day.
  prod = await startProduction({ coreEnv: { LOYALTY_SCHEDULER_INTERVAL_MS: '500' } });
  expect((await adminLoad(prod.url, '/app')).status).toBe(200);
  const account = (await prod.shops.find(TEST_SHOP))!;
  api = new Client(`${prod.core.url}/api/v1.0`, { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
  settingId = (await api.get('/schema/points_setting/record')).body.data[0].id;
  const on = await rates({ status: 'live', pointsPerCurrencyUnit: 1, pointsPerOrder: 5, pointsOnSignUp: 50, pointsOnNewsletter: 30 });
  expect(on.status, JSON.stringify(on.body)).toBe(200);
}, 180_000);

afterAll(() => prod?.close());

describe('points from orders', () => {
  it('a paid order earns its products’ amount times the rate plus the per-order points, once however often it is delivered', async () => {
    await paid(1, SHOES_AND_HAT(801));
    await deliver('orders/paid', orderPayload(1, SHOES_AND_HAT(801)), 'order-1-again');
    await new Promise((r) => setTimeout(r, 1000));
    const { entries, balance } = await pointsOf(801);
    expect(entries).toEqual([
      expect.objectContaining({ points: 80, reason: 'earned', note: '#1', uniqueIdentifier: 'order:1', linkedSchemaSlug: 'shopify_order' }),
    ]);
    expect(balance).toBe(80);
  });

  it('a partial refund takes back the refunded share of the spent part; the rest of the order takes back all, per-order points included', async () => {
    await paid(2, SHOES_AND_HAT(802));
    expect(await refund(20, 2, [{ position: 2, quantity: 1 }])).toMatchObject({ status: 'done' });
    let { entries, balance } = await pointsOf(802);
    // The hat: 30 of the 75 spent.
    expect(entries.map((e) => [e.reason, e.points])).toEqual([
      ['earned', 80],
      ['reversed', -30],
    ]);
    expect(balance).toBe(50);
    // The same refund again (another webhook id) takes nothing twice.
    await deliver('refunds/create', refundPayload(20, 2, [{ position: 2, quantity: 1 }]), 'refund-20-again');
    await refund(21, 2, [{ position: 1, quantity: 2 }]);
    ({ entries, balance } = await pointsOf(802));
    expect(entries.map((e) => [e.reason, e.points])).toEqual([
      ['earned', 80],
      ['reversed', -30],
      ['reversed', -50],
    ]);
    expect(balance).toBe(0);
  });

  it('a cancellation takes back what remains, even points already spent (the balance goes below 0 only so)', async () => {
    await paid(3, SHOES_AND_HAT(803));
    const adjusted = await api.post('/schema/point_entry/record', {
      ownedById: (await memberOf(803))!.id,
      points: -60,
      reason: 'adjusted',
    });
    expect(adjusted.status).toBe(200);
    await refund(30, 3, [{ position: 1, quantity: 1 }]);
    await deliver('orders/cancelled', { ...orderPayload(3, SHOES_AND_HAT(803)), cancelled_at: new Date().toISOString() });
    expect(await worked('cancel:3')).toMatchObject({ status: 'done' });
    const { entries, balance } = await pointsOf(803);
    expect(entries.filter((e) => e.reason === 'reversed').map((e) => e.points)).toEqual([-22, -58]);
    expect(balance).toBe(-60);
    expect(sum(entries)).toBe(balance);
  });

  it('a new customer earns the sign-up points once', async () => {
    await deliver('customers/create', customerPayload(804));
    await deliver('customers/create', customerPayload(804), 'customer-804-again');
    await worked('customer:804');
    await new Promise((r) => setTimeout(r, 1000));
    const { entries, balance } = await pointsOf(804);
    expect(entries).toEqual([expect.objectContaining({ points: 50, reason: 'earned', uniqueIdentifier: 'customer:804:points' })]);
    expect(balance).toBe(50);
  });

  it('subscribing to the newsletter earns its points once, at sign-up or later, never for a subscription from before the app was installed', async () => {
    const subscribed = (id: number, at = new Date(), update: Record<string, unknown> = {}) => ({
      ...customerPayload(id),
      email_marketing_consent: { state: 'subscribed', opt_in_level: 'single_opt_in', consent_updated_at: at.toISOString() },
      ...update,
    });
    const newsletter = (entries: Entry[]) => entries.filter((e) => e.linkedSchemaSlug === 'shopify_newsletter');
    // Subscribed as they sign up: both rates, once however often Shopify delivers it.
    await deliver('customers/create', subscribed(820));
    await deliver('customers/create', subscribed(820), 'customer-820-again');
    await worked('customer:820');
    await worked('newsletter:820');
    // Two rows, worked off side by side: in either order.
    const both = await pointsOf(820);
    expect(both.entries).toHaveLength(2);
    expect(both.entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ points: 50, uniqueIdentifier: 'customer:820:points' }),
        expect.objectContaining({ points: 30, reason: 'earned', uniqueIdentifier: 'customer:820:newsletter' }),
      ]),
    );
    expect(both.balance).toBe(80);

    // Signed up without it, subscribed by a later update (which also proves the e-mail), then off and on again: earned once.
    await deliver('customers/create', { ...customerPayload(821), verified_email: false });
    await worked('customer:821');
    await deliver('customers/update', subscribed(821));
    expect(await worked('newsletter:821')).toMatchObject({ status: 'done', last_error: null });
    expect(await worked('verified:821')).toMatchObject({ status: 'done' });
    await deliver('customers/update', subscribed(821, new Date(), { email_marketing_consent: { state: 'unsubscribed' } }));
    await deliver('customers/update', subscribed(821, new Date(Date.now() + 1000)));
    await new Promise((r) => setTimeout(r, 1000));
    const later = await pointsOf(821);
    expect(newsletter(later.entries)).toEqual([expect.objectContaining({ points: 30, uniqueIdentifier: 'customer:821:newsletter' })]);
    expect(later.balance).toBe(80);

    // A subscriber of before the app: nothing, and nothing at any later update.
    await deliver('customers/update', subscribed(822, new Date('2020-01-01T00:00:00Z')));
    expect(await worked('newsletter:822')).toMatchObject({ status: 'done', last_error: 'subscribed before the app was installed' });
    // Pending (double opt-in not yet confirmed) is no subscription: not kept.
    await deliver(
      'customers/update',
      subscribed(823, new Date(), { email_marketing_consent: { state: 'pending' }, verified_email: false }),
    );
    await new Promise((r) => setTimeout(r, 500));
    expect((await pointsOf(822)).entries).toEqual([]);
    const kept = await prod.appPool.query('select subject from shopify_webhooks where shop = $1 and subject like $2', [TEST_SHOP, '%:823']);
    expect(kept.rows).toEqual([]);

    // The member page says where the points came from, in words.
    const page = await adminLoad(prod.url, `/app/members/${(await memberOf(821))!.id}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Subscribing to the newsletter');
  });

  it('the member speaks the language the customer orders in: made in it, changed by an order in another, kept by one the core lacks', async () => {
    await paid(91, { ...SHOES_AND_HAT(809), locale: 'fr-CA' });
    expect(await memberOf(809)).toMatchObject({ languageCode: 'fr', pointsBalance: 80 });
    await paid(92, { ...SHOES_AND_HAT(809), locale: 'pt-BR' });
    expect(await memberOf(809)).toMatchObject({ languageCode: 'pt', pointsBalance: 160 });
    await paid(93, { ...SHOES_AND_HAT(809), locale: 'nl' });
    expect(await memberOf(809)).toMatchObject({ languageCode: 'pt', pointsBalance: 240 });
  });

  it('while points are off, orders earn none', async () => {
    expect((await rates({ status: 'draft' })).status).toBe(200);
    // The worker trusts what it read of the rates for two seconds.
    await new Promise((r) => setTimeout(r, 2500));
    await paid(5, SHOES_AND_HAT(805));
    expect((await pointsOf(805)).entries).toEqual([]);
    expect((await rates({ status: 'live' })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2500));
  });
});

describe('a bonus points event', () => {
  it('multiplies what orders placed within it earn, and a refund takes back its share of that', async () => {
    const now = Date.now();
    const event = {
      bonusMultiplier: 2,
      bonusStartsAt: new Date(now - 3_600_000).toISOString(),
      bonusEndsAt: new Date(now + 3_600_000).toISOString(),
    };
    expect((await rates(event)).status).toBe(200);
    // The worker trusts what it read of the rates for two seconds.
    await new Promise((r) => setTimeout(r, 2500));
    // Placed within it: (75 spent + 5 an order) × 2; placed before it started, though paid now: as ever.
    await paid(96, SHOES_AND_HAT(896));
    await paid(97, { ...SHOES_AND_HAT(897), processedAt: new Date(now - 7_200_000).toISOString() });
    expect((await pointsOf(896)).entries.map((e) => e.points)).toEqual([160]);
    expect((await pointsOf(897)).entries.map((e) => e.points)).toEqual([80]);
    // The entry notes the multiplier beside the order's name, so the member's history says it too.
    expect((await pointsOf(896)).entries.map((e) => e.note)).toEqual(['#96 ×2']);
    expect((await pointsOf(897)).entries.map((e) => e.note)).toEqual(['#97']);
    // The member page says which order's points an event multiplied, in its orders and its points.
    const memberPage = async (customer: number) => drawnPage(await adminLoad(prod.url, `/app/members/${(await memberOf(customer))!.id}`));
    expect(await memberPage(896)).toContain('2× in a bonus points event');
    expect(await memberPage(896)).toContain('Order #96, 2× in a bonus points event');
    expect(await memberPage(896)).not.toContain('#96 ×2');
    expect(await memberPage(897)).not.toContain('bonus points event');
    // The hat refunded: its 30 of the 75 spent, times two.
    await refund(960, 96, [{ position: 2, quantity: 1 }]);
    expect((await pointsOf(896)).entries.map((e) => [e.reason, e.points])).toEqual([
      ['earned', 160],
      ['reversed', -60],
    ]);
    expect((await rates({ bonusMultiplier: 1 })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2500));
  });
});

describe('tiers', () => {
  it('an order earns with the tier multiplier; entering a tier tags the customer and sets $app:loyalty.tier; a refund takes back what was multiplied', async () => {
    const gold = await api.post('/schema/tier/record', { name: 'Gold', status: 'live', pointsThreshold: 100, earnMultiplier: 2 });
    expect(gold.status, JSON.stringify(gold.body)).toBe(200);
    const customer = 'gid://shopify/Customer/806';
    await paid(61, SHOES_AND_HAT(806));
    // 160 earned in the window: Gold from the second order on, so the third earns double.
    await paid(62, SHOES_AND_HAT(806));
    await paid(63, SHOES_AND_HAT(806));
    let { entries, balance } = await pointsOf(806);
    expect(entries.map((e) => e.points)).toEqual([80, 80, 160]);
    expect(balance).toBe(320);
    await until('the tier on the customer', async () => prod.admin.metafields.get(`${customer}|$app:loyalty|tier`) === 'Gold');
    expect([...(prod.admin.tags.get(customer) ?? [])]).toEqual(['Loyalty tier: Gold']);
    expect((await memberOf(806)) as unknown).toMatchObject({ tierId: gold.body.data.id });
    await deliver('orders/cancelled', { ...orderPayload(63, SHOES_AND_HAT(806)), cancelled_at: new Date().toISOString() });
    await worked('cancel:63');
    ({ entries, balance } = await pointsOf(806));
    expect(entries.at(-1)).toMatchObject({ reason: 'reversed', points: -160 });
    expect(balance).toBe(160);
  });
});

describe('the daily pass, through what ships', () => {
  const triggers = (handle: string, customer: number) =>
    prod.admin.requests
      .filter((r) => r.operation === 'LoyaltyFlowTrigger' && r.variables.handle === handle)
      .map((r) => r.variables.payload as Record<string, unknown>)
      .filter((p) => p.customer_id === customer);

  it('a tier lost as the rules change fires Tier changed once and takes the tag and metafield off; points about to expire fire Points expiring', async () => {
    // The shop's Flow uses both triggers, as its lifecycle callbacks tell the app.
    for (const handle of ['loyalty-tier-changed', 'loyalty-points-expiring'])
      expect((await prod.send(await flowLifecycleRequest(handle, true))).status).toBe(200);
    const customer = 'gid://shopify/Customer/808';
    const platinum = await api.post('/schema/tier/record', { name: 'Platinum', status: 'live', pointsThreshold: 150, earnMultiplier: 1 });
    expect(platinum.status, JSON.stringify(platinum.body)).toBe(200);
    await paid(81, SHOES_AND_HAT(808));
    await paid(82, SHOES_AND_HAT(808));
    await until('Platinum on the customer', async () => prod.admin.metafields.get(`${customer}|$app:loyalty|tier`) === 'Platinum');
    await until('Tier changed (up)', async () => triggers('loyalty-tier-changed', 808).length === 1);
    expect(triggers('loyalty-tier-changed', 808)[0]).toMatchObject({ tier: 'Platinum', previous_tier: '', upgraded: true });

    // The merchant raises every tier beyond the member's 160 and makes points expire after a month without an entry.
    for (const tier of (await api.get('/schema/tier/record')).body.data)
      expect((await api.patch(`/schema/tier/record/${tier.id}`, { pointsThreshold: 1000 + tier.pointsThreshold })).status).toBe(200);
    expect((await rates({ expiryMonthsOfInactivity: 1 })).status).toBe(200);
    // The next day, the member's last entry 20 days old: as if the days had passed.
    const core = new pg.Client({ connectionString: prod.coreDatabaseUrl });
    await core.connect();
    try {
      const member = (await memberOf(808))!;
      await core.query(`update account_user set last_point_entry_at = now() - interval '20 days', points_passed_on = null where id = $1`, [
        member.id,
      ]);
      await core.query('update points_setting set daily_pass_on = null where id = $1', [settingId]);
    } finally {
      await core.end();
    }

    await until('Tier changed (down)', async () => triggers('loyalty-tier-changed', 808).length === 2);
    expect(triggers('loyalty-tier-changed', 808)[1]).toMatchObject({ tier: '', previous_tier: 'Platinum', upgraded: false });
    await until('the tier off the customer', async () => !prod.admin.metafields.has(`${customer}|$app:loyalty|tier`));
    expect([...(prod.admin.tags.get(customer) ?? [])]).toEqual([]);
    await until('Points expiring', async () => triggers('loyalty-points-expiring', 808).length === 1);
    const [expiring] = triggers('loyalty-points-expiring', 808);
    expect(expiring).toMatchObject({ expiring_points: 160, points_balance: 160 });
    expect(Date.parse(String(expiring!.expires_at)) - Date.now()).toBeGreaterThan(9 * 86_400_000);
    // Fired once each, however often the scheduler looks again the same day.
    await new Promise((r) => setTimeout(r, 2000));
    expect(triggers('loyalty-tier-changed', 808)).toHaveLength(2);
    expect(triggers('loyalty-points-expiring', 808)).toHaveLength(1);
  });
});

describe('a mission run the core completes at its window’s end, through what ships', () => {
  it('fires Mission completed with the mission, from the scheduler’s payload, once', async () => {
    expect((await prod.send(await flowLifecycleRequest('loyalty-mission-completed', true))).status).toBe(200);
    const tasks = [
      { name: 'Visit', activityId: 'visit', targetValue: 1 },
      { name: 'Review', activityId: 'review', targetValue: 1 },
    ];
    const mission = (await api.post('/schema/mission/record', { name: 'Spring mission', aggregationPeriod: 'daily', tasks })).body.data;
    const log = await api.post('/schema/mission_log/record', {
      missionId: mission.id,
      ownedBy: { externalId: 'gid://shopify/Customer/909' },
      activityId: 'visit',
      activityAt: new Date().toISOString(),
      uniqueIdentifier: 'spring-visit',
    });
    expect(log.status, JSON.stringify(log.body)).toBe(200);
    // The merchant drops the review the customer had not written; the run's day then ends.
    expect((await api.patch(`/schema/mission/record/${mission.id}`, { tasks: [{ ...tasks[0], id: mission.tasks[0].id }] })).status).toBe(
      200,
    );
    const core = new pg.Client({ connectionString: prod.coreDatabaseUrl });
    await core.connect();
    try {
      await core.query(
        `update mission_progress set mission_started_at = now() - interval '2 days', mission_to_be_failed_at = now() - interval '1 day' where id = $1`,
        [log.body.data.missionProgress.id],
      );
    } finally {
      await core.end();
    }
    const fired = () =>
      prod.admin.requests
        .filter((r) => r.operation === 'LoyaltyFlowTrigger' && r.variables.handle === 'loyalty-mission-completed')
        .map((r) => r.variables.payload as Record<string, unknown>)
        .filter((p) => p.customer_id === 909);
    await until('Mission completed', async () => fired().length === 1);
    expect(fired()[0]).toEqual({ customer_id: 909, mission_id: mission.id, mission_name: 'Spring mission', tasks_completed: 1 });
    await new Promise((r) => setTimeout(r, 2000));
    expect(fired()).toHaveLength(1);
  });
});

describe('birthdays, through what ships', () => {
  it('a birthday a shopper enters on the storefront waits for its first day 30 days ahead; one a workflow sets earns on it from the core’s sweep, once, firing Points earned', async () => {
    expect((await prod.send(await flowLifecycleRequest('loyalty-points-earned', true))).status).toBe(200);
    expect((await rates({ pointsOnBirthday: 40 })).status).toBe(200);
    // The shopper's token, as the theme embed gets it through the app proxy.
    const proxied = await prod.send(
      await proxyRequest('/apps/loyalty/token', { logged_in_customer_id: '830', path_prefix: '/apps/loyalty' }),
    );
    const { accessToken } = (await proxied.json()) as { accessToken: string };
    const account = (await prod.shops.find(TEST_SHOP))!;
    const shopper = new Client(`${prod.core.url}/api/v1.0`, { 'x-enduser-access-token': accessToken, 'x-account-id': account.accountId });
    // Today in UTC: today or yesterday wherever the member is, so theirs either way.
    const today = new Date().toISOString().slice(5, 10);
    const given = await shopper.request('PATCH', '/schema/account_user/me', { body: { birthday: today } });
    expect(given.status, JSON.stringify(given.body)).toBe(200);
    // The merchant's own data is trusted: a birth date a sign-up form kept, set by a workflow.
    prod.admin.customers.set('gid://shopify/Customer/831', { firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' });
    const set = await prod.send(await flowRequest('set-birthday', { customer_id: 831, birthday: `1990-${today}` }));
    expect(set.status).toBe(200);
    const earned = await until('the birthday points', async () => {
      const { entries } = await pointsOf(831);
      return entries.length ? entries : undefined;
    });
    expect(earned).toEqual([expect.objectContaining({ points: 40, reason: 'earned', linkedSchemaSlug: 'birthday' })]);
    const pointsEarned = () =>
      prod.admin.requests
        .filter((r) => r.operation === 'LoyaltyFlowTrigger' && r.variables.handle === 'loyalty-points-earned')
        .map((r) => r.variables.payload as Record<string, unknown>);
    await until('Points earned', async () => pointsEarned().some((p) => p.customer_id === 831) || undefined);
    expect(pointsEarned().find((p) => p.customer_id === 831)).toMatchObject({ points: 40, source: 'birthday' });
    // Once, however often the sweep looks again; today's date entered today earns the shopper nothing.
    await new Promise((r) => setTimeout(r, 2000));
    expect((await pointsOf(831)).entries).toHaveLength(1);
    expect((await pointsOf(830)).entries).toEqual([]);
    expect(pointsEarned().filter((p) => p.customer_id === 831 || p.customer_id === 830)).toHaveLength(1);
    // A second birthday from the storefront is the shop's to give.
    const again = await shopper.request('PATCH', '/schema/account_user/me', { body: { birthday: '01-01' } });
    expect([again.status, again.body.error.code]).toEqual([409, 'birthday_already_set']);
    expect((await rates({ pointsOnBirthday: 0 })).status).toBe(200);
  });
});

describe('social follows, through what ships', () => {
  it('a shopper following the shop’s Instagram profile from the storefront earns once, firing Points earned from social_follow', async () => {
    expect((await prod.send(await flowLifecycleRequest('loyalty-points-earned', true))).status).toBe(200);
    expect((await rates({ status: 'live', pointsOnFollow: 15, instagramUrl: 'https://www.instagram.com/yourshop' })).status).toBe(200);
    const proxied = await prod.send(
      await proxyRequest('/apps/loyalty/token', { logged_in_customer_id: '835', path_prefix: '/apps/loyalty' }),
    );
    const { accessToken } = (await proxied.json()) as { accessToken: string };
    const account = (await prod.shops.find(TEST_SHOP))!;
    const shopper = new Client(`${prod.core.url}/api/v1.0`, { 'x-enduser-access-token': accessToken, 'x-account-id': account.accountId });
    const follow = () =>
      shopper.request('POST', `/schema/points_setting/record/${settingId}/action/follow`, { body: { network: 'instagram' } });
    const followed = await follow();
    expect(followed.status, JSON.stringify(followed.body)).toBe(200);
    expect((await follow()).body.error.code).toBe('already_followed');
    expect((await pointsOf(835)).entries).toEqual([
      expect.objectContaining({ points: 15, reason: 'earned', linkedSchemaSlug: 'social_follow' }),
    ]);
    const fromFollows = () =>
      prod.admin.requests
        .filter((r) => r.operation === 'LoyaltyFlowTrigger' && r.variables.handle === 'loyalty-points-earned')
        .map((r) => r.variables.payload as Record<string, unknown>)
        .filter((p) => p.customer_id === 835);
    await until('Points earned', async () => fromFollows().length > 0 || undefined);
    expect(fromFollows()).toEqual([expect.objectContaining({ points: 15, source: 'social_follow' })]);
    expect((await rates({ pointsOnFollow: 0, instagramUrl: null })).status).toBe(200);
  });
});

describe('referrals, through what ships', () => {
  it('a new customer’s first paid order through a member’s link earns both their points, once; a cancellation takes them back', async () => {
    expect((await prod.send(await flowLifecycleRequest('loyalty-points-earned', true))).status).toBe(200);
    expect((await rates({ pointsOnReferral: 100, pointsOnReferredOrder: 40 })).status).toBe(200);
    // The earning worker reads the rates again once what it read is 2 s old: the orders above may have just read them.
    await new Promise((r) => setTimeout(r, 2100));
    const now = new Date().toISOString();
    await paid(840, { ...SHOES_AND_HAT(840), customer: { id: 840, first_name: 'Grace', last_name: 'Hopper' } });
    const referrer = (await api.get('/schema/account_user/record', { filters: where('externalId', 'gid://shopify/Customer/840') })).body
      .data[0];
    expect(referrer.referralCode).toMatch(/^[2-9A-HJ-NP-Z]{8}$/);
    const before = (await pointsOf(840)).balance;
    // The code as a link put it on the cart, in any case.
    const friend = { id: 841, created_at: now };
    const order = { ...SHOES_AND_HAT(841), customer: friend, attributes: { _loyalty_ref: referrer.referralCode.toLowerCase() } };
    await paid(8410, order);
    await deliver('orders/paid', orderPayload(8410, order), 'order-8410-again');
    await new Promise((r) => setTimeout(r, 1000));
    expect((await pointsOf(840)).entries.filter((e) => e.linkedSchemaSlug === 'shopify_referral')).toEqual([
      expect.objectContaining({ points: 100, reason: 'earned', uniqueIdentifier: 'referral:8410' }),
    ]);
    expect((await pointsOf(840)).balance).toBe(before + 100);
    expect((await pointsOf(841)).entries.map((e) => [e.linkedSchemaSlug, e.points])).toEqual([
      ['shopify_order', 80],
      ['shopify_referred_order', 40],
    ]);
    expect((await api.get(`/schema/account_user/record/${(await memberOf(841))!.id}`)).body.data.referredById).toBe(referrer.id);
    const earnedFrom = () =>
      prod.admin.requests
        .filter((r) => r.operation === 'LoyaltyFlowTrigger' && r.variables.handle === 'loyalty-points-earned')
        .map((r) => r.variables.payload as Record<string, unknown>)
        .filter((p) => p.source === 'referral' || p.source === 'referred')
        .map((p) => [p.customer_id, p.source, p.points]);
    await until('Points earned for both', async () => earnedFrom().length === 2 || undefined);
    expect(earnedFrom()).toEqual(
      expect.arrayContaining([
        [840, 'referral', 100],
        [841, 'referred', 40],
      ]),
    );
    // The member pages say who referred whom, by name, and the points' sources in words.
    const friendPage = await (await adminLoad(prod.url, `/app/members/${(await memberOf(841))!.id}`)).text();
    expect(friendPage).toContain('Referred by');
    expect(friendPage).toContain(`href="/app/members/${referrer.id}">Grace Hopper</a>`);
    expect(friendPage).toContain('First order through a friend’s link');
    const referrerPage = await (await adminLoad(prod.url, `/app/members/${referrer.id}`)).text();
    expect(referrerPage).toContain('Referred 1 new customer');
    expect(referrerPage).toContain('Referring a friend');

    // None for the friend's next order, a first order without the link followed by one with it, the member's own code,
    // a customer from before the app, or a code nobody has.
    const owner = await prod.send(
      await proxyRequest('/apps/loyalty/token', { logged_in_customer_id: '842', path_prefix: '/apps/loyalty' }),
    );
    expect(owner.status).toBe(200);
    const ownCode = (await api.get('/schema/account_user/record', { filters: where('externalId', 'gid://shopify/Customer/842') })).body
      .data[0].referralCode;
    for (const [id, spec] of [
      [8411, { ...order }],
      [8420, { ...SHOES_AND_HAT(842), customer: { id: 842, created_at: now }, attributes: { _loyalty_ref: ownCode } }],
      [
        8430,
        {
          ...SHOES_AND_HAT(843),
          customer: { id: 843, created_at: '2020-01-01T00:00:00Z' },
          attributes: { _loyalty_ref: referrer.referralCode },
        },
      ],
      [8440, { ...SHOES_AND_HAT(844), customer: { id: 844, created_at: now }, attributes: { _loyalty_ref: 'ZZZZ2222' } }],
      [8450, { ...SHOES_AND_HAT(845), customer: { id: 845, created_at: now }, attributes: { _loyalty_ref: 'not a code' } }],
      [8460, { ...SHOES_AND_HAT(846), customer: { id: 846, created_at: now } }],
      [8461, { ...SHOES_AND_HAT(846), customer: { id: 846, created_at: now }, attributes: { _loyalty_ref: referrer.referralCode } }],
    ] as const) {
      expect(await paid(id, spec), String(id)).toMatchObject({ status: 'done', last_error: null });
    }
    expect((await pointsOf(840)).balance).toBe(before + 100);
    for (const customer of [841, 842, 843, 844, 845, 846]) {
      const { entries } = await pointsOf(customer);
      expect(
        entries.filter((e) => e.linkedSchemaSlug === 'shopify_referred_order'),
        String(customer),
      ).toHaveLength(customer === 841 ? 1 : 0);
    }

    // Cancelled, the first order takes back its own points and the referral's, from both.
    await deliver('orders/cancelled', { ...orderPayload(8410, order), cancelled_at: new Date().toISOString() });
    await worked('cancel:8410');
    expect((await pointsOf(840)).balance).toBe(before);
    expect(
      (await pointsOf(841)).entries
        .filter((e) => e.reason === 'reversed')
        .map((e) => e.points)
        .sort(),
    ).toEqual([-40, -80]);
    expect((await rates({ pointsOnReferral: 0, pointsOnReferredOrder: 0 })).status).toBe(200);
  });
});

describe('a referred friend’s gift, through what ships', () => {
  const referral = (query: Record<string, string>, body?: unknown) =>
    proxyRequest('/apps/loyalty/referral', { path_prefix: '/apps/loyalty', ...query }, body === undefined ? 'GET' : 'POST', body);
  const claim = async (code: string, email: string) => {
    const res = await prod.send(await referral({}, { code, email }));
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };

  it('the merchant picks it on the Points page; a friend claims one code for their e-mail, and their order with it credits the referrer without the link', async () => {
    const giftId = await giftReward(api, prod.appPool, {
      name: 'Welcome gift',
      eudTitle: '15% off your first order',
      discountType: 'percentage',
      discountValue: 15,
      rewardExpiryType: 'relative',
      rewardExpiryInDays: 30,
    });

    // The Points page offers the rewards the app issues as Shopify discounts, and saves the pick.
    const page = await answerOf(await adminFetch(prod.url, '/app/points.data?_routes=routes%2Fapp.points'));
    const loaded = (page.value as Record<string, any>)['routes/app.points'].data;
    expect(loaded.gifts).toEqual(expect.arrayContaining([{ id: giftId, name: 'Welcome gift' }]));
    const saved = await adminFetch(prod.url, '/app/points.data?_routes=routes%2Fapp.points', {
      contentType: 'application/json',
      text: JSON.stringify({ intent: 'save', language: 'en', draft: { ...loaded.draft, friendGift: giftId, onReferral: '100' } }),
    });
    expect((await answerOf(saved)).value).toMatchObject({ data: { ok: true, draft: { friendGift: giftId } } });
    expect((await api.get('/schema/points_setting/record')).body.data[0]).toMatchObject({
      referralRewardId: giftId,
      pointsOnReferral: 100,
    });
    await new Promise((r) => setTimeout(r, 2100));

    await paid(850, { ...SHOES_AND_HAT(850), customer: { id: 850, email: 'ada@example.com' } });
    const referrer = (await memberOf(850))! as { id: string; pointsBalance: number; referralCode?: string };
    const code = (await api.get(`/schema/account_user/record/${referrer.id}`)).body.data.referralCode as string;
    prod.admin.customers.set('gid://shopify/Customer/850', {
      firstName: 'Ada',
      lastName: null,
      email: 'ada@example.com',
      numberOfOrders: 1,
    });
    prod.admin.customers.set('gid://shopify/Customer/859', {
      firstName: 'Old',
      lastName: null,
      email: 'old@example.com',
      numberOfOrders: 3,
    });

    // The referrer's Rewards page names the gift.
    const rewardsPage = await fromExtension(
      `${prod.url}/customer-account/token`,
      await extensionToken({ sub: 'gid://shopify/Customer/850', iss: undefined, sid: undefined }),
    );
    expect(((await rewardsPage.json()) as { friendGift: string }).friendGift).toBe('15% off your first order');

    // What the link offers; nothing for a code nobody has.
    const offer = await prod.send(await referral({ code }));
    expect([offer.status, await offer.json()]).toEqual([200, { offer: { title: '15% off your first order' } }]);
    const unknown = await prod.send(await referral({ code: 'ZZZZ2222' }));
    expect([unknown.status, ((await unknown.json()) as any).error.code]).toEqual([404, 'not_found']);

    // A workflow of the shop starts from "Referral gift claimed" (sending the friend their code from the shop's e-mail app).
    expect((await prod.send(await flowLifecycleRequest('loyalty-referral-gift-claimed', true))).status).toBe(200);
    const claimedTriggers = () =>
      prod.admin.requests
        .filter((r) => r.operation === 'LoyaltyFlowTrigger' && r.variables.handle === 'loyalty-referral-gift-claimed')
        .map((r) => r.variables.payload);

    // Refused: a bad e-mail, a customer who has ordered, the referrer themselves, an unknown code; none makes a discount.
    const before = prod.admin.discounts.size;
    expect((await claim(code, 'not-an-email')).status).toBe(400);
    expect((await claim(code, 'OLD@example.com')).body.error.code).toBe('not_new_customer');
    expect((await claim(code, 'Ada@Example.com ')).body.error.code).toBe('own_referral');
    expect((await claim('ZZZZ2222', 'new@example.com')).status).toBe(404);
    const empty = await prod.send(await referral({}, 'not an object'));
    expect(empty.status).toBe(400);
    expect(prod.admin.discounts.size).toBe(before);

    // Racing claims of one e-mail (any case) get one code, made once: 15 % off, once, for anyone, ending with the reward's 30 days.
    const claims = await Promise.all(
      ['new@example.com', 'NEW@example.com', 'new@example.com', ' new@example.com'].map((e) => claim(code, e)),
    );
    expect(claims.map((c) => c.status)).toEqual([200, 200, 200, 200]);
    const gift = claims[0]!.body;
    expect(gift).toEqual({
      code: expect.stringMatching(/^FRIEND-[2-9A-HJ-NP-Z]{8}$/),
      title: '15% off your first order',
      applyUrl: `/discount/${gift.code}?redirect=%2Fcart`,
    });
    expect(new Set(claims.map((c) => c.body.code))).toEqual(new Set([gift.code]));
    expect(prod.admin.discounts.size).toBe(before + 1);
    const made = prod.admin.discounts.get(gift.code)!.input as Record<string, any>;
    expect(made).toMatchObject({ usageLimit: 1, appliesOncePerCustomer: true, context: { all: 'ALL' } });
    expect(made.customerGets.value).toEqual({ percentage: 0.15 });
    expect(Date.parse(made.endsAt) - Date.parse(made.startsAt)).toBe(30 * 86_400_000);
    expect((await claim(code, 'new@example.com')).body.code).toBe(gift.code);
    // The referrer's workflow hears of the claim once, with the friend's e-mail, code and gift.
    await until('Referral gift claimed sent', () => claimedTriggers().length > 0 || undefined);
    expect(claimedTriggers()).toEqual([
      { customer_id: 850, friend_email: 'new@example.com', gift_code: gift.code, gift_title: '15% off your first order' },
    ]);

    // A claim that died after reserving its code and before recording the discount: the next claim, later, makes that code.
    await prod.appPool.query(
      `insert into shopify_referral_gifts (shop, email, code, referrer_code, reward_id, title, claimed_at)
       values ($1, 'late@example.com', 'FRIEND-LATE2345', $2, $3, 'Gift', now() - interval '1 minute')`,
      [TEST_SHOP, code, giftId],
    );
    expect((await claim(code, 'late@example.com')).body.code).toBe('FRIEND-LATE2345');
    expect(prod.admin.discounts.has('FRIEND-LATE2345')).toBe(true);
    await until('its trigger sent', () => claimedTriggers().length === 2 || undefined);
    expect(claimedTriggers()[1]).toMatchObject({ friend_email: 'late@example.com', gift_code: 'FRIEND-LATE2345' });

    // The friend orders on another device: no link on the cart, only the code. The referrer earns.
    const now = new Date().toISOString();
    const friendOrder = {
      ...SHOES_AND_HAT(851),
      customer: { id: 851, email: 'new@example.com', created_at: now },
      discountCodes: [{ code: gift.code.toLowerCase(), amount: '11.25' }],
    };
    await paid(8510, friendOrder);
    expect((await pointsOf(850)).entries.filter((e) => e.linkedSchemaSlug === 'shopify_referral')).toEqual([
      expect.objectContaining({ points: 100, uniqueIdentifier: 'referral:8510' }),
    ]);
    expect((await api.get(`/schema/account_user/record/${(await memberOf(851))!.id}`)).body.data.referredById).toBe(referrer.id);

    // A friend who claimed a gift orders with neither its code nor the link: the e-mail they claimed with names the referrer.
    expect((await claim(code, 'other@example.com')).status).toBe(200);
    await paid(8520, { ...SHOES_AND_HAT(852), customer: { id: 852, email: 'Other@Example.com', created_at: now } });
    const referrals = (await pointsOf(850)).entries.filter((e) => e.linkedSchemaSlug === 'shopify_referral');
    expect(referrals.map((e) => e.uniqueIdentifier).sort()).toEqual(['referral:8510', 'referral:8520']);

    // The Points page says how many gifts were claimed lately and how many became orders (a redelivery counts once).
    await deliver('orders/paid', orderPayload(8510, friendOrder), 'order-8510-again');
    await new Promise((r) => setTimeout(r, 1000));
    const pointsPage = await (await adminLoad(prod.url, '/app/points')).text();
    expect(pointsPage).toContain('Last 30 days: 3 gifts claimed, 1 used in an order.');

    // The friend's e-mail is their personal data: exported with a data request, erased with a redaction.
    const requested = await prod.send(
      await webhookRequest('customers/data_request', {
        shop_domain: TEST_SHOP,
        customer: { id: 851, email: 'New@Example.com' },
        orders_requested: [],
        data_request: { id: 8510 },
      }),
    );
    expect(requested.status).toBe(200);
    const { rows: exported } = await prod.appPool.query<{ export: { app: Record<string, unknown[]> } }>(
      "select export from data_requests where shop = $1 and request_id = '8510'",
      [TEST_SHOP],
    );
    expect(exported[0]!.export.app.shopify_referral_gifts).toEqual([
      expect.objectContaining({ email: 'new@example.com', code: gift.code }),
    ]);
    expect(exported[0]!.export.app.flow_trigger_outbox).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          handle: 'loyalty-referral-gift-claimed',
          payload: expect.objectContaining({ friend_email: 'new@example.com' }),
        }),
      ]),
    );
    const redacted = await prod.send(
      await webhookRequest('customers/redact', {
        shop_domain: TEST_SHOP,
        customer: { id: 851, email: 'new@example.com' },
        orders_to_redact: [],
      }),
    );
    expect(redacted.status).toBe(200);
    const giftRows = await prod.appPool.query('select email from shopify_referral_gifts where shop = $1 order by email', [TEST_SHOP]);
    expect(giftRows.rows).toEqual([{ email: 'late@example.com' }, { email: 'other@example.com' }]);
    const triggerRows = await prod.appPool.query(
      "select payload->>'friend_email' as email from flow_trigger_outbox where handle = 'loyalty-referral-gift-claimed' order by 1",
    );
    expect(triggerRows.rows).toEqual([{ email: 'late@example.com' }, { email: 'other@example.com' }]);

    // Its delete says so first; taken away, the link offers nothing.
    const rewardPage = await answerOf(await adminFetch(prod.url, `/app/rewards/${giftId}.data?_routes=routes%2Fapp.rewards.%24id`));
    expect((rewardPage.value as Record<string, any>)['routes/app.rewards.$id'].data.uses).toMatchObject({ friendGift: true });
    expect((await api.delete(`/schema/reward/record/${giftId}`)).status).toBe(204);
    expect((await prod.send(await referral({ code }))).status).toBe(404);
    expect((await rates({ pointsOnReferral: 0 })).status).toBe(200);
  });

  it('racing claims of different e-mails through one link give the day’s gifts and no more', async () => {
    const giftId = await giftReward(api, prod.appPool, { eudTitle: '10 off your first order' });
    expect((await rates({ referralRewardId: giftId })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2100));
    await paid(860, { ...SHOES_AND_HAT(860), customer: { id: 860, email: 'lin@example.com' } });
    const code = (await api.get(`/schema/account_user/record/${(await memberOf(860))!.id}`)).body.data.referralCode as string;
    const before = prod.admin.discounts.size;
    const claims = await Promise.all(Array.from({ length: CLAIMS_PER_DAY + 6 }, (_, i) => claim(code, `friend${i}@example.com`)));
    expect(claims.filter((c) => c.status === 200)).toHaveLength(CLAIMS_PER_DAY);
    expect(claims.filter((c) => c.status !== 200).map((c) => [c.status, c.body.error.code])).toEqual(Array(6).fill([429, 'rate_limited']));
    expect(prod.admin.discounts.size).toBe(before + CLAIMS_PER_DAY);
    // Past its cap, the link costs the shop no Admin API call: a bot posting e-mails does not spend the app's Shopify budget.
    const asked = prod.admin.requests.length;
    expect((await claim(code, 'one-more@example.com')).status).toBe(429);
    // (The claims before queued their Flow triggers, which the worker may still be sending.)
    expect(prod.admin.requests.slice(asked).filter((r) => r.operation !== 'LoyaltyFlowTrigger')).toEqual([]);
    expect((await rates({ referralRewardId: null })).status).toBe(200);
  });

  it('a free product as the friend’s gift: its variant’s price off one item of it, as Shopify prices it at the claim', async () => {
    const variant = 'gid://shopify/ProductVariant/9101';
    const giftId = await giftReward(api, prod.appPool, { eudTitle: 'Free Tote bag', discountValue: 0 });
    const spec = { kind: 'free_product', minimum: null, collections: [], variant: { id: variant, title: 'Tote bag' }, currencyCode: 'EUR' };
    await prod.appPool.query('insert into reward_issuing (shop, reward_id, spec) values ($1, $2, $3)', [TEST_SHOP, giftId, spec]);
    expect((await rates({ referralRewardId: giftId })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 2100));
    await paid(870, { ...SHOES_AND_HAT(870), customer: { id: 870, email: 'kim@example.com' } });
    const code = (await api.get(`/schema/account_user/record/${(await memberOf(870))!.id}`)).body.data.referralCode as string;
    prod.admin.variantPrices.set(variant, '18.00');
    const claimed = await claim(code, 'tote@example.com');
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
    expect((prod.admin.discounts.get(claimed.body.code)!.input as Record<string, unknown>).customerGets).toEqual({
      value: { discountAmount: { amount: '18.00', appliesOnEachItem: false } },
      items: { products: { productVariantsToAdd: [variant] } },
    });
    // The shop deleted the product: no code, and the friend is told to try later rather than given one for nothing.
    prod.admin.variantPrices.delete(variant);
    const before = prod.admin.discounts.size;
    expect((await claim(code, 'late-tote@example.com')).status).toBe(503);
    expect(prod.admin.discounts.size).toBe(before);
    expect((await rates({ referralRewardId: null })).status).toBe(200);
  });

  it('anyone may ask what a link offers, but a flood of codes is answered 429 with Retry-After past the shop’s burst, sparing the core', async () => {
    const code = (i: number) =>
      `ZZ${String(i)
        .padStart(6, '0')
        .replace(/[01]/g, (d) => (d === '0' ? 'A' : 'B'))}`;
    const started = Date.now();
    const answers = await Promise.all(
      // Twice the burst and more: a host that took 15 s over them would still have refused some.
      Array.from({ length: 400 }, async (_, i) => {
        const res = await prod.send(await referral({ code: code(i) }));
        return { status: res.status, retryAfter: res.headers.get('retry-after'), body: (await res.json()) as { error: { code: string } } };
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    const looked = answers.filter((a) => a.status === 404);
    const limited = answers.filter((a) => a.status === 429);
    expect(looked.length + limited.length).toBe(400);
    // At most the burst of 100 (less what the tests before spent of it), and 20 a second after it.
    expect(looked.length).toBeLessThanOrEqual(100 + Math.ceil(seconds * 20));
    expect(limited[0]).toMatchObject({ retryAfter: expect.stringMatching(/^[1-9]$/), body: { error: { code: 'rate_limited' } } });
    await new Promise((r) => setTimeout(r, 1000));
    expect((await prod.send(await referral({ code: code(0) }))).status).toBe(404);
  });
});

describe('redeeming', () => {
  it('racing redemptions from the storefront spend only what the balance covers, each one Shopify discount stamped on its reward log', async () => {
    const reward = await api.post('/schema/reward/record', {
      name: 'Ten off',
      description: 'd',
      discountType: 'percentage',
      discountValue: 10,
      rewardExpiryType: 'no_expiry',
      handleCoupon: false,
      pointsCost: 100,
    });
    expect(reward.status, JSON.stringify(reward.body)).toBe(200);
    await prod.appPool.query('insert into shopify_discount_rewards (shop, reward_id) values ($1, $2)', [TEST_SHOP, reward.body.data.id]);
    await paid(71, SHOES_AND_HAT(807));
    const topUp = await api.post('/schema/point_entry/record', { ownedById: (await memberOf(807))!.id, points: 220, reason: 'adjusted' });
    expect(topUp.status).toBe(200);
    // The shopper's token, as the theme embed gets it through the app proxy.
    const proxied = await prod.send(
      await proxyRequest('/apps/loyalty/token', { logged_in_customer_id: '807', path_prefix: '/apps/loyalty' }),
    );
    const { accessToken } = (await proxied.json()) as { accessToken: string };
    const account = (await prod.shops.find(TEST_SHOP))!;
    const shopper = new Client(`${prod.core.url}/api/v1.0`, { 'x-enduser-access-token': accessToken, 'x-account-id': account.accountId });
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => shopper.post(`/schema/reward/record/${reward.body.data.id}/action/redeem`, {})),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 409, 409, 409, 409, 409]);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.error.code === 'insufficient_points')).toBe(true);
    expect((await pointsOf(807)).balance).toBe(0);
    const logs = answers.filter((a) => a.status === 200).map((a) => a.body.data.rewardLog.id as string);
    const codes = await until('every reward log stamped', async () => {
      const stamped = await Promise.all(
        logs.map(async (id) => (await api.get(`/schema/reward_log/record/${id}`)).body.data.couponCode as string | null),
      );
      return stamped.every(Boolean) ? stamped : null;
    });
    const mine = [...prod.admin.discounts.values()].filter(
      (d) => (d.input.context as any).customers?.add[0] === 'gid://shopify/Customer/807',
    );
    expect(mine.map((d) => d.input.code).sort()).toEqual([...codes].sort());
  });
});
