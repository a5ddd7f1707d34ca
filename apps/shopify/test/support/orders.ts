import { getJwt, TEST_SHOP_NAME } from '@shopify/shopify-api/test-helpers';
import { SHOPIFY } from './stack';

/**
 * Shopify's order, refund and customer webhook payloads as the REST Admin API shapes them (the
 * fields the app reads and the ones it must leave aside: shipping, taxes, tips, presentment money),
 * and the admin's first load that installs the app.
 */

// The library answers 410 to bots; this is a browser's user agent.
export const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';

/** An admin page as Shopify's admin opens it in the iframe: embedded, with shop, host and a fresh id_token; the first installs the app. */
export async function adminLoad(server: string, path: string, shopName = TEST_SHOP_NAME): Promise<Response> {
  const { token } = await getJwt(shopName, SHOPIFY.apiKey, SHOPIFY.apiSecretKey);
  const url = new URL(path, server);
  url.searchParams.set('embedded', '1');
  url.searchParams.set('shop', `${shopName}.myshopify.com`);
  url.searchParams.set('host', Buffer.from(`admin.shopify.com/store/${shopName}`).toString('base64'));
  url.searchParams.set('id_token', token);
  return fetch(url, { headers: { 'user-agent': BROWSER }, redirect: 'manual' });
}

/**
 * An admin page's markup as drawn, without its scripts: those carry the page's data for its client,
 * every text of the admin's language among it, so a text absent from the page is looked for here.
 */
export async function drawnPage(page: Response): Promise<string> {
  return (await page.text()).replace(/<script\b[\s\S]*?<\/script>/g, '');
}

export interface LineSpec {
  product: number;
  quantity: number;
  /** The unit price in the shop's currency. */
  price: string;
  /** The unit price the shopper saw, in their currency (default: the shop's). */
  presentmentPrice?: string;
  /** Discounts allocated to the whole line, in the shop's currency. */
  discount?: string;
  giftCard?: boolean;
}

export interface OrderSpec {
  customer?: { id: number; email?: string; first_name?: string; last_name?: string; created_at?: string } | null;
  lines: LineSpec[];
  test?: boolean;
  /** The shopper's currency (the shop's is USD). */
  presentmentCurrency?: string;
  processedAt?: string;
  /** What the customer paid in all, in the shop's currency (default 999.00). */
  total?: string;
  /** The discount codes used, as Shopify lists them (amount in the shop's currency). */
  discountCodes?: { code: string; amount: string }[];
  /** The storefront locale the order was placed in (`customer_locale`), when the test names one. */
  locale?: string;
  /** The cart's attributes (`note_attributes`), such as the referral code the theme embed puts there. */
  attributes?: Record<string, string>;
  /** Whether the prices include tax (the shopper's country's prices do): each line's 2.00 of tax is then inside its price. */
  taxesIncluded?: boolean;
}

const money = (shop: string, presentment: string, presentmentCurrency: string) => ({
  shop_money: { amount: shop, currency_code: 'USD' },
  presentment_money: { amount: presentment, currency_code: presentmentCurrency },
});

/** A line's id: the order's id times 100 plus its position from 1, so tests can name it. */
export const lineId = (orderId: number, position: number) => orderId * 100 + position;

/** orders/paid (and orders/cancelled, with `cancelled_at`): shipping 5, tax 2 per line and a tip of 3 that earn nothing. */
export function orderPayload(id: number, spec: OrderSpec): Record<string, unknown> {
  const currency = spec.presentmentCurrency ?? 'USD';
  const processed = spec.processedAt ?? new Date(Date.now() - 60_000).toISOString();
  const customer = spec.customer === undefined ? { id: 501 } : spec.customer;
  return {
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: `#${id}`,
    email: customer ? (customer.email ?? `c${customer.id}@example.com`) : 'guest@example.com',
    created_at: processed,
    processed_at: processed,
    test: spec.test ?? false,
    currency,
    presentment_currency: currency,
    taxes_included: spec.taxesIncluded ?? false,
    financial_status: 'paid',
    total_tip_received: '3.00',
    total_price: spec.total ?? '999.00',
    total_price_set: money(spec.total ?? '999.00', spec.total ?? '999.00', currency),
    discount_codes: (spec.discountCodes ?? []).map((d) => ({ code: d.code, amount: d.amount, type: 'fixed_amount' })),
    ...(spec.locale ? { customer_locale: spec.locale } : {}),
    note_attributes: Object.entries(spec.attributes ?? {}).map(([name, value]) => ({ name, value })),
    customer: customer && {
      id: customer.id,
      email: customer.email ?? `c${customer.id}@example.com`,
      first_name: customer.first_name ?? 'Ada',
      last_name: customer.last_name ?? 'Lovelace',
      admin_graphql_api_id: `gid://shopify/Customer/${customer.id}`,
      ...(customer.created_at ? { created_at: customer.created_at } : {}),
    },
    line_items: spec.lines.map((line, i) => ({
      id: lineId(id, i + 1),
      admin_graphql_api_id: `gid://shopify/LineItem/${lineId(id, i + 1)}`,
      product_id: line.product,
      quantity: line.quantity,
      gift_card: line.giftCard ?? false,
      // The plain field is what the shopper saw; only the *_set says which currency is which.
      price: line.presentmentPrice ?? line.price,
      price_set: money(line.price, line.presentmentPrice ?? line.price, currency),
      discount_allocations: line.discount
        ? [{ amount: line.discount, amount_set: money(line.discount, line.discount, currency), discount_application_index: 0 }]
        : [],
      tax_lines: [{ title: 'VAT', rate: 0.1, price: '2.00', price_set: money('2.00', '2.00', currency) }],
    })),
    shipping_lines: [{ id: 1, title: 'Standard', price: '5.00', price_set: money('5.00', '5.00', currency) }],
  };
}

/** refunds/create for some of an order's lines, by position from 1 (with what each gave back, in the shop's currency, when named). */
export function refundPayload(
  id: number,
  orderId: number,
  lines: { position: number; quantity: number; subtotal?: string }[],
): Record<string, unknown> {
  return {
    id,
    order_id: orderId,
    created_at: new Date().toISOString(),
    note: 'returned',
    restock: true,
    refund_line_items: lines.map((l, i) => ({
      id: id * 10 + i,
      line_item_id: lineId(orderId, l.position),
      quantity: l.quantity,
      restock_type: 'return',
      line_item: { id: lineId(orderId, l.position) },
      ...(l.subtotal
        ? {
            subtotal: l.subtotal,
            subtotal_set: money(l.subtotal, l.subtotal, 'USD'),
            total_tax: '0.00',
            total_tax_set: money('0.00', '0.00', 'USD'),
          }
        : {}),
    })),
    transactions: [],
    order_adjustments: [],
  };
}

/** customers/create (and customers/update): a customer whose e-mail Shopify has verified. */
export function customerPayload(id: number): Record<string, unknown> {
  return {
    id,
    email: `c${id}@example.com`,
    verified_email: true,
    first_name: 'Grace',
    last_name: 'Hopper',
    created_at: new Date(Date.now() - 60_000).toISOString(),
    admin_graphql_api_id: `gid://shopify/Customer/${id}`,
  };
}
