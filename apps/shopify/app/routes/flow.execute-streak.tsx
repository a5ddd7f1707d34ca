import type { ActionFunctionArgs } from '@remix-run/node';
import { config } from '../config.server';
import { authenticateSigned } from '../shopify.server';
import { executeLog } from '../shopify/flow-actions.server';
import { shops } from '../storage/stores.server';
import { postAction, postOnly } from '../http.server';

/** Flow action "Execute streak" (extensions/flow-execute-streak): one streak log for the Flow customer. */
export const action = postAction(async ({ request }: ActionFunctionArgs) => {
  const { session, payload, admin } = await authenticateSigned.flow(request);
  return executeLog('streak', { session, payload, admin }, { coreUrl: config.coreUrl, shops });
});

export const loader = postOnly;
