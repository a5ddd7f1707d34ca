import type { ActionFunctionArgs } from '@remix-run/node';
import { config } from '../config.server';
import { accountClient, unreachableAsUnavailable } from '../core/client.server';
import { exportMember, retriedOnOutage } from '../core/member-data.server';
import { customerRecords } from '../earning/ledger.server';
import { authenticateSigned } from '../shopify.server';
import { customerGid } from '../shopify/customer-ids.server';
import {
  complianceCustomerEmail,
  complianceCustomerId,
  dataRequestId,
  namedOrders,
  namesShop,
  otherShop,
} from '../shopify/payloads.server';
import { pool } from '../storage/pool.server';
import { shops } from '../storage/stores.server';
import { postAction, postOnly } from '../http.server';

/**
 * customers/data_request: exports what the core holds about the customer, and under `app` what the
 * app keeps of them and of the orders Shopify names (a guest's among them), and keeps it for the merchant, keyed by the request id, so a redelivery
 * overwrites rather than duplicates.
 */
export const action = postAction(async ({ request }: ActionFunctionArgs) => {
  const { shop, payload } = await authenticateSigned.webhook(request);
  if (!namesShop(payload, shop)) return otherShop();
  const customerId = complianceCustomerId(payload);
  const account = await shops.find(shop);
  if (!account || customerId === null) return new Response(null, { status: 200 });
  const externalId = customerGid(customerId);
  return retriedOnOutage(async () => {
    const [core, app] = await Promise.all([
      exportMember(unreachableAsUnavailable(accountClient(config.coreUrl, account)), externalId),
      customerRecords(pool(), shop, String(customerId), namedOrders(payload, 'orders_requested'), complianceCustomerEmail(payload)),
    ]);
    await shops.saveDataRequest(shop, dataRequestId(payload) ?? String(customerId), externalId, { ...(core ?? { member: null }), app });
    return new Response(null, { status: 200 });
  });
});

export const loader = postOnly;
