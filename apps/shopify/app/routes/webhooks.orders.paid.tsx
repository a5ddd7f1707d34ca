import type { ActionFunctionArgs } from '@remix-run/node';
import { receiveStoreWebhook } from '../earning/inbox.server';
import { authenticateSigned } from '../shopify.server';
import { pool } from '../storage/pool.server';
import { postAction, postOnly } from '../http.server';

/** orders/paid (CONTRACT §17): a paid order earns: one log per program its earning rules feed. Kept before the 200; the worker role does the work. */
export const action = postAction(async ({ request }: ActionFunctionArgs) => {
  const { shop, webhookId, payload } = await authenticateSigned.webhook(request);
  return receiveStoreWebhook(pool, { shop, topic: 'orders/paid', webhookId, payload });
});

export const loader = postOnly;
