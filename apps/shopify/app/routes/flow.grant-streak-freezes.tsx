import type { ActionFunctionArgs } from '@remix-run/node';
import { config } from '../config.server';
import { authenticateSigned } from '../shopify.server';
import { grantStreakFreezes } from '../shopify/flow-actions.server';
import { pool } from '../storage/pool.server';
import { shops } from '../storage/stores.server';
import { postAction, postOnly } from '../http.server';

/** Flow action "Grant streak freezes" (extensions/flow-grant-streak-freezes): freezes for the customer's in-progress run. */
export const action = postAction(async ({ request }: ActionFunctionArgs) => {
  const { session, payload, admin } = await authenticateSigned.flow(request);
  return grantStreakFreezes({ session, payload, admin }, { coreUrl: config.coreUrl, shops, pool: pool() });
});

export const loader = postOnly;
