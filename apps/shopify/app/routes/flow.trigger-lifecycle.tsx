import type { ActionFunctionArgs } from '@remix-run/node';
import { outbox } from '../loop/outbox.server';
import { authenticateSigned } from '../shopify.server';
import { isTriggerHandle } from '../shopify/flow-extensions';
import { triggerUsage } from '../shopify/payloads.server';
import { postAction, postOnly } from '../http.server';

/**
 * Flow's trigger lifecycle callback (extensions/flow-trigger-lifecycle): after Shopify's HMAC
 * is verified, records whether the shop has an enabled workflow using the trigger, so only triggers
 * in use are sent. Always 2xx once verified, or Flow would refuse to enable the workflow.
 */
export const action = postAction(async ({ request }: ActionFunctionArgs) => {
  const { session, payload } = await authenticateSigned.flow(request);
  const usage = triggerUsage(payload);
  if (isTriggerHandle(usage.handle)) await outbox.setTriggerUsage(session.shop, usage.handle, usage.enabled, usage.notifiedAt);
  return Response.json({ ok: true });
});

export const loader = postOnly;
