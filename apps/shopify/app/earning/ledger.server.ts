import type pg from 'pg';
import { isJsonObject } from '../json';
import { customerGid } from '../shopify/customer-ids.server';
import { inTransaction } from '../storage/transaction.server';
import { nothingLeft, ONE, storedLines, storedNumbers } from './plan';

/**
 * What the app knows of a customer's orders (CONTRACT §17), for the member page: each order, what
 * it earned in each program, what refunds and a cancellation took back, and the reward logs it
 * earned. Amounts in the shop's currency.
 */
export type OrderState = 'earned' | 'partly_refunded' | 'refunded' | 'cancelled' | 'skipped';

export interface OrderReversal {
  /** `refund:<id>` or `cancel:<order id>` (a first-order log's with `:first_order`). */
  uniqueIdentifier: string;
  value: number;
  at: string;
  refused: string | null;
}

export interface OrderLogEffect {
  kind: 'streak' | 'challenge' | 'mission';
  definitionId: string;
  definitionName: string;
  activityId: string;
  method: 'count' | 'sum';
  value: number;
  reversed: number;
  reversals: OrderReversal[];
  /** Why the core refused the log, if it did. */
  refused: string | null;
  rewardLogIds: string[];
}

export interface OrderEffect {
  orderId: string;
  /** The numeric Shopify customer id; null for a guest's order. */
  customerId: string | null;
  name: string;
  processedAt: string;
  amount: number;
  currency: string | null;
  state: OrderState;
  /** Why an order earned nothing: a test order, one without a customer, a shop not installed then. */
  skipReason: string | null;
  logs: OrderLogEffect[];
  /** The points the order earned (CONTRACT §19, after the tier's multiplier) and what refunds took back; null: none asked. */
  points: {
    earned: number;
    reversed: number;
    refused: string | null;
    /** A bonus points event's multiplier; 1: none. */ bonus: number;
  } | null;
}

const reversalsOf = (value: unknown): OrderReversal[] =>
  (Array.isArray(value) ? value.filter(isJsonObject) : []).map((r) => ({
    uniqueIdentifier: String(r.uniqueIdentifier ?? ''),
    value: typeof r.milli === 'number' ? r.milli / ONE : 0,
    at: String(r.at ?? ''),
    refused: typeof r.refused === 'string' ? r.refused : null,
  }));

/** The customer's latest orders the app received (newest first) with their effects. */
export function customerOrders(pool: pg.Pool, shop: string, customerId: string, limit = 20): Promise<OrderEffect[]> {
  return orderEffects(pool, 'shop = $1 and customer_id = $2 order by processed_at desc limit $3', [shop, customerId, limit]);
}

/**
 * One order as its customer may see it (the thank-you and order status pages): its effects; null
 * while the app has not received it, and for another customer's or a guest's, which reads the same
 * (a buyer cannot learn which order ids exist).
 */
export async function customerOrder(pool: pg.Pool, shop: string, customerId: string, orderId: string): Promise<OrderEffect | null> {
  const [order] = await orderEffects(pool, 'shop = $1 and order_id = $2 and customer_id = $3', [shop, orderId, customerId]);
  return order ?? null;
}

/**
 * The orders `where` picks (its first parameter is the shop) with what each earned and gave back,
 * read in one snapshot: a refund's worker writes the order's refunded lines and its points taken
 * back in one transaction, and separate reads could see one without the other.
 */
function orderEffects(pool: pg.Pool, where: string, params: [string, ...unknown[]]): Promise<OrderEffect[]> {
  return inTransaction(
    pool,
    (client) => readOrderEffects(client, where, params),
    'begin transaction isolation level repeatable read read only',
  );
}

