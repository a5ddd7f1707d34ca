import type { ActionFunctionArgs } from '@remix-run/node';
import { config } from '../config.server';
import { notInstalled } from '../core/enduser-token.server';
import { recordVisit } from '../earning/visits.server';
import { authenticateProxy } from '../shopify.server';
import { fetchCustomer, fetchShop } from '../shopify/admin-api.server';
import { proxyCustomerId } from '../shopify/customer-ids.server';
import { pool } from '../storage/pool.server';
import { earningRules, shops } from '../storage/stores.server';
import { errorAnswer, noStore, postAction, postOnly } from '../http.server';

/** The shop's time zone per process for an hour: a visit's day is the shop's, and it rarely moves. */
const zones = new Map<string, { zone: string; at: number }>();

async function shopZone(shop: string, admin: Parameters<typeof fetchShop>[0] | undefined): Promise<string> {
  const kept = zones.get(shop);
  if (kept && Date.now() - kept.at < 3_600_000) return kept.zone;
  const zone = (admin && (await fetchShop(admin).catch(() => null))?.ianaTimezone) || 'UTC';
  zones.set(shop, { zone, at: Date.now() });
  return zone;
}

/**
 * App proxy POST /apps/loyalty/visit (CONTRACT §17 Visits): the signed-in shopper's visit of the day,
 * sent by the theme's widget embed. The customer is Shopify's signed `logged_in_customer_id` and
 * nothing the request says otherwise; a guest is 401, a bad signature 400.
 */
export const action = postAction(async ({ request }: ActionFunctionArgs) => {
  const { session, admin } = await authenticateProxy(request);
  const customerId = proxyCustomerId(request);
  if (!customerId) return errorAnswer(401, 'unauthenticated', 'Only a signed-in shopper’s visit counts.');
  const account = session ? await shops.findInstalled(session.shop) : null;
  if (!account) return notInstalled();
  const visit = await recordVisit(
    { pool, rules: earningRules, coreUrl: config.coreUrl, customer: admin ? (gid) => fetchCustomer(admin, gid) : undefined },
    account,
    customerId,
    await shopZone(account.shop, admin),
  );
  if ('unavailable' in visit) return errorAnswer(503, 'unavailable', 'The loyalty service is unreachable; the next page tries again.');
  return Response.json(visit, { headers: noStore });
});

export const loader = postOnly;
