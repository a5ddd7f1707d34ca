import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { TEST_SHOP } from '@shopify/shopify-api/test-helpers';
import pg from 'pg';
import { formatTable, openBenchDatabase, startServiceProcess } from '../../core/bench/lib.js';
import { ShopStore } from '../app/storage/shops.server';
import { startAdminStub } from '../test/support/admin-stub';
import { adminFetch } from '../test/support/admin-fuzz';
import { adminLoad } from '../test/support/orders';
import { serveBuild } from '../test/support/serve';
import { appConfig, SHOPIFY } from '../test/support/stack';

/**
 * `pnpm --filter @loyalty/shopify run bench:points-import`: balances brought from another loyalty
 * app, from the merchant's upload to the last row given. What ships runs as in production: the
 * core's built binary (`serve`, its per-key rate limit as configured by default) and the app's
 * production build under its own `start` (web and worker roles), the Admin API stub answering each
 * customer lookup after ADMIN_DELAY_MS as Shopify's round trip would.
 *
 * Each side is one import of ROWS new customers (half named by e-mail, half by id) uploaded through
 * the admin route, timed from the upload's answer until no row waits: the worker with one lane (the
 * import as it was before lanes, the baseline), with its default lanes, and with its default lanes
 * while Shopify answers at once (what the per-shop pace of 15 rows a second holds it to). Each side
 * runs the app anew on the same databases (its own customers and file). Afterwards every row must be
 * done and every customer's balance in the core what their row says.
 */

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 300);
const ADMIN_DELAY_MS = Number(process.env.BENCH_IMPORT_ADMIN_DELAY_MS ?? 150);
const DEFAULT_LANES = 4;
const RESULTS_FILE = fileURLToPath(new URL('results/points-import.json', import.meta.url));
const PLATFORM_TOKEN = randomBytes(16).toString('hex');

interface Side {
  label: string;
  lanes: number;
  adminDelayMs: number;
}

const SIDES: Side[] = [
  { label: '1 lane (before lanes; baseline)', lanes: 1, adminDelayMs: ADMIN_DELAY_MS },
  { label: `${DEFAULT_LANES} lanes (the default)`, lanes: DEFAULT_LANES, adminDelayMs: ADMIN_DELAY_MS },
  { label: `${DEFAULT_LANES} lanes, Shopify answering at once`, lanes: DEFAULT_LANES, adminDelayMs: 0 },
];

