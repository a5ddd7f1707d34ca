import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../core/test/support/harness';
import { resendRewardIssued } from '../app/admin/members.server';
import { accountClient } from '../app/core/client.server';
import { creatorFor, streakRewardingFirstDay } from './support/programs';
import { type AdminApp, startAdminApp } from './support/admin';
import { orderPayload, refundPayload } from './support/orders';
import { flowLifecycleRequest, proxyRequest, TEST_SHOP, webhookRequest } from './support/stack';

/**
 * The Members pages in Chromium (production build, real core, the Admin API stub): finding a member
 * by e-mail and by name, their page, granting streak freezes with the core's refusals shown,
 * resending a reward's code through the Reward issued Flow trigger, and what a customer's orders
 * earned and what refunds took back.
 */
let admin: AdminApp;
let api: Client;
let marie: { id: string };
let code: string;
let daily: { id: string };
let orderSpend: { id: string };

const created = creatorFor(() => api);

beforeAll(async () => {
  admin = await startAdminApp(async (installed) => {
    const account = (await installed.app.shops.find(TEST_SHOP))!;
    api = installed.core.anon.with({ 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
    const reward = await created('/schema/reward/record', {
      name: 'Ten off',
      description: 'd',
      discountType: 'percentage',
      discountValue: 10,
      rewardExpiryType: 'no_expiry',
      handleCoupon: true,
      handleCouponAutoGeneration: true,
      couponCodePrefix: 'WELCOME-',
    });
    daily = await created('/schema/streak/record', { name: 'Daily visit', status: 'live', maxFreezes: 2 });
    await created('/schema/milestone/record', {
      name: 'First day',
      description: 'd',
      linkedSchemaSlug: 'streak',
      linkedSchemaRecordId: daily.id,
      milestoneTargetValue: 1,
      rewardId: reward.id,
      status: 'live',
    });
    const weekly = await created('/schema/streak/record', { name: 'Weekly visit', status: 'live', aggregationPeriod: 'weekly' });
    // Fed by paid orders (CONTRACT §17): a reward at 50, held 14 days.
    orderSpend = await created('/schema/challenge/record', {
      name: 'Order spend',
      status: 'live',
      aggregationPeriod: 'monthly',
      aggregationMethod: 'sum',
      completionTargetValue: 500,
      rewardHoldDays: 14,
    });
    await created('/schema/milestone/record', {
      name: 'Fifty',
      description: 'd',
      linkedSchemaSlug: 'challenge',
      linkedSchemaRecordId: orderSpend.id,
      milestoneTargetValue: 50,
      rewardId: reward.id,
      status: 'live',
    });
    await installed.app.earningRules.set(TEST_SHOP, orderSpend.id, { kind: 'challenge', source: 'orders', collectionIds: [] });
    const challenge = await created('/schema/challenge/record', {
      name: 'Monthly spend',
      status: 'live',
      aggregationPeriod: 'monthly',
      aggregationMethod: 'sum',
      completionTargetValue: 100,
    });
    const mission = await created('/schema/mission/record', {
      name: 'Welcome mission',
      status: 'live',
      tasks: [
        { name: 'Sign up', activityId: 'sign_up', aggregationMethod: 'count', targetValue: 1 },
        { name: 'First order', activityId: 'order', aggregationMethod: 'count', targetValue: 1 },
      ],
    });
    const members = {
      marie: { externalId: 'gid://shopify/Customer/7001', firstName: 'Marie', lastName: 'Dupont', email: 'marie.dupont@example.com' },
      bob: { externalId: 'gid://shopify/Customer/7002', firstName: 'Bob', lastName: 'Builder', email: 'bob@builder.test' },
      curie: { externalId: 'crm-42', firstName: 'Marie', lastName: 'Curie', email: 'curie@lab.test' },
    };
    const now = DateTime.now().toUTC().toISO()!;
    const visit = await created('/schema/streak_log/record', {
      streakId: daily.id,
      ownedBy: members.marie,
      activityId: 'visit',
      activityAt: now,
      uniqueIdentifier: 'm1',
    });
    code = visit.achievedMilestoneRewardLog.couponCode;
    marie = { id: visit.ownedById };
    await created('/schema/streak_log/record', {
      streakId: weekly.id,
      ownedById: marie.id,
      activityId: 'visit',
      activityAt: now,
      uniqueIdentifier: 'm2',
    });
    await created('/schema/challenge_log/record', {
      challengeId: challenge.id,
      ownedById: marie.id,
      activityId: 'order',
      activityAt: now,
      activityValue: 40,
      uniqueIdentifier: 'm3',
    });
    await created('/schema/mission_log/record', {
      missionId: mission.id,
      ownedById: marie.id,
      activityId: 'sign_up',
      activityAt: now,
      uniqueIdentifier: 'm4',
    });
    // Bob also earns points from a milestone (CONTRACT §19), which the page shows as points, not as a code;
    // orders earn a point per unit spent, which a refund takes back.
    const setting = (await api.get('/schema/points_setting/record')).body.data[0];
    expect((await api.patch(`/schema/points_setting/record/${setting.id}`, { status: 'live', pointsPerCurrencyUnit: 1 })).status).toBe(200);
    const points = await created('/schema/reward/record', {
      name: 'Twenty-five points',
      description: 'd',
      rewardKind: 'points',
      pointsValue: 25,
      rewardExpiryType: 'no_expiry',
    });
    // The same points, once at once and once held out a return window (CONTRACT §17): not on the balance yet.
    for (const [i, streakBody] of [{ name: 'Reviews' }, { name: 'Held reviews', rewardHoldDays: 14 }].entries())
      await created('/schema/streak_log/record', {
        streakId: (await streakRewardingFirstDay(created, points, streakBody)).id,
        ownedBy: members.bob,
        activityId: 'review',
        activityAt: now,
        uniqueIdentifier: `b${i + 1}`,
      });
    for (const [i, member] of [members.bob, members.curie].entries())
      await created('/schema/streak_log/record', {
        streakId: daily.id,
        ownedBy: member,
        activityId: 'visit',
        activityAt: now,
        uniqueIdentifier: `o${i}`,
      });
  });
}, 120_000);

afterAll(() => admin?.close());

const page = () => admin.browser.page;
// A badge also says its tone to screen readers ("Info In progress"); rows are compared as seen.
const rowsOf = async (region: string) =>
  (await page().getByRole('region', { name: region }).locator('tbody tr').allInnerTexts()).map((r) =>
    r
      .replace(/\s+/g, ' ')
      .replace(/\b(Info|Success|Critical) (?=In progress|Completed|Broken|Failed|Live)/g, '')
      .trim(),
  );
const listedNames = async () => (await page().locator('.Polaris-IndexTable tbody tr').allInnerTexts()).map((r) => r.split('\t')[0]!.trim());

/** Records the App Bridge toasts the page shows from now on. */
async function recordToasts() {
  await page().evaluate(() => {
    const w = window as unknown as { toasts: string[]; shopify: { toast: { show(m: string): void } } };
    w.toasts = [];
    w.shopify.toast.show = (m: string) => void w.toasts.push(m);
  });
}
const toasts = () => page().evaluate(() => (window as unknown as { toasts: string[] }).toasts);

async function search(text: string) {
  await page().getByLabel('Find a member').fill(text);
  await page().getByRole('button', { name: 'Search' }).click();
  await page().locator(`[data-results-for="${text}"]`).waitFor({ state: 'attached' });
}

/** Flow's lifecycle callback, signed as Flow signs it, to the served app: a workflow now uses `handle`. */
async function flowUses(handle: string) {
  const request = await flowLifecycleRequest(handle, true);
  const res = await fetch(`${admin.server.url}/flow/trigger-lifecycle`, {
    method: 'POST',
    headers: request.headers,
    body: await request.text(),
  });
  expect(res.status).toBe(200);
}

/** A webhook as Shopify sends it to the served app, waited for until the worker has worked it off. */
async function deliver(topic: string, payload: Record<string, unknown>, subject: string) {
  const request = await webhookRequest(topic, payload);
  const res = await fetch(`${admin.server.url}/webhooks/${topic}`, {
    method: 'POST',
    headers: request.headers,
    body: await request.text(),
  });
  expect(res.status).toBe(200);
  const end = Date.now() + 20_000;
  while (
    (await admin.stack.app.pool.query('select 1 from shopify_webhooks where subject = $1 and status = $2', [subject, 'done'])).rowCount !==
    1
  ) {
    if (Date.now() > end) throw new Error(`${subject} not worked off`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const marieBuys = { customer: { id: 7001, first_name: 'Marie', last_name: 'Dupont', email: 'marie.dupont@example.com' } };

/** At the 1280 px the browser is opened with, the rewards table's last column (Resend) shows within its card, not clipped. */
async function resendWithinCard(region: string) {
  expect(page().viewportSize()?.width).toBe(1280);
  const card = (await page().getByRole('region', { name: region }).boundingBox())!;
  const button = (await page().getByRole('region', { name: region }).getByRole('button').first().boundingBox())!;
  expect(button.x).toBeGreaterThanOrEqual(card.x);
  expect(button.x + button.width).toBeLessThanOrEqual(card.x + card.width);
}

/** A Shopify customer's member, as the core has it. */
const coreMember = async (customerId: string) =>
  (
    await api.get('/schema/account_user/record', {
      filters: {
        operator: 'and',
        conditions: [{ fieldSlug: 'externalId', operator: 'equals', fieldValue: `gid://shopify/Customer/${customerId}` }],
      },
    })
  ).body.data[0];

describe('members in Chromium', () => {
  it('lists members newest first and finds one by e-mail, by name, by several words; a miss explains the search', async () => {
    await admin.browser.open('/app/members');
    expect(await listedNames()).toEqual(['Marie Curie', 'Bob Builder', 'Marie Dupont']);
    expect(await page().locator('body').innerText()).toContain('3 of 3 members');
    await admin.browser.shot('members');

    await search('marie.dupont@example.com');
    expect(await listedNames()).toEqual(['Marie Dupont']);
    await search('BUILDER');
    expect(await listedNames()).toEqual(['Bob Builder']);
    await search('marie');
    expect(await listedNames()).toEqual(['Marie Curie', 'Marie Dupont']);
    await search('Marie Dupont');
    expect(await listedNames()).toEqual(['Marie Dupont']);
    await admin.browser.shot('members-search');

    await search('nobody@nowhere');
    const text = await page().locator('body').innerText();
    expect(text).toContain('No member matches "nobody@nowhere"');
    expect(text).toContain('every word must match');
  });

  it('narrows the list to the paused members (those a tag leaves out) or those taking part, at once, with the search kept', async () => {
    const email = { operator: 'and', conditions: [{ fieldSlug: 'email', operator: 'equals', fieldValue: 'bob@builder.test' }] };
    const [bob] = (await api.get('/schema/account_user/record', { filters: email })).body.data;
    expect((await api.patch(`/schema/account_user/record/${bob.id}`, { status: 'paused' })).status).toBe(200);
    const pick = async (label: string, status: string, query = '') => {
      await page().getByLabel('Status').selectOption({ label });
      await page().locator(`[data-results-for="${query}"][data-results-status="${status}"]`).waitFor({ state: 'attached' });
    };
    try {
      await admin.browser.open('/app/members');
      await pick('Paused', 'paused');
      expect(await listedNames()).toEqual(['Bob Builder']);
      expect(await page().locator('body').innerText()).toMatch(/\b1 of 1 member(?!s)/);
      expect(new URL(page().url()).searchParams.get('status')).toBe('paused');
      await admin.browser.shot('members-paused');
      // Paused through the API, not for a tag of the Points page: the member's page says so, and where to undo it.
      await admin.browser.open(`/app/members/${bob.id}`);
      const banner = await page().locator('.Polaris-Banner').innerText();
      expect(banner).toContain('Paused');
      expect(banner).toContain('they were paused outside this app, through the loyalty API');
      await admin.browser.open('/app/members');
      await pick('Live', 'live');
      expect(await listedNames()).toEqual(['Marie Curie', 'Marie Dupont']);
      // A search keeps the status picked, and a status picked keeps the search typed.
      await search('marie');
      await page().locator('[data-results-for="marie"][data-results-status="live"]').waitFor({ state: 'attached' });
      await pick('Paused', 'paused', 'marie');
      expect(await listedNames()).toEqual([]);
      expect(await page().locator('body').innerText()).toContain('No member matches "marie"');
      await pick('All', '', 'marie');
      expect(await listedNames()).toEqual(['Marie Curie', 'Marie Dupont']);
    } finally {
      expect((await api.patch(`/schema/account_user/record/${bob.id}`, { status: 'live' })).status).toBe(200);
    }
  });

  it("a member's page: progress on every program, freezes, and reward logs with their codes", async () => {
    await search('dupont');
    await page().getByRole('link', { name: 'Marie Dupont' }).click();
    await page().waitForURL(new RegExp(`/app/members/${marie.id}`));
    await page().getByRole('region', { name: 'Rewards and codes' }).waitFor();
    expect(await rowsOf('Streaks')).toEqual([
      // The deadline is the member's local midnight (Europe/Paris, the shop's zone).
      expect.stringMatching(
        /^Weekly visit In progress 1 0 available, 0 used \(at most 0\) [A-Z][a-z]{2} \d{1,2}, \d{4}, 12:00\sAM Freezes are off for this streak\. Turn them on in the program editor\.$/,
      ),
      expect.stringMatching(
        /^Daily visit In progress 1 0 available, 0 used \(at most 2\) [A-Z][a-z]{2} \d{1,2}, \d{4}, 12:00\sAM Freezes to grant Grant$/,
      ),
    ]);
    expect(await rowsOf('Challenges')).toEqual([expect.stringMatching(/^Monthly spend [A-Z][a-z]+ \d{4} In progress 40 \/ 100$/)]);
    expect(await rowsOf('Missions')).toEqual([expect.stringMatching(/^Welcome mission In progress 1 \/ 2 /)]);
    // The member's time zone as the admin's language names it, not its IANA id.
    const profile = await page().locator('body').innerText();
    expect(profile).toMatch(/Time zone\s+Central European Time/);
    expect(profile).not.toContain('Europe/Paris');
    expect(code).toMatch(/^WELCOME-/);
    expect(await rowsOf('Rewards and codes')).toEqual([
      expect.stringMatching(new RegExp(`^Ten off Streak (Success )?Issued ${code} .* Never Resend code$`)),
    ]);
    await admin.browser.shot('member');
  });

  it("grants freezes up to the streak's maximum, offers no grant the core would refuse or ignore, and shows the core's refusals in words", async () => {
    await admin.browser.open(`/app/members/${marie.id}`);
    await recordToasts();
    const streaks = page().getByRole('region', { name: 'Streaks' });
    const weeklyRow = streaks.locator('tbody tr', { hasText: 'Weekly visit' });
    await weeklyRow.getByText('Freezes are off for this streak. Turn them on in the program editor.').waitFor();
    expect(await weeklyRow.getByRole('button').count()).toBe(0);

    const dailyRow = streaks.locator('tbody tr', { hasText: 'Daily visit' });
    // Over the core's limit of ten at once.
    await dailyRow.getByLabel('Freezes to grant').fill('11');
    await dailyRow.getByRole('button', { name: 'Grant: Daily visit' }).click();
    await dailyRow.getByText('Could not grant freezes: Enter a whole number from 1 to 10.').waitFor();

    await dailyRow.getByLabel('Freezes to grant').fill('2');
    await dailyRow.getByRole('button', { name: 'Grant: Daily visit' }).click();
    await dailyRow.getByText('2 available, 0 used (at most 2)').waitFor();
    expect(await toasts()).toEqual(['Granted: 2 freezes available now.']);
    const progress = await api.get('/schema/streak_progress/record', {
      filters: {
        operator: 'and',
        conditions: [
          { fieldSlug: 'ownedById', operator: 'equals', fieldValue: marie.id },
          { fieldSlug: 'streakId', operator: 'equals', fieldValue: daily.id },
        ],
      },
    });
    expect(progress.body.data[0].freezesAvailable).toBe(2);
    // At the streak's maximum a grant would change nothing: the row says so instead of offering one.
    await dailyRow.getByText('Already at the most this streak allows (2).').waitFor();
    expect(await dailyRow.getByRole('button').count()).toBe(0);
    await admin.browser.shot('member-freezes');

    // Freezes turned off after the page was read: the core refuses, and the row then says why.
    expect((await api.patch(`/schema/streak/record/${daily.id}`, { maxFreezes: 3 })).status).toBe(200);
    await admin.browser.open(`/app/members/${marie.id}`);
    await recordToasts();
    expect((await api.patch(`/schema/streak/record/${daily.id}`, { maxFreezes: 0 })).status).toBe(200);
    await dailyRow.getByRole('button', { name: 'Grant: Daily visit' }).click();
    // The refusal shows on the form, then the page reads the streak again and the row says why instead.
    await expect.poll(() => dailyRow.getByRole('button').count()).toBe(0);
    await dailyRow.getByText('Freezes are off for this streak. Turn them on in the program editor.', { exact: true }).waitFor();
    expect(await toasts()).toEqual([]);
    expect((await api.patch(`/schema/streak/record/${daily.id}`, { maxFreezes: 2 })).status).toBe(200);
  });

  it('adjusts points with a note, shown in the history; taking off more than the balance says so and changes nothing (CONTRACT §19)', async () => {
    await admin.browser.open(`/app/members/${marie.id}`);
    await recordToasts();
    const card = page().getByRole('region', { name: 'Adjust points' });
    await card.getByText('Balance: 0').waitFor();
    await card.getByLabel('Points to add').fill('150');
    await card.getByLabel('Note').fill('Sorry for the late parcel');
    await card.getByRole('button', { name: 'Adjust points' }).click();
    await card.getByText('Balance: 150').waitFor();
    expect(await toasts()).toEqual(['Adjusted: the balance is 150 now.']);
    const history = page().getByRole('region', { name: 'Points history' });
    await history.locator('tbody tr', { hasText: 'Sorry for the late parcel' }).getByText('+150').waitFor();
    await history.locator('tbody tr', { hasText: 'Adjusted' }).waitFor();

    // Each refusal on the field it is about, which then reads as invalid and names it.
    const pointsField = card.getByLabel('Points to add');
    const noteField = card.getByLabel('Note');
    const describedBy = async (field: typeof pointsField) =>
      page().evaluate(
        (ids) =>
          ids
            .split(' ')
            .map((id) => document.getElementById(id)?.textContent ?? '')
            .join(' '),
        (await field.getAttribute('aria-describedby')) ?? '',
      );
    await pointsField.fill('-500');
    await card.getByRole('button', { name: 'Adjust points' }).click();
    await card.getByText('The balance is smaller than the points to take off.').waitFor();
    expect(await pointsField.getAttribute('aria-invalid')).toBe('true');
    expect(await describedBy(pointsField)).toContain('The balance is smaller than the points to take off.');
    await pointsField.fill('0');
    await card.getByRole('button', { name: 'Adjust points' }).click();
    await card.getByText('Enter a whole number other than 0.').waitFor();
    await pointsField.fill('99999999999999');
    await card.getByRole('button', { name: 'Adjust points' }).click();
    await card.getByText('Enter at most 1,000,000 points either way.').waitFor();
    await pointsField.fill('5');
    await noteField.fill('n'.repeat(257));
    await card.getByRole('button', { name: 'Adjust points' }).click();
    await card.getByText('Use at most 256 characters.').waitFor();
    expect(await noteField.getAttribute('aria-invalid')).toBe('true');
    expect(await pointsField.getAttribute('aria-invalid')).not.toBe('true');
    expect(await describedBy(noteField)).toContain('Use at most 256 characters.');
    const member = await api.get(`/schema/account_user/record/${marie.id}`);
    expect(member.body.data.pointsBalance).toBe(150);
    expect(await toasts()).toHaveLength(1);
    // The balance a success names reads as the card's does.
    await noteField.fill('Goodwill');
    await pointsField.fill('1000');
    await card.getByRole('button', { name: 'Adjust points' }).click();
    await card.getByText('Balance: 1,150').waitFor();
    expect(await toasts()).toEqual(['Adjusted: the balance is 150 now.', 'Adjusted: the balance is 1,150 now.']);
    await admin.browser.shot('member-points');
  });

  it('corrects a customer’s birthday on their page, and the customer gets the birthday points on it', async () => {
    const [setting] = (await api.get('/schema/points_setting/record')).body.data;
    const before = { status: setting.status, pointsOnBirthday: setting.pointsOnBirthday };
    expect((await api.patch(`/schema/points_setting/record/${setting.id}`, { status: 'live', pointsOnBirthday: 40 })).status).toBe(200);
    // The customer gave the wrong day themselves, once; the shop is the one to change it.
    expect((await api.patch(`/schema/account_user/record/${marie.id}`, { birthday: '01-31' })).status).toBe(200);
    try {
      await admin.browser.open(`/app/members/${marie.id}`);
      await recordToasts();
      const profile = page().getByRole('main');
      await profile.getByText('January 31').waitFor();
      await profile.getByRole('button', { name: 'Change' }).click();
      // Today, in the member's zone (the shop's, Europe/Paris): their birthday is today.
      const today = DateTime.now().setZone('Europe/Paris');
      await profile.getByLabel('Month').selectOption({ label: today.setLocale('en').toFormat('LLLL') });
      await profile.getByLabel('Day').selectOption(String(today.day));
      await profile.getByRole('button', { name: 'Save birthday' }).click();
      await profile.getByText(today.setLocale('en').toFormat('LLLL d')).waitFor();
      expect(await toasts()).toEqual(['Birthday saved.']);
      expect((await api.get(`/schema/account_user/record/${marie.id}`)).body.data.birthday).toBe(today.toFormat('MM-dd'));
      // The core's sweep comes by: the points are the customer's, named on their page.
      const { runBirthdays } = await import('../../core/src/scheduler/birthdays');
      expect(await runBirthdays(admin.stack.core.running.services.records, new Date(), 30_000)).toMatchObject({ given: 1 });
      await admin.browser.open(`/app/members/${marie.id}`);
      const history = page().getByRole('region', { name: 'Points history' });
      await history.locator('tbody tr', { hasText: 'Birthday' }).getByText('+40').waitFor();
      await admin.browser.shot('member-birthday');
    } finally {
      expect((await api.patch(`/schema/points_setting/record/${setting.id}`, before)).status).toBe(200);
    }
  });

  it('names points for a social follow by the network the customer followed, and says the networks followed', async () => {
    const [setting] = (await api.get('/schema/points_setting/record')).body.data;
    const before = { status: setting.status, pointsOnFollow: setting.pointsOnFollow, tiktokUrl: setting.tiktokUrl };
    const live = { status: 'live', pointsOnFollow: 15, tiktokUrl: 'https://www.tiktok.com/@shop' };
    expect((await api.patch(`/schema/points_setting/record/${setting.id}`, live)).status).toBe(200);
    try {
      const followed = await api.post(`/schema/points_setting/record/${setting.id}/action/follow`, {
        network: 'tiktok',
        ownedById: marie.id,
      });
      expect(followed.status).toBe(200);
      await admin.browser.open(`/app/members/${marie.id}`);
      const history = page().getByRole('region', { name: 'Points history' });
      await history.locator('tbody tr', { hasText: 'Following the shop on TikTok' }).getByText('+15').waitFor();
      // The points card says which profiles the customer followed, for a question about missing points.
      await page().getByRole('region', { name: 'Adjust points' }).getByText('Followed for points on TikTok').waitFor();
    } finally {
      expect((await api.patch(`/schema/points_setting/record/${setting.id}`, before)).status).toBe(200);
    }
  });

  it('lists each member’s points and tier beside their name, in the admin’s language', async () => {
    const gold = await api.post('/schema/tier/record', { name: 'Gold', status: 'live', pointsThreshold: 1000, earnMultiplier: 1 });
    expect(gold.status).toBe(200);
    // Earned points count towards a tier, and the entry places the member in it.
    expect((await api.post('/schema/point_entry/record', { ownedById: marie.id, points: 1000, reason: 'earned' })).status).toBe(200);
    const { pointsBalance } = (await api.get(`/schema/account_user/record/${marie.id}`)).body.data as { pointsBalance: number };
    const row = () => page().locator('.Polaris-IndexTable tbody tr', { hasText: 'Marie Dupont' });
    await admin.browser.open('/app/members');
    await row().waitFor();
    expect((await row().innerText()).split('\t').map((cell) => cell.trim())).toEqual(
      expect.arrayContaining(['Marie Dupont', new Intl.NumberFormat('en').format(pointsBalance), 'Gold']),
    );
    await admin.browser.open('/app/members?locale=de');
    await row().waitFor();
    expect(await row().innerText()).toContain(new Intl.NumberFormat('de').format(pointsBalance));
  });

  it('on a phone (375 px) lists each member, and on their page each program, reward and entry, as one stacked item, nothing scrolled sideways', async () => {
    const viewport = page().viewportSize()!;
    await page().setViewportSize({ width: 375, height: 800 });
    try {
      await admin.browser.open('/app/members');
      // A condensed table is a list: one item a member.
      const item = page().locator('.Polaris-IndexTable ul li', { hasText: 'Marie Dupont' });
      await item.waitFor();
      const text = await item.innerText();
      expect(text).toContain('Marie Dupont');
      expect(text).toMatch(/Points\s+[\d,]+/);
      expect(text).toContain('Gold');
      // The name still opens the member's page.
      expect(await item.getByRole('link', { name: 'Marie Dupont' }).getAttribute('href')).toMatch(/\/app\/members\/[0-9a-f-]{36}/);
      const widths = await page().evaluate(() => {
        const list = document.querySelector<HTMLElement>('.Polaris-IndexTable')!;
        return { scroll: list.scrollWidth, client: list.clientWidth, page: document.documentElement.scrollWidth };
      });
      expect(widths.scroll).toBeLessThanOrEqual(widths.client);
      expect(widths.page).toBeLessThanOrEqual(375);
      await admin.browser.shot('members-phone');

      // Their page: each table a list of stacked items, each value under its heading, the code and Resend in reach.
      await admin.browser.open(`/app/members/${marie.id}`);
      const rewards = page().getByRole('region', { name: 'Rewards and codes' });
      await rewards.waitFor();
      const reward = rewards.locator('ul li', { hasText: 'Ten off' });
      expect((await reward.innerText()).replace(/\s+/g, ' ')).toMatch(
        new RegExp(`^Ten off Earned in Streak Status (Success )?Issued Code ${code} Issued .* Expires Never Resend code$`),
      );
      // The button works from the stacked item: no Flow workflow uses the trigger yet, which it says there.
      await reward.getByRole('button', { name: `Resend code: ${code}` }).click();
      await reward.getByText(/No Flow workflow of your shop uses the "Reward issued" trigger/).waitFor();
      expect(
        (await page().getByRole('region', { name: 'Streaks' }).locator('ul li', { hasText: 'Daily visit' }).innerText()).replace(
          /\s+/g,
          ' ',
        ),
      ).toMatch(/^Daily visit Status (Info )?In progress Current run \d+ Freezes \d+ available/);
      expect(await page().getByRole('region', { name: 'Points history' }).locator('ul li').first().innerText()).toMatch(/Points\s+[+−-]\d/);
      const overflowing = await page().evaluate(
        () => [...document.querySelectorAll<HTMLElement>('.Polaris-IndexTable')].filter((t) => t.scrollWidth > t.clientWidth).length,
      );
      expect(overflowing).toBe(0);
      expect(await page().evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await admin.browser.shot('member-phone');
    } finally {
      await page().setViewportSize(viewport);
    }
  });

  it('resends a code by firing Reward issued again, once a Flow workflow uses the trigger', async () => {
    await admin.browser.open(`/app/members/${marie.id}`);
    await recordToasts();
    const sent = () =>
      admin.stack.admin.requests.filter((r) => r.operation === 'LoyaltyFlowTrigger' && r.variables.handle === 'loyalty-reward-issued');
    const rewardRow = page().getByRole('region', { name: 'Rewards and codes' }).locator('tbody tr', { hasText: code });
    await rewardRow.getByRole('button', { name: `Resend code: ${code}` }).click();
    await rewardRow.getByText(/No Flow workflow of your shop uses the "Reward issued" trigger/).waitFor();
    expect(sent()).toEqual([]);

    await flowUses('loyalty-reward-issued');
    await rewardRow.getByRole('button', { name: `Resend code: ${code}` }).click();
    await page().waitForFunction(() => (window as unknown as { toasts: string[] }).toasts.length === 1);
    expect(await toasts()).toEqual([`Sent "Reward issued" to Flow again with code ${code}.`]);
    expect(sent().map((r) => r.variables.payload)).toEqual([
      {
        customer_id: 7001,
        reward_log_id: expect.any(String),
        reward_title: expect.any(String),
        discount_type: 'percentage',
        discount_value: 10,
        coupon_code: code,
        expires_at: '',
      },
    ]);
    await admin.browser.shot('member-resend');
  });

  it('a reward of points says what it added to the balance, and has no code to resend', async () => {
    await admin.browser.open('/app/members?q=builder');
    await page().getByRole('link', { name: 'Bob Builder' }).click();
    await page().getByRole('region', { name: 'Rewards and codes' }).waitFor();
    expect(await rowsOf('Rewards and codes')).toEqual([
      expect.stringMatching(/^Ten off Streak (Success )?Issued WELCOME-\S+ .* Never Resend code$/),
      expect.stringMatching(/^Twenty-five points Streak (Attention )?Held until .* 25 points, added when it is issued .* Never$/),
      expect.stringMatching(/^Twenty-five points Streak (Success )?Issued 25 points added to the balance .* Never$/),
    ]);
    await page().getByRole('region', { name: 'Adjust points' }).getByText('Balance: 25').waitFor();
    expect(await rowsOf('Points history')).toEqual([expect.stringMatching(/ Earned Twenty-five points \+25$/)]);
  });

  it('the delete of a reward says its held rewards will not be given, before anything is deleted (CONTRACT §17)', async () => {
    const rewards: { id: string; name: string }[] = (await api.get('/schema/reward/record')).body.data;
    const points = rewards.find((r) => r.name === 'Twenty-five points')!;
    const held = async () =>
      (
        await api.get('/schema/reward_log/record', {
          filters: {
            operator: 'and',
            conditions: [
              { fieldSlug: 'rewardId', operator: 'equals', fieldValue: points.id },
              { fieldSlug: 'rewardLogStatus', operator: 'equals', fieldValue: 'pending' },
            ],
          },
        })
      ).body.data.length;
    expect(await held()).toBe(1);
    for (const [locale, words] of [
      [
        'en',
        ['2 milestones or missions give it: they will give nothing then.', '1 earned reward is on hold: it will be cancelled, not given.'],
      ],
      ['de', ['Eine verdiente Prämie wird noch zurückgehalten: Sie wird storniert, nicht ausgegeben.']],
    ] as const) {
      await admin.browser.open(`/app/rewards/${points.id}?locale=${locale}`);
      await page()
        .getByRole('button', { name: locale === 'en' ? 'Delete' : 'Löschen' })
        .first()
        .click();
      for (const said of words) await page().getByRole('dialog').getByText(said).waitFor();
      await page()
        .getByRole('dialog')
        .getByRole('button', { name: locale === 'en' ? 'Cancel' : 'Abbrechen' })
        .click();
    }
    expect((await api.get(`/schema/reward/record/${points.id}`)).status).toBe(200);
    expect(await held()).toBe(1);
  });

  it('a member who is not a Shopify customer has nothing to resend to Flow', async () => {
    await admin.browser.open('/app/members?q=curie');
    await page().getByRole('link', { name: 'Marie Curie' }).click();
    const rewardRow = page().getByRole('region', { name: 'Rewards and codes' }).locator('tbody tr');
    await rewardRow.getByRole('button', { name: /Resend code/ }).click();
    await rewardRow.getByText(/not a Shopify customer/).waitFor();
  });

  it('a customer’s orders: what each earned, what a refund took back, the reward it revoked and the one held since', async () => {
    // 2 shoes at 25 (5 off) and a hat at 30: 75 reaches the milestone at 50; the hat's refund takes 30 back, below it.
    await deliver(
      'orders/paid',
      orderPayload(9001, {
        ...marieBuys,
        lines: [
          { product: 10, quantity: 2, price: '25.00', discount: '5.00' },
          { product: 20, quantity: 1, price: '30.00' },
        ],
      }),
      'order:9001',
    );
    await deliver('refunds/create', refundPayload(91, 9001, [{ position: 2, quantity: 1 }]), 'refund:91');
    await deliver('orders/paid', orderPayload(9002, { ...marieBuys, lines: [{ product: 20, quantity: 2, price: '40.00' }] }), 'order:9002');

    await admin.browser.open(`/app/members/${marie.id}`);
    const orders = page().getByRole('region', { name: 'Orders and what they earned' });
    const first = orders.getByRole('region', { name: '#9001' });
    await first.getByText('Partly refunded').waitFor();
    const text = (region: typeof first) => region.innerText().then((t) => t.replace(/\s+/g, ' '));
    expect(await text(first)).toMatch(/#9001 · [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M · \$75\.00/);
    // An order's spend is money, in the order's currency and the admin's language.
    expect(await text(first)).toContain('Order spend (Challenge): +$75.00');
    expect(await text(first)).toContain('−$30.00 by a refund');
    expect(await text(first)).toMatch(/Reward “Ten off”: .*Revoked: a refund of order #9001/);
    const second = orders.getByRole('region', { name: '#9002' });
    expect(await text(second)).toContain('Order spend (Challenge): +$80.00');
    expect(await text(second)).toMatch(/Reward “Ten off”: .*Held until [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    expect(await rowsOf('Rewards and codes')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Ten off Challenge .*Held until/),
        expect.stringMatching(/^Ten off Challenge .*Revoked/),
      ]),
    );
    // The points history names the order each entry came from, and what the refund's entry took back from.
    expect(await rowsOf('Points history')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/ Earned Order #9001 \+\d+$/),
        expect.stringMatching(/ Taken back Order #9001 [−-]\d+ A refund$/),
        expect.stringMatching(/ Earned Order #9002 \+\d+$/),
      ]),
    );
    await admin.browser.shot('member-orders');
    // In German: the app's own words on what was taken back, without the refund's id.
    await admin.browser.open(`/app/members/${marie.id}?locale=de`);
    const ordersDe = page().getByRole('region', { name: 'Bestellungen und was sie gebracht haben' });
    await ordersDe.getByRole('region', { name: '#9001' }).waitFor();
    expect(await text(ordersDe.getByRole('region', { name: '#9001' }))).toContain('Widerrufen: Erstattung zu Bestellung #9001');
    expect(await text(ordersDe.getByRole('region', { name: '#9001' }))).toMatch(/\+75,00\s\$/);
    // The challenge's progress in German numbers: the two orders' 80 + 75 − 30.
    expect(await rowsOf('Challenges')).toEqual(expect.arrayContaining([expect.stringMatching(/^Order spend .* 125 \/ /)]));
    expect(await rowsOf('Punkteverlauf')).toEqual(
      expect.arrayContaining([expect.stringMatching(/ Bestellung #9001 [−-]\d+ Eine Erstattung$/)]),
    );
  });

  it('offers no resend for a held or revoked reward, and refuses one asked for (CONTRACT §17)', async () => {
    // A challenge without a hold issues its code at once; the order's refund then revokes it, code and all.
    // Its reward's long name is one a merchant may well give: the table still fits its card.
    const longNamed = await created('/schema/reward/record', {
      name: '10% off your next order of shoes, socks or hats, shipping included',
      description: 'd',
      discountType: 'percentage',
      discountValue: 10,
      rewardExpiryType: 'no_expiry',
      handleCoupon: true,
      handleCouponAutoGeneration: true,
      couponCodePrefix: 'QUICK-',
    });
    const quick = await created('/schema/challenge/record', {
      name: 'Quick spend',
      status: 'live',
      aggregationPeriod: 'monthly',
      aggregationMethod: 'sum',
      completionTargetValue: 1000,
    });
    await created('/schema/milestone/record', {
      name: 'Ten',
      description: 'd',
      linkedSchemaSlug: 'challenge',
      linkedSchemaRecordId: quick.id,
      milestoneTargetValue: 10,
      rewardId: longNamed.id,
      status: 'live',
    });
    await admin.stack.app.earningRules.set(TEST_SHOP, quick.id, { kind: 'challenge', source: 'orders', collectionIds: [] });
    await deliver('orders/paid', orderPayload(9003, { ...marieBuys, lines: [{ product: 30, quantity: 1, price: '20.00' }] }), 'order:9003');
    await deliver('refunds/create', refundPayload(93, 9003, [{ position: 1, quantity: 1 }]), 'refund:93');
    // Besides, the orders above left a reward of the order challenge held; Flow uses the trigger since the resend.
    const logs: { id: string; ownedById: string; rewardLogStatus: string; couponCode: string | null }[] = (
      await api.get('/schema/reward_log/record')
    ).body.data;
    const held = logs.find((l) => l.ownedById === marie.id && l.rewardLogStatus === 'pending')!;
    const revoked = logs.find((l) => l.ownedById === marie.id && l.rewardLogStatus === 'revoked' && l.couponCode)!;
    expect(held && revoked).toBeTruthy();
    await admin.browser.open(`/app/members/${marie.id}`);
    const rewards = page().getByRole('region', { name: 'Rewards and codes' });
    const revokedRow = rewards.locator('tbody tr', { hasText: revoked.couponCode! });
    await revokedRow.getByText('Revoked').waitFor();
    expect(await revokedRow.getByRole('button', { name: /Resend/ }).count()).toBe(0);
    expect(
      await rewards
        .locator('tbody tr', { hasText: 'Held until' })
        .getByRole('button', { name: /Resend/ })
        .count(),
    ).toBe(0);
    // Only the issued code is offered.
    expect(await rewards.getByRole('button', { name: /Resend/ }).count()).toBe(1);
    await resendWithinCard('Rewards and codes');
    await admin.browser.shot('member-rewards');
    await admin.browser.open(`/app/members/${marie.id}?locale=de`);
    await page().getByRole('region', { name: 'Prämien und Codes' }).getByRole('button').first().waitFor();
    await resendWithinCard('Prämien und Codes');

    const account = (await admin.stack.app.shops.find(TEST_SHOP))!;
    const deps = {
      outbox: admin.stack.app.loop,
      api: accountClient(admin.stack.core.url, account),
      admin: { graphql: () => Promise.reject(new Error('Shopify is not asked for a reward that is not issued')) },
      shop: TEST_SHOP,
    };
    expect(await resendRewardIssued(deps, marie.id, held.id)).toEqual({ ok: false, reason: 'held' });
    expect(await resendRewardIssued(deps, marie.id, revoked.id)).toEqual({ ok: false, reason: 'revoked' });
  });

  it('says when a member’s points expire where they do, as their rewards page does', async () => {
    const [setting] = (await api.get('/schema/points_setting/record')).body.data;
    const { pointsBalance, lastPointEntryAt } = (await api.get(`/schema/account_user/record/${marie.id}`)).body.data;
    expect(pointsBalance).toBeGreaterThan(0);
    const card = () => page().getByRole('region', { name: 'Adjust points' });
    await admin.browser.open(`/app/members/${marie.id}`);
    expect(await card().innerText()).not.toContain('expire');
    expect((await api.patch(`/schema/points_setting/record/${setting.id}`, { expiryMonthsOfInactivity: 12 })).status).toBe(200);
    try {
      await admin.browser.open(`/app/members/${marie.id}`);
      const year = new Date(lastPointEntryAt).getUTCFullYear() + 1;
      expect(await card().innerText()).toMatch(
        new RegExp(`They expire on [A-Z][a-z]{2} \\d{1,2}, ${year} unless the member earns or redeems some before then\\.`),
      );
    } finally {
      await api.patch(`/schema/points_setting/record/${setting.id}`, { expiryMonthsOfInactivity: 0 });
    }
  });

  it('names progress on a deleted program by its kind and shows no goal for it, in both languages', async () => {
    // Marie Curie's visits and order count in a streak, a challenge and a mission deleted since.
    const streak = await created('/schema/streak/record', { name: 'Gone streak', status: 'live' });
    const challenge = await created('/schema/challenge/record', {
      name: 'Gone challenge',
      status: 'live',
      aggregationPeriod: 'monthly',
      aggregationMethod: 'sum',
      completionTargetValue: 100,
    });
    const mission = await created('/schema/mission/record', {
      name: 'Gone mission',
      status: 'live',
      tasks: [
        { name: 'Sign up', activityId: 'sign_up', aggregationMethod: 'count', targetValue: 1 },
        { name: 'First order', activityId: 'order', aggregationMethod: 'count', targetValue: 1 },
      ],
    });
    const ownedBy = { externalId: 'crm-42' };
    const activityAt = DateTime.now().toUTC().toISO()!;
    const { ownedById } = await created('/schema/streak_log/record', {
      streakId: streak.id,
      ownedBy,
      activityId: 'visit',
      activityAt,
      uniqueIdentifier: 'g1',
    });
    await created('/schema/challenge_log/record', {
      challengeId: challenge.id,
      ownedById,
      activityId: 'order',
      activityAt,
      activityValue: 40,
      uniqueIdentifier: 'g2',
    });
    await created('/schema/mission_log/record', {
      missionId: mission.id,
      ownedById,
      activityId: 'sign_up',
      activityAt,
      uniqueIdentifier: 'g3',
    });
    for (const [slug, id] of [
      ['streak', streak.id],
      ['challenge', challenge.id],
      ['mission', mission.id],
    ])
      expect((await api.delete(`/schema/${slug}/record/${id}`)).status).toBe(204);

    await admin.browser.open(`/app/members/${ownedById}`);
    await page().getByRole('region', { name: 'Missions' }).locator('tbody tr').first().waitFor();
    expect(await rowsOf('Streaks')).toContainEqual(expect.stringMatching(/^Deleted streak In progress 1 /));
    expect(await rowsOf('Challenges')).toEqual([expect.stringMatching(/^Deleted challenge [A-Z][a-z]+ \d{4} In progress 40$/)]);
    expect(await rowsOf('Missions')).toEqual([expect.stringMatching(/^Deleted mission In progress 1 [A-Z]/)]);
    await admin.browser.open(`/app/members/${ownedById}?locale=de`);
    await page().getByRole('region', { name: 'Missionen' }).locator('tbody tr').first().waitFor();
    const names = async (region: string) =>
      (await page().getByRole('region', { name: region }).locator('tbody tr td:first-child').allInnerTexts()).map((t) => t.trim());
    expect(await names('Serien')).toContain('Gelöschte Serie');
    expect(await names('Challenges')).toEqual(['Gelöschte Challenge']);
    expect(await names('Missionen')).toEqual(['Gelöschte Mission']);
  });

  it('an unknown member reads as gone, not as an error', async () => {
    await admin.browser.open('/app/members/00000000-0000-4000-8000-000000000000');
    expect(await page().locator('body').innerText()).toContain('This member does not exist (any more).');
  });
});

describe('members met only through the storefront', () => {
  /** The shopper's storefront asks the app proxy for their token: the core makes the member, with no name. */
  async function signsIn(customerId: string) {
    const request = await proxyRequest('/apps/loyalty/token', { logged_in_customer_id: customerId });
    const url = new URL(request.url);
    const res = await fetch(`${admin.server.url}${url.pathname}${url.search}`, { headers: request.headers });
    expect(res.status).toBe(200);
  }

  it('are named by Shopify in the list and on their page, and the names kept so a search finds them', async () => {
    admin.stack.admin.customers.set('gid://shopify/Customer/7101', { firstName: 'Grace', lastName: 'Hopper', email: 'grace@navy.test' });
    await signsIn('7101');
    // A customer Shopify no longer has stays without a name, and the page still answers.
    await signsIn('7102');
    expect(await coreMember('7101')).toMatchObject({ firstName: null, lastName: null, email: null });

    await admin.browser.open('/app/members');
    expect((await listedNames()).slice(0, 2)).toEqual(['(no name)', 'Grace Hopper']);
    expect(await coreMember('7101')).toMatchObject({ firstName: 'Grace', lastName: 'Hopper', email: 'grace@navy.test' });
    expect(await coreMember('7102')).toMatchObject({ firstName: null, email: null });
    await search('hopper');
    expect(await listedNames()).toEqual(['Grace Hopper']);

    admin.stack.admin.customers.set('gid://shopify/Customer/7102', { firstName: 'Ada', lastName: null, email: null });
    await admin.browser.open(`/app/members/${(await coreMember('7102')).id}`);
    expect(await page().getByRole('heading', { level: 1 }).innerText()).toBe('Ada');
    expect(await coreMember('7102')).toMatchObject({ firstName: 'Ada', lastName: null });
  });
});

describe('balances brought from another loyalty app', () => {
  it('a merchant drops the export on the points page, sees it worked off and what could not be given, and the customer holds their balance', async () => {
    admin.stack.admin.customers.set('gid://shopify/Customer/7201', { firstName: 'Lin', lastName: 'Wu', email: 'lin@example.com' });
    await admin.browser.open('/app/points');
    const card = page().getByRole('region', { name: 'Bring balances from another app' });
    const choose = async (name: string, csv: string) =>
      card.locator('input[type=file]').setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv) });

    await choose('broken.csv', 'email,points\nlin@example.com,lots\n');
    await card.getByText('Nothing was imported: the file needs changes.').waitFor();
    await card.getByText('Line 2: “lots” is not a whole number of points from 0 to 1,000,000.').waitFor();

    await choose('loyaltylion-export.csv', 'Email,Points\nlin@example.com,2500\ngone@example.com,40\n');
    await card.getByText('Importing 2 balances.').waitFor();
    // The page reads the progress again until the worker is done.
    await card.getByText('Done: 2,500 points given to 1 customer. Not given: 1.').waitFor({ timeout: 30_000 });
    const failures = card.getByRole('region', { name: 'Not given' });
    expect(await failures.locator('tbody tr').allInnerTexts()).toEqual([
      expect.stringMatching(/^3\s+gone@example\.com\s+No customer with this e-mail or id in your store\.$/),
    ]);
    await admin.browser.shot('points-import');

    const lin = await coreMember('7201');
    await admin.browser.open(`/app/members/${lin.id}`);
    await page().getByText('Balance: 2,500').waitFor();
    expect(await rowsOf('Points history')).toEqual([
      expect.stringMatching(/Adjusted \+2,500 Balance brought from our previous rewards program$/),
    ]);

    // A Smile.io export with the customers' VIP tiers: the member is in the shop's tier of that name, their balance the file's.
    admin.stack.admin.customers.set('gid://shopify/Customer/7202', { firstName: 'Mo', lastName: 'Ali', email: 'mo@example.com' });
    await admin.browser.open('/app/points');
    await choose('smile-vip.csv', 'Email,Points Balance,VIP Tier\nmo@example.com,300,gold\n');
    await card.getByText('Done: 300 points given to 1 customer. Not given: 0. 1 placed in their VIP tier.').waitFor({ timeout: 30_000 });
    const mo = await coreMember('7202');
    await admin.browser.open(`/app/members/${mo.id}`);
    await page().getByText('Balance: 300').waitFor();
    await page().getByText('VIP tier: Gold').waitFor();
  });
});
