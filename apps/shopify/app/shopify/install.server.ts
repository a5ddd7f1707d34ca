import { accountClient, platformClient } from '../core/client.server';
import { ensureCoreWebhook } from '../core/event-subscription.server';
import { coreLanguage } from '../core/languages';
import { removeRecord } from '../core/records.server';
import type { ShopAccount, ShopStore } from '../storage/shops.server';
import { type AdminGraphql, deleteMetafields, fetchShop, primaryLocale, setMetafields } from './admin-api.server';
import { APP_NAMESPACE, liveWidgetIds, widgetMetafields } from './widget-metafields.server';

export interface ProvisionDeps {
  coreUrl: string;
  corePublicUrl: string;
  platformToken: string;
  /** Where the core delivers the app's events (its webhook is registered at install). */
  eventsUrl: string;
  shops: ShopStore;
}

const inFlight = new Map<string, Promise<ShopAccount>>();

/**
 * The shop's account, provisioned first when this installation has none: on install (afterAuth) and
 * by any admin loader that gets there first, since Remix runs the layout's and the page's loaders
 * together and only one of them exchanges the token. Once per shop: callers in this process share
 * one attempt, and processes take turns on the shop's database lock, then find it done.
 */
export function ensureProvisioned(deps: ProvisionDeps, shop: string, admin: AdminGraphql): Promise<ShopAccount> {
  let attempt = inFlight.get(shop);
  if (!attempt) {
    attempt = (async () => {
      const found = await deps.shops.findInstalled(shop);
      if (found) return found;
      return deps.shops.exclusive(shop, async (store) => {
        const done = await store.findInstalled(shop);
        if (done) return done;
        await provisionShop({ ...deps, shops: store }, shop, admin);
        const account = await store.findInstalled(shop);
        if (!account) throw new Error(`the account provisioned for ${shop} is not stored`);
        // Best effort at install: the admin's next opening repairs it.
        await ensureCoreWebhook(deps, store, account).catch((err: Error) =>
          console.error(`[loyalty] could not register the core webhook for ${shop}: ${err.message}`),
        );
        return account;
      });
    })().finally(() => inFlight.delete(shop));
    inFlight.set(shop, attempt);
  }
  return attempt;
}

/**
 * Provisions the shop's organization and account through the platform API, idempotent on the shop
 * domain (a reinstall finds them again), stores the fresh key encrypted, retires the key it
 * replaces, and writes the ids as shop metafields (merchant-visible `loyalty` and the app-owned
 * `$app:loyalty` copy that the theme app embed reads, with the core's URL and the widget's ids).
 */
export async function provisionShop(
  deps: Omit<ProvisionDeps, 'eventsUrl'>,
  shop: string,
  admin: AdminGraphql,
): Promise<{ accountId: string; organizationId: string }> {
  // The shop's language is the account's default: what members without one of their own read and
  // are written to in, and what the admin's editors edit. A locale that cannot be read leaves English.
  const [info, locale] = await Promise.all([fetchShop(admin), primaryLocale(admin).catch(() => null)]);
  const language = coreLanguage(locale);
  const provisioned = await platformClient(deps.coreUrl, deps.platformToken).provision({
    organizationName: info.name,
    accountName: info.name,
    ...(info.ianaTimezone ? { timezone: info.ianaTimezone } : {}),
    ...(language ? { defaultLanguageCode: language } : {}),
    externalRef: shop,
  });
  const account = {
    shop,
    organizationId: provisioned.organization.id,
    accountId: provisioned.account.id,
    apiKeyId: provisioned.apiKey.id,
    apiKey: provisioned.apiKey.apiKey,
    apiSecret: provisioned.apiKey.apiSecret,
  };
  const replaced = await deps.shops.save(account);
  if (replaced) {
    // Each provisioning mints a new key; the one it replaces is used by no one. Best effort: a key
    // left behind is unused, and failing the install for it would only mint another.
    await removeRecord(accountClient(deps.coreUrl, account), 'apikey', replaced).catch(() => undefined);
  }
  const ids = { account_id: account.accountId, organization_id: account.organizationId };
  // The app-owned copy also tells the theme app embed where the widget's core is, and which of the
  // account's records it shows (a reinstall finds the account's records again). Those ids are not
  // worth failing the install for: the admin's next opening writes them (admin/authenticate.server.ts).
  const owned = { ...ids, base_url: deps.corePublicUrl };
  const live = await liveWidgetIds(accountClient(deps.coreUrl, account)).catch(() => null);
  const widget = live ? widgetMetafields(info.id, live) : { set: [], absent: [] };
  const field =
    (namespace: string) =>
    ([key, value]: [string, string]) => ({ ownerId: info.id, namespace, key, type: 'single_line_text_field', value });
  await setMetafields(admin, [
    ...Object.entries(ids).map(field('loyalty')),
    ...Object.entries(owned).map(field(APP_NAMESPACE)),
    ...widget.set,
  ]);
  if (widget.absent.length) await deleteMetafields(admin, info.id, APP_NAMESPACE, widget.absent);
  return { accountId: account.accountId, organizationId: account.organizationId };
}
