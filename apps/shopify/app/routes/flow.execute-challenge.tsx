import type { ActionFunctionArgs } from '@remix-run/node';
import { executeLog } from '../lib/flow.server';
import { authenticate, coreUrl, shops } from '../shopify.server';

/** Flow action "Execute challenge" (extensions/flow-execute-challenge): one challenge log for the Flow customer. */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { session, payload, admin } = await authenticate.flow(request);
  return executeLog('challenge', { session, payload, admin }, { coreUrl, shops });
};
