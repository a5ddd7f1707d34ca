import type { LoaderFunctionArgs } from '@remix-run/node';
import { config } from '../config.server';
import { accountClient } from '../core/client.server';
import { endUserAnswer } from '../core/enduser-token.server';
import { friendGiftTitle } from '../earning/referral-gifts.server';
import { outbox } from '../loop/outbox.server';
import { customerGid } from '../shopify/customer-ids.server';
import { customerOfSub, shopOfDest } from '../shopify/extension-token.server';
import { authenticateExtension } from '../shopify.server';
import { shops } from '../storage/stores.server';
import { errorAnswer, extensionGetOnly } from '../http.server';

/**
 * GET /customer-account/token: the customer account "Rewards" page sends its session token
 * (Authorization: Bearer) and gets an end-user token for that customer, plus where to read the core.
 * The library checks the token's HS256 signature with the app's secret and its exp/nbf (401 when
 * wrong) and answers the CORS preflight; the shop is the token's `dest` and the customer its `sub`,
 * so a customer can only ever get their own member of the shop that signed them in. The answer also
 * names the shop's currency (null until the app knows it), which the page's earning rate shows and
 * no customer account API gives it, and the title of the gift referred friends get (null for none),
 * which the page's referral card names.
 */
async function token(request: Request): Promise<Response> {
  const { sessionToken, cors } = await authenticateExtension.customerAccount(request);
  const customer = customerOfSub(sessionToken.sub);
  if (!customer) return cors(errorAnswer(401, 'unauthenticated', 'Sign in to see your rewards.'));
  const shop = shopOfDest(sessionToken.dest);
  const account = shop ? await shops.findInstalled(shop) : null;
  const friendGift = account ? await friendGiftTitle(accountClient(config.coreUrl, account), account.shop, outbox) : null;
  return cors(await endUserAnswer(config, account, customerGid(customer), { extra: { friendGift } }));
}

export const loader = ({ request }: LoaderFunctionArgs) => token(request);
export const action = extensionGetOnly;
