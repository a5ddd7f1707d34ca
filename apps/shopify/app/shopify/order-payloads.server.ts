import { REFERRAL_ATTRIBUTE, REFERRAL_CODE } from '@loyalty/view-model';
import { type CoreLanguage, coreLanguage } from '../core/languages';
import { instantOf, isJsonObject, type JsonObject, objectOf } from '../json';

/**
 * What the app reads of Shopify's order, refund and customer webhooks (CONTRACT §17), in the shop's
 * money. Amounts are kept in thousandths of the currency unit (integers), so that shares of a line
 * add up exactly whatever the currency's decimals.
 */

export interface OrderLine {
  id: string;
  productId: string | null;
  quantity: number;
  /** What the line earns, in thousandths: its price times quantity after discounts, without tax; 0 for gift cards. */
  milli: number;
}

export interface OrderCustomer {
  id: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  /** The language the customer placed the order in (the order's `customer_locale`), where the core has it. */
  languageCode: CoreLanguage | null;
  /** When the customer's account was made, where the payload says. */
  createdAt: string | null;
  /** The customer's tags, lower-cased (`tagKey`); null when the payload does not say. */
  tags: string[] | null;
  /** When Shopify last changed the customer, as the payload says: what its tags are as of. */
  updatedAt: string | null;
}

export interface PaidOrder {
  id: string;
  name: string;
  processedAt: string;
  test: boolean;
  /** Every line a gift card: money kept for later, which earns when it is spent, so the order is no purchase yet. */
  giftCardsOnly: boolean;
  customer: OrderCustomer | null;
  /** The shop's currency, which every amount is in. */
  currency: string | null;
  lines: OrderLine[];
  /** What the customer paid in all (products, shipping, taxes, after discounts), in thousandths. */
  totalMilli: number;
  /** The discount codes used, upper-cased (Shopify's codes are case-insensitive), with what each took off in thousandths. */
  discountCodes: { code: string; milli: number }[];
  /** The e-mail the order was paid with (a guest's is how the account made with it finds the order). */
  email: string | null;
  /** The referral code the storefront put on the cart (`_loyalty_ref`, from a `?loyalty_ref=` link), when it is one. */
  referralCode: string | null;
}

export interface RefundNotice {
  id: string;
  orderId: string;
  lines: { lineItemId: string; quantity: number }[];
  /** What the refund gave back in thousandths: its lines with their tax, and refunded shipping and other adjustments. */
  milli: number;
}

export interface CancelNotice {
  orderId: string;
  cancelledAt: string;
}

export interface CreatedCustomer extends OrderCustomer {
  createdAt: string;
  /** Shopify's `verified_email`: the shopper proved the e-mail is theirs (absent or anything but true: not proved). */
  emailVerified: boolean;
  /**
   * When Shopify recorded the customer's consent to its e-mail marketing (`email_marketing_consent`,
   * state `subscribed`); null while they are not subscribed, or when Shopify does not say when.
   */
  newsletterSince: string | null;
}

/** Shopify's ids arrive as JSON numbers (or numeric strings); kept as strings. */
const idOf = (value: unknown): string | null =>
  (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) || (typeof value === 'string' && /^[1-9]\d{0,19}$/.test(value))
    ? String(value)
    : null;

const textOrNull = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value : null);

const instant = (value: unknown): string | null => instantOf(value)?.toISOString() ?? null;

/** Past this an amount is not one a shop charges: read as absent. */
const MAX_AMOUNT = 1e9;
/** Past this a quantity is not one an order carries: the line is read as absent. */
const MAX_QUANTITY = 1e6;
/** Past this (a trillion) a line's thousandths are not a purchase, and the order's sums would outgrow what they are kept in: the line is read as absent. */
const MAX_LINE_MILLI = 1e15;

/** An amount in thousandths; 0 when absent, not a number, or past MAX_AMOUNT. */
const toMilli = (value: unknown): number => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() ? Number(value) : Number.NaN;
  return Number.isFinite(n) && Math.abs(n) <= MAX_AMOUNT ? Math.round(n * 1000) : 0;
};

/** The shop-money amount of a `*_set` (what the shop receives, whatever currency the shopper paid in), else the plain field. */
function shopMoney(set: unknown, plain: unknown): number {
  const amount = objectOf(objectOf(set).shop_money).amount;
  return amount === undefined ? toMilli(plain) : toMilli(amount);
}

