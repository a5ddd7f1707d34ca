import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../core/test/support/harness';
import { type AdminApp, startAdminApp } from './support/admin';
import { APP_BRIDGE_UI } from './support/app-bridge-ui';
import { creatorFor } from './support/programs';
import { TEST_SHOP } from './support/stack';

/**
 * The merchant-worded editors in Chromium (production build, real core): each creates and changes
 * its record, shows the core's refusals in words on their fields in English and German, and offers
 * the generic "All fields" page only from its Advanced menu.
 */
let admin: AdminApp;
let api: Client;
const created = creatorFor(() => api);
let streak: { id: string };

beforeAll(async () => {
  admin = await startAdminApp(async (installed) => {
    const account = (await installed.app.shops.find(TEST_SHOP))!;
    api = installed.core.anon.with({ 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
    streak = await created('/schema/streak/record', { name: 'Daily visit', status: 'live' });
    await created('/schema/challenge/record', { name: 'Spend 200', status: 'live', completionTargetValue: 200 });
  });
  await admin.browser.page.addInitScript(APP_BRIDGE_UI);
}, 120_000);

afterAll(() => admin?.close());

const page = () => admin.browser.page;
const saveBar = () => page().locator('ui-save-bar');
const saveBarHidden = () => page().locator('ui-save-bar:not([data-showing])').waitFor({ state: 'attached' });
const toasts = () => page().evaluate(() => (window as unknown as { __toasts: string[] }).__toasts);
const save = () =>
  page()
    .getByRole('button', { name: /^(Save|Speichern)$/ })
    .first()
    .click();
/** The error Polaris shows under a field, found by the field's label. */
const fieldError = async (label: string) => {
  const input = page().getByLabel(label, { exact: true });
  const described = await input.getAttribute('aria-describedby');
  const ids = (described ?? '').split(' ').filter((id) => id.endsWith('Error'));
  return ids.length ? page().locator(`[id="${ids[0]}"]`).innerText() : '';
};

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
