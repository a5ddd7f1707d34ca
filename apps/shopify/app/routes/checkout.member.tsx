import type { LoaderFunctionArgs } from '@remix-run/node';
import { config } from '../config.server';
import { endUserAnswer } from '../core/enduser-token.server';
import { codesUsedBy } from '../earning/ledger.server';
import { customerGid } from '../shopify/customer-ids.server';
import { customerOfSub, shopOfDest } from '../shopify/extension-token.server';
import { authenticateExtension } from '../shopify.server';
import { pool } from '../storage/pool.server';
import { shops } from '../storage/stores.server';
import { errorAnswer, extensionGetOnly } from '../http.server';

/**
 * GET /checkout/member: the checkout's rewards block (Plus shops' checkout steps) sends its session
 * token and gets an end-user token for the signed-in buyer, to list their codes and redeem points
 * in the core as that member, the codes their paid orders already used (`usedCodes`), which the
 * block does not offer again, and the shop's currency (null while the app does not know it), which
 * a reward's fixed amount is in. The library checks the token's signature with the app's secret
 * and its exp/nbf (401) and answers the CORS preflight; the shop is `dest`, the customer `sub`. A
 * guest's token has no `sub`: 401 `no_customer`, on which the block shows nothing.
 */
async function member(request: Request): Promise<Response> {
  const { sessionToken, cors } = await authenticateExtension.checkout(request);
  const customer = customerOfSub(sessionToken.sub);
  if (!customer) return cors(errorAnswer(401, 'no_customer', 'Sign in to use your rewards.'));
  const shop = shopOfDest(sessionToken.dest);
  const [account, usedCodes] = shop ? await Promise.all([shops.findInstalled(shop), codesUsedBy(pool(), shop, customer)]) : [null, []];
  return cors(await endUserAnswer(config, account, customerGid(customer), { extra: { usedCodes } }));
}

export const loader = ({ request }: LoaderFunctionArgs) => member(request);
export const action = extensionGetOnly;
