import { describe, expect, it } from 'vitest';
import { type Feed, nothingLeft, planOrderLogs, refundedAfter, refundShare } from '../app/earning/plan';
import { paidOrder, refundNotice, waitingPayload } from '../app/shopify/order-payloads.server';
import { lineId, orderPayload, refundPayload } from './support/orders';

/**
 * What an order earns and what its refunds take back (app/earning/plan.ts), decided without I/O:
 * the amounts Shopify's payloads give, and the shares of partial refunds adding up to exactly what
 * a line earned whatever order they arrive in.
 */
const feed = (over: Partial<Feed>): Feed => ({
  kind: 'challenge',
  definitionId: 'd',
  name: 'Spend',
  activityId: 'order_paid',
  method: 'sum',
  collectionIds: [],
  ...over,
});

const order = paidOrder(
  orderPayload(1, {
    presentmentCurrency: 'EUR',
    lines: [
      { product: 10, quantity: 3, price: '10.00', presentmentPrice: '9.10', discount: '1.00' },
      { product: 20, quantity: 1, price: '0.01' },
      { product: 30, quantity: 1, price: '25.00', giftCard: true },
    ],
  }),
)!;

describe('reading orders/paid', () => {
  it('earns each line at its shop-money price times quantity less its discounts; gift cards, shipping, tax and tips earn nothing', () => {
    expect(order.lines.map((l) => [l.id, l.quantity, l.milli])).toEqual([
      [String(lineId(1, 1)), 3, 29_000],
      [String(lineId(1, 2)), 1, 10],
      [String(lineId(1, 3)), 1, 0],
    ]);
    expect(order.currency).toBe('USD');
  });

  it('takes the tax out of lines when the shop’s prices include it', () => {
    const taxed = paidOrder({ ...orderPayload(2, { lines: [{ product: 10, quantity: 1, price: '12.00' }] }), taxes_included: true })!;
    expect(taxed.lines[0]!.milli).toBe(10_000);
  });

  it('reads an amount past a billion, a quantity past a million or a line past a trillion as none: no order earns more than its logs can hold', () => {
    const extreme = paidOrder(
      orderPayload(3, {
        lines: [
          { product: 10, quantity: 1, price: '1e308' },
          { product: 20, quantity: 1_000_000_000, price: '99999999.99' },
          { product: 30, quantity: 1_000_000, price: '1000000000' },
        ],
      }),
    )!;
    expect(extreme.lines.map((l) => [l.id, l.milli])).toEqual([[String(lineId(3, 1)), 0]]);
  });

  it('earns what is left of a line edited before payment (its current quantity), with its share of the discount', () => {
    const payload = orderPayload(4, { lines: [{ product: 10, quantity: 3, price: '10.00', discount: '3.00' }] });
    const [line] = payload.line_items as Record<string, unknown>[];
    const edited = paidOrder({ ...payload, line_items: [{ ...line, current_quantity: 1 }] })!;
    expect(edited.lines.map((l) => [l.quantity, l.milli])).toEqual([[1, 9_000]]);
    expect(paidOrder({ ...payload, line_items: [{ ...line, current_quantity: 0 }] })!.lines).toEqual([]);
  });

  it('names no order without an id or a time', () => {
    expect(paidOrder({})).toBeNull();
    expect(paidOrder({ id: 'x', processed_at: '2026-01-01T00:00:00Z' })).toBeNull();
  });
});

describe('reading refunds/create', () => {
  const shippingLine = {
    shipping_line_id: 1,
    subtotal_amount_set: { shop_money: { amount: '5.00', currency_code: 'USD' } },
    tax_amount_set: { shop_money: { amount: '0.50', currency_code: 'USD' } },
  };
  const legacyShipping = {
    kind: 'shipping_refund',
    amount: '-5.00',
    amount_set: { shop_money: { amount: '-5.00', currency_code: 'USD' } },
    tax_amount: '0.00',
  };

  it('gives back its lines with their tax and its shipping, as API 2024-10 and later send it or as an order adjustment before', () => {
    const lines = refundPayload(5, 1, [{ position: 1, quantity: 1, subtotal: '20.00' }]);
    expect(refundNotice({ ...lines, refund_shipping_lines: [shippingLine] })!.milli).toBe(25_500);
    expect(refundNotice({ ...lines, refund_shipping_lines: [], order_adjustments: [legacyShipping] })!.milli).toBe(25_000);
    // Both at once counts the shipping once.
    expect(refundNotice({ ...lines, refund_shipping_lines: [shippingLine], order_adjustments: [legacyShipping] })!.milli).toBe(25_500);
    expect(refundNotice({ ...refundPayload(6, 1, []), refund_shipping_lines: [shippingLine] })!.milli).toBe(5_500);
  });

  it('keeps, while it waits for its order, only what it reads of it', () => {
    const refund = {
      ...refundPayload(7, 1, [{ position: 1, quantity: 2, subtotal: '20.00' }]),
      refund_shipping_lines: [{ ...shippingLine, shipping_line: { title: 'Express to 1 Secret Lane' } }],
      order_adjustments: [{ ...legacyShipping, kind: 'refund_discrepancy', reason: 'Customer called' }],
      transactions: [{ id: 1, receipt: { card: '4242' } }],
    };
    const kept = waitingPayload('refunds/create', refund);
    expect(refundNotice(kept)).toEqual(refundNotice(refund));
    expect(JSON.stringify(kept)).not.toMatch(/Secret Lane|Customer called|4242|returned/);
    expect(waitingPayload('refunds/create', kept)).toEqual(kept);
    const cancelled = { ...orderPayload(8, { lines: [] }), cancelled_at: '2026-11-01T10:00:00Z' };
    expect(waitingPayload('orders/cancelled', cancelled)).toEqual({ id: 8, cancelled_at: '2026-11-01T10:00:00Z' });
  });
});