async function readOrderEffects(db: pg.PoolClient, where: string, params: [string, ...unknown[]]): Promise<OrderEffect[]> {
  const shop = params[0];
  const { rows: orders } = await db.query<{
    order_id: string;
    customer_id: string | null;
    name: string;
    processed_at: Date;
    amount: string;
    currency: string | null;
    lines: unknown;
    refunded: unknown;
    cancelled_at: Date | null;
    status: 'earned' | 'skipped';
    skip_reason: string | null;
  }>(
    `select order_id, customer_id, name, processed_at, amount, currency, lines, refunded, cancelled_at, status, skip_reason
       from shopify_orders where ${where}`,
    params,
  );
  if (!orders.length) return [];
  const { rows: logs } = await db.query<{
    order_id: string;
    kind: OrderLogEffect['kind'];
    definition_id: string;
    definition_name: string;
    activity_id: string;
    method: OrderLogEffect['method'];
    value_milli: string;
    reversed_milli: string;
    reversals: unknown;
    refused: string | null;
    reward_log_ids: unknown;
  }>(
    `select order_id, kind, definition_id, definition_name, activity_id, method, value_milli, reversed_milli, reversals, refused, reward_log_ids
       from shopify_order_logs where shop = $1 and order_id = any($2) order by kind, definition_name, activity_id`,
    [shop, orders.map((o) => o.order_id)],
  );
  const { rows: points } = await db.query<{ order_id: string; points: number; reversed: number; refused: string | null; bonus: number }>(
    `select order_id, points, reversed, refused, bonus from shopify_order_points where shop = $1 and order_id = any($2)`,
    [shop, orders.map((o) => o.order_id)],
  );
  const pointsOf = new Map(points.map((p) => [p.order_id, { earned: p.points, reversed: p.reversed, refused: p.refused, bonus: p.bonus }]));
  return orders.map((o) => {
    const lines = storedLines(o.lines);
    const refunded = storedNumbers(o.refunded);
    const state: OrderState =
      o.status === 'skipped'
        ? 'skipped'
        : o.cancelled_at
          ? 'cancelled'
          : nothingLeft(lines, refunded)
            ? 'refunded'
            : Object.values(refunded).some((q) => q > 0)
              ? 'partly_refunded'
              : 'earned';
    return {
      orderId: o.order_id,
      customerId: o.customer_id,
      name: o.name,
      processedAt: o.processed_at.toISOString(),
      amount: Number(o.amount),
      currency: o.currency,
      state,
      skipReason: o.skip_reason,
      points: pointsOf.get(o.order_id) ?? null,
      logs: logs
        .filter((l) => l.order_id === o.order_id)
        .map((l) => ({
          kind: l.kind,
          definitionId: l.definition_id,
          definitionName: l.definition_name,
          activityId: l.activity_id,
          method: l.method,
          value: Number(l.value_milli) / ONE,
          reversed: Number(l.reversed_milli) / ONE,
          reversals: reversalsOf(l.reversals),
          refused: l.refused,
          rewardLogIds: Array.isArray(l.reward_log_ids) ? l.reward_log_ids.filter((id): id is string => typeof id === 'string') : [],
        })),
    };
  });
}

/**
 * The discount codes the customer's paid orders used (upper-cased, as the order facts keep them,
 * CONTRACT §18): the checkout's rewards block offers none of them again.
 */
export async function codesUsedBy(pool: pg.Pool, shop: string, customerId: string): Promise<string[]> {
  const { rows } = await pool.query<{ code: string }>(
    `select distinct d->>'code' as code from order_facts f cross join lateral jsonb_array_elements(f.discount_codes) d
      where f.shop = $1 and f.customer_id = $2 order by 1`,
    [shop, customerId],
  );
  return rows.map((r) => r.code);
}

/**
 * What names a customer: its numeric id, its GID (null when Shopify names none: a guest's orders
 * only), and the orders Shopify asks to redact or export with it (guest orders among them).
 */
interface CustomerKeys {
  customer: string | null;
  gid: string | null;
  orders: string[];
  /** Their e-mail address as the compliance webhook names it, lower-cased; null when it names none. */
  email: string | null;
}

