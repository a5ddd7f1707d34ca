import type { ActionFunctionArgs } from '@remix-run/node';
import { outbox } from '../loop/outbox.server';
import { postAction, postOnly } from '../http.server';

/**
 * The core's webhook deliveries for the app's own subscription (CONTRACT §10, §16): verified with
 * the client package's receiver, queued as Flow triggers and discounts, answered 2xx once durable.
 */
export const action = postAction(async ({ request }: ActionFunctionArgs) => {
  return outbox.receive(request);
});

export const loader = postOnly;
