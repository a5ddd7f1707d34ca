import type { ActionFunctionArgs } from '@remix-run/node';
import { stampCoupon } from '../lib/flow.server';
import { authenticate, coreUrl, shops } from '../shopify.server';

/** Flow action "Stamp coupon" (extensions/flow-stamp-coupon): the merchant's code onto a reward log. */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { session, payload, admin } = await authenticate.flow(request);
  return stampCoupon({ session, payload, admin }, { coreUrl, shops });
};
