import type { ActionFunctionArgs } from '@remix-run/node';
import { config } from '../config.server';
import { authenticateSigned } from '../shopify.server';
import { adjustPoints } from '../shopify/flow-actions.server';
import { shops } from '../storage/stores.server';
import { postAction, postOnly } from '../http.server';

/** Flow action "Adjust points" (extensions/flow-adjust-points): points added to or taken from the customer's balance. */
export const action = postAction(async ({ request }: ActionFunctionArgs) => {
  const { session, payload, admin } = await authenticateSigned.flow(request);
  return adjustPoints({ session, payload, admin }, { coreUrl: config.coreUrl, shops });
});

export const loader = postOnly;
