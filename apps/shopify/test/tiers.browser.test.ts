import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '../../core/test/support/harness';
import { type AdminApp, startAdminApp } from './support/admin';
import { APP_BRIDGE_UI, editorUi } from './support/app-bridge-ui';
import { orderPayload } from './support/orders';
import { creatorFor } from './support/programs';
import { TEST_SHOP, webhookRequest } from './support/stack';
import { until } from './support/until';

/**
 * The VIP tiers page and editor in Chromium (production build, real core): from the empty ladder the
 * merchant creates two tiers with an entry reward each, sees the editor's and the core's refusals on
 * their fields in English and German, finds the generic page only in the Advanced menu, deletes a
 * tier after a confirmation; then a shopper's paid order lifts the member into a tier, which the
 * member page shows, and the tier's entry reward is issued.
 */
let admin: AdminApp;
let api: Client;
const created = creatorFor(() => api);
const tierIds: Record<string, string> = {};
let silverGift: { id: string };

beforeAll(async () => {
  admin = await startAdminApp(async (installed) => {
    const account = (await installed.app.shops.find(TEST_SHOP))!;
    api = installed.core.anon.with({ 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
    const [setting] = (await api.get('/schema/points_setting/record')).body.data;
    const on = await api.patch(`/schema/points_setting/record/${setting.id}`, {
      status: 'live',
      pointsPerCurrencyUnit: 1,
      eudCurrencyName: 'Stars',
    });
    expect(on.status).toBe(200);
    const gift = (name: string, couponCodePrefix: string) =>
      created('/schema/reward/record', {
        name,
        description: 'd',
        discountType: 'percentage',
        discountValue: 10,
        rewardExpiryType: 'no_expiry',
        handleCoupon: true,
        handleCouponAutoGeneration: true,
        couponCodePrefix,
      });
    silverGift = await gift('Silver welcome gift', 'SILVER');
    await gift('Gold welcome gift', 'GOLD');
  });
  await admin.browser.page.addInitScript(APP_BRIDGE_UI);
}, 120_000);

afterAll(() => admin?.close());

const page = () => admin.browser.page;
const { saveBar, saveBarHidden, toasts, save, fieldError } = editorUi(page);
/** Saves a new tier with the save bar; it moves to its own address. Answers its id. */
async function saveNew(): Promise<string> {
  await saveBar().getByRole('button', { name: 'Save' }).click();
  await page().waitForURL(/\/app\/tiers\/[0-9a-f-]{36}/);
  await saveBarHidden();
  return /\/app\/tiers\/([0-9a-f-]{36})/.exec(page().url())![1]!;
}
const ladder = () => page().getByRole('list', { name: 'VIP tiers' }).getByRole('listitem').allInnerTexts();
const oneLine = (texts: string[]) => texts.map((t) => t.replace(/\s+/g, ' ').trim());

describe('the VIP tiers editor', () => {
  it('starts from an illustrated empty ladder, and creates a tier in words with its entry reward', async () => {
    const { browser } = admin;
    await browser.open('/app/tiers');
    await page().getByText('Reward your best customers with VIP tiers').waitFor();
    await page()
      .getByText(
        'A member’s tier counts the Stars earned in the last 12 months, so members who stop buying move down as old Stars leave that window.',
      )
      .waitFor();
    expect(await page().locator('img[src="/empty-state.svg"]').count()).toBe(1);
    await browser.shot('tiers-empty');
    await page().getByRole('link', { name: 'Create the first tier' }).click();
    await page().waitForURL(/\/app\/tiers\/new/);
    await page().getByLabel('Name', { exact: true }).fill('Silver');
    await page().getByLabel('Stars to reach it').fill('100');
    await page().getByLabel('Points multiplier').fill('1.5');
    expect(await page().getByLabel('Reward on reaching it').locator('option').allInnerTexts()).toEqual([
      'No reward',
      'Gold welcome gift',
      'Silver welcome gift',
    ]);
    await page().getByLabel('Reward on reaching it').selectOption({ label: 'Silver welcome gift' });
    await page().getByText('From 100 Stars · earns 1.5× Stars').waitFor();
    await browser.shot('tier-editor-new');
    tierIds.silver = await saveNew();
    expect(await toasts()).toContain('Created');
    expect((await api.get(`/schema/tier/record/${tierIds.silver}`)).body.data).toMatchObject({
      name: 'Silver',
      eudTitle: 'Silver',
      status: 'live',
      pointsThreshold: 100,
      earnMultiplier: 1.5,
      entryRewardId: silverGift.id,
    });
  });

  it('refuses a multiplier of 1.25 on its field, then saves the second tier from the ladder', async () => {
    const { browser } = admin;
    await browser.open('/app/tiers');
    await page().getByRole('link', { name: 'New tier' }).first().click();
    await page().waitForURL(/\/app\/tiers\/new/);
    await page().getByLabel('Name', { exact: true }).fill('Gold');
    await page().getByLabel('Stars to reach it').fill('1000');
    await page().getByLabel('Points multiplier').fill('1.25');
    await page().getByLabel('Reward on reaching it').selectOption({ label: 'Gold welcome gift' });
    await save();
    expect(await fieldError('Points multiplier')).toBe('Points multiplier can have one decimal at most, e.g. 1.5.');
    expect((await api.get('/schema/tier/record')).body.data).toHaveLength(1);
    await page().getByLabel('Points multiplier').fill('2');
    // Silver's number: which of two live tiers from one number a member is in would be left to chance.
    await page().getByLabel('Stars to reach it').fill('100');
    await save();
    await page().getByText('Silver starts at this number too').first().waitFor();
    expect(await fieldError('Stars to reach it')).toBe('Silver starts at this number too: give each live tier a number of its own.');
    expect((await api.get('/schema/tier/record')).body.data).toHaveLength(1);
    await page().getByLabel('Stars to reach it').fill('1000');
    tierIds.gold = await saveNew();

    await browser.open('/app/tiers');
    expect(oneLine(await ladder())).toEqual([
      expect.stringMatching(/^1\. Silver .*Live From 100 Stars · earns 1\.5× Stars 0 members Reward on reaching it: Silver welcome gift$/),
      expect.stringMatching(/^2\. Gold .*Live From 1,000 Stars · earns 2× Stars 0 members Reward on reaching it: Gold welcome gift$/),
    ]);
    await browser.shot('tiers-ladder');
  });

  it('shows the core’s refusal on its field in German, then saves the change', async () => {
    const { browser } = admin;
    await browser.open(`/app/tiers/${tierIds.gold}?locale=de`);
    await page().getByLabel('Stars bis zur Stufe').fill('2000000000');
    await save();
    await page().getByText('Stars bis zur Stufe darf höchstens 1.000.000.000 sein.').waitFor();
    expect(await fieldError('Stars bis zur Stufe')).toBe('Stars bis zur Stufe darf höchstens 1.000.000.000 sein.');
    await browser.shot('tier-editor-refusal-de');
    await page().getByLabel('Punkte-Multiplikator').fill('1.25');
    await save();
    expect(await fieldError('Punkte-Multiplikator')).toBe('Punkte-Multiplikator darf höchstens eine Nachkommastelle haben, z. B. 1,5.');
    await browser.shot('tier-editor-multiplier-de');
    await page().getByLabel('Punkte-Multiplikator').fill('2.5');
    await page().getByLabel('Stars bis zur Stufe').fill('1500');
    await save();
    await saveBarHidden();
    expect((await api.get(`/schema/tier/record/${tierIds.gold}`)).body.data).toMatchObject({ pointsThreshold: 1500, earnMultiplier: 2.5 });

    await browser.open('/app/tiers?locale=de');
    // The shop calls its points Stars in every language of the admin.
    expect(oneLine(await page().getByRole('list', { name: 'VIP-Stufen' }).getByRole('listitem').allInnerTexts())).toEqual([
      expect.stringMatching(
        /^1\. Silver .*Live Stars: ab 100 · sammelt 1,5× Stars 0 Mitglieder Prämie beim Erreichen: Silver welcome gift$/,
      ),
      expect.stringMatching(
        /^2\. Gold .*Live Stars: ab 1\.500 · sammelt 2,5× Stars 0 Mitglieder Prämie beim Erreichen: Gold welcome gift$/,
      ),
    ]);
    await browser.shot('tiers-ladder-de');
  });

  it('the generic list’s names open the editor; the generic page is in the Advanced menu only; a delete asks first', async () => {
    const { browser } = admin;
    await browser.open('/app/r/tier');
    expect(await page().getByRole('link', { name: 'Gold' }).getAttribute('href')).toBe(`/app/tiers/${tierIds.gold}`);
    await page().getByRole('link', { name: 'Gold' }).click();
    await page().waitForURL(/\/app\/tiers\//);
    await page().getByRole('button', { name: 'Advanced' }).click();
    await page().getByRole('link', { name: 'All fields' }).click();
    await page().waitForURL(new RegExp(`/app/r/tier/${tierIds.gold}`));

    await browser.open('/app/tiers/new');
    await page().getByLabel('Name', { exact: true }).fill('Bronze');
    await page().getByLabel('Stars to reach it').fill('0');
    const bronze = await saveNew();
    await page().getByRole('button', { name: 'Delete' }).first().click();
    const dialog = page().getByRole('dialog');
    await dialog.getByText('Delete Bronze?').waitFor();
    await browser.shot('tier-editor-delete');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await api.get(`/schema/tier/record/${bronze}`)).status).toBe(200);
    await page().getByRole('button', { name: 'Delete' }).first().click();
    await page().getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page().waitForURL(/\/app\/tiers(\?|$)/);
    expect((await api.get(`/schema/tier/record/${bronze}`)).status).toBe(404);
  });

  it('the goal: a shopper’s paid order lifts the member into Silver, with its entry reward', async () => {
    const { browser } = admin;
    // Shopify's orders/paid, signed as Shopify signs it: 120 of products earn 120 Stars, past Silver's 100.
    const request = await webhookRequest(
      'orders/paid',
      orderPayload(7101, {
        customer: { id: 7101, first_name: 'Vera', last_name: 'Shopper', email: 'vera@example.com' },
        lines: [{ product: 1, quantity: 3, price: '40.00' }],
      }),
    );
    const delivered = await fetch(`${admin.server.url}/webhooks/orders/paid`, {
      method: 'POST',
      headers: request.headers,
      body: await request.text(),
    });
    expect(delivered.status).toBe(200);
    const vera = {
      operator: 'and',
      conditions: [{ fieldSlug: 'externalId', operator: 'equals', fieldValue: 'gid://shopify/Customer/7101' }],
    };
    const member = async () => (await api.get('/schema/account_user/record', { filters: vera })).body.data[0];
    await until('Vera in Silver', async () => (await member())?.tierId === tierIds.silver);
    expect(await member()).toMatchObject({ pointsBalance: 120, tierId: tierIds.silver });
    const logs = (
      await api.get('/schema/reward_log/record', {
        filters: { operator: 'and', conditions: [{ fieldSlug: 'ownedById', operator: 'equals', fieldValue: (await member()).id }] },
      })
    ).body.data as { rewardId: string }[];
    expect(logs.map((l) => l.rewardId)).toEqual([silverGift.id]);

    await browser.open('/app/members?q=vera');
    await page().getByRole('link', { name: 'Vera Shopper' }).click();
    await page().getByText('Balance: 120', { exact: true }).waitFor();
    await page().getByText('VIP tier: Silver').waitFor();
    expect(await page().getByRole('link', { name: 'Silver' }).getAttribute('href')).toBe(`/app/tiers/${tierIds.silver}`);
    // The entry reward says where it was earned in words, never the core's slug.
    const rewards = page().getByRole('region', { name: 'Rewards and codes' });
    expect((await rewards.innerText()).replace(/\s+/g, ' ')).toMatch(/Silver welcome gift VIP tier (Success )?Issued SILVER/);
    await browser.shot('tier-member');

    // The ladder counts her in Silver.
    await browser.open('/app/tiers');
    expect(oneLine(await ladder())).toEqual([
      expect.stringMatching(/^1\. Silver .* 1 member Reward on reaching it/),
      expect.stringMatching(/^2\. Gold .* 0 members Reward on reaching it/),
    ]);

    // Deleting Silver, or the reward it gives, first says what else goes: nothing is deleted here.
    await browser.open(`/app/tiers/${tierIds.silver}`);
    await page().getByRole('button', { name: 'Delete' }).first().click();
    await page()
      .getByRole('dialog')
      .getByText('1 member is in this tier now: they will be in none until their next points, or the daily pass, place them in another.')
      .waitFor();
    await page().getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    await browser.open(`/app/rewards/${silverGift.id}`);
    await page().getByRole('button', { name: 'Delete' }).first().click();
    await page().getByRole('dialog').getByText('Silver gives it to members who reach it: it will give nothing then.').waitFor();
    await page().getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
    expect((await api.get(`/schema/tier/record/${tierIds.silver}`)).status).toBe(200);
    expect((await api.get(`/schema/reward/record/${silverGift.id}`)).status).toBe(200);
  });
});
