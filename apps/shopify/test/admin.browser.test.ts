import { createRequire } from 'node:module';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../core/test/support/harness';
import { ADMIN_MESSAGES } from '../app/i18n/bundles.server';
import { type AdminApp, startAdminApp } from './support/admin';
import type { AdminBrowser } from './support/browser';
import { SHOPIFY, type Stack, TEST_SHOP } from './support/stack';

/**
 * The admin pages in Chromium, outside the Shopify admin frame (an App Bridge stand-in hands out a
 * session token signed like Shopify's), served from the production build against the real core.
 */
let admin: AdminApp;
let stack: Stack;
let server: AdminApp['server'];
let browser: AdminBrowser;
let api: Client;
let welcome: { id: string };
let visits: { id: string };

async function created(path: string, body: Record<string, unknown>) {
  const res = await api.post(path, body);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { id: string } & Record<string, unknown>;
}

beforeAll(async () => {
  admin = await startAdminApp(seed);
  ({ stack, server, browser } = admin);
}, 120_000);

afterAll(() => admin?.close());

async function seed(installed: Stack) {
  const account = (await installed.app.shops.find(TEST_SHOP))!;
  api = installed.core.anon.with({ 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
  // A little history for the dashboard: three members over the last days, one milestone reward.
  const reward = (welcome = await created('/schema/reward/record', {
    name: 'Welcome',
    description: 'd',
    discountType: 'percentage',
    discountValue: 10,
    rewardExpiryType: 'no_expiry',
    handleCoupon: true,
    handleCouponAutoGeneration: true,
  }));
  const streak = (visits = await created('/schema/streak/record', { name: 'Visits', status: 'live', completionTargetValue: 3 }));
  await created('/schema/milestone/record', {
    name: 'Two days',
    description: 'd',
    linkedSchemaSlug: 'streak',
    linkedSchemaRecordId: streak.id,
    milestoneTargetValue: 2,
    status: 'live',
    rewardId: reward.id,
  });
  // 09:00 on each day, but never later than now: before 09:00 in Paris today's log would be in the future.
  const today = DateTime.now().setZone('Europe/Paris').startOf('day');
  let n = 0;
  for (const [member, daysAgo] of [
    ['ann', 3],
    ['ann', 2],
    ['ann', 1],
    ['bob', 2],
    ['bob', 1],
    ['cid', 1],
    ['cid', 0],
  ] as const) {
    await created('/schema/streak_log/record', {
      streakId: streak.id,
      ownedBy: { externalId: member },
      activityId: 'visit',
      activityAt: DateTime.min(today.minus({ days: daysAgo }).set({ hour: 9 }), DateTime.now())
        .toUTC()
        .toISO(),
      uniqueIdentifier: `seed-${++n}`,
    });
  }
}

const body = () => browser.page.locator('body').innerText();

describe('admin pages in Chromium', () => {
  it('dashboard: totals and daily charts from the analytics summary; a range picked end first reads the right way round', async () => {
    await browser.open('/app');
    await browser.page.getByText('Logs per day').waitFor();
    const text = await body();
    expect(text).toContain('Members active');
    expect(await browser.page.locator('svg[aria-label="Logs per day"] rect').count()).toBeGreaterThan(25);
    expect(text).toMatch(/Streaks\s+\d+%/);
    expect(text).toMatch(/Overall: \d+% streaks/);
    await browser.shot('dashboard');
    // Rates as German writes them, a space before the sign.
    await browser.open('/app?locale=de');
    await browser.page.getByText('Aktivitäten pro Tag').waitFor();
    expect(await body()).toMatch(/Insgesamt: \d+\s%/);

    await browser.open('/app?from=2026-05-02&to=2026-05-01');
    await browser.page.getByText('Logs per day').waitFor();
    expect(await body()).not.toContain('must not be after');
    expect(await browser.page.getByLabel('From', { exact: true }).inputValue()).toBe('2026-05-01');
    expect(await browser.page.getByLabel('To', { exact: true }).inputValue()).toBe('2026-05-02');
  });

  it('streaks: create with checks as the core makes them, then milestones with the core refusing an unreachable one', async () => {
    await browser.open('/app/r/streak/new');
    const page = browser.page;
    await page.getByRole('button', { name: 'Create streak' }).click();
    await page.getByText('Name is required.').waitFor();

    await page.getByLabel('Name *').fill('Daily visit');
    await page.getByLabel('Goal to complete').fill('2.5');
    await page.getByLabel('Goal each period').fill('0');
    await page.getByRole('button', { name: 'Create streak' }).click();
    await page.getByText('Goal to complete must be a whole number.').waitFor();
    await page.getByText('Goal each period must be greater than 0.').waitFor();
    await browser.shot('streak-new-checks');
    await page.getByLabel('Goal to complete').fill('3');
    await page.getByLabel('Goal each period').fill('1');
    await page.getByRole('button', { name: 'Create streak' }).click();
    await page.getByRole('heading', { name: 'Milestones' }).waitFor();
    expect(page.url()).toMatch(/\/app\/r\/streak\/[0-9a-f-]{36}/);

    const milestone = page.getByRole('region', { name: 'Milestones' });
    await milestone.getByLabel('Name *').fill('Five days');
    await milestone.getByLabel('Description *').fill('Out of reach');
    await milestone.getByLabel('Reached after *').fill('5');
    await page.getByRole('button', { name: 'Add milestone' }).click();
    // The core's own check (a milestone above the streak's completion target), shown on its field.
    await milestone.getByText(/at most|reachable|completion/i).waitFor();
    await browser.shot('streak-milestone-refused');

    // A streak's milestone counts periods: half a day is refused before the core is asked.
    await milestone.getByLabel('Reached after *').fill('2.5');
    await page.getByRole('button', { name: 'Add milestone' }).click();
    await milestone.getByText('Reached after must be a whole number.').waitFor();
    await milestone.getByLabel('Reached after *').fill('2');
    // The reward is picked by name from the account's rewards, not typed as an id.
    await milestone.getByLabel('Reward', { exact: true }).selectOption({ label: 'Welcome' });
    await page.getByRole('button', { name: 'Add milestone' }).click();
    await page.getByText('Milestone added.').waitFor();
    expect(await page.locator('table').last().innerText()).toContain('Five days');
    // The milestone's reward by its name, as the merchant picked it.
    expect(await page.locator('table').last().getByRole('link').allInnerTexts()).toEqual(['Welcome']);
    const streakId = /\/app\/r\/streak\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    const added = await api.get('/schema/milestone/record', {
      filters: { operator: 'and', conditions: [{ fieldSlug: 'linkedSchemaRecordId', operator: 'equals', fieldValue: streakId }] },
    });
    expect(added.body.data.map((m: { name: string; rewardId: string }) => [m.name, m.rewardId])).toEqual([['Five days', welcome.id]]);
    await browser.shot('streak');

    await browser.open('/app/r/streak');
    expect(await body()).toContain('Daily visit');
    await browser.shot('streaks');
  });

  it('streaks: the freeze settings, in words a merchant reads', async () => {
    await browser.open('/app/r/streak/new');
    const page = browser.page;
    await page.getByLabel('Name *').fill('Daily visit with freezes');
    await page.getByLabel('Freezes a member can hold').fill('2');
    await page.getByLabel('Earn a freeze every … periods').fill('7');
    expect(await body()).toContain('Leave blank to only grant freezes.');
    await browser.shot('streak-freezes');
    await page.getByRole('button', { name: 'Create streak' }).click();
    await page.getByRole('heading', { name: 'Milestones' }).waitFor();
    const id = /\/app\/r\/streak\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    expect((await api.get(`/schema/streak/record/${id}`)).body.data).toMatchObject({ maxFreezes: 2, freezeEarnEveryPeriods: 7 });
    expect(await page.getByLabel('Freezes a member can hold').inputValue()).toBe('2');
  });

  it("leaderboards: created with the streak picked by name, then its standings with each member's external id", async () => {
    await browser.open('/app/r/leaderboard/new');
    const page = browser.page;
    await page.getByLabel('Name *').fill('Top visitors');
    await page.getByLabel('Program type *').selectOption('streak');
    await page.getByLabel('Program *').selectOption({ label: 'Visits' });
    await page.getByRole('button', { name: 'Create leaderboard' }).click();
    const standings = page.getByRole('region', { name: 'Standings' });
    await standings.locator('table').waitFor();
    // bob and cid two days running share the first rank; ann completed the streak, so has no current run.
    const rows = await standings.locator('tbody tr').allInnerTexts();
    expect(rows.map((r) => r.split('\t').map((c) => c.trim()))).toEqual([
      ['1', expect.stringMatching(/^Member \d{4}$/), 'bob', '2'],
      ['1', expect.stringMatching(/^Member \d{4}$/), 'cid', '2'],
    ]);
    expect(await standings.innerText()).toContain('2 members ranked');
    // The values' column says what they are: the board ranks by the current run.
    expect((await standings.locator('thead th').allInnerTexts()).map((h) => h.trim())).toEqual([
      'Rank',
      'Display name',
      'Customer',
      'Current run',
    ]);
    await browser.shot('leaderboard-standings');
    // On a phone each ranked member is a stacked item, named, with the rank and value beside their headings.
    await page.setViewportSize({ width: 375, height: 800 });
    try {
      await standings.locator('ul li').first().waitFor();
      const items = await standings.locator('ul li').allInnerTexts();
      expect(items.map((i) => i.replace(/\s+/g, ' ').trim())).toEqual([
        expect.stringMatching(/^Member \d{4} Rank 1 Customer bob Current run 2$/),
        expect.stringMatching(/^Member \d{4} Rank 1 Customer cid Current run 2$/),
      ]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
    await browser.open('/app/r/leaderboard');
    expect(await body()).toContain('Top visitors');

    // A challenge board: its windows to choose from, the current one first.
    const challenge = await created('/schema/challenge/record', {
      name: 'Weekly spend',
      status: 'live',
      aggregationPeriod: 'weekly',
      aggregationMethod: 'sum',
      completionTargetValue: 100,
    });
    const board = await created('/schema/leaderboard/record', {
      name: 'Big spenders',
      linkedSchemaSlug: 'challenge',
      linkedSchemaRecordId: challenge.id,
    });
    await browser.open(`/app/r/leaderboard/${board.id}`);
    const window = page.getByRole('region', { name: 'Standings' }).getByLabel('Window');
    const windows = await window.locator('option').allInnerTexts();
    const keys = await window.locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    expect(windows).toHaveLength(8);
    expect(keys[0]).toMatch(/^\d{4}-W\d{2}$/);
    // A week in words, its Monday to Sunday ("Nov 23 – 29, 2026"), not its key.
    expect(windows[0]).toMatch(/^[A-Z][a-z]{2} \d{1,2}(, \d{4})?\s–\s([A-Z][a-z]{2} )?\d{1,2}, \d{4} \(current\)$/);
    await window.selectOption(keys[1]!);
    await page.waitForURL(new RegExp(`periodKey=${keys[1]!}`));
    // Remix moves the URL before it renders the new loader data: wait for the page to settle.
    await page.waitForLoadState('networkidle');
    await expect.poll(() => window.inputValue()).toBe(keys[1]);
    expect(await page.getByRole('region', { name: 'Standings' }).innerText()).toContain('No one is ranked yet.');
  });

  it('missions: tasks edited row by row and checked per task before the core sees them', async () => {
    await browser.open('/app/r/mission/new');
    const page = browser.page;
    await page.getByLabel('Name *').first().fill('Welcome mission');
    await page.getByRole('button', { name: 'Add a task' }).click();
    await page.getByRole('button', { name: 'Add a task' }).click();
    const names = page.getByLabel('Name *');
    await names.nth(1).fill('Buy');
    await page.getByLabel('Activity ID *').nth(0).fill('purchase');
    await page.getByLabel('Target Value *').nth(0).fill('1');
    await names.nth(2).fill('Review');
    await page.getByLabel('Target Value *').nth(1).fill('2');
    await page.getByRole('button', { name: 'Create mission' }).click();
    await page.getByText('Activity ID is required.').waitFor();
    await browser.shot('mission-task-checks');
    await page.getByLabel('Activity ID *').nth(1).fill('review');
    await page.getByRole('button', { name: 'Create mission' }).click();
    await page.getByRole('heading', { name: 'Milestones' }).waitFor();
    const id = /\/app\/r\/mission\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    const mission = (await api.get(`/schema/mission/record/${id}`)).body.data;
    expect(mission.tasks.map((t: { activityId: string; targetValue: number }) => [t.activityId, t.targetValue])).toEqual([
      ['purchase', 1],
      ['review', 2],
    ]);
    await browser.shot('mission');
  });

  it('rewards: CSV import into the coupon pool with progress and the result count; a bad file names its line', async () => {
    const reward = await created('/schema/reward/record', {
      name: 'Pool',
      description: 'd',
      discountType: 'fixed_amount',
      discountValue: 5,
      rewardExpiryType: 'no_expiry',
      handleCoupon: true,
    });
    await browser.open(`/app/r/reward/${reward.id}`);
    const page = browser.page;
    await page.getByText('Coupon pool').waitFor();
    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'codes.csv', mimeType: 'text/csv', buffer: Buffer.from('SPRING-1\nSPRING-2\n\nSPRING-3\nSPRING-1\n') });
    await page.getByText('Codes imported: 3. Duplicates skipped: 1.').waitFor();
    await page.waitForFunction(() => document.querySelector('[data-testid="coupons-available"]')?.textContent === '3');
    expect(await page.locator('.Polaris-ProgressBar').count()).toBe(1);
    await browser.shot('reward-coupons');

    await page
      .locator('input[type=file]')
      .setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(`Code\nOK-1\n${'X'.repeat(300)}\n`) });
    // The line as the merchant's file counts it, its header row included.
    await page.getByText('Line 3 can be at most 256 characters.').waitFor();
    // A spreadsheet's "Unicode text" (UTF-16 with its byte order mark, here with a header row) reads as its codes; an empty file says so.
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Coupon code\r\nSUMMER-1\r\nSUMMER-2\r\n', 'utf16le')]);
    await page.locator('input[type=file]').setInputFiles({ name: 'unicode.txt', mimeType: 'text/plain', buffer: utf16 });
    await page.getByText('Codes imported: 2. Duplicates skipped: 0.').waitFor();
    // The same without its byte order mark.
    const bare = Buffer.from('AUTUMN-1\r\n', 'utf16le');
    await page.locator('input[type=file]').setInputFiles({ name: 'bare.txt', mimeType: 'text/plain', buffer: bare });
    await page.getByText('Codes imported: 1. Duplicates skipped: 0.').waitFor();
    await page.locator('input[type=file]').setInputFiles({ name: 'empty.csv', mimeType: 'text/csv', buffer: Buffer.from('\n\n') });
    await page.getByText('The file has no codes: one code a line.').waitFor();
    // Too many codes: the limit is named, not the file's count.
    const many = Array.from({ length: 12_000 }, (_, i) => `MANY-${i}`).join('\n');
    await page.locator('input[type=file]').setInputFiles({ name: 'many.csv', mimeType: 'text/csv', buffer: Buffer.from(many) });
    await page.getByText('At most 10,000 codes per import: split the file.').waitFor();
    const pool = await api.get('/schema/coupon/record', {
      fetchTotalCount: true,
      filters: { operator: 'and', conditions: [{ fieldSlug: 'rewardId', operator: 'equals', fieldValue: reward.id }] },
    });
    expect(pool.body.paging.total).toBe(6);
  });

  it('webhooks: the record with its deliveries, a secret rotation and a resend', async () => {
    const webhook = await created('/schema/webhook/record', {
      name: 'Orders',
      endpointUrl: 'https://hooks.invalid/loyalty',
      eventCodes: ['streak_progress_completed'],
    });
    await browser.open(`/app/r/webhook/${webhook.id}`);
    await browser.page.getByRole('heading', { name: 'Deliveries' }).waitFor();
    await browser.page.getByRole('button', { name: 'Rotate secret' }).click();
    await browser.page.getByText('Webhook secret rotated.').waitFor();
    const after = (await api.get(`/schema/webhook/record/${webhook.id}`)).body.data;
    expect(after.webhookSecret).not.toBe(webhook.webhookSecret);
    await browser.shot('webhook');

    // Deliveries only exist once a worker has run, and none runs here: two rows as a worker leaves
    // them, one given up on and one being attempted right now (leased).
    const { accountId } = (await stack.app.shops.find(TEST_SHOP))!;
    const [failed] = await stack.core
      .db('webhook_log')
      .insert({
        account_id: accountId,
        webhook_id: webhook.id,
        event_log_ids: [],
        webhook_log_status: 'max_errored',
        retry_count: 3,
        last_response_status: 500,
        last_error: 'HTTP 500',
        created_at: stack.core.db.raw("now() - interval '1 minute'"),
      })
      .returning('id');
    await stack.core.db('webhook_log').insert({
      account_id: accountId,
      webhook_id: webhook.id,
      event_log_ids: [],
      webhook_log_status: 'pending',
      lease_until: stack.core.db.raw("now() + interval '1 hour'"),
    });
    await browser.open(`/app/r/webhook/${webhook.id}`);
    const page = browser.page;
    // Each delivery's status in words: the given-up one reads "Failed".
    await page
      .locator('tr', { hasText: /Failed(?!,)/ })
      .getByRole('button', { name: 'Resend' })
      .click();
    await page.getByText('Delivery resent: Pending.').waitFor();
    // The list is reloaded: no delivery is given up on any more.
    await page.waitForFunction(() => !/Failed(?!,)/.test(document.querySelector('table')?.innerText ?? ''));
    const resent = await stack.core.db('webhook_log').where({ account_id: accountId, id: failed.id }).first();
    expect(resent).toMatchObject({ webhook_log_status: 'pending', retry_count: 0, last_error: null });
    await browser.shot('webhook-resent');

    // The leased one (newest, so listed first): the core refuses, and its message is shown with the deliveries.
    await page.getByRole('button', { name: 'Resend' }).first().click();
    await page.getByText('This delivery is being attempted right now.').waitFor();
    expect(await page.getByText('Delivery resent: Pending.').count()).toBe(0);
  });

  it('widget: floating widget, theme and template with a live preview of the real widget', async () => {
    const records = [
      await created('/schema/floating_widget/record', { name: 'Corner', description: 'd', status: 'live' }),
      await created('/schema/theme/record', { name: 'Purple', status: 'live' }),
      await created('/schema/template/record', { name: 'Default', status: 'live' }),
    ];
    // A fixed amount, which the storefront writes in the shop's currency (the embed passes it): so does the preview.
    const visits = (
      await api.get('/schema/streak/record', {
        filters: { operator: 'and', conditions: [{ fieldSlug: 'name', operator: 'equals', fieldValue: 'Visits' }] },
      })
    ).body.data[0];
    const fiver = await created('/schema/reward/record', {
      name: 'Fiver',
      description: 'd',
      discountType: 'fixed_amount',
      discountValue: 5,
      rewardExpiryType: 'no_expiry',
    });
    await created('/schema/milestone/record', {
      name: 'Three days',
      description: 'd',
      linkedSchemaSlug: 'streak',
      linkedSchemaRecordId: visits.id,
      milestoneTargetValue: 3,
      status: 'live',
      rewardId: fiver.id,
      eudTitle: 'Three days',
    });
    await browser.open('/app/widget');
    const page = browser.page;
    // Each live record the storefront's embed shows is marked; no id is shown.
    expect(await page.getByText('On your store', { exact: true }).count()).toBe(3);
    const visible = await page.locator('body').innerText();
    for (const record of records) expect(visible).not.toContain(record.id);
    await page.getByRole('button', { name: 'Show preview' }).click();
    const frame = page.frameLocator('[data-testid="widget-preview"]');
    await frame.getByText('Storefront preview (guest view)').waitFor();
    // The widget mounts its shadow host into the preview document.
    await page.waitForFunction(
      () => {
        const doc = (document.querySelector('[data-testid="widget-preview"]') as HTMLIFrameElement | null)?.contentDocument;
        return !!doc && [...doc.body.children].some((el) => el.shadowRoot);
      },
      undefined,
      { timeout: 15_000 },
    );
    // Open it, as a shopper would: the panel shows the live streak's milestones, the fixed amount in the shop's currency.
    await page.locator('[data-testid="widget-preview"]').scrollIntoViewIfNeeded();
    await frame.getByRole('button', { name: 'Rewards' }).click({ force: true });
    const milestones = frame.locator('[data-milestones] li');
    await milestones.first().waitFor({ timeout: 15_000 });
    expect(await milestones.allTextContents()).toContain(
      `3Three days${new Intl.NumberFormat('en', { style: 'currency', currency: stack.admin.currencyCode, maximumFractionDigits: 0 }).format(5)} off`,
    );
    await browser.shot('widget-preview');
    // A loyalty page: the theme editor opens on a page template, adding the app's block in a section of its own.
    const add = page.getByRole('link', { name: 'Add to a page in the theme editor' });
    expect(await add.getAttribute('href')).toBe(
      `https://${TEST_SHOP}/admin/themes/current/editor?template=page&addAppBlockId=${SHOPIFY.apiKey}/loyalty-page&target=newAppsSection`,
    );
    expect(await add.getAttribute('target')).toBe('_blank');
    // Points on product and cart pages: the product template, the points block in its main section, where the price is.
    const product = page.getByRole('link', { name: 'Add to product pages in the theme editor' });
    expect(await product.getAttribute('href')).toBe(
      `https://${TEST_SHOP}/admin/themes/current/editor?template=product&addAppBlockId=${SHOPIFY.apiKey}/loyalty-points&target=mainSection`,
    );
    expect(await product.getAttribute('target')).toBe('_blank');
    // And on the cart page, where it says what the order earns.
    expect(await page.getByRole('link', { name: 'Add to the cart page in the theme editor' }).getAttribute('href')).toBe(
      `https://${TEST_SHOP}/admin/themes/current/editor?template=cart&addAppBlockId=${SHOPIFY.apiKey}/loyalty-points&target=mainSection`,
    );
    // The reminder beside the launcher: its switch is the app embed's one setting.
    const embed = page.getByRole('link', { name: 'Open the app embed in the theme editor' });
    expect(await embed.getAttribute('href')).toBe(
      `https://${TEST_SHOP}/admin/themes/current/editor?context=apps&activateAppId=${SHOPIFY.apiKey}/loyalty-widget`,
    );
  });

  it('notifications: rules, templates and integrations', async () => {
    await browser.open('/app/notifications');
    const text = await body();
    for (const heading of ['Rules', 'Templates', 'Integrations', 'Email templates (0)', 'SMS integrations (0)'])
      expect(text).toContain(heading);
    await browser.shot('notifications');
    await browser.open('/app/r/sms_template/new');
    await browser.page.getByRole('button', { name: 'Create SMS template' }).waitFor();
    await browser.shot('sms-template-new');
  });

  it('notification rules: the integration and template are picked among those of the chosen provider', async () => {
    const mail = await created('/schema/service_email/record', {
      name: 'Shop mail',
      replyToEmailAddress: 'help@shop.test',
      status: 'live',
    });
    const letter = await created('/schema/email_template/record', {
      name: 'Day done mail',
      status: 'live',
      sampleEventCode: 'streak_progress_completed',
      subject: 'Well done',
      htmlContent: '<p>Well done</p>',
    });
    await created('/schema/sms_template/record', { name: 'Day done text', body: 'Well done' });
    await browser.open('/app/r/notification/new');
    const page = browser.page;
    const options = async (label: string) => (await page.getByLabel(label).locator('option').allInnerTexts()).map((t) => t.trim());
    await page.getByLabel('Integration Provider *').selectOption('cloud_sms');
    expect(await options('Template *')).toEqual(['Choose…', 'Day done text']);
    // No SMS integration yet: the form says so instead of asking for an id.
    expect(await options('Integration *')).toEqual(['No SMS integrations yet']);
    await page.getByLabel('Integration Provider *').selectOption('service_email');
    expect(await options('Template *')).toEqual(['Choose…', 'Day done mail']);
    await page.getByLabel('Name *').fill('Daily mail');
    // Events are picked by what they mean, not typed by their codes.
    await page.getByLabel('Streak completed', { exact: true }).check({ force: true });
    await page.getByLabel('Integration *').selectOption({ label: 'Shop mail' });
    await page.getByLabel('Template *').selectOption({ label: 'Day done mail' });
    await browser.shot('notification-rule-picks');
    await page.getByRole('button', { name: 'Create notification rule' }).click();
    await page.waitForURL(/\/app\/r\/notification\/[0-9a-f-]{36}/);
    const id = /\/app\/r\/notification\/([0-9a-f-]{36})/.exec(page.url())![1]!;
    expect((await api.get(`/schema/notification/record/${id}`)).body.data).toMatchObject({
      integrationProvider: 'service_email',
      integrationId: mail.id,
      templateId: letter.id,
      eventCodes: ['streak_progress_completed'],
    });
  });

  it('a delete asks first: Cancel keeps the record, Delete in the dialog deletes it', async () => {
    const text = await created('/schema/sms_template/record', { name: 'Old text', body: 'Bye' });
    await browser.open(`/app/r/sms_template/${text.id}`);
    const page = browser.page;
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete Old text?' });
    await dialog.getByText("This can't be undone.").waitFor();
    await browser.shot('confirm-delete');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await api.get(`/schema/sms_template/record/${text.id}`)).status).toBe(200);

    await page.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.waitForURL(/\/app\/r\/sms_template(\?|$)/);
    expect((await api.get(`/schema/sms_template/record/${text.id}`)).status).toBe(404);
  });

  it('login page: opening the app outside the admin asks for the shop domain', async () => {
    const page = browser.page;
    await page.goto(`${server.url}/auth/login`);
    await page.getByLabel('Shop domain').fill('not a shop');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Enter a valid shop domain').waitFor();
    await browser.shot('login');
  });

  it(
    'in German when Shopify says locale=de: the record pages, their checks and answers, the widget page and the login page',
    { timeout: 60_000 },
    async () => {
      const page = browser.page;
      await browser.open('/app/r/streak?locale=de');
      await page.getByRole('heading', { name: 'Serien' }).waitFor();
      expect(await body()).toContain('Geändert');
      // An in-app navigation keeps the language, and the action answers in it though its URL has no locale.
      await page.getByRole('link', { name: 'Visits', exact: true }).click();
      // The name opens the program editor; its generic page is one more in-app step away.
      await page.waitForURL(/\/app\/programs\/streak\//);
      await page.getByRole('button', { name: 'Erweitert' }).click();
      await page.getByRole('link', { name: 'Alle Felder' }).click();
      // The program editor has a Milestones region too: wait until the generic page replaced it.
      await page.waitForURL(/\/app\/r\/streak\//);
      const milestones = page.getByRole('region', { name: 'Meilensteine' });
      await milestones.waitFor();
      await milestones.getByRole('button', { name: 'Meilenstein hinzufügen' }).click();
      await milestones.getByText('Name ist erforderlich.').waitFor();
      await milestones.getByLabel('Name *').fill('Ein Tag');
      await milestones.getByLabel('Beschreibung *').fill('d');
      await milestones.getByLabel('Erreicht nach *').fill('1');
      await milestones.getByRole('button', { name: 'Meilenstein hinzufügen' }).click();
      await page.getByText('Meilenstein hinzugefügt.').waitFor();
      await browser.shot('record-de');

      await browser.open('/app/r/streak/new?locale=de');
      await page.getByRole('heading', { name: 'Neue Serie' }).waitFor();
      await page.getByLabel('Serien-Joker pro Mitglied').fill('-1');
      await page.getByRole('button', { name: 'Serie erstellen' }).click();
      await page.getByText('Name ist erforderlich.').waitFor();

      await browser.open('/app/widget?locale=de');
      await page.getByRole('heading', { name: 'Live-Vorschau' }).waitFor();
      expect(await body()).toContain('Schwebende Widgets');
      await page.getByRole('button', { name: 'Vorschau anzeigen' }).click();
      await page.frameLocator('[data-testid="widget-preview"]').getByText('Shop-Vorschau (Gastansicht)').waitFor();
      await browser.shot('widget-de');

      await page.goto(`${server.url}/auth/login?locale=de`);
      await page.getByLabel('Shop-Domain').fill('kein Shop');
      await page.getByRole('button', { name: 'Anmelden' }).click();
      await page.getByText('Gib eine gültige Shop-Domain ein').waitFor();
    },
  );

  it(
    "in each other language the admin speaks, from Shopify's locale: a program's editor in its words, the document in that language, the log-in page",
    { timeout: 90_000 },
    async () => {
      const page = browser.page;
      for (const [locale, language] of [
        ['fr-CA', 'fr'],
        ['es', 'es'],
        ['it', 'it'],
        ['ja', 'ja'],
        ['ko', 'ko'],
        ['pt-BR', 'pt'],
        ['zh-CN', 'zh-CN'],
      ] as const) {
        const m = ADMIN_MESSAGES[language];
        await browser.open(`/app/programs/streak/${visits.id}?locale=${locale}`);
        await page.getByRole('heading', { name: 'Visits' }).waitFor();
        await page.getByRole('region', { name: m.editor.sections.milestones }).waitFor();
        expect(await page.locator('html').getAttribute('lang')).toBe(language);
        expect(await body(), language).toContain(m.editor.status.badge.live);
        expect(await body(), language).not.toContain(ADMIN_MESSAGES.en.editor.sections.milestones);
        if (language === 'ja') await browser.shot('program-editor-ja');

        await page.goto(`${server.url}/auth/login?locale=${locale}`);
        await page.getByLabel(m.login.shop).fill('not a shop');
        await page.getByRole('button', { name: m.login.submit }).click();
        await page.getByText(m.login.invalid).waitFor();
      }
    },
  );
});

