import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { Client, createTestDatabase, PLATFORM_TOKEN } from '../../../core/test/support/harness';
import { BUILT_CLI, type ServiceProcess, startProcessWith } from '../../../core/test/support/processes';
import { ShopStore } from '../../app/storage/shops.server';
import { type AdminStub, startAdminStub } from './admin-stub';
import { type DatabaseGate, startDatabaseGate } from '../../../core/test/support/database-gate';
import { serveBuild } from './serve';
import { appConfig, SHOPIFY } from './stack';

/**
 * What ships, as it runs: the core's compiled binary (`dist/cli.js serve`) and the app's production
 * build under its own `start` script (scripts/serve.mjs), each a process of its own on a database of its
 * own, talking over HTTP; the Admin API stub stands in for the shop's Admin endpoints.
 */
export interface Production {
  /** The app's origin; requests go to it over HTTP. */
  url: string;
  /** What the current app process has written to stdout and stderr so far. */
  appOutput(): string;
  core: { url: string; platform: Client; process: ServiceProcess };
  /** The core's own database, where a test moves a member's time along as days passing would. */
  coreDatabaseUrl: string;
  admin: AdminStub;
  /** The app's tables, read as the app reads them (same encryption key). */
  shops: ShopStore;
  appPool: pg.Pool;
  /** Another app process on the same database and configuration, as when the app runs on several machines. */
  serveAgain(): Promise<{ url: string; close(): Promise<void> }>;
  /** The core's webhook deliveries to the app, as they arrived (the app's events URL forwards to the current app process). */
  deliveries: { headers: Record<string, string>; body: string; status: number }[];
  /** SIGKILLs the app process (as a crash), then starts it again on the same database; `url` follows it. */
  crashAndRestart(whileDown?: () => Promise<void>): Promise<void>;
  /** SIGKILLs the app process now. */
  killApp(): Promise<void>;
  /**
   * With `gateCore`: the app reaches the core through this gate, which can hold the app's requests
   * that `match` until released (the core then answers whoever is still listening).
   */
  coreGate: CoreGate | null;
  /** With `gateDatabase`: the app (not the test) reaches its own database through this gate. */
  databaseGate: DatabaseGate | null;
  /** Sends a request built for the app's public URL (as the test helpers build them) to the server. */
  send(request: Request): Promise<Response>;
  close(): Promise<void>;
}

/** A refusal as the core answers it. */
export interface Refusal {
  status: number;
  code: string;
  message: string;
}

export interface CoreGate {
  /** Holds the next request that `match`es until `release`; `answered` is the core's status for it once forwarded (502: none). */
  hold(match: (method: string, path: string) => boolean): { arrived: Promise<void>; release(): void; answered: Promise<number> };
  /** Until `restore`, every request the app sends the core has its connection dropped, as a core that is down. */
  down(): { restore(): void };
  /** Until `restore`, the app's requests that `match` are answered as the core refuses one for good: `status` with its error body. */
  refuse(match: (method: string, path: string) => boolean, refused: Refusal): { restore(): void };
}

