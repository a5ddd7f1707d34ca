import type { ActionFunctionArgs } from '@remix-run/node';
import { config } from '../config.server';
import { accountClient } from '../core/client.server';
import { exportMember } from '../core/member-data.server';
import { authenticate } from '../shopify.server';
import { customerGid } from '../shopify/customer-ids.server';
import { complianceCustomerId, dataRequestId } from '../shopify/payloads.server';
import { shops } from '../storage/stores.server';

/**
 * customers/data_request: exports what the core holds about the customer and keeps it for the
 * merchant, keyed by the request id, so a redelivery overwrites rather than duplicates.
 */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, payload } = await authenticate.webhook(request);
  const customerId = complianceCustomerId(payload);
  const account = await shops.find(shop);
  if (!account || customerId === null) return new Response(null, { status: 200 });
  const externalId = customerGid(customerId);
  const data = await exportMember(accountClient(config.coreUrl, account), externalId);
  await shops.saveDataRequest(shop, dataRequestId(payload) ?? String(customerId), externalId, data ?? { member: null });
  return new Response(null, { status: 200 });
};
