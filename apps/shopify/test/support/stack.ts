import { randomBytes } from 'node:crypto';
import { setAbstractFetchFunc } from '@shopify/shopify-api/runtime';
import { RequestType, setUpValidRequest, setUpValidSession, TEST_SHOP, TEST_SHOP_NAME } from '@shopify/shopify-api/test-helpers';
import { testConfig } from '@shopify/shopify-app-remix/test-helpers';
import { createTestDatabase, startTestApp, type TestApp } from '../../../core/test/support/harness';
import { type AdminStub, startAdminStub } from './admin-stub';

export { TEST_SHOP };

/** The Shopify credentials the test helpers sign with, from the library's own test config. */
export const SHOPIFY = testConfig();

/** The app's server modules as a test file uses them, loaded in-process against the stack's databases. */
export interface InProcessApp {
  pool: import('pg').Pool;
  shops: (typeof import('../../app/storage/stores.server'))['shops'];
  sessionStorage: (typeof import('../../app/storage/stores.server'))['sessionStorage'];
  /** The Shopify loop's outbox (trigger usage, Shopify discount rewards). */
  loop: (typeof import('../../app/loop/outbox.server'))['outbox'];
  /** What feeds each streak and challenge by itself. */
  earningRules: (typeof import('../../app/storage/stores.server'))['earningRules'];
  unauthenticated: (typeof import('../../app/shopify.server'))['unauthenticated'];
  closeConnections(): Promise<void>;
}

/**
 * Everything a test file needs: the real core on a database of its own, a database for the app's
 * tables (migrated, as the `migrate` command does), the Admin API stub, and the app's server
 * modules loaded against them.
 */
export interface Stack {
  core: TestApp;
  admin: AdminStub;
  app: InProcessApp;
  /** Provisions TEST_SHOP as afterAuth does on install; returns the stored account. */
  install(): Promise<{ accountId: string; organizationId: string }>;
  close(): Promise<void>;
}

/**
 * The app's configuration as tests and benchmarks run it: Shopify's test app (the keys its test
 * helpers sign with), the app's database, the core and its platform token, an encryption key.
 */
export function appConfig(options: {
  databaseUrl: string;
  coreUrl: string;
  platformToken: string;
  encryptionKey?: Buffer;
}): Record<string, string> {
  return {
    SHOPIFY_API_KEY: SHOPIFY.apiKey,
    SHOPIFY_API_SECRET: SHOPIFY.apiSecretKey,
    SHOPIFY_APP_URL: SHOPIFY.appUrl,
    SCOPES: 'read_customers',
    DATABASE_URL: options.databaseUrl,
    LOYALTY_CORE_URL: options.coreUrl,
    LOYALTY_PLATFORM_TOKEN: options.platformToken,
    LOYALTY_SHOPIFY_ENCRYPTION_KEY: (options.encryptionKey ?? randomBytes(32)).toString('base64'),
  };
}

export async function startStack(coreEnv: Record<string, string> = {}): Promise<Stack> {
  const core = await startTestApp(coreEnv);
  const admin = await startAdminStub();
  const database = await createTestDatabase({ empty: true });
  Object.assign(process.env, appConfig({ databaseUrl: database.url, coreUrl: core.url, platformToken: 'test-platform-token-0123456789' }));
  const [shopify, stores, storage, { outbox }, { migrate }] = await Promise.all([
    import('../../app/shopify.server'),
    import('../../app/storage/stores.server'),
    import('../../app/storage/pool.server'),
    import('../../app/loop/outbox.server'),
    import('../../app/storage/migrate.server'),
  ]);
  await migrate(storage.pool());
  const app: InProcessApp = {
    pool: storage.pool(),
    shops: stores.shops,
    sessionStorage: stores.sessionStorage,
    loop: outbox,
    earningRules: stores.earningRules,
    unauthenticated: shopify.unauthenticated,
    closeConnections: storage.closePool,
  };
  // The library's runtime seam for outgoing requests: Admin API calls for *.myshopify.com go to the
  // local stub server instead of Shopify; everything else is fetched as is.
  setAbstractFetchFunc(async (input, init) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (url.hostname.endsWith('.myshopify.com')) return fetch(`${admin.origin}${url.pathname}${url.search}`, init);
    return fetch(input, init);
  });
  // The offline session's scopes match the app's, so the admin pages need no token exchange.
  await app.sessionStorage.storeSession(setUpValidSession({ shop: TEST_SHOP, scope: 'read_customers' }));
  const { provisionShop } = await import('../../app/shopify/install.server');
  return {
    core,
    admin,
    app,
    async install() {
      const { admin: client } = await app.unauthenticated.admin(TEST_SHOP);
      return provisionShop(
        { coreUrl: core.url, corePublicUrl: core.url, platformToken: 'test-platform-token-0123456789', shops: app.shops },
        TEST_SHOP,
        client,
      );
    },
    async close() {
      await app.closeConnections();
      await admin.close();
      await database.drop();
      await core.close();
    },
  };
}

