import type { ActionFunctionArgs } from '@remix-run/node';
import { authenticate, loop } from '../shopify.server';
import { KNOWN_TRIGGERS } from '../lib/loop.server';

/**
 * Flow's trigger lifecycle callback (extensions/flow-trigger-lifecycle): after Shopify's HMAC
 * is verified, records whether the shop has an enabled workflow using the trigger, so only triggers
 * in use are sent. Always 2xx once verified, or Flow would refuse to enable the workflow.
 */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { session, payload } = await authenticate.flow(request);
  const body = payload as { flow_trigger_definition_id?: unknown; has_enabled_flow?: unknown; timestamp?: unknown };
  const handle = typeof body.flow_trigger_definition_id === 'string' ? body.flow_trigger_definition_id : '';
  const stamped = typeof body.timestamp === 'string' ? new Date(body.timestamp) : undefined;
  const notifiedAt = stamped && !Number.isNaN(stamped.getTime()) ? stamped : new Date();
  if (KNOWN_TRIGGERS.has(handle)) await loop.setTriggerUsage(session.shop, handle, body.has_enabled_flow === true, notifiedAt);
  return Response.json({ ok: true });
};
