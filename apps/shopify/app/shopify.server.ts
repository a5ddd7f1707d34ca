import '@shopify/shopify-app-remix/adapters/node';
import { ApiVersion, AppDistribution, shopifyApp } from '@shopify/shopify-app-remix/server';
import { config } from './lib/config.server';
import { createPool, migrate } from './lib/db.server';
import { accountClient } from './lib/core.server';
import { ensureProvisioned, type ProvisionDeps } from './lib/provision.server';
import { PgSessionStorage } from './lib/session-storage.server';
import { ShopStore } from './lib/shops.server';

/** The app's own tables (sessions, shops and their credentials, encrypted), migrated once per process. */
export const pool = createPool(config.databaseUrl);
const migrated = migrate(pool);
export const shops = new ShopStore(pool, config.encryptionKey, migrated);
export const sessionStorage = new PgSessionStorage(pool, config.encryptionKey, migrated);
const provisioning: ProvisionDeps = { coreUrl: config.coreUrl, corePublicUrl: config.corePublicUrl, platformToken: config.platformToken, shops };

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

/** Closes the app's database connections (for tests that load the app in-process). */
export async function closeConnections(): Promise<void> {
  await pool.end();
}

/**
 * An admin page's start: Shopify's admin context and the shop's loyalty account and client. On the
 * first load the page's loader runs beside the layout's, and may find the session stored while the
 * install's afterAuth is still provisioning; it then waits for that provisioning (or does it).
 */
export async function authenticateShop(request: Request) {
  const context = await shopify.authenticate.admin(request);
  const account = await ensureProvisioned(provisioning, context.session.shop, context.admin);
  return { ...context, account, api: accountClient(config.coreUrl, account) };
}

export const login = shopify.login;
export const addDocumentResponseHeaders = shopify.addDocumentResponseHeaders;
export const authenticate = shopify.authenticate;
export const unauthenticated = shopify.unauthenticated;
export const apiKey = config.apiKey;
export const coreUrl = config.coreUrl;
export const corePublicUrl = config.corePublicUrl;
export const platformToken = config.platformToken;
