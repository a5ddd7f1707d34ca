import type { LoaderFunctionArgs } from '@remix-run/node';
import { adminLanguage } from '../i18n';
import { ADMIN_MESSAGES } from '../i18n/bundles.server';
import { authenticate } from '../shopify.server';
import { shops } from '../storage/stores.server';
import { getOnly } from '../http.server';

/** GET: one customers/data_request export of the signed-in shop, as a JSON file to hand to the customer. */
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const found = await shops.findDataRequest(session.shop, params.id!);
  if (!found) throw new Response(ADMIN_MESSAGES[adminLanguage(request)].dataRequests.notFound, { status: 404 });
  return new Response(JSON.stringify(found.data, null, 2), {
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-disposition': `attachment; filename="data-request-${found.requestId}.json"`,
      // Personal data: no shared or browser cache keeps a copy.
      'cache-control': 'no-store',
    },
  });
};

export const action = getOnly;
