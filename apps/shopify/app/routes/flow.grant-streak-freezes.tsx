import type { ActionFunctionArgs } from '@remix-run/node';
import { grantStreakFreezes } from '../lib/flow.server';
import { authenticate, coreUrl, pool, shops } from '../shopify.server';

/** Flow action "Grant streak freezes" (extensions/flow-grant-streak-freezes): freezes for the customer's in-progress run. */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { session, payload, admin } = await authenticate.flow(request);
  return grantStreakFreezes({ session, payload, admin }, { coreUrl, shops, pool });
};
