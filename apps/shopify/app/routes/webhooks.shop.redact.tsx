import type { ActionFunctionArgs } from '@remix-run/node';
import { platformClient } from '../lib/core.server';
import { authenticate, coreUrl, platformToken, sessionStorage, shops } from '../shopify.server';

/** shop/redact (48 hours after uninstall): erases the account in the core and everything kept here. */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { shop } = await authenticate.webhook(request);
  const account = await shops.find(shop);
  if (account) await platformClient(coreUrl, platformToken).erase(account.accountId);
  await shops.remove(shop);
  const sessions = await sessionStorage.findSessionsByShop(shop);
  if (sessions.length) await sessionStorage.deleteSessions(sessions.map((s) => s.id));
  return new Response(null, { status: 200 });
};