const list = (value: unknown): JsonObject[] => (Array.isArray(value) ? value.filter(isJsonObject) : []);

/** A tag as the app compares it: Shopify matches tags whatever their case. */
export const tagKey = (tag: string): string => tag.trim().toLowerCase();

/** Shopify's tags as a webhook gives them ("a, b") or GraphQL does (a list), each once by `tagKey`; null when it gives none. */
export function tagsOf(value: unknown): string[] | null {
  const listed: unknown[] | null = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : null;
  return listed && [...new Set(listed.flatMap((t) => (typeof t === 'string' && tagKey(t) ? [tagKey(t)] : [])))];
}

function customerOf(value: unknown, locale?: unknown): OrderCustomer | null {
  const c = objectOf(value);
  const id = idOf(c.id);
  if (!id) return null;
  return {
    id,
    firstName: textOrNull(c.first_name),
    lastName: textOrNull(c.last_name),
    email: textOrNull(c.email),
    languageCode: coreLanguage(textOrNull(locale)),
    createdAt: instant(c.created_at),
    tags: tagsOf(c.tags),
    updatedAt: instant(c.updated_at),
  };
}

const count = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null);

function lineOf(line: JsonObject, taxesIncluded: boolean): OrderLine | null {
  const id = idOf(line.id);
  const ordered = count(line.quantity) ?? 0;
  // An order edited before it was paid keeps its removed items in `quantity`; `current_quantity` is what is left of them.
  const quantity = Math.min(count(line.current_quantity) ?? ordered, ordered);
  if (!id || quantity <= 0 || ordered > MAX_QUANTITY) return null;
  const gross = shopMoney(line.price_set, line.price) * quantity;
  // The line's discounts and taxes are for every item ordered: the items left carry their share.
  const share = (milli: number) => Math.round((milli * quantity) / ordered);
  // Every discount the line carries: its own and its part of order-wide discounts.
  const discounts = share(list(line.discount_allocations).reduce((sum, d) => sum + shopMoney(d.amount_set, d.amount), 0));
  // Prices include tax in such shops; the tax is not what the shopper paid for the product.
  const tax = taxesIncluded ? share(list(line.tax_lines).reduce((sum, t) => sum + shopMoney(t.price_set, t.price), 0)) : 0;
  // A gift card is money kept for later, not a purchase: it earns when it is spent.
  const milli = line.gift_card === true ? 0 : Math.max(0, gross - discounts - tax);
  if (milli > MAX_LINE_MILLI) return null;
  return { id, productId: idOf(line.product_id), quantity, milli };
}

function referralCodeOf(attributes: unknown): string | null {
  const value = list(attributes).find((a) => a.name === REFERRAL_ATTRIBUTE)?.value;
  const code = typeof value === 'string' ? value.trim().toUpperCase() : '';
  return REFERRAL_CODE.test(code) ? code : null;
}

/** orders/paid; null when the payload names no order. */
export function paidOrder(payload: unknown): PaidOrder | null {
  const o = objectOf(payload);
  const id = idOf(o.id);
  const processedAt = instant(o.processed_at) ?? instant(o.created_at);
  if (!id || !processedAt) return null;
  const taxesIncluded = o.taxes_included === true;
  return {
    id,
    name: textOrNull(o.name) ?? `#${id}`,
    processedAt,
    test: o.test === true,
    giftCardsOnly: list(o.line_items).length > 0 && list(o.line_items).every((line) => line.gift_card === true),
    customer: customerOf(o.customer, o.customer_locale),
    currency: textOrNull(objectOf(objectOf(o.total_price_set).shop_money).currency_code) ?? textOrNull(o.currency),
    lines: list(o.line_items).flatMap((line) => lineOf(line, taxesIncluded) ?? []),
    totalMilli: shopMoney(o.total_price_set, o.total_price),
    discountCodes: list(o.discount_codes).flatMap((d) => {
      const code = textOrNull(d.code);
      return code ? [{ code: code.trim().toUpperCase(), milli: toMilli(d.amount) }] : [];
    }),
    email: textOrNull(o.email),
    referralCode: referralCodeOf(o.note_attributes),
  };
}

