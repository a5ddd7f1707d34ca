import type { LoaderFunctionArgs } from '@remix-run/node';
import { config } from '../config.server';
import { endUserAnswer, notInstalled } from '../core/enduser-token.server';
import { customerGid } from '../shopify/customer-ids.server';
import { isStaffSub, shopOfDest } from '../shopify/extension-token.server';
import { fetchCustomer } from '../shopify/admin-api.server';
import { authenticateExtension, unauthenticated } from '../shopify.server';
import { shops } from '../storage/stores.server';
import { errorAnswer, extensionGetOnly } from '../http.server';

// POS hands the extension the customer's numeric id; the gid form is taken too.
const CUSTOMER = /^(?:gid:\/\/shopify\/Customer\/)?([1-9]\d{0,19})$/;

/**
 * GET /pos/customer?customer=<id>: the POS extension on a customer's details sends its session
 * token and the customer POS shows, and gets an end-user token for that customer's member plus
 * where to read the core and the shop's currency (null while the app does not know it). The
 * library checks the token's HS256 signature with the app's secret and its exp/nbf (401) and
 * answers the CORS preflight. The staff member acts for the shop, so any
 * customer of it may be read; the shop is the token's `dest`, so another shop's token only ever
 * reaches that shop's members. Before a token is minted anew the shop is asked whether it has the
 * customer (404 `unknown_customer` when not, 503 when the Admin API does not answer): viewing
 * makes the customer a member, and an id the shop does not know must not make one.
 */
async function customerToken(request: Request): Promise<Response> {
  const { sessionToken, cors } = await authenticateExtension.pos(request);
  if (!isStaffSub(sessionToken.sub)) return cors(errorAnswer(401, 'not_staff', 'Only a staff member signed into POS can read a customer.'));
  const customer = CUSTOMER.exec(new URL(request.url).searchParams.get('customer') ?? '')?.[1];
  if (!customer) return cors(errorAnswer(400, 'bad_customer', 'customer must be a customer id or gid.'));
  const shop = shopOfDest(sessionToken.dest);
  const account = shop && (await shops.findInstalled(shop));
  if (!shop || !account) return cors(notInstalled());
  const gid = customerGid(customer);
  const admit = async () => {
    let found;
    try {
      found = await fetchCustomer((await unauthenticated.admin(shop)).admin, gid);
    } catch {
      return errorAnswer(503, 'unavailable', 'Shopify did not answer whether the shop has this customer.');
    }
    return found ? null : errorAnswer(404, 'unknown_customer', 'The shop has no customer with this id.');
  };
  return cors(await endUserAnswer(config, account, gid, { admit }));
}

export const loader = ({ request }: LoaderFunctionArgs) => customerToken(request);
export const action = extensionGetOnly;
