import { getJwt, TEST_SHOP_NAME } from '@shopify/shopify-api/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Client } from '../../core/test/support/harness';
import { RESOURCES } from '../app/admin/resources';
import { type AdminApp, startAdminApp } from './support/admin';
import { apiVocabulary, leaks, UUID } from './support/leaks';
import { orderPayload } from './support/orders';
import { creatorFor } from './support/programs';
import { SHOPIFY, TEST_SHOP, webhookRequest } from './support/stack';

/**
 * "A merchant never sees an id": every admin page (app/routes/app.*, lists and records, the generic
 * "All fields" pages included) of a shop with a program from a template, members with orders,
 * rewards, tiers, a leaderboard, notification rules and a data request, read in Chromium as the merchant
 * sees it (`innerText`, what was typed into inputs left aside), a record of each shape: no UUID, no
 * Shopify gid, no API field name, no snake_case enum value and no ISO date or period key. The pages
 * are read in English: what another language changes is the admin's texts, which `i18n.test.ts`
 * holds to the same rule in every language.
 */
let admin: AdminApp;
let api: Client;
/** The pages to read, each with the records it shows. */
const paths: string[] = [];
/** The core's camelCase field names and snake_case enum values, from its OpenAPI document. */
let apiWords: Set<string>;

const created = creatorFor(() => api);
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

/** A value a page shows: not null, not empty. */
const filled = (value: unknown) => value !== null && value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0);

beforeAll(async () => {
  admin = await startAdminApp(async (installed) => {
    const account = (await installed.app.shops.find(TEST_SHOP))!;
    api = installed.core.anon.with({ 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
    const document = await fetch(`${installed.core.url}/api/v1.0/openapi.json`);
    apiWords = apiVocabulary(await document.json());
    installed.admin.customers.set('gid://shopify/Customer/7001', { firstName: 'Marie', lastName: 'Dupont', email: 'marie@example.com' });
  });
  const { token } = await getJwt(TEST_SHOP_NAME, SHOPIFY.apiKey, SHOPIFY.apiSecretKey);
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${admin.server.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'user-agent': BROWSER },
      body: JSON.stringify(body),
    });
    expect(res.status, await res.clone().text()).toBe(200);
  };
  // Programs from templates (with their rewards, milestones, leaderboard and the widget's records).
  await post('/app/onboarding', { intent: 'create', template: 'monthly-spend', status: 'live', shopifyDiscounts: false });
  await post('/app/onboarding', { intent: 'create', template: 'welcome-mission', status: 'live', shopifyDiscounts: false });
  // Points and tiers: the points setting live, rewards with costs in points, tiers.
  await post('/app/onboarding', { intent: 'create', template: 'points-tiers', status: 'live', shopifyDiscounts: false });
  const reward = await created('/schema/reward/record', {
    name: 'Five off',
    description: 'Five off your next order',
    discountType: 'fixed_amount',
    discountValue: 5,
    rewardExpiryType: 'no_expiry',
    handleCoupon: true,
    handleCouponAutoGeneration: true,
    couponCodePrefix: 'FIVE-',
  });
  // A tier gives a reward on entering: the tiers page and editor name it.
  const [tier] = (await api.get('/schema/tier/record')).body.data;
  expect((await api.patch(`/schema/tier/record/${tier.id}`, { entryRewardId: reward.id })).status).toBe(200);
  // Held out of by 10 %: the dashboard's "What the program earns" compares its groups (CONTRACT §18).
  const streak = await created('/schema/streak/record', { name: 'Daily visit', status: 'live', maxFreezes: 2, holdoutPercent: 10 });
  await created('/schema/milestone/record', {
    name: 'First day',
    description: 'd',
    linkedSchemaSlug: 'streak',
    linkedSchemaRecordId: streak.id,
    milestoneTargetValue: 1,
    rewardId: reward.id,
    status: 'live',
  });
  await created('/schema/leaderboard/record', {
    name: 'Longest runs',
    status: 'live',
    linkedSchemaSlug: 'streak',
    linkedSchemaRecordId: streak.id,
    rankBy: 'current_run',
    displayName: 'first_name_initial',
  });
  // A board by points, whose generic page picks the points setting, a record without a name.
  const [points] = (await api.get('/schema/points_setting/record')).body.data;
  await created('/schema/leaderboard/record', { name: 'Top earners', linkedSchemaSlug: 'points_setting', linkedSchemaRecordId: points.id });
  const mail = await created('/schema/service_email/record', { name: 'Shop mail', replyToEmailAddress: 'help@shop.test', status: 'live' });
  const letter = await created('/schema/email_template/record', {
    name: 'Day done mail',
    status: 'live',
    sampleEventCode: 'streak_progress_completed',
    subject: 'Well done',
    htmlContent: '<p>Well done</p>',
  });
  await created('/schema/notification/record', {
    name: 'Daily mail',
    status: 'live',
    eventCodes: ['streak_progress_completed'],
    integrationProvider: 'service_email',
    integrationId: mail.id,
    templateId: letter.id,
  });
  await created('/schema/webhook/record', {
    name: 'Orders hook',
    endpointUrl: 'https://hooks.example.com/loyalty',
    eventCodes: ['streak_progress_completed'],
  });
  // Members: a Shopify customer with a visit and a paid order, and one from elsewhere.
  await created('/schema/streak_log/record', {
    streakId: streak.id,
    ownedBy: { externalId: 'gid://shopify/Customer/7001', firstName: 'Marie', lastName: 'Dupont', email: 'marie@example.com' },
    activityId: 'visit',
    activityAt: new Date().toISOString(),
    uniqueIdentifier: 'v1',
  });
  await created('/schema/streak_log/record', {
    streakId: streak.id,
    ownedBy: { externalId: 'crm-42', firstName: 'Bob', lastName: 'Builder', email: 'bob@builder.test' },
    activityId: 'visit',
    activityAt: new Date().toISOString(),
    uniqueIdentifier: 'v2',
  });
  const deliver = async (topic: string, payload: Record<string, unknown>) => {
    const request = await webhookRequest(topic, payload);
    const res = await fetch(`${admin.server.url}/webhooks/${topic}`, {
      method: 'POST',
      headers: request.headers,
      body: await request.text(),
    });
    expect(res.status).toBe(200);
  };
  await deliver(
    'orders/paid',
    orderPayload(9001, {
      customer: { id: 7001, first_name: 'Marie', last_name: 'Dupont', email: 'marie@example.com' },
      lines: [{ product: 10, quantity: 2, price: '60.00' }],
    }),
  );
  await deliver('customers/data_request', {
    shop_id: 1,
    shop_domain: TEST_SHOP,
    orders_requested: [9001],
    customer: { id: 7001, email: 'marie@example.com' },
    data_request: { id: 77 },
  });
  // The order is worked off by the app's loop; its page is read once it shows.
  const end = Date.now() + 20_000;
  while ((await admin.stack.app.pool.query("select 1 from shopify_webhooks where status = 'done'")).rowCount === 0) {
    if (Date.now() > end) throw new Error('the order was not worked off');
    await new Promise((r) => setTimeout(r, 100));
  }

  paths.push('/app', '/app/members', '/app/notifications', '/app/widget', '/app/data-requests');
  const members = await api.get('/schema/account_user/record', { limit: 100 });
  for (const member of members.body.data) paths.push(`/app/members/${member.id}`);
  for (const { slug } of RESOURCES) {
    paths.push(`/app/r/${slug}`, `/app/r/${slug}/new`);
    const listed = await api.get(`/schema/${slug}/record`, { limit: 100 });
    expect(listed.status, slug).toBe(200);
    // Records with the same fields filled show the same labels and the same kinds of value: the pages
    // of one of each are read (the others only add the time of loading them).
    const shapes = new Set<string>();
    for (const record of listed.body.data as Record<string, unknown>[]) {
      const shape = Object.keys(record)
        .filter((field) => filled(record[field]))
        .sort()
        .join();
      if (shapes.has(shape)) continue;
      shapes.add(shape);
      paths.push(`/app/r/${slug}/${record.id}`);
      if (['streak', 'challenge', 'mission'].includes(slug)) paths.push(`/app/programs/${slug}/${record.id}`);
      if (slug === 'reward') paths.push(`/app/rewards/${record.id}`);
      if (slug === 'leaderboard') paths.push(`/app/leaderboards/${record.id}`);
      if (slug === 'tier') paths.push(`/app/tiers/${record.id}`);
      if (slug === 'notification') paths.push(`/app/notifications/rules/${record.id}`);
      if (slug === 'email_template') paths.push(`/app/notifications/emails/${record.id}`);
    }
  }
  paths.push('/app/programs/streak/new', '/app/programs/challenge/new', '/app/programs/mission/new', '/app/rewards/new');
  paths.push('/app/leaderboards/new', '/app/help', '/app/widget/branding', '/app/points', '/app/tiers', '/app/tiers/new');
  paths.push('/app/notifications/rules/new', '/app/notifications/emails/new');
}, 180_000);

