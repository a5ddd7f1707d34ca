import { TEST_SHOP } from '@shopify/shopify-api/test-helpers';
import { chromium } from 'playwright-core';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../../core/test/support/harness';
import { adminFetch, answerOf } from './support/admin-fuzz';
import { STUB_SHOP } from './support/admin-stub';
import { HEADLESS_SHELL } from './support/browser';
import { adminLoad, orderPayload, type OrderSpec } from './support/orders';
import { type Production, startProduction } from './support/production';
import { webhookRequest } from './support/stack';
import { type CartSpec, cartJson, type ProductSpec, renderPointsBlock, storefront } from './support/storefront';
import { until } from './support/until';

/**
 * The product page's "Loyalty points" block, through what ships: the merchant sets points and tiers
 * in the production build's admin, which writes the `points` metafield to the Admin API stub; the
 * block renders it as a storefront does (liquidjs), runs its script in Chromium, and a customer's
 * paid order, delivered as Shopify signs it, earns in the core what the page said it would.
 */
let prod: Production;
let api: Client;

type Data = Record<string, unknown>;

async function post(path: string, body: Data): Promise<{ status: number; value: unknown }> {
  const res = await adminFetch(prod.url, path, { text: JSON.stringify(body), contentType: 'application/json' });
  return answerOf(res);
}

/** The Points page's draft, as the page loads it. */
async function pointsDraft(): Promise<Data> {
  const route = 'routes/app.points';
  const { value } = await answerOf(await adminFetch(prod.url, `/app/points.data?_routes=${encodeURIComponent(route)}`));
  return ((value as Data)[route] as { data: { draft: Data } }).data.draft;
}

/** The merchant saves the Points page with `changes`. */
async function savePoints(changes: Data): Promise<void> {
  const saved = await post('/app/points', { intent: 'save', language: 'en', draft: { ...(await pointsDraft()), ...changes } });
  expect(saved.status, JSON.stringify(saved.value)).toBe(200);
}

const stored = () => prod.admin.metafields.get(`${STUB_SHOP.id}|$app:loyalty|points`);

/** A shirt at 19.99 and a coat at 45.50, their ids as Liquid has them. */
const SHIRT_AND_COAT: ProductSpec = {
  variants: [
    { id: 11, price: 1999 },
    { id: 12, price: 4550 },
  ],
};

/** The sentence a rendered block says, its tags and spacing gone; '' when it renders none or hides it. */
function said(html: string): string {
  const [, attributes, text] = /<p\s+class="loyalty-points"([^>]*)>([\s\S]*?)<\/p>/.exec(html) ?? [];
  return attributes === undefined || /\shidden[\s>]/.test(attributes) ? '' : text!.trim();
}

async function deliver(topic: string, payload: Record<string, unknown>) {
  expect((await prod.send(await webhookRequest(topic, payload))).status).toBe(200);
}

/** Delivers a paid order and answers the points its earned entry holds, once the worker wrote it. */
async function earnedBy(id: number, spec: OrderSpec): Promise<number> {
  await deliver('orders/paid', orderPayload(id, spec));
  return until(`the points of order ${id}`, async () => {
    const entries = await api.get('/schema/point_entry/record', {
      filters: { operator: 'and', conditions: [{ fieldSlug: 'uniqueIdentifier', operator: 'equals', fieldValue: `order:${id}` }] },
    });
    return (entries.body.data[0] as { points: number } | undefined)?.points;
  });
}

beforeAll(async () => {
  prod = await startProduction();
  expect((await adminLoad(prod.url, '/app')).status).toBe(200);
  const account = (await prod.shops.find(TEST_SHOP))!;
  api = new Client(`${prod.core.url}/api/v1.0`, { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });
}, 180_000);

afterAll(() => prod?.close());

