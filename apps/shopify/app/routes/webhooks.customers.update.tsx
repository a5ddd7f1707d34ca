import type { ActionFunctionArgs } from '@remix-run/node';
import { receiveStoreWebhook } from '../earning/inbox.server';
import { authenticateSigned } from '../shopify.server';
import { pool } from '../storage/pool.server';
import { postAction, postOnly } from '../http.server';

/** customers/update (CONTRACT §17): the first update that shows a customer's e-mail verified adopts their guest orders. Kept before the 200. */
export const action = postAction(async ({ request }: ActionFunctionArgs) => {
  const { shop, webhookId, payload } = await authenticateSigned.webhook(request);
  return receiveStoreWebhook(pool, { shop, topic: 'customers/update', webhookId, payload });
});

export const loader = postOnly;
