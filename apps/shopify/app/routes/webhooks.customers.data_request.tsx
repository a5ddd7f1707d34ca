import type { ActionFunctionArgs } from '@remix-run/node';
import { customerGid } from '../lib/admin-api.server';
import { accountClient } from '../lib/core.server';
import { exportMember } from '../lib/gdpr.server';
import { authenticate, coreUrl, shops } from '../shopify.server';

/**
 * customers/data_request: exports what the core holds about the customer and keeps it for the
 * merchant, keyed by the request id, so a redelivery overwrites rather than duplicates.
 */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, payload } = await authenticate.webhook(request);
  const body = payload as { customer?: { id?: number }; data_request?: { id?: number } };
  const account = await shops.find(shop);
  if (!account || !body.customer?.id) return new Response(null, { status: 200 });
  const externalId = customerGid(body.customer.id);
  const data = await exportMember(accountClient(coreUrl, account), externalId);
  await shops.saveDataRequest(shop, String(body.data_request?.id ?? body.customer.id), externalId, data ?? { member: null });
  return new Response(null, { status: 200 });
};