/** Where the app keeps a customer's rows, per table, with `{customer}`, `{gid}` and `{orders}` for their keys. */
const CUSTOMER_ROWS: { table: string; where: string; erasedOnly?: true; keptAs?: string }[] = [
  {
    table: 'shopify_webhooks',
    where:
      "payload->'customer'->>'id' = {customer} or (topic in ('customers/create', 'customers/update') and payload->>'id' = {customer}) or order_id = any({orders})",
    // Kept emptied, so a late redelivery of one is still known and earns nothing again (a
    // customer's subject names them: only its hash stays). First: this waits for the earning
    // worker to finish any of them it holds, so the rows below include what that wrote.
    keptAs: `payload = '{}'::jsonb, status = 'done', last_error = 'redacted', done_at = now(),
      subject = case when order_id is null then 'redacted:' || md5(subject) else subject end`,
  },
  ...['shopify_order_logs', 'shopify_order_points', 'shopify_referrals'].map((table) => ({
    table,
    where: 'order_id in (select order_id from shopify_orders where shop = {shop} and customer_id = {customer}) or order_id = any({orders})',
  })),
  ...['shopify_orders', 'order_facts'].map((table) => ({
    table,
    where: 'customer_id = {customer} or order_id = any({orders})',
  })),
  ...['shopify_first_orders', 'storefront_visits', 'program_members', 'customer_tiers', 'customer_exclusions'].map((table) => ({
    table,
    where: 'customer_id = {customer}',
  })),
  { table: 'reward_discounts', where: 'customer_gid = {gid}' },
  // A friend's gift is claimed with an e-mail, before there is a customer.
  { table: 'shopify_referral_gifts', where: 'email = {email}' },
  // An imported balance's row names its customer by id once given, by e-mail until then.
  { table: 'points_import_rows', where: 'customer_id = {customer} or lower(email) = {email}' },
  // A "Referral gift claimed" names the referrer as its customer and the friend by their e-mail.
  { table: 'flow_trigger_outbox', where: "payload->>'customer_id' = {customer} or payload->>'friend_email' = {email}" },
  // The exports of their earlier data requests: erased, not exported again.
  { table: 'data_requests', where: 'customer_external_id = {gid}', erasedOnly: true },
];

/** A CUSTOMER_ROWS condition of the shop's rows, with its values numbered in order. */
function customerCondition(where: string, shop: string, keys: CustomerKeys): { text: string; values: unknown[] } {
  const values: unknown[] = [];
  const named: Record<string, unknown> = { shop, ...keys };
  const text = `shop = {shop} and (${where})`.replace(/\{(\w+)\}/g, (_, name: string) => {
    values.push(named[name]);
    return `$${values.length}`;
  });
  return { text, values };
}

const keysOf = (customerId: string | null, orderIds: string[], email: string | null): CustomerKeys => ({
  customer: customerId,
  gid: customerId === null ? null : customerGid(customerId),
  orders: orderIds,
  email: email?.toLowerCase() ?? null,
});

/**
 * customers/redact: what the app keeps of the customer goes (their orders and the guest orders
 * Shopify names with them, their facts and what they earned, what the webhooks naming them said, their first
 * order and visits, their membership, the discounts made and Flow triggers queued for them, their
 * tier's sync, the exports of their data requests); the core erases the member itself.
 */
export async function forgetCustomer(
  pool: pg.Pool,
  shop: string,
  customerId: string | null,
  orderIds: string[] = [],
  email: string | null = null,
): Promise<void> {
  const keys = keysOf(customerId, orderIds, email);
  const forget = () =>
    inTransaction(pool, async (client) => {
      // In the list's order: an order's logs are found through the order before it goes.
      for (const { table, where, keptAs } of CUSTOMER_ROWS) {
        const { text, values } = customerCondition(where, shop, keys);
        await client.query(keptAs ? `update ${table} set ${keptAs} where ${text}` : `delete from ${table} where ${text}`, values);
      }
    });
  // The earning worker, holding one of the customer's webhooks, may wake another of them that this
  // has taken: PostgreSQL ends one of the two, and this one starts over.
  for (let attempt = 1; ; attempt++) {
    try {
      return await forget();
    } catch (err) {
      if (attempt === 3 || !(err instanceof Error && 'code' in err && err.code === '40P01')) throw err;
    }
  }
}

/** customers/data_request: what the app keeps of the customer and of the orders it names, by table, as it keeps it (the shop left out). */
export async function customerRecords(
  pool: pg.Pool,
  shop: string,
  customerId: string,
  orderIds: string[],
  email: string | null = null,
): Promise<Record<string, unknown[]>> {
  const found: Record<string, unknown[]> = {};
  const keys = keysOf(customerId, orderIds, email);
  for (const { table, where } of CUSTOMER_ROWS.filter((r) => !r.erasedOnly)) {
    const { text, values } = customerCondition(where, shop, keys);
    const { rows } = await pool.query<{ row: Record<string, unknown> }>(
      `select to_jsonb(t) - 'shop' as row from ${table} t where ${text}`,
      values,
    );
    found[table] = rows.map((r) => r.row);
  }
  return found;
}