describe('accessibility', () => {
  const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

  // Twenty pages loaded and checked one after another: 55 to 72 s of the suite's 120 on a slow host.
  it("passes axe-core on every kind of page, in English and German, the document titled and in the page's language", async () => {
    const page = browser.page;
    for (const locale of ['en', 'de'])
      for (const path of [
        '/app',
        '/app/members',
        '/app/points',
        '/app/tiers',
        '/app/widget',
        '/app/notifications',
        '/app/data-requests',
        `/app/programs/streak/${visits.id}`,
        `/app/r/reward/${welcome.id}`,
        '/app/r/streak',
      ]) {
        await browser.open(`${path}${path.includes('?') ? '&' : '?'}locale=${locale}`);
        await page.addScriptTag({ path: AXE });
        const found = await page.evaluate(async () => {
          const { axe } = window as unknown as {
            axe: { run(context: Document): Promise<{ violations: { id: string; nodes: { html: string }[] }[] }> };
          };
          return {
            lang: document.documentElement.lang,
            title: document.title,
            violations: (await axe.run(document)).violations.map((v) => `${v.id}: ${v.nodes[0]?.html.slice(0, 120)}`),
          };
        });
        expect(found, `${locale} ${path}`).toEqual({ lang: locale, title: 'Loyalty', violations: [] });
      }
  }, 300_000);
});
