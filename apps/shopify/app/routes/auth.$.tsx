import type { LoaderFunctionArgs } from '@remix-run/node';
import { authenticate } from '../shopify.server';
import { getOnly } from '../http.server';

/** OAuth and session-token bounce routes, handled by the Shopify library. */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  await authenticate.admin(request);
  return null;
};

export const action = getOnly;