/** A forwarder in front of the core that holds the requests a test names, so the app can die while the core has not answered. */
async function startCoreGate(coreOrigin: string): Promise<CoreGate & { origin: string; close(): Promise<void> }> {
  const holds: {
    match: (method: string, path: string) => boolean;
    arrive: () => void;
    released: Promise<void>;
    answer: (status: number) => void;
  }[] = [];
  let isDown = false;
  let refusal: { match: (method: string, path: string) => boolean; refused: Refusal } | null = null;
  const server = createServer((req, res) => {
    if (isDown) return req.socket.destroy();
    if (refusal?.match(req.method ?? 'GET', req.url ?? '')) {
      const { status, code, message } = refusal.refused;
      return req
        .resume()
        .on('end', () =>
          res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code, message, details: [] } })),
        );
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const hold = holds.find((h) => h.match(req.method ?? 'GET', req.url ?? ''));
      if (hold) {
        holds.splice(holds.indexOf(hold), 1);
        hold.arrive();
        await hold.released;
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(
          (e): e is [string, string] => typeof e[1] === 'string' && !['host', 'connection'].includes(e[0]),
        ),
      );
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      const answer = await fetch(`${coreOrigin}${req.url}`, { method: req.method, headers, body }).catch(() => null);
      hold?.answer(answer?.status ?? 502);
      if (!answer) return res.writeHead(502).end();
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hold(match) {
      let arrive!: () => void;
      let release!: () => void;
      let answer!: (status: number) => void;
      const arrived = new Promise<void>((resolve) => (arrive = resolve));
      const answered = new Promise<number>((resolve) => (answer = resolve));
      holds.push({ match, arrive, released: new Promise<void>((resolve) => (release = resolve)), answer });
      return { arrived, release, answered };
    },
    down() {
      isDown = true;
      return { restore: () => (isDown = false) };
    },
    refuse(match, refused) {
      refusal = { match, refused };
      return { restore: () => (refusal = null) };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function startProduction(
  options: { gateCore?: boolean; gateDatabase?: boolean; coreEnv?: Record<string, string>; appEnv?: Record<string, string> } = {},
): Promise<Production> {
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run \`pnpm --filter @loyalty/core run build\` first`);
  const coreDb = await createTestDatabase();
  const core = await startProcessWith(
    {
      DATABASE_URL: coreDb.url,
      LOYALTY_MASTER_KEY: randomBytes(32).toString('base64'),
      LOYALTY_PLATFORM_TOKEN: PLATFORM_TOKEN,
      // The app listens on loopback here, and a failed delivery is retried within the test.
      LOYALTY_WEBHOOK_ALLOW_PRIVATE: 'true',
      LOYALTY_WEBHOOK_RETRY_SCHEDULE: '1,1,2,2',
      ...options.coreEnv,
    },
    ['serve'],
    BUILT_CLI,
  );
  const coreOrigin = new URL(core.url).origin;
  const gate = options.gateCore ? await startCoreGate(coreOrigin) : null;
  const admin = await startAdminStub(SHOPIFY.apiSecretKey);
  // The core delivers to this address, which forwards to whichever app process is current, so the
  // registered endpoint survives a restart on another port; it keeps what it forwarded.
  const deliveries: Production['deliveries'] = [];
  let appUrl = '';
  const forwarder = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => k.startsWith('webhook-') || k === 'x-service-signature' || k === 'content-type'),
      ) as Record<string, string>;
      // The app may be killed mid-answer (after its status, before its body): that is no answer.
      const answer = await fetch(`${appUrl}${req.url}`, { method: 'POST', headers, body })
        .then(async (r) => ({ status: r.status, text: await r.text() }))
        .catch(() => null);
      deliveries.push({ headers, body, status: answer?.status ?? 0 });
      res.writeHead(answer?.status ?? 502, { 'content-type': 'application/json' });
      res.end(answer?.text ?? '');
    });
  });
  await new Promise<void>((resolve) => forwarder.listen(0, '127.0.0.1', resolve));
  const eventsUrl = `http://127.0.0.1:${(forwarder.address() as AddressInfo).port}/loyalty/events`;
  const appDb = await createTestDatabase({ empty: true });
  const databaseGate = options.gateDatabase ? await startDatabaseGate(appDb.url) : null;
  const encryptionKey = randomBytes(32);
  const appEnv = {
    ...appConfig({
      databaseUrl: databaseGate?.url ?? appDb.url,
      coreUrl: gate?.origin ?? coreOrigin,
      platformToken: PLATFORM_TOKEN,
      encryptionKey,
    }),
    // Shoppers' browsers reach the core itself: only the app's own requests pass the gate.
    LOYALTY_CORE_PUBLIC_URL: coreOrigin,
    LOYALTY_EVENTS_URL: eventsUrl,
    LOYALTY_SHOPIFY_RETRY_SCHEDULE: '0.2,0.2,0.2',
    ...options.appEnv,
  };
  let app = await serveBuild(admin.origin, appEnv);
  appUrl = app.url;
  const appPool = new pg.Pool({ connectionString: appDb.url, max: 2 });
  return {
    get url() {
      return appUrl;
    },
    deliveries,
    appOutput: () => app.output(),
    async killApp() {
      await app.kill();
    },
    async crashAndRestart(whileDown) {
      await app.kill();
      await whileDown?.();
      app = await serveBuild(admin.origin, appEnv);
      appUrl = app.url;
    },
    core: { url: coreOrigin, platform: new Client(core.url, { authorization: `Bearer ${PLATFORM_TOKEN}` }), process: core },
    coreDatabaseUrl: coreDb.url,
    admin,
    coreGate: gate,
    databaseGate,
    shops: new ShopStore(() => appPool, encryptionKey),
    appPool,
    serveAgain: () => serveBuild(admin.origin, appEnv),
    async send(request) {
      const target = new URL(request.url);
      const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.text();
      return fetch(`${appUrl}${target.pathname}${target.search}`, {
        method: request.method,
        headers: request.headers,
        body,
        redirect: 'manual',
      });
    },
    async close() {
      await app.close();
      await new Promise<void>((resolve) => forwarder.close(() => resolve()));
      await appPool.end();
      await admin.close();
      await gate?.close();
      await databaseGate?.close();
      await core.kill();
      await appDb.drop();
      await coreDb.drop();
    },
  };
}
