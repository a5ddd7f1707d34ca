import type { ActionFunctionArgs } from '@remix-run/node';
import { config } from '../config.server';
import { authenticateSigned } from '../shopify.server';
import { stampCoupon } from '../shopify/flow-actions.server';
import { shops } from '../storage/stores.server';
import { postAction, postOnly } from '../http.server';

/** Flow action "Stamp coupon" (extensions/flow-stamp-coupon): the merchant's code onto a reward log. */
export const action = postAction(async ({ request }: ActionFunctionArgs) => {
  const { session, payload, admin } = await authenticateSigned.flow(request);
  return stampCoupon({ session, payload, admin }, { coreUrl: config.coreUrl, shops });
});

export const loader = postOnly;
