import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/browser.js';

// The built loader (scripts/build.mjs) as the theme app embed serves it, on a storefront of the
// test's own: every page of https://shop.test loads it, and the test answers the cart.
const LOADER = readFileSync(new URL('../dist/loader.js', import.meta.url), 'utf8');
const SHOP = 'https://shop.test';
const CODE = 'K7M3QX9P';
const DAY_MS = 86_400_000;

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

interface CartUpdate {
  method: string;
  contentType: string | undefined;
  body: unknown;
}

/**
 * A tab of the storefront, a Shopify one (its theme sets `window.Shopify`) unless `shopify` is
 * false; its cart answers `cart` (a status, or `abort` for no answer). Collects the cart updates and
 * whatever the page throws or logs, but the browser's own line for a failed request.
 */
async function tab(context: BrowserContext, { shopify = true, cart = 200 as number | 'abort' } = {}) {
  const page = await context.newPage();
  const updates: CartUpdate[] = [];
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(err.message));
  page.on('console', (m) => {
    if (!m.text().startsWith('Failed to load resource')) problems.push(`${m.type()}: ${m.text()}`);
  });
  await page.route(`${SHOP}/**`, async (route) => {
    const request = route.request();
    const { pathname } = new URL(request.url());
    if (pathname === '/loader.js') return route.fulfill({ contentType: 'application/javascript', body: LOADER });
    if (pathname === '/cart/update.js') {
      updates.push({ method: request.method(), contentType: request.headers()['content-type'], body: request.postDataJSON() });
      return cart === 'abort' ? route.abort() : route.fulfill({ status: cart, contentType: 'application/json', body: '{}' });
    }
    const theme = shopify ? '<script>window.Shopify = { shop: "shop-test.myshopify.com" };</script>' : '';
    return route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>Shop</title>${theme}<script type="module" src="/loader.js"></script>`,
    });
  });
  // Network idle: the loader ran, and any cart update it sends has been answered.
  const visit = (path: string) => page.goto(`${SHOP}${path}`, { waitUntil: 'networkidle' });
  const kept = () => page.evaluate(() => localStorage.getItem('loyalty-ref'));
  const written = () => page.evaluate(() => sessionStorage.getItem('loyalty-ref'));
  return { page, updates, problems, visit, kept, written };
}

const update = (code: string): CartUpdate => ({
  method: 'POST',
  contentType: 'application/json',
  body: { attributes: { _loyalty_ref: code } },
});

describe('a referral link on the storefront', () => {
  it('keeps its code for 30 days and writes it to the cart, then again once in each later session', async () => {
    const context = await browser.newContext();
    const first = await tab(context);
    await first.visit(`/products/tee?utm_source=share&loyalty_ref=${CODE}`);
    expect(first.updates).toEqual([update(CODE)]);
    const [code, until] = (await first.kept())!.split(' ');
    expect(code).toBe(CODE);
    expect(Math.abs(Number(until) - (Date.now() + 30 * DAY_MS))).toBeLessThan(60_000);
    expect(await first.written()).toBe(CODE);
    // The rest of the session: the cart has it already.
    await first.visit('/collections/all');
    await first.visit('/cart');
    expect(first.updates).toHaveLength(1);

    // A later session (a new tab: sessionStorage is per tab) may have a new cart, without attributes.
    const later = await tab(context);
    await later.visit('/');
    expect(later.updates).toEqual([update(CODE)]);
    await later.visit('/pages/about');
    expect(later.updates).toHaveLength(1);

    // A second link followed in the same session counts instead: written at once, kept from then on.
    await first.visit('/?loyalty_ref=23456789');
    expect(first.updates).toEqual([update(CODE), update('23456789')]);
    expect((await first.kept())!.split(' ')[0]).toBe('23456789');

    // 30 days on, the code is no more.
    await first.page.evaluate((code) => localStorage.setItem('loyalty-ref', `${code} ${Date.now() - 1}`), CODE);
    const expired = await tab(context);
    await expired.visit('/');
    expect(expired.updates).toEqual([]);
    expect([...first.problems, ...later.problems, ...expired.problems]).toEqual([]);
    await context.close();
  });

  it('writes to no cart where the page is no Shopify storefront, and the widget still starts', async () => {
    const context = await browser.newContext();
    const page = await tab(context, { shopify: false });
    await page.visit(`/?loyalty_ref=${CODE}`);
    expect(page.updates).toEqual([]);
    expect((await page.kept())?.split(' ')[0]).toBe(CODE);
    expect(await page.page.evaluate(() => typeof (window as { LoyaltyWidget?: { init?: unknown } }).LoyaltyWidget?.init)).toBe('function');
    expect(page.problems).toEqual([]);
    await context.close();
  });

  it('ignores a code the core never gives: wrong length, small letters, look-alikes, anything else', async () => {
    const context = await browser.newContext();
    const page = await tab(context);
    for (const given of ['K7M3QX9', 'K7M3QX9PP', 'k7m3qx9p', 'K7M3QX9O', 'K7M3QX91', 'K7M3QXI9', '%3Cscript%3E', '', 'K7M3QX9P%20']) {
      await page.visit(`/?loyalty_ref=${given}`);
      expect(page.updates, given).toEqual([]);
      expect(await page.kept(), given).toBeNull();
    }
    expect(page.problems).toEqual([]);
    await context.close();
  });

  it('never disturbs the page: a cart that fails is tried again on the next page, storage refused is nothing', async () => {
    for (const cart of [500, 'abort'] as const) {
      const context = await browser.newContext();
      const page = await tab(context, { cart });
      await page.visit(`/?loyalty_ref=${CODE}`);
      expect(await page.written()).toBeNull();
      await page.visit('/collections/all');
      expect(page.updates, String(cart)).toEqual([update(CODE), update(CODE)]);
      expect(page.problems).toEqual([]);
      await context.close();
    }
    // A browser that refuses storage to the page (blocked cookies): the loader carries on without a code.
    const context = await browser.newContext();
    await context.addInitScript(() => {
      for (const name of ['localStorage', 'sessionStorage'])
        Object.defineProperty(window, name, {
          get() {
            throw new DOMException('The operation is insecure.', 'SecurityError');
          },
        });
    });
    const page = await tab(context);
    await page.visit(`/?loyalty_ref=${CODE}`);
    expect(page.updates).toEqual([]);
    expect(await page.page.evaluate(() => typeof (window as { LoyaltyWidget?: { init?: unknown } }).LoyaltyWidget?.init)).toBe('function');
    expect(page.problems).toEqual([]);
    await context.close();
  });
});
