import { config } from '../config.server';
import { accountClient, unreachableAsUnavailable } from '../core/client.server';
import { ensureCoreWebhook } from '../core/event-subscription.server';
import { authenticate, provisioning } from '../shopify.server';
import { type AdminGraphql, shopCurrency } from '../shopify/admin-api.server';
import { ensureProvisioned } from '../shopify/install.server';
import type { ShopAccount } from '../storage/shops.server';
import { shops } from '../storage/stores.server';
import { repairWidgetMetafields } from './widget-metafields.server';

const webhookCheckedAt = new Map<string, number>();

/**
 * Repairs the shop's core webhook when the admin opens (at most once a minute per shop and process);
 * best effort, since the page works without it and the next opening tries again.
 */
async function repairCoreWebhook(account: ShopAccount): Promise<void> {
  const last = webhookCheckedAt.get(account.shop);
  if (last && Date.now() - last < 60_000) return;
  webhookCheckedAt.set(account.shop, Date.now());
  try {
    await shops.exclusive(account.shop, (store) =>
      ensureCoreWebhook({ coreUrl: config.coreUrl, eventsUrl: config.eventsUrl }, store, account),
    );
  } catch (err) {
    webhookCheckedAt.delete(account.shop);
    console.error(`[loyalty] could not register the core webhook for ${account.shop}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

const currencyCheckedAt = new Map<string, number>();

/**
 * Keeps the shop's currency as Shopify reports it, read at the admin's openings (at most once an hour
 * per shop and process, so a change is followed); the install's first opening fills it in. Answers
 * the currency as it now stands. Best effort: where it is unknown, storefront surfaces write
 * amounts without it.
 */
async function refreshCurrency(account: ShopAccount, admin: AdminGraphql): Promise<string | null> {
  const last = currencyCheckedAt.get(account.shop);
  if (account.currencyCode && last && Date.now() - last < 3_600_000) return account.currencyCode;
  currencyCheckedAt.set(account.shop, Date.now());
  try {
    const currency = await shopCurrency(admin);
    if (currency !== account.currencyCode) await shops.saveCurrency(account.shop, currency);
    return currency;
  } catch {
    currencyCheckedAt.delete(account.shop);
    return account.currencyCode;
  }
}

/**
 * An admin page's start: Shopify's admin context and the shop's loyalty account and client. On the
 * first load the page's loader runs beside the layout's, and may find the session stored while the
 * install's afterAuth is still provisioning; it then waits for that provisioning (or does it).
 */
export async function authenticateShop(request: Request) {
  const context = await authenticate.admin(request);
  const account = await ensureProvisioned(provisioning, context.session.shop, context.admin);
  const api = unreachableAsUnavailable(accountClient(config.coreUrl, account));
  const [, , currencyCode] = await Promise.all([
    repairCoreWebhook(account),
    repairWidgetMetafields(account.shop, context.admin, api),
    refreshCurrency(account, context.admin),
  ]);
  return { ...context, account: { ...account, currencyCode }, api };
}
