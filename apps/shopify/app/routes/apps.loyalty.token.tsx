import type { LoaderFunctionArgs } from '@remix-run/node';
import { config } from '../config.server';
import { mintEndUserToken } from '../core/enduser-token.server';
import { authenticateProxy } from '../shopify.server';
import { customerGid, proxyCustomerId } from '../shopify/customer-ids.server';
import { shops } from '../storage/stores.server';
import { errorAnswer, getOnly, noStore } from '../http.server';

/**
 * App proxy GET /apps/loyalty/token: a short-lived end-user token for the signed-in shopper.
 * The proxy signature and timestamp are checked first (400 when wrong); a guest is 401.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  // Remix gives OPTIONS to the loader: the proxy's storefront asks from its own origin, with no preflight.
  if (request.method === 'OPTIONS') return getOnly();
  const { session } = await authenticateProxy(request);
  const customerId = proxyCustomerId(request);
  if (!customerId) return errorAnswer(401, 'unauthenticated', 'Sign in to see your rewards.');
  const minted = await mintEndUserToken(config.coreUrl, session ? await shops.findInstalled(session.shop) : null, customerGid(customerId));
  return minted instanceof Response ? minted : Response.json(minted, { headers: noStore });
};

export const action = getOnly;
