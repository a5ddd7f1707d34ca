import type pg from 'pg';
import { isJsonObject, objectOf } from '../json';
import {
  cancelNotice,
  type CreatedCustomer,
  createdCustomer,
  KEPT_WHILE_WAITING,
  paidOrder,
  refundNotice,
  waitingPayload,
} from '../shopify/order-payloads.server';

/**
 * Shopify's order and customer webhooks as the web role takes them (CONTRACT §17): kept as Shopify
 * sent them in `shopify_webhooks`, in one statement, which commits before Shopify gets its 200. Unique per webhook
 * id and per subject, so a redelivery, or the same event reaching two app processes, is kept once.
 * The worker role earns from them (worker.server.ts).
 */

/** How long a guest's paid order may still become the customer's who signs up with its e-mail (CONTRACT §17). */
export const GUEST_ORDER_DAYS = 30;

/** The channel a kept webhook is announced on, so a worker takes it at once. */
export const EARNING_CHANNEL = 'loyalty_shopify_earning';

const STORE_TOPICS = ['orders/paid', 'refunds/create', 'orders/cancelled', 'customers/create', 'customers/update'] as const;
export type StoreTopic = (typeof STORE_TOPICS)[number];

interface Kept {
  /**
   * What the worker is to do with it, each kept once per shop: one subject, or two where a
   * customer's webhook both signs them up (or proves their e-mail) and shows them subscribed to the
   * newsletter, each a row of its own.
   */
  subjects: [string] | [string, string];
  orderId: string | null;
  facts: Facts | null;
}

/**
 * What the webhook changes of the order's facts (CONTRACT §18), written in the statement that keeps
 * it and only when it is kept, so a redelivery changes nothing: a customer's paid order (not a test)
 * adds its row; a refund adds what it gave back, once per refund id; a cancellation takes back all.
 */
type Facts =
  | { kind: 'order'; customerId: string; processedAt: string; amount: number; codes: { code: string; amount: number }[] }
  | { kind: 'refund'; amount: number }
  | { kind: 'cancel' };

/** A webhook well formed but of no use to the worker: answered and not kept. */
const UNUSED = 'unused';

/** The subject a payload is kept under, and its order; null when it names nothing to work on. */
function keep(topic: StoreTopic, payload: unknown): Kept | typeof UNUSED | null {
  switch (topic) {
    case 'orders/paid': {
      const order = paidOrder(payload);
      if (!order) return null;
      const facts: Facts | null =
        order.customer && !order.test
          ? {
              kind: 'order',
              customerId: order.customer.id,
              processedAt: order.processedAt,
              amount: order.totalMilli / 1000,
              codes: order.discountCodes.map((d) => ({ code: d.code, amount: d.milli / 1000 })),
            }
          : null;
      return { subjects: [`order:${order.id}`], orderId: order.id, facts };
    }
    case 'refunds/create': {
      const refund = refundNotice(payload);
      return (
        refund && {
          subjects: [`refund:${refund.id}`],
          orderId: refund.orderId,
          facts: { kind: 'refund', amount: Math.max(0, refund.milli) / 1000 },
        }
      );
    }
    case 'orders/cancelled': {
      const cancel = cancelNotice(payload);
      return cancel && { subjects: [`cancel:${cancel.orderId}`], orderId: cancel.orderId, facts: { kind: 'cancel' } };
    }
    case 'customers/create': {
      const customer = createdCustomer(payload);
      return customer && { subjects: withNewsletter(`customer:${customer.id}`, customer), orderId: null, facts: null };
    }
    case 'customers/update': {
      const customer = createdCustomer(payload);
      if (!customer) return null;
      // Only the first update that shows the e-mail proved is kept: it adopts the guest orders the sign-up could not.
      // And the first that shows them subscribed: it earns the newsletter's points.
      if (customer.emailVerified && customer.email)
        return { subjects: withNewsletter(`verified:${customer.id}`, customer), orderId: null, facts: null };
      return customer.newsletterSince ? { subjects: [`newsletter:${customer.id}`], orderId: null, facts: null } : UNUSED;
    }
  }
}

/** A customer's subject, and their newsletter's when the webhook shows them subscribed. */
const withNewsletter = (subject: string, customer: CreatedCustomer): Kept['subjects'] =>
  customer.newsletterSince ? [subject, `newsletter:${customer.id}`] : [subject];

