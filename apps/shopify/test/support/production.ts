import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import pg from 'pg';
import { Client, createTestDatabase, PLATFORM_TOKEN } from '../../../core/test/support/harness';
import { BUILT_CLI, type ServiceProcess, startProcessWith } from '../../../core/test/support/processes';
import { ShopStore } from '../../app/lib/shops.server';
import { type AdminStub, startAdminStub } from './admin-stub';
import { serveBuild } from './serve';
import { SHOPIFY } from './stack';

/**
 * What ships, as it runs: the core's compiled binary (`dist/cli.js serve`) and the app's production
 * build under its own `start` script (remix-serve), each a process of its own on a database of its
 * own, talking over HTTP; the Admin API stub stands in for the shop's Admin endpoints.
 */
export interface Production {
  /** The app's origin; requests go to it over HTTP. */
  url: string;
  core: { url: string; platform: Client; process: ServiceProcess };
  admin: AdminStub;
  /** The app's tables, read as the app reads them (same encryption key). */
  shops: ShopStore;
  appPool: pg.Pool;
  /** Another app process on the same database and configuration, as when the app runs on several machines. */
  serveAgain(): Promise<{ url: string; close(): Promise<void> }>;
  /** Sends a request built for the app's public URL (as the test helpers build them) to the server. */
  send(request: Request): Promise<Response>;
  close(): Promise<void>;
}

export async function startProduction(): Promise<Production> {
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run \`pnpm --filter @loyalty/core run build\` first`);
  const coreDb = await createTestDatabase();
  const core = await startProcessWith(
    { DATABASE_URL: coreDb.url, LOYALTY_MASTER_KEY: randomBytes(32).toString('base64'), LOYALTY_PLATFORM_TOKEN: PLATFORM_TOKEN },
    ['serve'],
    BUILT_CLI,
  );
  const coreOrigin = new URL(core.url).origin;
  const admin = await startAdminStub(SHOPIFY.apiSecretKey);
  const appDb = await createTestDatabase({ empty: true });
  const encryptionKey = randomBytes(32);
  const appEnv = {
    SHOPIFY_API_KEY: SHOPIFY.apiKey,
    SHOPIFY_API_SECRET: SHOPIFY.apiSecretKey,
    SHOPIFY_APP_URL: SHOPIFY.appUrl,
    SCOPES: 'read_customers',
    DATABASE_URL: appDb.url,
    LOYALTY_CORE_URL: coreOrigin,
    LOYALTY_PLATFORM_TOKEN: PLATFORM_TOKEN,
    LOYALTY_SHOPIFY_ENCRYPTION_KEY: encryptionKey.toString('base64'),
  };
  const app = await serveBuild(admin.origin, appEnv);
  const { url } = app;
  const appPool = new pg.Pool({ connectionString: appDb.url, max: 2 });
  return {
    url,
    core: { url: coreOrigin, platform: new Client(core.url, { authorization: `Bearer ${PLATFORM_TOKEN}` }), process: core },
    admin,
    shops: new ShopStore(appPool, encryptionKey, Promise.resolve()),
    appPool,
    serveAgain: () => serveBuild(admin.origin, appEnv),
    async send(request) {
      const target = new URL(request.url);
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text();
      return fetch(`${url}${target.pathname}${target.search}`, { method: request.method, headers: request.headers, body, redirect: 'manual' });
    },
    async close() {
      await app.close();
      await appPool.end();
      await admin.close();
      await core.kill();
      await appDb.drop();
      await coreDb.drop();
    },
  };
}