type Handler = (args: { request: Request; params: Record<string, string>; context: Record<string, unknown> }) => Promise<unknown>;

/** Runs a route's loader or action like Remix does: a thrown Response is the answer. */
export async function call(handler: Handler, request: Request): Promise<Response> {
  try {
    const result = await handler({ request, params: {}, context: {} });
    if (result instanceof Response) return result;
    return Response.json(result);
  } catch (err) {
    if (err instanceof Response) return err;
    throw err;
  }
}

let runs = 0;

/** A Flow action request signed as Shopify Flow signs it (HMAC-SHA256 of the raw body). */
export async function flowRequest(
  handle: string,
  properties: Record<string, unknown>,
  overrides: Record<string, unknown> = {},
): Promise<Request> {
  runs += 1;
  const body = {
    shop_id: 424242,
    shopify_domain: TEST_SHOP,
    action_run_id: `run-${randomBytes(6).toString('hex')}-${runs}`,
    action_definition_id: handle,
    handle,
    properties,
    ...overrides,
  };
  return setUpValidRequest(
    { type: RequestType.Extension, store: TEST_SHOP_NAME, apiSecretKey: SHOPIFY.apiSecretKey, body },
    new Request(`${SHOPIFY.appUrl}/flow/${handle}`, { method: 'POST' }),
  );
}

/** Flow's trigger lifecycle callback, signed as Shopify signs it: whether the shop has an enabled workflow using `handle`. */
export function flowLifecycleRequest(handle: string, enabled: boolean, timestamp = new Date()): Promise<Request> {
  const body = {
    flow_trigger_definition_id: handle,
    has_enabled_flow: enabled,
    shop_id: 424242,
    shopify_domain: TEST_SHOP,
    timestamp: timestamp.toISOString(),
  };
  return setUpValidRequest(
    { type: RequestType.Extension, store: TEST_SHOP_NAME, apiSecretKey: SHOPIFY.apiSecretKey, body },
    new Request(`${SHOPIFY.appUrl}/flow/trigger-lifecycle`, { method: 'POST' }),
  );
}

/** A webhook delivery signed like Shopify's, with its topic headers. */
export async function webhookRequest(
  topic: string,
  payload: Record<string, unknown>,
  webhookId = randomBytes(8).toString('hex'),
): Promise<Request> {
  return setUpValidRequest(
    {
      type: RequestType.Extension,
      store: TEST_SHOP_NAME,
      apiSecretKey: SHOPIFY.apiSecretKey,
      body: payload,
      headers: { 'X-Shopify-Topic': topic, 'X-Shopify-API-Version': '2025-10', 'X-Shopify-Webhook-Id': webhookId },
    },
    new Request(`${SHOPIFY.appUrl}/webhooks/${topic}`, { method: 'POST' }),
  );
}

/** An app proxy request as the storefront forwards it: signed query with shop and timestamp. */
export async function proxyRequest(path: string, query: Record<string, string>, method = 'GET', body?: unknown): Promise<Request> {
  const url = new URL(`${SHOPIFY.appUrl}${path}`);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const init = body === undefined ? { method } : { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
  return setUpValidRequest({ type: RequestType.Public, store: TEST_SHOP_NAME, apiSecretKey: SHOPIFY.apiSecretKey }, new Request(url, init));
}
