import { TEST_SHOP } from '@shopify/shopify-api/test-helpers';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../core/test/support/harness';
import { adminFetch } from './support/admin-fuzz';
import { ARTIFACTS, HEADLESS_SHELL } from './support/browser';
import { adminLoad, orderPayload } from './support/orders';
import { giftReward } from './support/programs';
import { type Production, startProduction } from './support/production';
import { proxyRequest, webhookRequest } from './support/stack';
import { renderEmbed, storefront } from './support/storefront';
import { until } from './support/until';

/**
 * A referred friend's gift from end to end, through what ships: the theme embed rendered as a
 * storefront renders it, its loader and widget from the core's `serve`, the storefront's app proxy
 * forwarding to the app's production build with Shopify's signature (its test helpers), the code a
 * real Shopify discount at the Admin API stub, and the friend's order a Shopify-signed webhook. It
 * ends where the merchant's goal is: the new customer's order counted and the member who referred
 * them credited.
 */
let prod: Production;
let api: Client;
let browser: Browser;

beforeAll(async () => {
  prod = await startProduction();
  expect((await adminLoad(prod.url, '/app')).status).toBe(200);
  const account = (await prod.shops.find(TEST_SHOP))!;
  api = new Client(`${prod.core.url}/api/v1.0`, { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
  // The first program makes the widget's records and writes their ids for the embed.
  const created = await adminFetch(prod.url, '/app/onboarding', {
    contentType: 'application/json',
    text: JSON.stringify({ intent: 'create', template: 'daily-visit', status: 'live', shopifyDiscounts: false }),
  });
  expect(created.status).toBe(200);
  browser = await chromium.launch({ executablePath: HEADLESS_SHELL, args: ['--no-sandbox'] });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await prod?.close();
});

const readBody = async (req: AsyncIterable<Buffer>) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
};

describe('a referred friend’s gift on the storefront', () => {
  it('the friend follows the link, claims their code in the widget, applies it, and their first order credits the member', async () => {
    const setting = (await api.get('/schema/points_setting/record')).body.data[0];
    const giftId = await giftReward(api, prod.appPool, { eudTitle: '$10 off your first order' });
    const on = await api.patch(`/schema/points_setting/record/${setting.id}`, {
      status: 'live',
      pointsOnReferral: 200,
      referralRewardId: giftId,
    });
    expect(on.status, JSON.stringify(on.body)).toBe(200);

    // The member who shares the link: a signed-in customer whose storefront asked for their token.
    const token = await prod.send(
      await proxyRequest('/apps/loyalty/token', { logged_in_customer_id: '880', path_prefix: '/apps/loyalty' }),
    );
    expect(token.status).toBe(200);
    const member = (
      await api.get('/schema/account_user/record', {
        filters: {
          operator: 'and',
          conditions: [{ fieldSlug: 'externalId', operator: 'equals', fieldValue: 'gid://shopify/Customer/880' }],
        },
      })
    ).body.data[0] as { id: string; referralCode: string; pointsBalance: number };

    // The storefront: its pages carry the embed (Shopify's storefront object on them), its app proxy
    // forwards /apps/loyalty/* signed, its cart keeps attributes and the code a /discount link applies.
    const cart: { attributes: Record<string, string>; discount: string | null } = { attributes: {}, discount: null };
    const shop = await storefront(
      async () =>
        `<script>window.Shopify = { shop: ${JSON.stringify(TEST_SHOP)} };</script>${await renderEmbed(prod.admin, { designMode: false, assets: `${shop.origin}/assets` })}`,
      async (req, res) => {
        const url = new URL(req.url ?? '/', shop.origin);
        if (url.pathname.startsWith('/apps/loyalty/')) {
          const text = await readBody(req);
          const signed = await proxyRequest(
            url.pathname,
            { ...Object.fromEntries(url.searchParams), path_prefix: '/apps/loyalty' },
            req.method,
            text ? JSON.parse(text) : undefined,
          );
          const answer = await prod.send(signed);
          res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
          res.end(Buffer.from(await answer.arrayBuffer()));
          return true;
        }
        if (url.pathname === '/cart/update.js') {
          Object.assign(cart.attributes, (JSON.parse(await readBody(req)) as { attributes: Record<string, string> }).attributes);
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ attributes: cart.attributes }));
          return true;
        }
        const applied = /^\/discount\/([^/]+)$/.exec(url.pathname);
        if (applied) {
          cart.discount = decodeURIComponent(applied[1]!);
          res.writeHead(302, { location: url.searchParams.get('redirect') ?? '/' });
          res.end();
          return true;
        }
        if (url.pathname === '/cart') {
          res.writeHead(200, { 'content-type': 'text/html' });
          res.end(
            `<!doctype html><html lang="en"><head><title>Cart</title></head><body><h1>Cart</h1><p>Discount ${cart.discount}</p></body></html>`,
          );
          return true;
        }
        return false;
      },
    );
    try {
      const page = await browser.newPage();
      await page.goto(`${shop.origin}/?loyalty_ref=${member.referralCode}`);
      // The link's first visit: the panel opens by itself on the gift.
      const gift = page.locator('loyalty-widget').locator('[data-gift]');
      await gift.waitFor({ timeout: 20_000 });
      expect(await gift.textContent()).toContain('$10 off your first order');
      await gift.getByLabel('Enter your e-mail to get your code.').fill('friend@example.com');
      await gift.getByRole('button', { name: 'Get my code' }).click();
      const code = gift.locator('code');
      await code.waitFor();
      const claimed = (await code.textContent())!;
      expect(claimed).toMatch(/^FRIEND-[2-9A-HJ-NP-Z]{8}$/);
      await page.screenshot({ path: `${ARTIFACTS}referral-gift-claimed.png` });
      // A real Shopify discount for that code: $10 off, once.
      expect(prod.admin.discounts.get(claimed)?.input).toMatchObject({
        code: claimed,
        usageLimit: 1,
        customerGets: { value: { discountAmount: { amount: '10.00', appliesOnEachItem: false } } },
      });
      await gift.getByRole('link', { name: 'Apply to my cart' }).click();
      await page.getByRole('heading', { name: 'Cart' }).waitFor();
      expect(cart.discount).toBe(claimed);
      expect(cart.attributes).toEqual({ _loyalty_ref: member.referralCode });
      await page.close();

      // The friend's first order, as Shopify sends it: the cart's attribute and the code applied.
      const now = new Date().toISOString();
      const paid = await prod.send(
        await webhookRequest(
          'orders/paid',
          orderPayload(1, {
            customer: { id: 881, email: 'friend@example.com', created_at: now },
            lines: [{ product: 1, quantity: 2, price: '20.00' }],
            discountCodes: [{ code: claimed, amount: '10.00' }],
            attributes: cart.attributes,
          }),
        ),
      );
      expect(paid.status).toBe(200);
      const credited = await until('the member credited', async () => {
        const read = await api.get(`/schema/account_user/record/${member.id}`);
        return read.body.data.pointsBalance === member.pointsBalance + 200 ? read.body.data : undefined;
      });
      expect(credited.pointsBalance).toBe(member.pointsBalance + 200);
      const friend = await api.get('/schema/account_user/record', {
        filters: {
          operator: 'and',
          conditions: [{ fieldSlug: 'externalId', operator: 'equals', fieldValue: 'gid://shopify/Customer/881' }],
        },
      });
      expect(friend.body.data[0].referredById).toBe(member.id);
    } finally {
      shop.server.close();
    }
  });
});
