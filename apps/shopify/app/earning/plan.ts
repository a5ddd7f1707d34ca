import { isJsonObject } from '../json';
import type { OrderLine, PaidOrder, RefundNotice } from '../shopify/order-payloads.server';

/**
 * What the store's own activity earns (CONTRACT §17), decided without I/O: the logs a paid order
 * writes, and what a refund or a cancellation takes back from them. Amounts are thousandths of the
 * shop's currency (order-payloads.server.ts); a count log's value is 1000 (one).
 */

/** The activities a mission task can name to be fed by the store: its every paid order, a customer's first, a sign-up. */
export const BUILT_IN_ACTIVITIES = ['order_paid', 'first_order', 'account_created'] as const;
export type BuiltInActivity = (typeof BUILT_IN_ACTIVITIES)[number];
export const isBuiltInActivity = (value: unknown): value is BuiltInActivity => BUILT_IN_ACTIVITIES.some((a) => a === value);

/** The activity a storefront visit's log carries. */
export const VISIT_ACTIVITY = 'store_visit';

export type FeedKind = 'streak' | 'challenge' | 'mission';
export type Method = 'count' | 'sum';

/** One definition (for a mission, one task) that the store's activity feeds by itself. */
export interface Feed {
  kind: FeedKind;
  definitionId: string;
  name: string;
  /** The activity its logs carry: a built-in one, or the visit's. */
  activityId: string;
  method: Method;
  /** A challenge's amounts count only products of these collections; empty: every product. */
  collectionIds: string[];
}

export interface PlannedLog {
  feed: Feed;
  uniqueIdentifier: string;
  valueMilli: number;
  /** What each line added to a sum log, by line id; what a refund of the line takes back. */
  lineMilli: Record<string, number>;
}

export const ONE = 1000;

/**
 * The logs a paid order writes: one per definition it feeds (for a mission, per task activity), with
 * `order:<id>` as the uniqueIdentifier (the first-order task's own `order:<id>:first_order`, since a
 * mission takes one log per identifier). A sum log of nothing (a free order, no product of the
 * collections) and a count log of an order without a product of the collections are not written.
 */
export function planOrderLogs(
  order: PaidOrder,
  feeds: readonly Feed[],
  options: { firstOrder: boolean; collectionsOf(productId: string): readonly string[] },
): PlannedLog[] {
  const planned: PlannedLog[] = [];
  for (const feed of feeds) {
    if (feed.activityId !== 'order_paid' && feed.activityId !== 'first_order') continue;
    if (feed.activityId === 'first_order' && !options.firstOrder) continue;
    const wanted = new Set(feed.collectionIds);
    const lines = wanted.size
      ? order.lines.filter((l) => l.productId !== null && options.collectionsOf(l.productId).some((c) => wanted.has(c)))
      : order.lines;
    const uniqueIdentifier = feed.activityId === 'first_order' ? `order:${order.id}:first_order` : `order:${order.id}`;
    if (feed.method === 'sum') {
      const lineMilli = Object.fromEntries(lines.filter((l) => l.milli > 0).map((l) => [l.id, l.milli]));
      const valueMilli = Object.values(lineMilli).reduce((a, b) => a + b, 0);
      if (valueMilli > 0) planned.push({ feed, uniqueIdentifier, valueMilli, lineMilli });
    } else if (lines.length) {
      planned.push({ feed, uniqueIdentifier, valueMilli: ONE, lineMilli: {} });
    }
  }
  return planned;
}

/** A log an order wrote, as the app keeps it. */
export interface EarnedLog {
  method: Method;
  valueMilli: number;
  reversedMilli: number;
  lineMilli: Record<string, number>;
}

/** Each line's refunded quantity once `refund` is added (never above what the line had). */
export function refundedAfter(lines: readonly OrderLine[], before: Readonly<Record<string, number>>, refund: RefundNotice) {
  const after: Record<string, number> = { ...before };
  for (const r of refund.lines) {
    const line = lines.find((l) => l.id === r.lineItemId);
    if (line) after[line.id] = Math.min(line.quantity, (after[line.id] ?? 0) + r.quantity);
  }
  return after;
}

/** Whether every line of the order is refunded in full: nothing of it is left. */
export const nothingLeft = (lines: readonly OrderLine[], refunded: Readonly<Record<string, number>>) =>
  lines.every((l) => (refunded[l.id] ?? 0) >= l.quantity);

/**
 * What a refund takes back from one log, in thousandths: from a sum log, its refunded lines' part
 * (each line's share counted on its cumulative refunded quantity, so partial refunds of one line add
 * up to exactly what it contributed, in whatever order they arrive); from a count log, all of it
 * once nothing of the order is left. Never more than what remains of the log.
 */
export function refundShare(
  log: EarnedLog,
  lines: readonly OrderLine[],
  before: Readonly<Record<string, number>>,
  after: Readonly<Record<string, number>>,
): number {
  const remaining = Math.max(0, log.valueMilli - log.reversedMilli);
  if (log.method === 'count') return nothingLeft(lines, after) ? remaining : 0;
  let share = 0;
  for (const [lineId, contributed] of Object.entries(log.lineMilli)) {
    const quantity = lines.find((l) => l.id === lineId)?.quantity ?? 0;
    if (!quantity) continue;
    const part = (refunded: number) => Math.round((contributed * refunded) / quantity);
    share += part(after[lineId] ?? 0) - part(before[lineId] ?? 0);
  }
  return Math.min(share, remaining);
}

/**
 * A sum log's lines when the core holds another value under the order's key than the order gives
 * (a Flow action logged it first): each line's share of what the core holds, adding up to it, so a
 * refund takes back its lines' part of what was counted and a cancellation the rest.
 */
export function linesHolding(lineMilli: Readonly<Record<string, number>>, held: number): Record<string, number> {
  const entries = Object.entries(lineMilli);
  const total = entries.reduce((sum, [, milli]) => sum + milli, 0);
  if (total === held || total === 0) return { ...lineMilli };
  const scaled = entries.map(([id, milli]) => [id, Math.floor((milli * held) / total)] as [string, number]);
  // What rounding down left over goes to the first lines, a thousandth each.
  let left = held - scaled.reduce((sum, [, milli]) => sum + milli, 0);
  for (const entry of scaled) if (left-- > 0) entry[1] += 1;
  return Object.fromEntries(scaled);
}

/** An order's lines as the app stored them (`shopify_orders.lines`). */
export const storedLines = (value: unknown): OrderLine[] =>
  (Array.isArray(value) ? value.filter(isJsonObject) : []).flatMap((l) =>
    typeof l.id === 'string' && typeof l.quantity === 'number' && typeof l.milli === 'number'
      ? [{ id: l.id, productId: typeof l.productId === 'string' ? l.productId : null, quantity: l.quantity, milli: l.milli }]
      : [],
  );

/** Numbers by key as the app stored them (refunded quantities per line, a log's thousandths per line). */
export const storedNumbers = (value: unknown): Record<string, number> =>
  isJsonObject(value) ? Object.fromEntries(Object.entries(value).filter((e): e is [string, number] => typeof e[1] === 'number')) : {};