/**
 * The facts' part of the keeping statement ($1 shop, $5 order id; its own parameters from $8). A
 * refund before its order leaves a row with only what was refunded, which the order fills in; an
 * order whose cancellation came first is all taken back. An order's customer's membership as known
 * now; the earning worker settles it under the customer's lock (EarningWorker.markMembership).
 */
function factsStatement(facts: Facts | null): [string, unknown[]] {
  switch (facts?.kind) {
    case undefined:
      return ['', []];
    case 'order':
      return [
        `, facts as (
           insert into order_facts (shop, order_id, customer_id, processed_at, amount, refunded, discount_codes, member_from)
           select $1, $5, $8, $9::timestamptz, $10::numeric,
             case when exists (select 1 from shopify_webhooks w where w.shop = $1 and w.subject = 'cancel:' || $5) then $10::numeric else 0 end,
             $11::jsonb, (select m.joined_at from program_members m where m.shop = $1 and m.customer_id = $8)
           from kept
           on conflict (shop, order_id) do update set customer_id = excluded.customer_id, processed_at = excluded.processed_at,
             amount = excluded.amount, refunded = least(excluded.amount, greatest(order_facts.refunded, excluded.refunded)),
             discount_codes = excluded.discount_codes, member_from = excluded.member_from
           where order_facts.processed_at is null
         )`,
        [facts.customerId, facts.processedAt, facts.amount, JSON.stringify(facts.codes)],
      ];
    case 'refund':
      return [
        `, facts as (
           insert into order_facts (shop, order_id, refunded) select $1, $5, $8::numeric from kept
           on conflict (shop, order_id) do update set
             refunded = case when order_facts.amount is null then order_facts.refunded + excluded.refunded
                        else least(order_facts.amount, order_facts.refunded + excluded.refunded) end
         )`,
        [facts.amount],
      ];
    case 'cancel':
      return [
        `, facts as (update order_facts set refunded = amount where shop = $1 and order_id = $5 and amount is not null and exists (select 1 from kept))`,
        [],
      ];
  }
}

/**
 * PostgreSQL's jsonb holds no NUL character and no lone surrogate (valid in JSON text, as `\ud800`),
 * which a shopper's note or attribute may carry through Shopify, in a value or a key: a NUL dropped,
 * a lone surrogate made U+FFFD, the rest kept.
 */
const clean = (text: string) => text.replaceAll('\0', '').toWellFormed();
function storable(_key: string, value: unknown): unknown {
  if (typeof value === 'string') return clean(value);
  // Objects are copied only when a key needs it: orders come by the thousand.
  if (isJsonObject(value) && Object.keys(value).some((key) => clean(key) !== key))
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [clean(key), v]));
  return value;
}

/**
 * A customer's update kept apart, under a subject of its own per webhook, while the shop leaves
 * customers out by tag or has paused this customer's member for it: the worker settles whether
 * they are left out now (exclusions.server.ts). Only what that reads of the customer is kept.
 */
async function keepTags(pool: () => pg.Pool, webhook: { shop: string; webhookId: string; payload: unknown }): Promise<void> {
  const customer = createdCustomer(webhook.payload);
  if (!customer) return;
  const payload = objectOf(webhook.payload);
  const kept = {
    id: customer.id,
    tags: payload.tags,
    updated_at: payload.updated_at,
    email: customer.email,
    first_name: customer.firstName,
    last_name: customer.lastName,
  };
  await pool().query({
    name: 'keep-tags',
    text: `with kept as (
       insert into shopify_webhooks (shop, webhook_id, topic, subject, payload)
       select $1, $2, 'customers/update', $3, $4
       where exists (select 1 from shop_exclusions e where e.shop = $1 and cardinality(e.tags) > 0)
          or exists (select 1 from customer_exclusions c where c.shop = $1 and c.customer_id = $5 and c.paused)
       on conflict do nothing returning shop
     )
     select pg_notify($6, shop) from kept`,
    values: [
      webhook.shop,
      `${webhook.webhookId}/tags`,
      `tags:${customer.id}:${webhook.webhookId}`,
      JSON.stringify(kept, storable),
      customer.id,
      EARNING_CHANNEL,
    ],
  });
}

