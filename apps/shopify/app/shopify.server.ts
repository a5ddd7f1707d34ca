import '@shopify/shopify-app-remix/adapters/node';
import { ApiVersion, AppDistribution, shopifyApp } from '@shopify/shopify-app-remix/server';
import { config } from './config.server';
import { ensureProvisioned, type ProvisionDeps } from './shopify/install.server';
import { sessionStorage, shops } from './storage/stores.server';

/**
 * The Shopify app's configuration, as in Shopify's template: loading it opens no connection and
 * starts nothing. The app's tables are migrated by the `migrate` command, and the Flow and discount
 * worker is a process of its own (app/commands/).
 */

/** What provisioning a shop needs (on install, and by the first admin page that gets there first). */
export const provisioning: ProvisionDeps = {
  coreUrl: config.coreUrl,
  corePublicUrl: config.corePublicUrl,
  platformToken: config.platformToken,
  eventsUrl: config.eventsUrl,
  shops,
};

const shopify = shopifyApp({
  apiKey: config.apiKey,
  apiSecretKey: config.apiSecret,
  apiVersion: ApiVersion.October25,
  scopes: config.scopes,
  appUrl: config.appUrl,
  authPathPrefix: '/auth',
  sessionStorage,
  distribution: AppDistribution.AppStore,
  future: { unstable_newEmbeddedAuthStrategy: true },
  hooks: {
    afterAuth: async ({ session, admin }) => {
      await ensureProvisioned(provisioning, session.shop, admin);
    },
  },
});

export default shopify;
export const addDocumentResponseHeaders = shopify.addDocumentResponseHeaders;
export const authenticate = shopify.authenticate;
export const unauthenticated = shopify.unauthenticated;
export const login = shopify.login;
