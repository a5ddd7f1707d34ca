import '@shopify/shopify-app-remix/adapters/node';
import { ApiVersion, AppDistribution, shopifyApp } from '@shopify/shopify-app-remix/server';
import { config } from './lib/config.server';
import { createPool, migrate } from './lib/db.server';
import { provisionShop } from './lib/provision.server';
import { PgSessionStorage } from './lib/session-storage.server';
import { ShopStore } from './lib/shops.server';

/** The app's own tables (sessions, shops and their credentials, encrypted), migrated once per process. */
export const pool = createPool(config.databaseUrl);
const migrated = migrate(pool);
export const shops = new ShopStore(pool, config.encryptionKey, migrated);
export const sessionStorage = new PgSessionStorage(pool, config.encryptionKey, migrated);

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
      await provisionShop({ coreUrl: config.coreUrl, corePublicUrl: config.corePublicUrl, platformToken: config.platformToken, shops }, session.shop, admin);
    },
  },
});

export default shopify;

/** Closes the app's database connections (graceful shutdown of the server process). */
export async function closeConnections(): Promise<void> {
  await pool.end();
}

export const login = shopify.login;
export const addDocumentResponseHeaders = shopify.addDocumentResponseHeaders;
export const authenticate = shopify.authenticate;
export const unauthenticated = shopify.unauthenticated;
export const apiKey = config.apiKey;
export const coreUrl = config.coreUrl;
export const corePublicUrl = config.corePublicUrl;
export const platformToken = config.platformToken;
