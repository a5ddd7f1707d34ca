import type { ActionFunctionArgs } from '@remix-run/node';
import { customerGid } from '../lib/admin-api.server';
import { accountClient } from '../lib/core.server';
import { eraseMember } from '../lib/gdpr.server';
import { authenticate, coreUrl, shops } from '../shopify.server';

/** customers/redact: erases the member (and its logs, progress and reward logs) in the core. */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop, payload } = await authenticate.webhook(request);
  const customerId = (payload as { customer?: { id?: number } }).customer?.id;
  const account = await shops.find(shop);
  if (account && customerId) await eraseMember(accountClient(coreUrl, account), customerGid(customerId));
  return new Response(null, { status: 200 });
};
