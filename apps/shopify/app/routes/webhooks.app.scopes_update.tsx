import type { ActionFunctionArgs } from '@remix-run/node';
import { authenticateSigned } from '../shopify.server';
import { grantedScopes } from '../shopify/payloads.server';
import { sessionStorage } from '../storage/stores.server';
import { postAction, postOnly } from '../http.server';

/**
 * app/scopes_update: the merchant granted or revoked optional scopes, so the stored session's scope
 * is brought up to date (as in Shopify's template); the next admin load then sees what it may do.
 */
export const action = postAction(async ({ request }: ActionFunctionArgs) => {
  const { session, payload } = await authenticateSigned.webhook(request);
  const scopes = grantedScopes(payload);
  if (session && scopes) {
    session.scope = scopes.join(',');
    await sessionStorage.storeSession(session);
  }
  return new Response(null, { status: 200 });
});

export const loader = postOnly;