export async function receiveStoreWebhook(
  pool: () => pg.Pool,
  webhook: { shop: string; topic: StoreTopic; webhookId: string; payload: unknown },
): Promise<Response> {
  if (webhook.topic === 'customers/update') await keepTags(pool, webhook);
  const kept = keep(webhook.topic, webhook.payload);
  if (kept === UNUSED) return new Response(null, { status: 200 });
  if (!kept) {
    // Shopify would redeliver a failure for 48 hours; a payload without its ids never gets better.
    console.error(`[loyalty-earning] ${webhook.topic} ${webhook.webhookId} for ${webhook.shop} names nothing to earn from; ignored`);
    return new Response(null, { status: 200 });
  }
  // The notification is sent when the statement commits, and only for a row it added; the facts
  // change in the same statement, only when the row was added. Named, so each connection plans
  // each of the four shapes once: planning the facts' part cost about as much as writing them.
  // A second subject's row has a webhook id of its own (the table keeps one row per id), which a
  // redelivery names again.
  const [sql, params] = factsStatement(kept.facts);
  const ids = kept.subjects.map((subject, i) => (i ? `${webhook.webhookId}/${subject.split(':')[0]}` : webhook.webhookId));
  await pool().query({
    name: `keep-${kept.facts?.kind ?? 'webhook'}`,
    text: `with kept as (
       insert into shopify_webhooks (shop, webhook_id, topic, subject, order_id, payload)
       select $1, u.id, $3, u.subject, $5, $6 from unnest($2::text[], $4::text[]) as u(id, subject)
       on conflict do nothing returning shop
     )${sql}
     select pg_notify($7, shop) from kept`,
    values: [
      webhook.shop,
      ids,
      webhook.topic,
      kept.subjects,
      kept.orderId,
      JSON.stringify(webhook.payload, storable),
      EARNING_CHANNEL,
      ...params,
    ],
  });
  return new Response(null, { status: 200 });
}

const EMPTIED_PER_STATEMENT = 1000;

/**
 * Empties the payloads of webhooks worked off (or given up on) that came more than GUEST_ORDER_DAYS
 * ago: nothing reads them then (a guest order's e-mail is read within that window, a refund reads
 * its order's kept lines), and what Shopify sent (addresses, e-mail, phone, notes) is more than the
 * app keeps of an order (CONTRACT §18). The rows stay, so a late redelivery is still known. A refund
 * or cancellation still waiting for its order then (one of an order placed before the app was
 * installed, or never paid) keeps only what it will read if the order comes. A thousand rows a
 * statement, so a first run over a large table holds no long lock; answers how many.
 */
export async function emptyOldPayloads(pool: pg.Pool): Promise<number> {
  let emptied = 0;
  for (;;) {
    const { rowCount } = await pool.query(
      `update shopify_webhooks set payload = '{}'::jsonb where id in (
         select id from shopify_webhooks
         where status in ('done', 'failed') and payload <> '{}'::jsonb and created_at < now() - make_interval(days => $1)
         limit $2)`,
      [GUEST_ORDER_DAYS, EMPTIED_PER_STATEMENT],
    );
    emptied += rowCount ?? 0;
    if ((rowCount ?? 0) < EMPTIED_PER_STATEMENT) break;
  }
  for (const [topic, keys] of Object.entries(KEPT_WHILE_WAITING) as [keyof typeof KEPT_WHILE_WAITING, readonly string[]][]) {
    for (;;) {
      // Rows with a field beyond what is kept; a trimmed one has none, so each row is trimmed once.
      const { rows } = await pool.query<{ id: string; payload: unknown }>(
        `select id, payload from shopify_webhooks
         where status = 'waiting' and topic = $1 and created_at < now() - make_interval(days => $2)
           and exists (select 1 from jsonb_object_keys(payload) k where k <> all($3::text[]))
         limit $4`,
        [topic, GUEST_ORDER_DAYS, keys, EMPTIED_PER_STATEMENT],
      );
      if (rows.length) {
        await pool.query(
          `update shopify_webhooks w set payload = t.payload from jsonb_to_recordset($1::jsonb) as t(id bigint, payload jsonb)
           where w.id = t.id and w.status = 'waiting'`,
          [JSON.stringify(rows.map((r) => ({ id: r.id, payload: waitingPayload(topic, r.payload) })))],
        );
      }
      emptied += rows.length;
      if (rows.length < EMPTIED_PER_STATEMENT) break;
    }
  }
  return emptied;
}
