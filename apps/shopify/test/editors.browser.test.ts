import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ConsoleMessage, Frame, Response } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFailed } from 'vitest';
import type { Client } from '../../core/test/support/harness';
import { type AdminApp, startAdminApp } from './support/admin';
import { APP_BRIDGE_UI, editorUi } from './support/app-bridge-ui';
import { creatorFor } from './support/programs';
import { orderPayload } from './support/orders';
import { TEST_SHOP, webhookRequest } from './support/stack';
import { until } from './support/until';

/**
 * The merchant-worded editors in Chromium (production build, real core): each creates and changes
 * its record, shows the core's refusals in words on their fields in English and German, and offers
 * the generic "All fields" page only from its Advanced menu.
 */
let admin: AdminApp;
let api: Client;
const created = creatorFor(() => api);
let streak: { id: string };
let letter: { id: string };

/** The branding preview is the real widget, which the core serves from its build. */
const WIDGET = fileURLToPath(new URL('../../../packages/widget/', import.meta.url));

beforeAll(async () => {
  if (!existsSync(`${WIDGET}dist/loader.js`)) execFileSync('node', ['scripts/build.mjs'], { cwd: WIDGET, stdio: 'inherit' });
  admin = await startAdminApp(async (installed) => {
    const account = (await installed.app.shops.find(TEST_SHOP))!;
    api = installed.core.anon.with({ 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
    streak = await created('/schema/streak/record', { name: 'Daily visit', status: 'live' });
    await created('/schema/challenge/record', { name: 'Spend 200', status: 'live', completionTargetValue: 200 });
    await created('/schema/theme/record', { name: 'Shop theme' });
    await created('/schema/floating_widget/record', { name: 'Shop launcher', description: 'd', eudTitle: 'Rewards' });
    await created('/schema/template/record', { name: 'Shop texts', loggedOutTitle: 'Join our club' });
    await created('/schema/service_email/record', { name: 'Shop mail', replyToEmailAddress: 'help@shop.test', status: 'live' });
    letter = await created('/schema/email_template/record', {
      name: 'Milestone mail',
      status: 'live',
      sampleEventCode: 'streak_progress_milestone_completed',
      subject: 'Well done {{$account_user.firstName}}: {{$event_log.payload.streakLog.streak.eudTitle}}',
      htmlContent: '<p>Hello {{$account_user.firstName}}, one more {{$helpers.periodText}} to go.</p>',
    });
    await created('/schema/email_template/record', {
      name: 'Paused mail',
      status: 'paused',
      sampleEventCode: 'streak_progress_completed',
      subject: 'Done',
      htmlContent: '<p>Done</p>',
    });
  });
  await admin.browser.page.addInitScript(APP_BRIDGE_UI);
}, 120_000);

afterAll(() => admin?.close());

const page = () => admin.browser.page;
const { saveBar, saveBarHidden, toasts, save, fieldError } = editorUi(page);

describe('the leaderboard editor', () => {
  let boardId: string;

  it('creates a board in words: which program, how members are ranked and named', async () => {
    const { browser } = admin;
    await browser.open('/app/r/leaderboard');
    await page().getByRole('link', { name: 'New leaderboard' }).first().click();
    await page().waitForURL(/\/app\/leaderboards\/new/);
    await page().getByLabel('Name', { exact: true }).fill('Longest runs');
    await page().getByLabel('Program').selectOption({ label: 'Daily visit (Streak)' });
    const ranks = await page().getByLabel('Rank members by').locator('option').allInnerTexts();
    expect(ranks).toEqual(['Their current run (how many periods in a row right now)', 'Their best run ever']);
    await page().getByLabel('Rank members by').selectOption({ label: 'Their best run ever' });
    await page().getByLabel('How members are named').selectOption({ label: 'Anonymous (“Member 4821”, always the same for a member)' });
    await page().getByLabel('Title shoppers see').fill('Top visitors');
    await browser.shot('leaderboard-editor-new');
    await saveBar().getByRole('button', { name: 'Save' }).click();
    await page().waitForURL(/\/app\/leaderboards\/[0-9a-f-]{36}/);
    boardId = /\/app\/leaderboards\/([0-9a-f-]{36})/.exec(page().url())![1]!;
    expect(await toasts()).toContain('Created');
    const board = (await api.get(`/schema/leaderboard/record/${boardId}`)).body.data;
    expect(board).toMatchObject({
      name: 'Longest runs',
      linkedSchemaSlug: 'streak',
      linkedSchemaRecordId: streak.id,
      rankBy: 'longest_run',
      displayName: 'anonymous',
      eudTitle: 'Top visitors',
      size: 10,
    });
  });

  it('shows the core refusal on its field in words, then saves the change', async () => {
    const { browser } = admin;
    await browser.open(`/app/leaderboards/${boardId}`);
    await page().getByLabel('Members shown').fill('500');
    await save();
    await page().getByText('Members shown can be at most 100.').waitFor();
    expect(await fieldError('Members shown')).toBe('Members shown can be at most 100.');
    await browser.shot('leaderboard-editor-refusal');
    await page().getByLabel('Members shown').fill('5');
    await save();
    await saveBarHidden();
    expect((await api.get(`/schema/leaderboard/record/${boardId}`)).body.data.size).toBe(5);

    await browser.open(`/app/leaderboards/${boardId}?locale=de`);
    await page().getByLabel('Angezeigte Mitglieder').fill('0');
    await save();
    await page().getByText('Angezeigte Mitglieder muss mindestens 1 sein.').waitFor();
    await browser.shot('leaderboard-editor-refusal-de');
  });

  it('the list opens the editor; the generic page is in the Advanced menu only', async () => {
    const { browser } = admin;
    await browser.open('/app/r/leaderboard');
    expect(await page().getByRole('link', { name: 'Longest runs' }).getAttribute('href')).toBe(`/app/leaderboards/${boardId}`);
    await page().getByRole('link', { name: 'Longest runs' }).click();
    await page().waitForURL(/\/app\/leaderboards\//);
    await page().getByRole('button', { name: 'Advanced' }).click();
    await page().getByRole('link', { name: 'All fields' }).click();
    await page().waitForURL(new RegExp(`/app/r/leaderboard/${boardId}`));
    await browser.open('/app/r/streak');
    expect(await page().getByRole('link', { name: 'Daily visit' }).getAttribute('href')).toBe(`/app/programs/streak/${streak.id}`);
  });
});

describe("a leaderboard's standings", () => {
  it("show each member's value in the admin's language", async () => {
    const { browser } = admin;
    const challenge = await created('/schema/challenge/record', {
      name: 'Spend big',
      status: 'live',
      aggregationMethod: 'sum',
      aggregationPeriod: 'monthly',
      completionTargetValue: 5000,
    });
    const board = await created('/schema/leaderboard/record', {
      name: 'Big spenders',
      status: 'live',
      linkedSchemaSlug: 'challenge',
      linkedSchemaRecordId: challenge.id,
      rankBy: 'window_progress',
    });
    await created('/schema/challenge_log/record', {
      challengeId: challenge.id,
      ownedBy: { externalId: 'spender', firstName: 'Sam' },
      activityId: 'order',
      activityAt: new Date().toISOString(),
      uniqueIdentifier: 'big-order',
      activityValue: 1001.98,
    });
    await browser.open(`/app/leaderboards/${board.id}?locale=de`);
    const row = page().getByRole('region', { name: 'Bestenliste' }).locator('tbody tr');
    await row.first().waitFor();
    expect((await row.allInnerTexts()).map((r) => r.split('\t').map((c) => c.trim()))).toEqual([
      ['1', expect.any(String), expect.any(String), '1.001,98'],
    ]);
    const headings = page().getByRole('region', { name: 'Bestenliste' }).locator('thead th');
    expect((await headings.allInnerTexts()).at(-1)?.trim()).toBe('Fortschritt im Zeitraum');
  });
});

describe('deleting a ranked program', () => {
  it('names the leaderboards ranking it before the delete, and the board then says its program is gone', async () => {
    const { browser } = admin;
    const challenge = await created('/schema/challenge/record', { name: 'Spend 500', status: 'live', completionTargetValue: 500 });
    const board = await created('/schema/leaderboard/record', {
      name: 'Top spenders',
      status: 'live',
      linkedSchemaSlug: 'challenge',
      linkedSchemaRecordId: challenge.id,
      rankBy: 'window_progress',
    });
    await browser.open(`/app/r/challenge/${challenge.id}`);
    await page().getByRole('button', { name: 'Delete' }).click();
    const dialog = page().getByRole('dialog');
    await dialog
      .getByText('The leaderboard “Top spenders” ranks this program: it will show no standings until it ranks another.')
      .waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await until('the challenge deleted', async () => (await api.get(`/schema/challenge/record/${challenge.id}`)).status === 404);
    await browser.open(`/app/leaderboards/${board.id}`);
    await page().getByText('The program this leaderboard ranked was deleted: pick another program to show standings again.').waitFor();
    expect(await page().getByText('A query parameter is invalid').count()).toBe(0);
    await browser.shot('leaderboard-program-gone');
  });
});

describe('the notification rule editor', () => {
  let ruleId: string;
  const subject = () => page().getByTestId('preview-subject').innerText();

  it('creates a rule: moments picked from a list with a sentence each, channel, connection and message by name, a preview', async () => {
    const { browser } = admin;
    await browser.open('/app/r/notification');
    await page().getByRole('link', { name: 'New notification rule' }).first().click();
    await page().waitForURL(/\/app\/notifications\/rules\/new/);
    await page().getByLabel('Name', { exact: true }).fill('Milestone mail rule');
    await page().getByText('A member reaches a streak milestone.').waitFor();
    await page().getByLabel('Streak: milestone reached').check();
    await page().getByLabel('Status').selectOption('live');
    expect(await page().getByLabel('Send as').locator('option').allInnerTexts()).toEqual([
      'Email',
      'Push notification',
      'Text message (SMS)',
      'Chat message',
    ]);
    await page().getByLabel('Send through').selectOption({ label: 'Shop mail' });
    await page().getByLabel('Message', { exact: true }).selectOption({ label: 'Milestone mail' });
    await expect.poll(subject).toBe('Well done Alex: Weekly workout streak');
    const body = page().frameLocator('[data-testid="email-preview"]');
    await body.getByText('Hello Alex, one more week to go.').waitFor();
    await browser.shot('rule-editor-new');
    await saveBar().getByRole('button', { name: 'Save' }).click();
    await page().waitForURL(/\/app\/notifications\/rules\/[0-9a-f-]{36}/);
    ruleId = /rules\/([0-9a-f-]{36})/.exec(page().url())![1]!;
    expect((await api.get(`/schema/notification/record/${ruleId}`)).body.data).toMatchObject({
      name: 'Milestone mail rule',
      status: 'live',
      eventCodes: ['streak_progress_milestone_completed'],
      integrationProvider: 'service_email',
      templateId: letter.id,
    });
  });

  it('previews in German, and shows a refusal on its field; then saves the change', async () => {
    const { browser } = admin;
    await browser.open(`/app/notifications/rules/${ruleId}?locale=de`);
    await expect.poll(subject).toBe('Well done Alex: Wöchentliche Trainingsserie');
    // The letter is written in English only: the preview reads it in English, its values too.
    await page().frameLocator('[data-testid="email-preview"]').getByText('Hello Alex, one more week to go.').waitFor();
    await page().getByText('Ein Mitglied erreicht einen Meilenstein einer Serie.').waitFor();
    await browser.shot('rule-editor-de');
    await page().getByLabel('Nachricht', { exact: true }).selectOption({ label: 'Paused mail' });
    await save();
    const refusal = 'Nachricht ist nicht aktiv. Aktiviere es zuerst oder speichere dies als Entwurf.';
    await page().getByText(refusal).first().waitFor();
    expect(await fieldError('Nachricht')).toBe(refusal);
    await browser.shot('rule-editor-refusal-de');

    await browser.open(`/app/notifications/rules/${ruleId}`);
    await page().getByLabel('Streak: completed').check();
    await save();
    await saveBarHidden();
    expect((await api.get(`/schema/notification/record/${ruleId}`)).body.data.eventCodes).toEqual([
      'streak_progress_milestone_completed',
      'streak_progress_completed',
    ]);
  });

  it('previews a push, SMS or chat message as the core fills it in for the first picked moment, in the admin language', async () => {
    const { browser } = admin;
    const push = await created('/schema/push_notification_template/record', {
      name: 'Streak push',
      title: 'Hi {{$account_user.firstName}}',
      body: '{{$helpers.remainingValue}} to go this {{$helpers.periodText}}',
    });
    await created('/schema/sms_template/record', {
      name: 'Streak SMS',
      body: 'Done: {{$helpers.currentProgressValue}} of {{$helpers.completionTargetValue}}',
    });
    await created('/schema/chat_message_template/record', {
      name: 'Streak chat',
      templateName: 'streak_reminder',
      templateLanguageCode: 'en_US',
      bodyParameters: ['{{$account_user.firstName}}', '{{$helpers.remainingValue}}'],
    });
    const preview = page().getByRole('region', { name: 'Message preview' });
    const shown = () => preview.innerText().then((t) => t.replace(/\s+/g, ' ').trim());
    await browser.open('/app/notifications/rules/new');
    await page().getByLabel('Send as').selectOption({ label: 'Push notification' });
    await page().getByLabel('Message', { exact: true }).selectOption({ label: 'Streak push' });
    await page().getByText('Pick a moment to preview the message for it.').waitFor();
    await page().getByLabel('Streak: activity counted').check();
    await page().getByText('As sent for “Streak: activity counted”:').waitFor();
    await expect.poll(shown).toBe('Hi Alex 3 to go this week');
    await browser.shot('rule-editor-push-preview');

    await page().getByLabel('Send as').selectOption({ label: 'Text message (SMS)' });
    await page().getByLabel('Message', { exact: true }).selectOption({ label: 'Streak SMS' });
    await expect.poll(shown).toBe('Done: 5 of 12');
    await page().getByLabel('Send as').selectOption({ label: 'Chat message' });
    await page().getByLabel('Message', { exact: true }).selectOption({ label: 'Streak chat' });
    await expect.poll(shown).toBe('Approved template: streak_reminder Value 1: Alex Value 2: 3');

    // Its German texts, which a German preview reads with its values in German.
    const german = await api.patch(
      `/schema/push_notification_template/record/${push.id}`,
      { title: 'Hallo {{$account_user.firstName}}', body: 'Noch {{$helpers.remainingValue}} diese {{$helpers.periodText}}' },
      undefined,
      { languageCode: 'de' },
    );
    expect(german.status).toBe(200);
    await browser.open('/app/notifications/rules/new?locale=de');
    await page().getByLabel('Senden als').selectOption({ label: 'Push-Mitteilung' });
    await page().getByLabel('Nachricht', { exact: true }).selectOption({ label: 'Streak push' });
    await page().getByLabel('Serie: Aktivität gezählt').check();
    const vorschau = page().getByRole('region', { name: 'Nachrichtenvorschau' });
    await expect.poll(() => vorschau.innerText().then((t) => t.replace(/\s+/g, ' ').trim())).toBe('Hallo Alex Noch 3 diese Woche');
    await browser.shot('rule-editor-push-preview-de');
  });
});

describe('the email template editor', () => {
  let templateId: string;
  const preview = () => page().frameLocator('[data-testid="email-preview"]');

  it('creates a template with a detail inserted from the list, and previews it as the core renders it', async () => {
    const { browser } = admin;
    await browser.open('/app/r/email_template');
    await page().getByRole('link', { name: 'New email template' }).first().click();
    await page().waitForURL(/\/app\/notifications\/emails\/new/);
    await page().getByLabel('Name', { exact: true }).fill('Welcome mail');
    await page().getByLabel('Subject').fill('Welcome to our rewards');
    await page().getByLabel('Message', { exact: true }).fill('<p>Hi , thanks for joining. Your link: </p>');
    // The detail goes where the cursor is: after "Hi".
    await page()
      .getByLabel('Message', { exact: true })
      .evaluate((area: HTMLTextAreaElement) => area.setSelectionRange(6, 6));
    await page().getByRole('button', { name: 'Insert: The member’s first name' }).click();
    expect(await page().getByLabel('Message', { exact: true }).inputValue()).toBe(
      '<p>Hi {{$account_user.firstName}}, thanks for joining. Your link: </p>',
    );
    // The referral link at the end: the shop's domain with the member's code.
    await page()
      .getByLabel('Message', { exact: true })
      .evaluate((area: HTMLTextAreaElement) => area.setSelectionRange(area.value.length - 4, area.value.length - 4));
    await page().getByRole('button', { name: 'Insert: The member’s referral link (your store with their code)' }).click();
    const linked = `<p>Hi {{$account_user.firstName}}, thanks for joining. Your link: https://${TEST_SHOP}/?loyalty_ref={{$account_user.referralCode}}</p>`;
    expect(await page().getByLabel('Message', { exact: true }).inputValue()).toBe(linked);
    await page().getByText('Save the template to preview it.').waitFor();
    await browser.shot('email-editor-new');
    await saveBar().getByRole('button', { name: 'Save' }).click();
    await page().waitForURL(/\/app\/notifications\/emails\/[0-9a-f-]{36}/);
    templateId = /emails\/([0-9a-f-]{36})/.exec(page().url())![1]!;
    await preview().getByText(`Hi Alex, thanks for joining. Your link: https://${TEST_SHOP}/?loyalty_ref=K7M3QX9P`).waitFor();
    expect(await page().getByTestId('preview-subject').innerText()).toBe('Welcome to our rewards');
    expect((await api.get(`/schema/email_template/record/${templateId}`)).body.data).toMatchObject({
      name: 'Welcome mail',
      subject: 'Welcome to our rewards',
      htmlContent: linked,
    });
  });

  it('the preview follows the draft as it is typed, before any save; a template the core refuses shows where, in words, in both languages', async () => {
    const { browser } = admin;
    await browser.open(`/app/notifications/emails/${templateId}`);
    await preview().getByText('Hi Alex, thanks for joining.').waitFor();
    await page()
      .getByLabel('Message', { exact: true })
      .fill('<p>Hello {{$account_user.firstName}}, {{$helpers.remainingValue}} to go.</p>');
    await page().getByLabel('Subject').fill('Almost there, {{$account_user.firstName}}');
    await preview()
      .getByText(/^Hello Alex, \d+ to go\.$/)
      .waitFor();
    await expect.poll(() => page().getByTestId('preview-subject').innerText()).toBe('Almost there, Alex');
    // A misspelt detail is named before a member gets it empty; spelt right, the warning goes.
    await page().getByLabel('Subject').fill('Almost there, {{$account_user.firstname}}');
    const misspelt = page().getByText(
      'Sent empty: {{$account_user.firstname}}. This moment has no such detail; check the spelling in the template.',
    );
    await misspelt.waitFor();
    expect(await page().getByTestId('preview-subject').innerText()).toBe('Almost there,');
    await page().getByLabel('Subject').fill('Almost there, {{$account_user.firstName}}');
    await misspelt.waitFor({ state: 'detached' });
    await expect.poll(() => page().getByTestId('preview-subject').innerText()).toBe('Almost there, Alex');
    // Nothing was saved: the preview rendered the draft.
    expect((await api.get(`/schema/email_template/record/${templateId}`)).body.data).toMatchObject({ subject: 'Welcome to our rewards' });
    // Mid-typing, a block not closed yet is said in words above the last rendering that could be made.
    await page().getByLabel('Message', { exact: true }).press('End');
    await page().getByLabel('Message', { exact: true }).pressSequentially('{{#if $account.name}}');
    await page()
      .getByText(/^The preview could not be rendered: Line 1, column \d+ of Message: /)
      .waitFor();
    await preview()
      .getByText(/^Hello Alex, \d+ to go\.$/)
      .waitFor();
    await page()
      .getByLabel('Message', { exact: true })
      .fill('<p>Hello {{$account_user.firstName}}, {{$helpers.remainingValue}} to go.</p>');
    await page()
      .getByText(/^The preview could not be rendered/)
      .waitFor({ state: 'detached' });
    await browser.shot('email-editor-preview');
    await save();
    await saveBarHidden();
    expect((await api.get(`/schema/email_template/record/${templateId}`)).body.data).toMatchObject({
      subject: 'Almost there, {{$account_user.firstName}}',
    });

    await page().getByLabel('Message', { exact: true }).fill('<p>Hi</p>\n{{shout $account_user.firstName}}');
    await save();
    const refusal = 'Line 2, column 1 of Message: this detail does not exist. Use one from the list.';
    // The live preview says the same as soon as the text is typed, before the save's answer puts it on the field.
    await expect.poll(() => fieldError('Message')).toBe(refusal);
    await browser.shot('email-editor-refusal');

    await browser.open(`/app/notifications/emails/${templateId}?locale=de`);
    await preview()
      .getByText(/^Hello Alex, \d+ to go\.$/)
      .waitFor();
    await page().getByLabel('Nachricht', { exact: true }).fill('{{#if}}x{{/if}}');
    await save();
    await expect.poll(() => fieldError('Nachricht')).toMatch(/^Zeile 1, Spalte 1 von Nachricht: /);
    await browser.shot('email-editor-refusal-de');
  });
});

describe('the points settings (CONTRACT §19)', () => {
  it('turns points on with its rates and what shoppers call them, in English, and a shopper’s paid order earns them; the page reads in German', async () => {
    const { browser } = admin;
    const setting = async () => (await api.get('/schema/points_setting/record')).body.data[0];
    expect((await setting()).status).toBe('draft');
    await browser.open('/app/points');
    await page().getByLabel('Points are on').check();
    await page().getByLabel('Points per unit of your currency spent').fill('2');
    await page().getByLabel('Points per order').fill('5');
    await page().getByLabel('What shoppers call points').fill('Stars');
    await page().getByLabel('What shoppers call one point').fill('Star');
    // How long points last: past the core's bound, the refusal in words on its field; then a year, and six months for tiers.
    const expiry = 'Months without earning or spending before points expire';
    await page().getByLabel(expiry).fill('61');
    await save();
    await expect.poll(() => fieldError(expiry)).toBe(`${expiry} can be at most 60.`);
    expect((await setting()).status).toBe('draft');
    await page().getByLabel(expiry).fill('12');
    await page().getByLabel('Months of points that count towards VIP tiers').fill('6');
    await save();
    await saveBarHidden();
    expect(await setting()).toMatchObject({
      status: 'live',
      eudCurrencyName: 'Stars',
      eudCurrencyNameOne: 'Star',
      pointsPerCurrencyUnit: 2,
      pointsPerOrder: 5,
      expiryMonthsOfInactivity: 12,
      tierWindowMonths: 6,
    });
    // The merchant's goal: a shopper's paid order (30 of products) earns 2 × 30 + 5 Stars.
    const request = await webhookRequest(
      'orders/paid',
      orderPayload(7001, { customer: { id: 7001 }, lines: [{ product: 1, quantity: 1, price: '30.00' }] }),
    );
    const delivered = await fetch(`${admin.server.url}/webhooks/orders/paid`, {
      method: 'POST',
      headers: request.headers,
      body: await request.text(),
    });
    expect(delivered.status).toBe(200);
    const shopper = {
      operator: 'and',
      conditions: [{ fieldSlug: 'externalId', operator: 'equals', fieldValue: 'gid://shopify/Customer/7001' }],
    };
    const balance = async () => (await api.get('/schema/account_user/record', { filters: shopper })).body.data[0]?.pointsBalance;
    await until('the order’s points', async () => (await balance()) === 65);
    expect(await balance()).toBe(65);
    // The shopper's page says where the points came from: the order, by its name.
    const member = (await api.get('/schema/account_user/record', { filters: shopper })).body.data[0];
    await browser.open(`/app/members/${member.id}`);
    const history = page().getByRole('region', { name: 'Points history' });
    await history.locator('tbody tr').first().waitFor();
    expect((await history.locator('tbody tr').allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim())).toEqual([
      expect.stringMatching(/ Earned Order #7001 \+65$/),
    ]);
    await browser.shot('points-settings');
    // The dashboard counts them: earned in the range, and held now.
    const figures = async (locale: string, section: string) => {
      await browser.open(`/app?locale=${locale}`);
      const region = page().getByRole('region', { name: section });
      await region.waitFor();
      return (await region.innerText()).replace(/\s+/g, ' ');
    };
    const english = await figures('en', 'Points');
    expect(english).toContain('Points earned 65 Taken back after refunds and cancellations: 0. Adjusted by hand: 0.');
    expect(english).toContain('Points redeemed 0 0% of the points earned in the period.');
    expect(english).toContain('Points members hold now 65 Members holding points: 1. Expired in the period: 0.');
    // A day's chart of the order's points; nothing redeemed yet says so rather than drawing an empty chart.
    expect(await page().locator('svg[aria-label="Points earned per day"] rect title').allTextContents()).toContainEqual(
      expect.stringMatching(/: 65$/),
    );
    expect(english).toContain('Points redeemed per day None in this period.');
    await browser.shot('dashboard-points');
    await browser.open('/app/points?locale=de');
    expect(await page().getByLabel('Punkte sind eingeschaltet').isChecked()).toBe(true);
    await page().getByLabel('Punkte sind eingeschaltet').uncheck();
    await save();
    await saveBarHidden();
    expect((await setting()).status).toBe('draft');
    await browser.shot('points-settings-de');
    // Turned off, the dashboard still shows what members hold.
    const german = await figures('de', 'Punkte');
    expect(german).toContain('Punkte, die Mitglieder jetzt halten 65 Mitglieder mit Punkten: 1.');
    expect(german).toContain('Keine in diesem Zeitraum.');
  });

  it('ranks who earned the most this month on a leaderboard: the order’s 65 Stars lead it', async () => {
    const { browser } = admin;
    await browser.open('/app/leaderboards/new');
    await page().getByLabel('Name', { exact: true }).fill('Top earners');
    await page().getByLabel('Program').selectOption({ label: 'Points members earn, ranked each month' });
    expect(await page().getByLabel('Rank members by').locator('option').allInnerTexts()).toEqual([
      'Points earned in the month (refunds taken back, spending not)',
    ]);
    await page().getByLabel('Title shoppers see').fill('Top Stars');
    await saveBar().getByRole('button', { name: 'Save' }).click();
    await page().waitForURL(/\/app\/leaderboards\/[0-9a-f-]{36}/);
    const id = /\/app\/leaderboards\/([0-9a-f-]{36})/.exec(page().url())![1]!;
    const [points] = (await api.get('/schema/points_setting/record')).body.data;
    expect((await api.get(`/schema/leaderboard/record/${id}`)).body.data).toMatchObject({
      linkedSchemaSlug: 'points_setting',
      linkedSchemaRecordId: points.id,
      rankBy: 'points',
      eudTitle: 'Top Stars',
    });
    // The editor shows this month's standings: the shopper whose order earned 65.
    await browser.open(`/app/leaderboards/${id}`);
    const standings = page().getByRole('region', { name: 'Standings' });
    expect(await standings.getByRole('combobox', { name: 'Window' }).inputValue()).toMatch(/^\d{4}-\d{2}$/);
    expect((await standings.locator('tbody tr').first().innerText()).split(/\s+/)).toContain('65');
    expect((await standings.locator('thead th').last().innerText()).trim()).toBe('Points');
    await browser.shot('leaderboard-editor-points');
  });

  it('sets the points for following the shop and its Instagram profile; another site’s address is refused on its field and changes nothing, in English and German', async () => {
    const { browser } = admin;
    const setting = async () => (await api.get('/schema/points_setting/record')).body.data[0];
    const rate = 'Points for following your shop on social media';
    await browser.open('/app/points');
    await page().getByLabel(rate).fill('25');
    await page().getByLabel('Instagram profile').fill('https://www.instagram.com/yourshop');
    await save();
    await saveBarHidden();
    expect(await setting()).toMatchObject({ pointsOnFollow: 25, instagramUrl: 'https://www.instagram.com/yourshop', tiktokUrl: null });
    await browser.shot('points-settings-social');

    // A typo taking shoppers elsewhere: the refusal says what the address looks like, and the rate changed beside it is not saved either.
    await page().getByLabel(rate).fill('40');
    await page().getByLabel('Instagram profile').fill('https://example.com/shop');
    await save();
    await expect
      .poll(() => fieldError('Instagram profile'))
      .toBe('Instagram profile must be the https address of your profile on Instagram, for example https://www.instagram.com/yourshop.');
    expect(await setting()).toMatchObject({ pointsOnFollow: 25, instagramUrl: 'https://www.instagram.com/yourshop' });

    await browser.open('/app/points?locale=de');
    expect(await page().getByLabel('Instagram-Profil').inputValue()).toBe('https://www.instagram.com/yourshop');
    await page().getByLabel('TikTok-Profil').fill('http://www.tiktok.com/@deinshop');
    await save();
    await expect
      .poll(() => fieldError('TikTok-Profil'))
      .toBe('TikTok-Profil muss die https-Adresse deines Profils auf TikTok sein, zum Beispiel https://www.tiktok.com/@deinshop.');
    expect((await setting()).tiktokUrl).toBeNull();
    // An emptied field takes the profile out.
    await page().getByLabel('TikTok-Profil').fill('');
    await page().getByLabel('Instagram-Profil').fill('');
    await save();
    await saveBarHidden();
    expect(await setting()).toMatchObject({ pointsOnFollow: 25, instagramUrl: null, tiktokUrl: null });
  });
});

describe('a bonus points event', () => {
  it('runs from the start of its first day to the end of its last in the shop’s time zone; a last day before the first is refused on its field; No event ends it, in English and German', async () => {
    const { browser } = admin;
    const setting = async () => (await api.get('/schema/points_setting/record')).body.data[0];
    await browser.open('/app/points');
    await page().getByLabel('Multiplier').selectOption({ label: '2× points' });
    await page().getByLabel('First day').fill('2027-03-05');
    await page().getByLabel('Last day').fill('2027-03-07');
    await save();
    await saveBarHidden();
    // The stub's shop is in Europe/Paris (UTC+1 in March): midnight there to midnight after the last day.
    expect(await setting()).toMatchObject({
      bonusMultiplier: 2,
      bonusStartsAt: '2027-03-04T23:00:00.000Z',
      bonusEndsAt: '2027-03-07T23:00:00.000Z',
    });
    await browser.shot('points-settings-bonus');
    await browser.open('/app/points');
    expect(await page().getByLabel('First day').inputValue()).toBe('2027-03-05');
    expect(await page().getByLabel('Last day').inputValue()).toBe('2027-03-07');

    // The days the wrong way round: said on the last day's field, and nothing changed.
    await page().getByLabel('Last day').fill('2027-03-01');
    await save();
    await expect.poll(() => fieldError('Last day')).toBe('The last day must be the first day or after it.');
    expect((await setting()).bonusEndsAt).toBe('2027-03-07T23:00:00.000Z');

    await browser.open('/app/points?locale=de');
    expect(await page().getByLabel('Faktor').inputValue()).toBe('2');
    await page().getByLabel('Faktor').selectOption({ label: 'Keine Aktion' });
    expect(await page().getByLabel('Erster Tag').count()).toBe(0);
    await save();
    await saveBarHidden();
    expect(await setting()).toMatchObject({ bonusMultiplier: 1, bonusStartsAt: null, bonusEndsAt: null });
  });
});

describe('the branding editor', () => {
  /** The launcher the real widget drew in the preview: its label, its place and the theme's main colour. */
  const launcher = () =>
    page().evaluate(() => {
      const frame = document.querySelector<HTMLIFrameElement>('[data-testid="branding-preview"]');
      const host = frame?.contentDocument?.querySelector('loyalty-widget');
      const button = host?.shadowRoot?.querySelector<HTMLElement>('.lw-launcher');
      const root = host?.shadowRoot?.querySelector<HTMLElement>('.lw-root');
      if (!button || !root) return null;
      return {
        label: button.textContent?.trim(),
        top: button.style.top,
        left: button.style.left,
        bottom: button.style.bottom,
        primary: root.style.getPropertyValue('--lw-primary'),
        panel: host!.shadowRoot!.textContent?.includes('Join our club') ?? false,
      };
    });

  it("edits colours, the launcher's place and label, and texts, with the real widget previewing each change before the save", async () => {
    const { browser } = admin;
    // Points and a leaderboard live: the panel has its six tabs, the widest it gets.
    const [points] = (await api.get('/schema/points_setting/record')).body.data;
    expect((await api.patch(`/schema/points_setting/record/${points.id}`, { status: 'live' })).status).toBe(200);
    await created('/schema/leaderboard/record', {
      name: 'Previewed board',
      status: 'live',
      linkedSchemaSlug: 'streak',
      linkedSchemaRecordId: streak.id,
      rankBy: 'current_run',
    });
    await browser.open('/app/widget');
    await page().getByRole('link', { name: 'Branding' }).first().click();
    await page().waitForURL(/\/app\/widget\/branding/);
    await expect
      .poll(launcher, { timeout: 15_000 })
      .toMatchObject({ label: 'Rewards', bottom: '20px', primary: 'rgba(124, 58, 237, 1)', panel: true });
    expect(await page().getByLabel('Main colour', { exact: true }).inputValue()).toBe('#7c3aed');

    await page().getByLabel('Position on the page').selectOption({ label: 'Top left' });
    await page().getByLabel('Distance from the top or bottom').fill('90');
    await page().getByLabel('Button label').fill('Rewards club');
    await page().getByLabel('Main colour', { exact: true }).fill('#ff0000');
    await page().getByLabel('Title for guests').fill('Welcome to the club');
    await expect.poll(launcher, { timeout: 15_000 }).toMatchObject({
      label: 'Rewards club',
      top: '90px',
      left: '20px',
      primary: 'rgba(255, 0, 0, 1)',
    });
    await page().frameLocator('[data-testid="branding-preview"]').getByText('Welcome to the club').waitFor();
    // The preview is laid out as wide as a phone, scaled to its column: no tab's word is split across lines.
    const tabLines = () =>
      page().evaluate(() => {
        const frame = document.querySelector<HTMLIFrameElement>('[data-testid="branding-preview"]');
        const tabs = frame?.contentDocument?.querySelector('loyalty-widget')?.shadowRoot?.querySelectorAll('[role="tab"]') ?? [];
        return [...tabs].map((tab) => {
          const range = document.createRange();
          range.selectNodeContents(tab);
          return [tab.textContent, new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size];
        });
      });
    // The points and leaderboard tabs come with their own reads, after the others.
    await expect.poll(async () => (await tabLines()).length, { timeout: 15_000 }).toBe(6);
    for (const [label, lines] of await tabLines()) expect(lines, String(label)).toBe(1);
    await browser.shot('branding-editor');
    // Nothing is saved until the merchant saves.
    const stored = async (slug: string) => (await api.get(`/schema/${slug}/record`, { limit: 1 })).body.data[0];
    expect((await stored('floating_widget')).alignment).toBe('bottom_right');
    await saveBar().getByRole('button', { name: 'Save' }).click();
    await saveBarHidden();
    expect(await stored('floating_widget')).toMatchObject({ alignment: 'top_left', alignmentPositionY: 90, eudTitle: 'Rewards club' });
    expect((await stored('theme')).primaryColor).toBe('rgba(255, 0, 0, 1)');
    expect((await stored('template')).loggedOutTitle).toBe('Welcome to the club');
  });

  it('keeps the focus in the field being typed in while the preview reloads and opens the widget', async () => {
    const { browser } = admin;
    await browser.open('/app/widget/branding');
    const title = page().getByLabel('Title for guests');
    await title.fill('Welcome to the club!');
    // The reloaded preview has opened its panel, whose first tab takes the focus inside the widget.
    await page().frameLocator('[data-testid="branding-preview"]').getByText('Welcome to the club!').waitFor({ timeout: 15_000 });
    // The panel moves the focus right after it renders: half a second is ample for it to have.
    await page().waitForTimeout(500);
    expect(await title.evaluate((input) => input === document.activeElement)).toBe(true);
    // Back as stored, so the page is left with nothing to save.
    await title.fill('Welcome to the club');
    await page()
      .frameLocator('[data-testid="branding-preview"]')
      .getByText('Welcome to the club', { exact: true })
      .waitFor({ timeout: 15_000 });
  });

  // CI runs of 2026-11-30 saw the German preview show the label typed second but not the title
  // typed first: under load, the German preview's widget opened as the title was typed and took the
  // focus, so the text went to the widget (the focus case above now guards that).
  describe('per language of the shop', () => {
    // What the preview met, printed when a case fails: refused requests, the widget's warnings,
    // each time the preview's document or the page's address changed, and the fields as they ended.
    let seen: string[] = [];
    const onResponse = (r: Response) => {
      if (r.status() >= 400) seen.push(`${r.status()} ${r.url()}`);
    };
    const onConsole = (m: ConsoleMessage) => {
      if (m.text().includes('[LoyaltyWidget]')) seen.push(`console: ${m.text()}`);
    };
    // The page's own address is followed too (history navigations): a change of language there remounts the editor.
    const onNavigated = (f: Frame) =>
      seen.push(`${f === page().mainFrame() ? `page at ${shown(f.url())}` : 'preview replaced'} at ${new Date().toISOString()}`);
    // The page's path and language: its other parameters are the session's.
    const shown = (url: string) => {
      const { pathname, searchParams } = new URL(url);
      return `${pathname} language=${searchParams.get('language') ?? '(none)'}`;
    };
    const previewText = async () => {
      try {
        const frame = await (await page().locator('[data-testid="branding-preview"]').elementHandle({ timeout: 2_000 }))?.contentFrame();
        const text = await frame?.evaluate(
          () => document.querySelector('loyalty-widget')?.shadowRoot?.querySelector('.lw-root')?.textContent ?? 'no widget',
        );
        return (text ?? 'no frame').slice(0, 600);
      } catch (err) {
        return `unread: ${String(err)}`;
      }
    };
    beforeAll(() => {
      admin.stack.admin.locales = [
        { locale: 'en', primary: true },
        { locale: 'de', primary: false },
      ];
      page().on('response', onResponse).on('console', onConsole).on('framenavigated', onNavigated);
    });
    afterAll(() => {
      admin.stack.admin.locales = [{ locale: 'en', primary: true }];
      page().off('response', onResponse).off('console', onConsole).off('framenavigated', onNavigated);
    });
    beforeEach(() => {
      seen = [];
      onTestFailed(async () => {
        const fields = await Promise.all(
          ['Title for guests', 'Button label'].map(
            async (label) => `${label}: ${await page().getByLabel(label).inputValue({ timeout: 2_000 }).catch(String)}`,
          ),
        );
        console.log(
          `what the preview met:\n${[...seen, `the fields at the end: ${fields.join('; ')}`, `its widget's text at the end: ${await previewText()}`].join('\n')}`,
        );
      });
    });
    // Each language is a page of its own, loaded again with the shop's locales: seconds apiece under CI's load.
    const reload = { timeout: 20_000 };
    const guestTitle = () => page().getByLabel('Title for guests').inputValue();
    const read = async (slug: string, languageCode: string) =>
      (await api.get(`/schema/${slug}/record`, { limit: 1, languageCode })).body.data[0];

    it('edits German beside English, with the preview in German', async () => {
      const { browser } = admin;
      await browser.open('/app/widget/branding');
      const language = page().getByLabel('Language', { exact: true });
      expect(await language.locator('option').allInnerTexts()).toEqual(['English (default)', 'German']);
      await language.selectOption('de');
      await page().waitForURL(/language=de/);
      // The URL can change before React mounts the German editor (a transition); typed into the
      // English one, the texts would be lost with it. The German editor's preview says its language.
      await page().locator('[data-testid="branding-preview"][lang="de"]').waitFor(reload);
      // German has no text of its own yet: it reads the default language's.
      await expect.poll(guestTitle, reload).toBe('Welcome to the club');
      await page().getByLabel('Title for guests').fill('Willkommen im Club');
      await page().getByLabel('Button label').fill('Prämien');
      await page().frameLocator('[data-testid="branding-preview"]').getByText('Willkommen im Club').waitFor(reload);
      await expect.poll(launcher, reload).toMatchObject({ label: 'Prämien' });
      // Another language is another page of texts: saved or discarded first.
      expect(await language.isDisabled()).toBe(true);
      await browser.shot('branding-editor-language');
      await saveBar().getByRole('button', { name: 'Save' }).click();
      await saveBarHidden();

      expect((await read('template', 'de')).loggedOutTitle).toBe('Willkommen im Club');
      expect((await read('floating_widget', 'de')).eudTitle).toBe('Prämien');
      expect((await read('template', 'en')).loggedOutTitle).toBe('Welcome to the club');
      expect((await read('floating_widget', 'en')).eudTitle).toBe('Rewards club');
    }, 120_000);

    it('leaves a text that reads as the default language’s unwritten, so it keeps following it', async () => {
      const { browser } = admin;
      const template = await read('template', 'en');
      expect((await api.patch(`/schema/template/record/${template.id}`, { loggedInTitle: 'Your club' })).status).toBe(200);
      expect((await read('template', 'de')).loggedInTitle).toBe('Your club');

      await browser.open('/app/widget/branding?language=de');
      await expect.poll(guestTitle, reload).toBe('Willkommen im Club');
      await page().getByLabel('Language', { exact: true }).selectOption('en');
      await page().waitForURL(/language=en/);
      await expect.poll(guestTitle, reload).toBe('Welcome to the club');
    }, 120_000);
  });

  it('shows the core refusals on their fields in words, in English and German', async () => {
    const { browser } = admin;
    await browser.open('/app/widget/branding');
    await page().getByLabel('Distance from the top or bottom').fill('5000');
    await page().getByLabel('Main colour', { exact: true }).fill('very red');
    await save();
    await page().getByText('Distance from the top or bottom can be at most 2,000.').first().waitFor();
    expect(await fieldError('Distance from the top or bottom')).toBe('Distance from the top or bottom can be at most 2,000.');
    expect(await fieldError('Main colour')).toBe('Main colour must be a colour such as #7c3aed.');
    await browser.shot('branding-editor-refusal');

    await browser.open('/app/widget/branding?locale=de');
    await page().getByLabel('Abstand nach oben oder unten').fill('5000');
    await save();
    await page().getByText('Abstand nach oben oder unten darf höchstens 2.000 sein.').first().waitFor();
    expect(await fieldError('Abstand nach oben oder unten')).toBe('Abstand nach oben oder unten darf höchstens 2.000 sein.');
    await browser.shot('branding-editor-de');
  });
});
