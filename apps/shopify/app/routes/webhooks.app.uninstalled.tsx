import type { ActionFunctionArgs } from '@remix-run/node';
import { authenticateSigned } from '../shopify.server';
import { sessionStorage, shops } from '../storage/stores.server';
import { postAction, postOnly } from '../http.server';

/**
 * app/uninstalled: the access tokens are dead, so the sessions go. The loyalty account stays until
 * shop/redact, so a merchant who reinstalls within the grace period finds the programme intact;
 * the reinstall provisions it again (a fresh key, the metafields written anew).
 */
export const action = postAction(async ({ request }: ActionFunctionArgs) => {
  const { shop } = await authenticateSigned.webhook(request);
  const sessions = await sessionStorage.findSessionsByShop(shop);
  if (sessions.length) await sessionStorage.deleteSessions(sessions.map((s) => s.id));
  await shops.markUninstalled(shop);
  return new Response(null, { status: 200 });
});

export const loader = postOnly;
