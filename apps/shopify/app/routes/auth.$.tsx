import type { LoaderFunctionArgs } from '@remix-run/node';
import { authenticate } from '../shopify.server';

/** OAuth and session-token bounce routes, handled by the Shopify library. */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  await authenticate.admin(request);
  return null;
};
