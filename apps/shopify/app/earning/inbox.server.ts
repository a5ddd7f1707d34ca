import type pg from 'pg';
import { cancelNotice, createdCustomer, paidOrder, refundNotice } from '../shopify/order-payloads.server';

/**
 * Shopify's order and customer webhooks as the web role takes them (CONTRACT §17): kept as Shopify
 * sent them in `shopify_webhooks`, in one statement, which commits before Shopify gets its 200. Unique per webhook
 * id and per subject, so a redelivery, or the same event reaching two app processes, is kept once.
 * The worker role earns from them (worker.server.ts).
 */

/** The channel a kept webhook is announced on, so a worker takes it at once. */
export const EARNING_CHANNEL = 'loyalty_shopify_earning';

const STORE_TOPICS = ['orders/paid', 'refunds/create', 'orders/cancelled', 'customers/create'] as const;
export type StoreTopic = (typeof STORE_TOPICS)[number];

interface Kept {
  subject: string;
  orderId: string | null;
}

/** The subject a payload is kept under, and its order; null when it names nothing to work on. */
function keep(topic: StoreTopic, payload: unknown): Kept | null {
  switch (topic) {
    case 'orders/paid': {
      const order = paidOrder(payload);
      return order && { subject: `order:${order.id}`, orderId: order.id };
    }
    case 'refunds/create': {
      const refund = refundNotice(payload);
      return refund && { subject: `refund:${refund.id}`, orderId: refund.orderId };
    }
    case 'orders/cancelled': {
      const cancel = cancelNotice(payload);
      return cancel && { subject: `cancel:${cancel.orderId}`, orderId: cancel.orderId };
    }
    case 'customers/create': {
      const customer = createdCustomer(payload);
      return customer && { subject: `customer:${customer.id}`, orderId: null };
    }
  }
}

export async function receiveStoreWebhook(
  pool: () => pg.Pool,
  webhook: { shop: string; topic: StoreTopic; webhookId: string; payload: unknown },
): Promise<Response> {
  const kept = keep(webhook.topic, webhook.payload);
  if (!kept) {
    // Shopify would redeliver a failure for 48 hours; a payload without its ids never gets better.
    console.error(`[loyalty-earning] ${webhook.topic} ${webhook.webhookId} for ${webhook.shop} names nothing to earn from; ignored`);
    return new Response(null, { status: 200 });
  }
  // The notification is sent when the statement commits, and only for a row it added.
  await pool().query(
    `with kept as (
       insert into shopify_webhooks (shop, webhook_id, topic, subject, order_id, payload) values ($1, $2, $3, $4, $5, $6)
       on conflict do nothing returning shop
     )
     select pg_notify($7, shop) from kept`,
    [webhook.shop, webhook.webhookId, webhook.topic, kept.subject, kept.orderId, JSON.stringify(webhook.payload), EARNING_CHANNEL],
  );
  return new Response(null, { status: 200 });
}
