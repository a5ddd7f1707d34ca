import type { ActionFunctionArgs } from '@remix-run/node';
import { receiveStoreWebhook } from '../earning/inbox.server';
import { authenticateSigned } from '../shopify.server';
import { pool } from '../storage/pool.server';
import { postAction, postOnly } from '../http.server';

/** orders/cancelled (CONTRACT §17): a cancellation takes back what remains of what the order earned. Kept before the 200; the worker role does the work. */
export const action = postAction(async ({ request }: ActionFunctionArgs) => {
  const { shop, webhookId, payload } = await authenticateSigned.webhook(request);
  return receiveStoreWebhook(pool, { shop, topic: 'orders/cancelled', webhookId, payload });
});

export const loader = postOnly;
