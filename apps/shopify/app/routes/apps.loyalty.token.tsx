import type { LoaderFunctionArgs } from '@remix-run/node';
import { customerGid } from '../lib/admin-api.server';
import { accountClient } from '../lib/core.server';
import { authenticate, coreUrl, shops } from '../shopify.server';

/**
 * App proxy GET /apps/loyalty/token: a short-lived end-user token for the signed-in shopper.
 * The proxy signature and timestamp are checked first (400 when wrong); a guest is 401.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.public.appProxy(request);
  const noStore = { 'cache-control': 'no-store' };
  const customerId = new URL(request.url).searchParams.get('logged_in_customer_id');
  if (!customerId || !/^[1-9]\d*$/.test(customerId)) return Response.json({ error: { code: 'unauthenticated', message: 'Sign in to see your rewards.' } }, { status: 401, headers: noStore });
  const account = session ? await shops.find(session.shop) : null;
  if (!account) return Response.json({ error: { code: 'not_installed', message: 'The loyalty app is not set up for this shop.' } }, { status: 404, headers: noStore });
  let result;
  try {
    result = await accountClient(coreUrl, account).POST('/enduser/token', { body: { externalId: customerGid(customerId), expiresInSeconds: 1800 } });
  } catch {
    return Response.json({ error: { code: 'unavailable', message: 'The loyalty service is unreachable.' } }, { status: 503, headers: noStore });
  }
  if (!result.response.ok) return Response.json({ error: { code: 'unavailable', message: `The loyalty service answered ${result.response.status}.` } }, { status: 503, headers: noStore });
  // The OpenAPI document leaves this answer untyped; CONTRACT §5 gives its shape.
  const { accessToken, expiresAt } = (result.data as unknown as { data: { accessToken: string; expiresAt: string } }).data;
  return Response.json({ accessToken, expiresAt }, { headers: noStore });
};
