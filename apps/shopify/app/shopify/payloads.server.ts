import { errorAnswer } from '../http.server';
import { instantOf, objectOf } from '../json';

/** What the app reads of the payloads Shopify sends it (webhooks and Flow's callbacks), once verified. */

const numericId = (value: unknown): number | string | null =>
  (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) || (typeof value === 'string' && /^[1-9]\d*$/.test(value))
    ? value
    : null;

/**
 * Whether a compliance webhook's body (customers/data_request, customers/redact, shop/redact) names
 * the shop its header does: the signature covers the body only, and the shop these erase or export
 * for is read from the header.
 */
export const namesShop = (payload: unknown, shop: string): boolean => objectOf(payload).shop_domain === shop;

/** A compliance webhook whose body names another shop than its header: nothing is done. */
export const otherShop = () => errorAnswer(400, 'other_shop', 'The body names another shop than the X-Shopify-Shop-Domain header.');

/** The customer of a customers/data_request or customers/redact webhook (`customer.id`); null when it names none. */
export function complianceCustomerId(payload: unknown): number | string | null {
  return numericId(objectOf(objectOf(payload).customer).id);
}

/** That customer's e-mail address (`customer.email`); null when it names none. */
export function complianceCustomerEmail(payload: unknown): string | null {
  const email = objectOf(objectOf(payload).customer).email;
  return typeof email === 'string' && email.includes('@') ? email : null;
}

/**
 * The orders a customers/redact (`orders_to_redact`) or customers/data_request (`orders_requested`)
 * names, a guest's among them: their numeric ids.
 */
export function namedOrders(payload: unknown, field: 'orders_to_redact' | 'orders_requested'): string[] {
  const ids = objectOf(payload)[field];
  return Array.isArray(ids) ? ids.flatMap((id) => (numericId(id) === null ? [] : [String(id)])) : [];
}

/** The id of a customers/data_request (`data_request.id`); null when it names none. */
export function dataRequestId(payload: unknown): string | null {
  const id = numericId(objectOf(objectOf(payload).data_request).id);
  return id === null ? null : String(id);
}

export interface TriggerUsage {
  handle: string;
  /** The shop has an enabled workflow using the trigger. */
  enabled: boolean;
  /** When Flow says it noticed; the arrival time when it does not say. */
  notifiedAt: Date;
}

/** Flow's trigger lifecycle callback (extensions/flow-trigger-lifecycle). */
export function triggerUsage(payload: unknown): TriggerUsage {
  const body = objectOf(payload);
  const stamped = instantOf(body.timestamp);
  const now = new Date();
  return {
    handle: typeof body.flow_trigger_definition_id === 'string' ? body.flow_trigger_definition_id : '',
    enabled: body.has_enabled_flow === true,
    // The newest notice wins: one stamped ahead of now (a clock's skew) would outrank every later one.
    notifiedAt: stamped && stamped < now ? stamped : now,
  };
}

/** The scopes an app/scopes_update webhook says the app now has (`current`); null when it names none. */
export function grantedScopes(payload: unknown): string[] | null {
  const current = objectOf(payload).current;
  return Array.isArray(current) && current.every((scope) => typeof scope === 'string') ? current : null;
}