afterAll(() => admin?.close());

/** A page's visible text, without what inputs and text areas hold (the merchant's own typing). */
const visibleText = (page: Page) =>
  page.evaluate(() => {
    let text = document.body.innerText;
    for (const area of document.querySelectorAll('textarea')) if (area.value) text = text.split(area.value).join('');
    return text;
  });

/** Pages read side by side: each waits for its network to go quiet, which is most of a page's time. */
const TABS = 4;

describe('a merchant never sees an id, on pages that hydrate', () => {
  it('no id, gid or API word on any admin page', { timeout: 600_000 }, async () => {
    expect(paths.length).toBeGreaterThan(40);
    const found: Record<string, string[]> = {};
    const queue = [...paths];
    const tabs = await Promise.all(Array.from({ length: TABS }, () => admin.browser.tab()));
    await Promise.all(
      tabs.map(async (tab) => {
        for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
          // A page that does not open (or does not hydrate) names itself: the tab's own error says only what it waited for.
          await tab.open(`${path}${path.includes('?') ? '&' : '?'}locale=en`).catch((err: Error) => {
            throw new Error(`${path}: ${err.message}`);
          });
          const seen = leaks(await visibleText(tab.page), apiWords);
          const key = path.replace(UUID, ':id');
          if (seen.length) found[key] = [...new Set([...(found[key] ?? []), ...seen])];
        }
      }),
    );
    await Promise.all(tabs.map((tab) => tab.close()));
    expect(found).toEqual({});
  });
});
