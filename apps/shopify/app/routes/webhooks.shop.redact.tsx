import type { ActionFunctionArgs } from '@remix-run/node';
import { config } from '../config.server';
import { platformClient } from '../core/client.server';
import { authenticateSigned } from '../shopify.server';
import { namesShop, otherShop } from '../shopify/payloads.server';
import { sessionStorage, shops } from '../storage/stores.server';
import { postAction, postOnly } from '../http.server';

/** shop/redact (48 hours after uninstall): erases the account in the core and everything kept here. */
export const action = postAction(async ({ request }: ActionFunctionArgs) => {
  const { shop, payload } = await authenticateSigned.webhook(request);
  if (!namesShop(payload, shop)) return otherShop();
  const account = await shops.find(shop);
  if (account) await platformClient(config.coreUrl, config.platformToken).erase(account.accountId);
  await shops.remove(shop);
  const sessions = await sessionStorage.findSessionsByShop(shop);
  if (sessions.length) await sessionStorage.deleteSessions(sessions.map((s) => s.id));
  return new Response(null, { status: 200 });
});

export const loader = postOnly;
