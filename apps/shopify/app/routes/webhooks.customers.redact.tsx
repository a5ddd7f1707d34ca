import type { ActionFunctionArgs } from '@remix-run/node';
import { config } from '../config.server';
import { accountClient, unreachableAsUnavailable } from '../core/client.server';
import { eraseMember, retriedOnOutage } from '../core/member-data.server';
import { forgetCustomer } from '../earning/ledger.server';
import { authenticateSigned } from '../shopify.server';
import { customerGid } from '../shopify/customer-ids.server';
import { complianceCustomerEmail, complianceCustomerId, namedOrders, namesShop, otherShop } from '../shopify/payloads.server';
import { pool } from '../storage/pool.server';
import { shops } from '../storage/stores.server';
import { postAction, postOnly } from '../http.server';

/**
 * customers/redact: erases the customer's orders kept here with the guest orders Shopify names
 * beside them, then the member (and its logs, progress and reward logs) in the core. In that order:
 * forgetting waits for the earning worker to finish any of the customer's orders it holds, and
 * leaves none for it to take, so nothing it writes to the core comes after the erasure.
 */
export const action = postAction(async ({ request }: ActionFunctionArgs) => {
  const { shop, payload } = await authenticateSigned.webhook(request);
  if (!namesShop(payload, shop)) return otherShop();
  const customerId = complianceCustomerId(payload);
  await forgetCustomer(
    pool(),
    shop,
    customerId === null ? null : String(customerId),
    namedOrders(payload, 'orders_to_redact'),
    complianceCustomerEmail(payload),
  );
  const account = await shops.find(shop);
  if (!account || customerId === null) return new Response(null, { status: 200 });
  return retriedOnOutage(async () => {
    await eraseMember(unreachableAsUnavailable(accountClient(config.coreUrl, account)), customerGid(customerId));
    return new Response(null, { status: 200 });
  });
});

export const loader = postOnly;
