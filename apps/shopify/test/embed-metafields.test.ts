import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { getJwt, TEST_SHOP, TEST_SHOP_NAME } from '@shopify/shopify-api/test-helpers';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../core/test/support/harness';
import { STUB_SHOP } from './support/admin-stub';
import { HEADLESS_SHELL } from './support/browser';
import { type Production, startProduction } from './support/production';
import { SHOPIFY, webhookRequest } from './support/stack';
import { renderEmbed, storefront } from './support/storefront';

/**
 * The theme app embed's ids in the app-owned metafields, through the production build (its own
 * `start`) and the core's `serve`: written at install and whenever the records the embed shows
 * change through the admin, with the inputs Shopify documents (the Admin API stub refuses others).
 */
let prod: Production;
let api: Client;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

/** The fields MetafieldsSetInput has in Shopify's Admin GraphQL reference (2025-10). */
const METAFIELDS_SET_INPUT_FIELDS = new Set(['ownerId', 'namespace', 'key', 'value', 'type', 'compareDigest']);

async function adminLoad(path: string): Promise<Response> {
  const { token } = await getJwt(TEST_SHOP_NAME, SHOPIFY.apiKey, SHOPIFY.apiSecretKey);
  const url = new URL(path, prod.url);
  url.searchParams.set('embedded', '1');
  url.searchParams.set('shop', TEST_SHOP);
  url.searchParams.set('host', Buffer.from(`admin.shopify.com/store/${TEST_SHOP_NAME}`).toString('base64'));
  url.searchParams.set('id_token', token);
  return fetch(url, { headers: { 'user-agent': BROWSER }, redirect: 'manual' });
}

