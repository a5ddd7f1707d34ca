import type { LoaderFunctionArgs } from '@remix-run/node';
import { config } from '../config.server';
import { mintEndUserToken, notInstalled } from '../core/enduser-token.server';
import { accountClient } from '../core/client.server';
import { customerOrder } from '../earning/ledger.server';
import { friendGiftTitle } from '../earning/referral-gifts.server';
import { outbox } from '../loop/outbox.server';
import { customerGid } from '../shopify/customer-ids.server';
import { customerOfSub, shopOfDest } from '../shopify/extension-token.server';
import { authenticateExtension } from '../shopify.server';
import { pool } from '../storage/pool.server';
import { shops } from '../storage/stores.server';
import { errorAnswer, extensionGetOnly, noStore } from '../http.server';

// The thank-you page names the order `OrderIdentity`, the order status page `Order`; the number is the order's id.
const ORDER_GID = /^gid:\/\/shopify\/(?:Order|OrderIdentity)\/([1-9]\d*)$/;

/**
 * GET /checkout/order?order=<order gid>: the thank-you and order status pages' block sends its
 * session token and the order it is shown on, and gets what the app knows of that order (what it
 * counted for, its points, the reward logs it earned) plus an end-user token to read the member's
 * progress in the core. The library checks the token's signature with the app's secret and its
 * exp/nbf (401) and answers the CORS preflight; the shop is `dest`, the customer `sub`, so a
 * customer reads only their own orders (another's answers `order: null`, as an unknown one does). A guest's token has no `sub`: 401 `no_customer`, on which
 * the block invites the shopper to create an account. With the order, the title of the gift a
 * friend the member refers gets (`friendGift`, null for none), which the block's referral card names.
 */
async function orderRewards(request: Request): Promise<Response> {
  const { sessionToken, cors } = await authenticateExtension.checkout(request);
  const customer = customerOfSub(sessionToken.sub);
  if (!customer) return cors(errorAnswer(401, 'no_customer', 'Sign in or create an account to earn rewards.'));
  const orderId = ORDER_GID.exec(new URL(request.url).searchParams.get('order') ?? '')?.[1];
  if (!orderId) return cors(errorAnswer(400, 'bad_order', 'order must be the gid of an order.'));
  const shop = shopOfDest(sessionToken.dest);
  const account = shop && (await shops.findInstalled(shop));
  if (!shop || !account) return cors(notInstalled());
  const order = await customerOrder(pool(), shop, customer, orderId);
  const minted = await mintEndUserToken(config.coreUrl, account, customerGid(customer));
  if (minted instanceof Response) return cors(minted);
  // Asked once the order is here (the block asks again until then), for the member's referral card.
  const friendGift = order ? await friendGiftTitle(accountClient(config.coreUrl, account), shop, outbox) : null;
  return cors(
    Response.json(
      {
        // Null until the app has received the order's webhook: the block asks again.
        order: order && {
          name: order.name,
          state: order.state,
          points: order.points && { earned: order.points.earned, reversed: order.points.reversed },
          counted: order.logs
            .filter((l) => !l.refused)
            .map((l) => ({ kind: l.kind, definitionId: l.definitionId, value: l.value, reversed: l.reversed })),
          rewardLogIds: [...new Set(order.logs.flatMap((l) => l.rewardLogIds))],
        },
        ...minted,
        accountId: account.accountId,
        coreUrl: config.corePublicUrl,
        friendGift,
      },
      { headers: noStore },
    ),
  );
}

export const loader = ({ request }: LoaderFunctionArgs) => orderRewards(request);
export const action = extensionGetOnly;