/** refunds/create; null when it names no refund or order. */
export function refundNotice(payload: unknown): RefundNotice | null {
  const r = objectOf(payload);
  const id = idOf(r.id);
  const orderId = idOf(r.order_id);
  if (!id || !orderId) return null;
  const shipping = list(r.refund_shipping_lines);
  return {
    id,
    orderId,
    lines: list(r.refund_line_items).flatMap((l) => {
      const lineItemId = idOf(l.line_item_id) ?? idOf(objectOf(l.line_item).id);
      const quantity = typeof l.quantity === 'number' && Number.isInteger(l.quantity) ? l.quantity : 0;
      return lineItemId && quantity > 0 ? [{ lineItemId, quantity }] : [];
    }),
    milli:
      list(r.refund_line_items).reduce(
        (sum, l) => sum + shopMoney(l.subtotal_set, l.subtotal) + shopMoney(l.total_tax_set, l.total_tax),
        0,
      ) +
      // Refunded shipping since API 2024-10; before, it came as an order adjustment of kind `shipping_refund`.
      shipping.reduce(
        (sum, l) => sum + shopMoney(l.subtotal_amount_set, l.subtotal_amount) + shopMoney(l.tax_amount_set, l.tax_amount),
        0,
      ) -
      // Adjustments that give money back (refunded shipping, a discrepancy) are negative amounts.
      list(r.order_adjustments)
        .filter((a) => !(shipping.length && a.kind === 'shipping_refund'))
        .reduce((sum, a) => sum + shopMoney(a.amount_set, a.amount) + shopMoney(a.tax_amount_set, a.tax_amount), 0),
  };
}

const pick = (o: JsonObject, keys: readonly string[]): JsonObject => Object.fromEntries(keys.filter((k) => k in o).map((k) => [k, o[k]]));

/** The top-level fields `waitingPayload` keeps of each topic that can wait for its order. */
export const KEPT_WHILE_WAITING = {
  'refunds/create': ['id', 'order_id', 'refund_line_items', 'refund_shipping_lines', 'order_adjustments'],
  'orders/cancelled': ['id', 'cancelled_at'],
} as const;

/**
 * Of a refund or cancellation that waits for its order, only what `refundNotice` and `cancelNotice`
 * read, in Shopify's shape: once it has waited long, the rest (a cancelled order's addresses, e-mail
 * and notes, a refund's note and transactions) is more than the app keeps (CONTRACT §18).
 */
export function waitingPayload(topic: keyof typeof KEPT_WHILE_WAITING, payload: unknown): JsonObject {
  const kept = pick(objectOf(payload), KEPT_WHILE_WAITING[topic]);
  if (topic === 'orders/cancelled') return kept;
  const each = (field: string, keys: readonly string[], more?: (l: JsonObject) => JsonObject) =>
    field in kept ? { [field]: list(kept[field]).map((l) => ({ ...pick(l, keys), ...more?.(l) })) } : {};
  return {
    ...kept,
    ...each('refund_line_items', ['line_item_id', 'quantity', 'subtotal_set', 'subtotal', 'total_tax_set', 'total_tax'], (l) =>
      l.line_item_id === undefined && 'line_item' in l ? { line_item: pick(objectOf(l.line_item), ['id']) } : {},
    ),
    ...each('refund_shipping_lines', ['subtotal_amount_set', 'subtotal_amount', 'tax_amount_set', 'tax_amount']),
    ...each('order_adjustments', ['kind', 'amount_set', 'amount', 'tax_amount_set', 'tax_amount']),
  };
}

/** orders/cancelled; null when it names no order. */
export function cancelNotice(payload: unknown): CancelNotice | null {
  const o = objectOf(payload);
  const orderId = idOf(o.id);
  if (!orderId) return null;
  return { orderId, cancelledAt: instant(o.cancelled_at) ?? new Date().toISOString() };
}

const newsletterSince = (consent: JsonObject): string | null =>
  consent.state === 'subscribed' ? instant(consent.consent_updated_at) : null;

/** customers/create and customers/update; null when it names no customer. */
export function createdCustomer(payload: unknown): CreatedCustomer | null {
  const customer = customerOf(payload);
  if (!customer) return null;
  return {
    ...customer,
    createdAt: customer.createdAt ?? new Date().toISOString(),
    emailVerified: objectOf(payload).verified_email === true,
    newsletterSince: newsletterSince(objectOf(objectOf(payload).email_marketing_consent)),
  };
}