describe('the Loyalty points block', () => {
  it('while points are off: no metafield, nothing on the storefront, and the theme editor says what to turn on', async () => {
    expect(stored()).toBeUndefined();
    expect((await renderPointsBlock(prod.admin, { product: SHIRT_AND_COAT })).trim()).toBe('');
    expect(await renderPointsBlock(prod.admin, { product: SHIRT_AND_COAT, designMode: true })).toContain(
      'Loyalty points: this block says what a purchase earns once the Loyalty app’s points are on',
    );
  });

  it('the Points page and the tiers editor write what it says: the rate, the names in each language, the tiers by name, the excluded tags', async () => {
    await savePoints({ on: true, perUnit: '2', perOrder: '0', currencyName: 'Stars', currencyNameOne: 'Star', excludedTags: 'Wholesale' });
    const gold = await post('/app/tiers/new', {
      intent: 'save',
      language: 'en',
      draft: { name: 'Gold', status: 'live', threshold: '100', multiplier: '1.5', entryReward: '', description: '' },
    });
    expect(gold.status, JSON.stringify(gold.value)).toBe(200);
    // A draft tier promises nothing.
    await post('/app/tiers/new', {
      intent: 'save',
      language: 'en',
      draft: { name: 'Platinum', status: 'draft', threshold: '1000', multiplier: '3', entryReward: '', description: '' },
    });
    const stars = { one: 'Star', other: 'Stars' };
    expect(JSON.parse(stored()!)).toEqual({
      perUnit: 2,
      perOrder: 0,
      bonus: null,
      // A language the merchant gave no name in reads the default language's (CONTRACT §7).
      names: { en: stars, es: stars, fr: stars, de: stars, 'zh-CN': stars, ja: stars, pt: stars, it: stars, ko: stars },
      tiers: { Gold: 1.5 },
      excludedTags: ['wholesale'],
    });
    const input = prod.admin.requests
      .filter((r) => r.operation === 'LoyaltyMetafields')
      .flatMap((r) => r.variables.metafields as Data[])
      .findLast((m) => m.key === 'points');
    // As Shopify's MetafieldsSetInput types it (the stub refuses a value that is not JSON).
    expect(Object.keys(input!).sort()).toEqual(['key', 'namespace', 'ownerId', 'type', 'value']);
    expect(input).toMatchObject({ ownerId: STUB_SHOP.id, namespace: '$app:loyalty', type: 'json' });
  });

  it('tells a guest what the selected variant earns, in the storefront’s language, one point in the singular', async () => {
    expect(said(await renderPointsBlock(prod.admin, { product: SHIRT_AND_COAT }))).toBe('Earn 39 Stars with this purchase');
    expect(said(await renderPointsBlock(prod.admin, { product: { ...SHIRT_AND_COAT, selected: 1 } }))).toBe(
      'Earn 91 Stars with this purchase',
    );
    expect(said(await renderPointsBlock(prod.admin, { product: { variants: [{ id: 13, price: 50 }] } }))).toBe(
      'Earn 1 Star with this purchase',
    );
    // Less than a point: nothing to say.
    expect(said(await renderPointsBlock(prod.admin, { product: { variants: [{ id: 14, price: 49 }] } }))).toBe('');
    // The merchant's German names, given in the core in German, after the next save.
    const setting = (await api.get('/schema/points_setting/record')).body.data[0] as { id: string };
    const german = await api.patch(`/schema/points_setting/record/${setting.id}?languageCode=de`, {
      eudCurrencyName: 'Sterne',
      eudCurrencyNameOne: 'Stern',
    });
    expect(german.status).toBe(200);
    await savePoints({});
    expect(said(await renderPointsBlock(prod.admin, { product: SHIRT_AND_COAT, locale: 'de' }))).toBe('Sammle 39 Sterne mit diesem Kauf');
    expect(said(await renderPointsBlock(prod.admin, { product: SHIRT_AND_COAT, locale: 'pt-BR' }))).toBe('Ganhe 39 Stars com esta compra');
    expect(said(await renderPointsBlock(prod.admin, { product: SHIRT_AND_COAT, locale: 'ja' }))).toBe('この購入で 39 Stars を獲得');
    // A language the program does not speak: the default words and names.
    expect(said(await renderPointsBlock(prod.admin, { product: SHIRT_AND_COAT, locale: 'nl' }))).toBe('Earn 39 Stars with this purchase');
  });

  it('says "up to" where prices include tax, which earns nothing, and the order then earns no more than it said', async () => {
    const html = await renderPointsBlock(prod.admin, { product: SHIRT_AND_COAT, taxesIncluded: true });
    expect(said(html)).toBe('Earn up to 39 Stars with this purchase');
    const untaxed = { variants: [{ id: 15, price: 1999, taxable: false }] };
    expect(said(await renderPointsBlock(prod.admin, { product: untaxed, taxesIncluded: true }))).toBe('Earn 39 Stars with this purchase');
    const earned = await earnedBy(7001, {
      customer: { id: 7001 },
      taxesIncluded: true,
      lines: [{ product: 1, quantity: 1, price: '19.99' }],
    });
    // 19.99 less its 2.00 of tax.
    expect(earned).toBe(35);
    expect(earned).toBeLessThanOrEqual(39);
  });

  it('a customer in a tier is told their multiplied figure, and their order earns exactly that', async () => {
    const customer = 7002;
    // 60.00 spent: 120 points, Gold.
    expect(await earnedBy(7101, { customer: { id: customer }, lines: [{ product: 1, quantity: 1, price: '60.00' }] })).toBe(120);
    await until(
      'Gold on the customer',
      async () => prod.admin.metafields.get(`gid://shopify/Customer/${customer}|$app:loyalty|tier`) === 'Gold',
    );
    const promise = said(await renderPointsBlock(prod.admin, { product: SHIRT_AND_COAT, customer: { id: customer } }));
    // 39 times 1.5, rounded down, as the core multiplies.
    expect(promise).toBe('Earn 58 Stars with this purchase');
    const earned = await earnedBy(7102, { customer: { id: customer }, lines: [{ product: 1, quantity: 1, price: '19.99' }] });
    expect(`Earn ${earned} Stars with this purchase`).toBe(promise);
    // A guest, and a customer in no tier, are told the plain figure.
    expect(said(await renderPointsBlock(prod.admin, { product: SHIRT_AND_COAT, customer: { id: 7003 } }))).toBe(
      'Earn 39 Stars with this purchase',
    );
  });

  it('on the cart page: what the cart earns as an order, its discounts, its points per order and the tier included, gift cards left out; the order earns exactly that', async () => {
    await savePoints({ perOrder: '5' });
    // The order worker reads changed rates within two seconds (LIVE_FRESH_MS).
    await new Promise((r) => setTimeout(r, 2500));
    const customer = 7002;
    // Two shirts with 4.00 off the order, and a 25.00 gift card: 35.98 spent.
    const cart = {
      items: [{ final_line_price: 3998 }, { final_line_price: 2500, gift_card: true, taxable: false }],
      total_price: 3998 - 400 + 2500,
    };
    // (35.98 × 2, rounded down, plus 5) × 1.5, rounded down.
    const promise = said(await renderPointsBlock(prod.admin, { cart, customer: { id: customer } }));
    expect(promise).toBe('Earn 114 Stars with this order');
    const earned = await earnedBy(7103, {
      customer: { id: customer },
      lines: [
        { product: 1, quantity: 2, price: '19.99', discount: '4.00' },
        { product: 2, quantity: 1, price: '25.00', giftCard: true },
      ],
    });
    expect(`Earn ${earned} Stars with this order`).toBe(promise);
    // A guest's; one in German; with tax in the prices; a cart of gift cards alone, or empty, earns nothing.
    expect(said(await renderPointsBlock(prod.admin, { cart }))).toBe('Earn 76 Stars with this order');
    expect(said(await renderPointsBlock(prod.admin, { cart, locale: 'de' }))).toBe('Sammle 76 Sterne mit dieser Bestellung');
    expect(said(await renderPointsBlock(prod.admin, { cart, taxesIncluded: true }))).toBe('Earn up to 76 Stars with this order');
    const cards = { items: [{ final_line_price: 2500, gift_card: true }], total_price: 2500 };
    expect(said(await renderPointsBlock(prod.admin, { cart: cards }))).toBe('');
    expect(said(await renderPointsBlock(prod.admin, { cart: { items: [], total_price: 0 } }))).toBe('');
  });

  it('promises nothing to a customer the shop leaves out by tag, however the tag is written', async () => {
    const html = await renderPointsBlock(prod.admin, { product: SHIRT_AND_COAT, customer: { id: 7004, tags: ['VIP', ' wholesale'] } });
    expect(html.trim()).toBe('');
    expect(said(await renderPointsBlock(prod.admin, { product: SHIRT_AND_COAT, customer: { id: 7004, tags: ['VIP'] } }))).toBe(
      'Earn 39 Stars with this purchase',
    );
  });

  it('in the browser: follows the variant and quantity the shopper picks and the cart the theme changes, a bonus event by the shopper’s clock, and converts another currency at the page’s rate', async () => {
    // A 2× event today, in the shop's time zone.
    const today = DateTime.now().setZone(STUB_SHOP.ianaTimezone).toISODate();
    await savePoints({ bonus: '2', bonusFirstDay: today, bonusLastDay: today });
    expect(JSON.parse(stored()!).bonus).toMatchObject({ multiplier: 2 });
    let page = {
      currency: 'USD',
      rate: null as string | null,
      product: SHIRT_AND_COAT,
      customer: undefined as { id: number } | undefined,
      taxesIncluded: false,
    };
    const shop = await storefront(async () => {
      const block = await renderPointsBlock(prod.admin, {
        product: page.product,
        currency: page.currency,
        customer: page.customer,
        taxesIncluded: page.taxesIncluded,
      });
      const rate = page.rate
        ? `<script>window.Shopify = { currency: { active: ${JSON.stringify(page.currency)}, rate: ${JSON.stringify(page.rate)} } };</script>`
        : '';
      const options = page.product.variants.map((v) => `<option value="${v.id}">${v.id}</option>`).join('');
      // As Dawn has it: the quantity outside the form, joined to it by its form attribute.
      return `${rate}<form id="product-form" action="/cart/add" method="post"><label>Size <select name="id">${options}</select></label></form><label>Quantity <input type="number" name="quantity" form="product-form" value="1" min="1"></label>${block}`;
    });
    let cart: CartSpec = { items: [{ final_line_price: 1999 }], total_price: 1999 };
    const cartShop = await storefront(
      async () =>
        `<button type="button" onclick="fetch('/cart/change.js', { method: 'POST' })">Add one</button>${await renderPointsBlock(prod.admin, { cart })}`,
      async (req, res) => {
        // A second shirt, and a gift card, which earns nothing.
        if (req.url === '/cart/change.js')
          cart = { items: [{ final_line_price: 3998 }, { final_line_price: 2500, gift_card: true }], total_price: 6498 };
        else if (req.url !== '/cart.js') return false;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(cartJson(cart)));
        return true;
      },
    );
    const browser = await chromium.launch({ executablePath: HEADLESS_SHELL, args: ['--no-sandbox'] });
    try {
      const tab = await browser.newPage();
      const text = () => tab.locator('.loyalty-points').textContent();
      const visible = () => tab.locator('.loyalty-points').isVisible();
      await tab.goto(shop.origin);
      // The page as cached says the plain figure; the script doubles the amount spent while the event runs, as the order worker does (19.99 × 2 × 2).
      expect(await text()).toBe('Earn 79 Stars with this purchase');
      await tab.getByLabel('Size').selectOption('12');
      expect(await text()).toBe('Earn 182 Stars with this purchase');
      // Three coats: what the order worker earns for the line (45.50 × 3 × 2 × 2).
      await tab.getByLabel('Quantity').fill('3');
      expect(await text()).toBe('Earn 546 Stars with this purchase');
      // The Gold customer: the event's figure times their 1.5, rounded down.
      page = { ...page, customer: { id: 7002 } };
      await tab.goto(shop.origin);
      expect(await text()).toBe('Earn 118 Stars with this purchase');
      // Prices with tax in them: the script says "up to" as the page does.
      page = { ...page, customer: undefined, taxesIncluded: true };
      await tab.goto(shop.origin);
      expect(await text()).toBe('Earn up to 79 Stars with this purchase');
      page = { ...page, taxesIncluded: false };
      // Figures as the storefront's language writes them.
      page = { ...page, product: { variants: [{ id: 16, price: 61_700 }] } };
      await tab.goto(shop.origin);
      expect(await text()).toBe('Earn 2,468 Stars with this purchase');
      // Euros at Shopify's rate of 0.5 to the dollar: 10.00 € is 20.00 $ of the shop's.
      page = { ...page, currency: 'EUR', rate: '0.5', product: { variants: [{ id: 17, price: 1000 }] } };
      await tab.goto(shop.origin);
      expect(await text()).toBe('Earn 80 Stars with this purchase');
      // No rate on the page: no figure at all rather than a wrong one.
      page = { ...page, rate: null };
      await tab.goto(shop.origin);
      expect(await visible()).toBe(false);
      // The cart page, its quantity changed by the theme without a reload: the block reads the cart again.
      await tab.goto(cartShop.origin);
      // 19.99 × 2 × 2, rounded down, plus 5 × 2 per order.
      expect(await text()).toBe('Earn 89 Stars with this order');
      await tab.getByRole('button', { name: 'Add one' }).click();
      await expect.poll(text).toBe('Earn 169 Stars with this order');
    } finally {
      await browser.close();
      shop.server.close();
      cartShop.server.close();
    }
    await savePoints({ bonus: '1' });
    expect(JSON.parse(stored()!).bonus).toBeNull();
  });

  it('points turned off take the metafield away, and with it the sentence', async () => {
    await savePoints({ on: false });
    expect(stored()).toBeUndefined();
    expect((await renderPointsBlock(prod.admin, { product: SHIRT_AND_COAT })).trim()).toBe('');
  });
});
