import '@shopify/shopify-app-remix/adapters/node';
import { ApiVersion, AppDistribution, shopifyApp } from '@shopify/shopify-app-remix/server';
import { config } from './lib/config.server';
import { createPool, migrate } from './lib/db.server';
import { accountClient } from './lib/core.server';
import { ensureCoreWebhook, ShopifyLoop } from './lib/loop.server';
import { OnboardingStore } from './lib/onboarding.server';
import { ensureProvisioned, type ProvisionDeps } from './lib/provision.server';
import { PgSessionStorage } from './lib/session-storage.server';
import { type ShopAccount, ShopStore } from './lib/shops.server';

/** The app's own tables (sessions, shops and their credentials, encrypted), migrated once per process. */
export const pool = createPool(config.databaseUrl);
export const migrated = migrate(pool);
export const shops = new ShopStore(pool, config.encryptionKey, migrated);
export const sessionStorage = new PgSessionStorage(pool, config.encryptionKey, migrated);
export const onboarding = new OnboardingStore(pool, migrated);
const provisioning: ProvisionDeps = {
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

/** Flow triggers and Shopify discounts from the core's events (CONTRACT §16), worked by every app process. */
export const loop = new ShopifyLoop({
  pool,
  ready: migrated,
  shops,
  coreUrl: config.coreUrl,
  eventsUrl: config.eventsUrl,
  retrySchedule: config.retrySchedule,
  adminFor: async (shop) => (await shopify.unauthenticated.admin(shop)).admin,
});
const stopLoop = loop.start();

/** Closes the app's database connections (for tests that load the app in-process). */
export async function closeConnections(): Promise<void> {
  stopLoop();
  await loop.idle();
  await pool.end();
}

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

/**
 * An admin page's start: Shopify's admin context and the shop's loyalty account and client. On the
 * first load the page's loader runs beside the layout's, and may find the session stored while the
 * install's afterAuth is still provisioning; it then waits for that provisioning (or does it).
 */
export async function authenticateShop(request: Request) {
  const context = await shopify.authenticate.admin(request);
  const account = await ensureProvisioned(provisioning, context.session.shop, context.admin);
  await repairCoreWebhook(account);
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
