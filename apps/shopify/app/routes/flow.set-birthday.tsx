import type { ActionFunctionArgs } from '@remix-run/node';
import { config } from '../config.server';
import { authenticateSigned } from '../shopify.server';
import { setBirthday } from '../shopify/flow-actions.server';
import { shops } from '../storage/stores.server';
import { postAction, postOnly } from '../http.server';

/** Flow action "Set birthday" (extensions/flow-set-birthday): the customer's birthday for birthday points. */
export const action = postAction(async ({ request }: ActionFunctionArgs) => {
  const { session, payload, admin } = await authenticateSigned.flow(request);
  return setBirthday({ session, payload, admin }, { coreUrl: config.coreUrl, shops });
});

export const loader = postOnly;