describe('planOrderLogs', () => {
  it('one log per feed: sums of the lines (of the collections, if any), 1 for counts, the first order only when it is one', () => {
    const feeds = [
      feed({ definitionId: 'sum' }),
      feed({ definitionId: 'shoes', collectionIds: ['c-shoes'] }),
      feed({ definitionId: 'hats', collectionIds: ['c-hats'], method: 'count' }),
      feed({ kind: 'streak', definitionId: 'streak', method: 'count' }),
      feed({ kind: 'mission', definitionId: 'm', activityId: 'first_order', method: 'count' }),
      feed({ kind: 'mission', definitionId: 'm', activityId: 'account_created', method: 'count' }),
    ];
    const collectionsOf = (product: string) => (product === '10' ? ['c-shoes'] : []);
    const planned = planOrderLogs(order, feeds, { firstOrder: true, collectionsOf });
    expect(planned.map((p) => [p.feed.definitionId, p.uniqueIdentifier, p.valueMilli])).toEqual([
      ['sum', 'order:1', 29_010],
      ['shoes', 'order:1', 29_000],
      ['streak', 'order:1', 1000],
      ['m', 'order:1:first_order', 1000],
    ]);
    expect(planOrderLogs(order, feeds, { firstOrder: false, collectionsOf }).map((p) => p.feed.activityId)).not.toContain('first_order');
  });
});

describe('refundShare', () => {
  const sum = planOrderLogs(order, [feed({})], { firstOrder: false, collectionsOf: () => [] })[0]!;
  const earned = (reversedMilli = 0) => ({ method: 'sum' as const, valueMilli: sum.valueMilli, reversedMilli, lineMilli: sum.lineMilli });
  const refund = (id: number, quantity: number) => refundNotice(refundPayload(id, 1, [{ position: 1, quantity }]))!;

  it('partial refunds of a line add up to exactly what it earned, in either order', () => {
    for (const sequence of [
      [1, 1, 1],
      [2, 1],
      [1, 2],
    ]) {
      let refunded: Record<string, number> = {};
      let taken = 0;
      for (const [i, quantity] of sequence.entries()) {
        const after = refundedAfter(order.lines, refunded, refund(i + 1, quantity));
        taken += refundShare(earned(taken), order.lines, refunded, after);
        refunded = after;
      }
      expect(taken, sequence.join('+')).toBe(29_000);
    }
    expect(refundShare(earned(), order.lines, {}, refundedAfter(order.lines, {}, refund(9, 1)))).toBe(9667);
  });

  it('never takes more than remains (a cancellation took it first), nor more of a line than it had', () => {
    expect(refundShare(earned(29_010), order.lines, {}, refundedAfter(order.lines, {}, refund(1, 3)))).toBe(0);
    expect(refundedAfter(order.lines, {}, refund(1, 7))[String(lineId(1, 1))]).toBe(3);
  });

  it('takes a count log back only once nothing of the order is left', () => {
    const count = { method: 'count' as const, valueMilli: 1000, reversedMilli: 0, lineMilli: {} };
    const some = refundedAfter(order.lines, {}, refund(1, 3));
    expect(nothingLeft(order.lines, some)).toBe(false);
    expect(refundShare(count, order.lines, {}, some)).toBe(0);
    const all = Object.fromEntries(order.lines.map((l) => [l.id, l.quantity]));
    expect(refundShare(count, order.lines, some, all)).toBe(1000);
  });
});