async function main() {
  const loadAtStart = loadavg();
  const coreDb = await openBenchDatabase();
  const appDb = await openBenchDatabase();
  const encryptionKey = randomBytes(32);
  const core = await startServiceProcess(
    { DATABASE_URL: coreDb.url, LOYALTY_MASTER_KEY: randomBytes(32).toString('base64'), LOYALTY_PLATFORM_TOKEN: PLATFORM_TOKEN },
    ['serve'],
  );
  const stub = await startAdminStub(SHOPIFY.apiSecretKey);
  const corePool = new pg.Pool({ connectionString: coreDb.url, max: 2 });
  const appPool = new pg.Pool({ connectionString: appDb.url, max: 2 });
  const env = appConfig({ databaseUrl: appDb.url, coreUrl: core.url, platformToken: PLATFORM_TOKEN, encryptionKey });
  const results: { label: string; lanes: number; adminDelayMs: number; rows: number; seconds: number; rowsPerSecond: number }[] = [];
  try {
    let first = 1_000_000;
    for (const side of SIDES) {
      const customers = Array.from({ length: ROWS }, (_, i) => first + i);
      first += ROWS;
      for (const n of customers)
        stub.customers.set(`gid://shopify/Customer/${n}`, { firstName: 'Ada', lastName: `L${n}`, email: `c${n}@example.com` });
      stub.delayMs = side.adminDelayMs;
      const app = await serveBuild(stub.origin, { ...env, LOYALTY_POINTS_IMPORT_LANES: String(side.lanes) });
      try {
        // The admin's first load installs the app (the core's account, the shop's key); later ones find it.
        const installed = await adminLoad(app.url, '/app');
        if (installed.status !== 200) throw new Error(`the admin's load answered ${installed.status}`);
        const csv = [
          'customer_id,email,points',
          ...customers.map((n, i) => (i % 2 ? `${n},,${pointsOf(n)}` : `,c${n}@example.com,${pointsOf(n)}`)),
        ];
        const uploaded = await adminFetch(app.url, `/app/points-import?language=en&name=${encodeURIComponent(`${side.label}.csv`)}`, {
          contentType: 'text/csv',
          text: csv.join('\n'),
        });
        const t0 = performance.now();
        const answer = (await uploaded.json()) as { queued?: boolean; id?: string; rows?: number };
        if (uploaded.status !== 200 || !answer.queued || answer.rows !== ROWS)
          throw new Error(`the upload answered ${uploaded.status}: ${JSON.stringify(answer)}`);
        for (;;) {
          const { rows } = await appPool.query<{ waiting: number }>(
            "select count(*)::int waiting from points_import_rows where import_id = $1 and status = 'pending'",
            [answer.id],
          );
          if (!rows[0]!.waiting) break;
          await sleep(50);
        }
        const seconds = (performance.now() - t0) / 1000;
        await check(appPool, corePool, answer.id!, customers);
        results.push({ ...side, rows: ROWS, seconds, rowsPerSecond: ROWS / seconds });
        console.log(`${side.label}: ${ROWS} rows in ${seconds.toFixed(1)} s`);
      } finally {
        await app.close();
      }
    }
    const account = await new ShopStore(() => appPool, encryptionKey).find(TEST_SHOP);
    if (!account) throw new Error('the shop was not installed');
    const load = loadavg();
    const baseline = results[0]!.rowsPerSecond;
    console.log(
      `bench:points-import on ${coreDb.description} and ${appDb.description}; Shopify's answer after ${ADMIN_DELAY_MS} ms; load average ${loadAtStart
        .map((l) => l.toFixed(2))
        .join(' ')} at start, ${load.map((l) => l.toFixed(2)).join(' ')} at end`,
    );
    console.log(
      formatTable(
        ['import of new customers', 'Shopify ms', 'rows', 'seconds', 'rows/s', 'ratio'],
        results.map((r) => [
          r.label,
          String(r.adminDelayMs),
          String(r.rows),
          r.seconds.toFixed(1),
          r.rowsPerSecond.toFixed(1),
          `${(r.rowsPerSecond / baseline).toFixed(2)}x`,
        ]),
      ),
    );
    console.log(`checked: every row done, every customer's balance in the core the points of their row`);
    mkdirSync(fileURLToPath(new URL('results/', import.meta.url)), { recursive: true });
    writeFileSync(
      RESULTS_FILE,
      `${JSON.stringify({ generatedAt: new Date().toISOString(), loadAverage: { start: loadAtStart, end: load }, rows: ROWS, adminDelayMs: ADMIN_DELAY_MS, results }, null, 2)}\n`,
    );
    console.log(`wrote ${RESULTS_FILE}`);
  } finally {
    await corePool.end();
    await appPool.end();
    await stub.close();
    await core.stop();
    await appDb.close();
    await coreDb.close();
  }
}

const pointsOf = (customer: number) => 100 + (customer % 900);

/** Every row of the import done, and each customer's balance in the core the points of their row. */
async function check(appPool: pg.Pool, corePool: pg.Pool, importId: string, customers: number[]): Promise<void> {
  const { rows: notDone } = await appPool.query(
    'select line, status, last_error from points_import_rows where import_id = $1 and status <> $2',
    [importId, 'done'],
  );
  if (notDone.length) throw new Error(`rows not given: ${JSON.stringify(notDone.slice(0, 5))}`);
  const { rows } = await corePool.query<{ external_id: string; points_balance: number }>(
    'select external_id, points_balance from account_user where external_id = any($1)',
    [customers.map((n) => `gid://shopify/Customer/${n}`)],
  );
  const balances = new Map(rows.map((r) => [r.external_id, Number(r.points_balance)]));
  for (const n of customers) {
    const balance = balances.get(`gid://shopify/Customer/${n}`);
    if (balance !== pointsOf(n)) throw new Error(`customer ${n}: balance ${String(balance)}, their row ${pointsOf(n)}`);
  }
}

await main();