/** An admin page's action as App Bridge's fetch sends it: JSON with the session token. */
async function post(path: string, body: Record<string, unknown>): Promise<Response> {
  const { token } = await getJwt(TEST_SHOP_NAME, SHOPIFY.apiKey, SHOPIFY.apiSecretKey);
  return fetch(`${prod.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'user-agent': BROWSER },
    body: JSON.stringify(body),
    redirect: 'manual',
  });
}

/** The `$app:loyalty` metafield the embed reads, as the stub holds it. */
const owned = (key: string) => prod.admin.metafields.get(`${STUB_SHOP.id}|$app:loyalty|${key}`);
const embedIds = () => ({ template: owned('template_id'), theme: owned('theme_id'), floating_widget: owned('floating_widget_id') });

async function live(slug: string): Promise<{ id: string }[]> {
  const res = await api.get(`/schema/${slug}/record`, {
    filters: { operator: 'and', conditions: [{ fieldSlug: 'status', operator: 'equals', fieldValue: 'live' }] },
    sortBy: [{ fieldSlug: 'createdAt', order: 'ASC' }],
  });
  return res.body.data;
}

const WIDGET = fileURLToPath(new URL('../../../packages/widget/', import.meta.url));

/** What the app asked metafieldsSet, each input as Shopify's reference types it. */
function expectDocumentedInputs() {
  const inputs = prod.admin.requests
    .filter((r) => r.operation === 'LoyaltyMetafields')
    .flatMap((r) => r.variables.metafields as Record<string, unknown>[]);
  expect(inputs.length).toBeGreaterThan(0);
  for (const input of inputs) {
    expect(
      Object.keys(input).every((k) => METAFIELDS_SET_INPUT_FIELDS.has(k)),
      JSON.stringify(input),
    ).toBe(true);
    expect(input).toMatchObject({ ownerId: STUB_SHOP.id, type: 'single_line_text_field' });
    expect(input.key).toMatch(/^[\w-]{2,64}$/);
    expect(String(input.value).trim()).not.toBe('');
  }
}

beforeAll(async () => {
  prod = await startProduction();
  expect((await adminLoad('/app')).status).toBe(200);
  const account = (await prod.shops.find(TEST_SHOP))!;
  api = new Client(`${prod.core.url}/api/v1.0`, { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
}, 120_000);

afterAll(() => prod?.close());

describe('the embed reads its ids from the app-owned metafields', () => {
  it('at install: the account and the core URL; no widget ids while the account has no live records', async () => {
    expect(owned('account_id')).toBe((await prod.shops.find(TEST_SHOP))!.accountId);
    expect(owned('base_url')).toBe(prod.core.url);
    expect(embedIds()).toEqual({ template: undefined, theme: undefined, floating_widget: undefined });
    expectDocumentedInputs();
    // Rendered: the theme editor says what is missing; the storefront shows nothing.
    expect(await renderEmbed(prod.admin, { designMode: true, assets: '' })).toContain(
      'Loyalty widget: open the Loyalty app and finish “Show it on your store”',
    );
    expect((await renderEmbed(prod.admin, { designMode: false, assets: '' })).trim()).toBe('');
  });

  it('the first program creates the widget records and writes their ids', async () => {
    const res = await post('/app/onboarding', { intent: 'create', template: 'daily-visit', status: 'live', shopifyDiscounts: false });
    expect(res.status, await res.clone().text()).toBe(200);
    const [template] = await live('template');
    const [theme] = await live('theme');
    const [launcher] = await live('floating_widget');
    expect(embedIds()).toEqual({ template: template!.id, theme: theme!.id, floating_widget: launcher!.id });
    expectDocumentedInputs();
  });

  it('rendered as the storefront renders the embed, it shows a guest the launcher, with no setting typed', async () => {
    if (!existsSync(`${WIDGET}dist/loader.js`)) execFileSync('node', ['scripts/build.mjs'], { cwd: WIDGET, stdio: 'inherit' });
    // The embed's one setting reaches init: the reminder beside the launcher, on unless the merchant unticks it.
    expect(await renderEmbed(prod.admin, { designMode: false, assets: '' })).toContain('nudges: true,');
    expect(await renderEmbed(prod.admin, { designMode: false, assets: '', nudges: false })).toContain('nudges: false,');
    const shop = await storefront(async () => renderEmbed(prod.admin, { designMode: false, assets: shop.origin + '/assets' }));
    const browser = await chromium.launch({ executablePath: HEADLESS_SHELL, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage();
      await page.goto(shop.origin);
      const launcher = page.locator('loyalty-widget').locator('.lw-launcher');
      await launcher.waitFor({ timeout: 15_000 });
      await launcher.click();
      await expect.poll(() => page.locator('loyalty-widget').locator('[role="dialog"]').count()).toBe(1);
    } finally {
      await browser.close();
      shop.server.close();
    }
  });

  it('a Loyalty program block shows the program in the page, its theme editor notice hidden once it does and seen while the embed is off', async () => {
    const assets = () => `${shop.origin}/assets`;
    let embedOn = true;
    const shop = await storefront(async () =>
      [
        await renderEmbed(prod.admin, { designMode: true, assets: assets(), block: 'loyalty-page' }),
        embedOn ? await renderEmbed(prod.admin, { designMode: true, assets: assets() }) : '',
      ].join('\n'),
    );
    const browser = await chromium.launch({ executablePath: HEADLESS_SHELL, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage();
      const notice = page.getByText('your program shows here once the “Loyalty widget” app embed is on', { exact: false });
      await page.goto(shop.origin);
      const region = page.locator('loyalty-page [role="region"]');
      await region.getByRole('tab').first().waitFor({ timeout: 15_000 });
      expect(await region.getByRole('tab').count()).toBeGreaterThan(0);
      expect(await notice.isVisible()).toBe(false);
      // The floating launcher is the embed's as ever.
      expect(await page.locator('loyalty-widget .lw-launcher').count()).toBe(1);
      embedOn = false;
      await page.goto(shop.origin);
      await notice.waitFor();
      expect(await page.locator('loyalty-page [role="region"]').count()).toBe(0);
    } finally {
      await browser.close();
      shop.server.close();
    }
  });

  it('a change in the admin moves them: another live theme, then the first one paused, then the launcher deleted', async () => {
    const [first] = await live('theme');
    const created = await post('/app/r/theme/new', { intent: 'save', inputs: { name: 'Winter', status: 'live' } });
    expect(created.status).toBe(302);
    const second = (await live('theme')).find((t) => t.id !== first!.id)!;
    // The oldest live theme is the one shown; a newer live one changes nothing yet.
    expect(owned('theme_id')).toBe(first!.id);

    const paused = await post(`/app/r/theme/${first!.id}`, { intent: 'save', inputs: { status: 'paused' } });
    expect(paused.status).toBe(200);
    expect(owned('theme_id')).toBe(second.id);

    const [launcher] = await live('floating_widget');
    const deleted = await post(`/app/r/floating_widget/${launcher!.id}`, { intent: 'delete' });
    expect(deleted.status).toBe(302);
    // No live launcher: the key goes, so the embed says what is missing instead of showing a record taken down.
    expect(owned('floating_widget_id')).toBeUndefined();
    expect(prod.admin.requests.some((r) => r.operation === 'LoyaltyMetafieldsDelete')).toBe(true);
    expectDocumentedInputs();

    // The checklist's "Create them" brings a launcher back, and its id.
    const again = await post('/app/onboarding', { intent: 'widget' });
    expect(again.status).toBe(200);
    expect(owned('floating_widget_id')).toBe((await live('floating_widget'))[0]!.id);
  });

  it('a reinstall writes the ids of the records the account already has, at install', async () => {
    const request = await webhookRequest('app/uninstalled', { domain: TEST_SHOP });
    expect((await prod.send(request)).status).toBe(200);
    prod.admin.metafields.clear();
    const installs = prod.admin.tokenExchanges.length;
    expect((await adminLoad('/app')).status).toBe(200);
    expect(prod.admin.tokenExchanges.length).toBeGreaterThan(installs);
    // The reinstall minted the account a new key.
    const account = (await prod.shops.find(TEST_SHOP))!;
    api = new Client(`${prod.core.url}/api/v1.0`, { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
    const [template] = await live('template');
    const [theme] = await live('theme');
    const [launcher] = await live('floating_widget');
    expect(embedIds()).toEqual({ template: template!.id, theme: theme!.id, floating_widget: launcher!.id });
    expectDocumentedInputs();
  });
});
