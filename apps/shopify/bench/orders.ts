import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { TEST_SHOP } from '@shopify/shopify-api/test-helpers';
import pg from 'pg';
import { combine, formatTable, inTurn, type LoadResult, openBenchDatabase, startServiceProcess, summarize } from '../../core/bench/lib.js';
import { ShopStore } from '../app/storage/shops.server';
import { startAdminStub } from '../test/support/admin-stub';
import { adminLoad, orderPayload } from '../test/support/orders';
import { serveBuild } from '../test/support/serve';
import { appConfig, SHOPIFY, webhookRequest } from '../test/support/stack';

/**
 * `pnpm --filter @loyalty/shopify run bench:orders` (issue 32): paid orders through the app, as
 * Shopify sends them. What ships runs as in production: the core's built binary (`serve`, with its
 * workers) on a bench database, the app's production build under its own `start` script (migrate,
 * then the web and worker roles) on another, the Admin API stub in place of Shopify. The shop is
 * installed by the admin's first load; its program is one daily streak fed by paid orders and one
 * monthly sum challenge adding the orders' amounts (earning rules, no collections), and MEMBERS
 * customers are members already.
 *
 * - Through the app: `orders/paid` webhooks signed by `@shopify/shopify-api/test-helpers`, each a new
 *   order of a random customer, from CONNECTIONS concurrent loops for a fixed window; the webhook's
 *   answer latency (target p99 <= 50 ms), and the logs the worker role writes in the core per second
 *   from the window's start to its last log (read from the core's database: the backlog drained).
 * - Directly, the baseline in the same run: the same two logs per order (same definitions, member,
 *   amount, processing time) POSTed to the core from CONNECTIONS loops for the same window; logs/s.
 * The sides alternate (inTurn) over ROUNDS rounds. Before printing, every order sent is checked to
 * have exactly its two logs with its amount (no loss, no duplicates) and its webhook row done.
 */

const CONNECTIONS = 32;
const DURATION_SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const MEMBERS = Number(process.env.BENCH_ORDERS_MEMBERS ?? 2000);
/** How long the app's backlog may take to drain after a window before the run is void. */
const DRAIN_TIMEOUT_SECONDS = Number(process.env.BENCH_DRAIN_TIMEOUT_SECONDS ?? 900);
const TARGETS = { webhookP99Ms: 50, ratio: 0.8 };
const RESULTS_FILE = fileURLToPath(new URL('results/orders.json', import.meta.url));
const PLATFORM_TOKEN = randomBytes(16).toString('hex');
const FIRST_CUSTOMER = 100_000;
const PRODUCT = 10;
/** Unit prices the orders draw from (one line each, quantity 1 to 3): the challenge adds price × quantity. */
const PRICES = ['12.50', '19.99', '25.00', '40.00', '75.25'];

type Side = 'through the app' | 'direct to the core';

/** An order as both sides log it: its customer, amount and processing time. */
interface Order {
  id: number;
  customer: number;
  quantity: number;
  price: string;
  processedAt: string;
}

let nextOrder = 1;
function newOrder(): Order {
  return {
    id: nextOrder++,
    customer: FIRST_CUSTOMER + Math.floor(Math.random() * MEMBERS),
    quantity: 1 + Math.floor(Math.random() * 3),
    price: PRICES[Math.floor(Math.random() * PRICES.length)]!,
    processedAt: new Date(Date.now() - 60_000).toISOString(),
  };
}
const amountOf = (o: Order) => Math.round(Number(o.price) * 100 * o.quantity) / 100;

async function main() {
  const loadAtStart = loadavg();
  const coreDb = await openBenchDatabase();
  const appDb = await openBenchDatabase();
  const encryptionKey = randomBytes(32);
  // One shop's traffic: the core's per-key rate limit would only measure itself, on both sides.
  const core = await startServiceProcess(
    {
      DATABASE_URL: coreDb.url,
      LOYALTY_MASTER_KEY: randomBytes(32).toString('base64'),
      LOYALTY_PLATFORM_TOKEN: PLATFORM_TOKEN,
      LOYALTY_RATE_LIMIT_PER_SECOND: String(1e9),
    },
    ['serve'],
  );
  const stub = await startAdminStub(SHOPIFY.apiSecretKey);
  const app = await serveBuild(
    stub.origin,
    appConfig({ databaseUrl: appDb.url, coreUrl: core.url, platformToken: PLATFORM_TOKEN, encryptionKey }),
  );
  const corePool = new pg.Pool({ connectionString: coreDb.url, max: 2 });
  const appPool = new pg.Pool({ connectionString: appDb.url, max: 2 });
  try {
    // The admin's first load installs the app: the core's account and the shop's key.
    const installed = await adminLoad(app.url, '/app');
    if (installed.status !== 200) throw new Error(`the admin's first load answered ${installed.status}`);
    const account = await new ShopStore(() => appPool, encryptionKey).find(TEST_SHOP);
    if (!account) throw new Error('the shop was not installed');
    const headers = { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret, 'content-type': 'application/json' };
    const post = async (path: string, body: unknown): Promise<Response> =>
      fetch(`${core.url}/api/v1.0${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
    const created = async (path: string, body: unknown): Promise<string> => {
      const res = await post(path, body);
      if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
      return ((await res.json()) as { data: { id: string } }).data.id;
    };
    const streakId = await created('/schema/streak/record', { name: 'Order days', status: 'live', aggregationPeriod: 'daily' });
    const challengeId = await created('/schema/challenge/record', {
      name: 'Monthly spend',
      status: 'live',
      aggregationPeriod: 'monthly',
      aggregationMethod: 'sum',
      completionTargetValue: 1_000_000,
    });
    for (const [kind, id] of [
      ['streak', streakId],
      ['challenge', challengeId],
    ] as const)
      await appPool.query(
        `insert into earning_rules (shop, kind, definition_id, source, collection_ids) values ($1, $2, $3, 'orders', '[]')`,
        [TEST_SHOP, kind, id],
      );
    await corePool.query(
      `insert into account_user (account_id, external_id, first_name, last_name, email)
       select $1, 'gid://shopify/Customer/' || n, 'Ada', 'Lovelace', 'c' || n || '@example.com'
       from generate_series($2::int, $3::int) as n`,
      [account.accountId, FIRST_CUSTOMER, FIRST_CUSTOMER + MEMBERS - 1],
    );
    await corePool.query('analyze');
    console.log(`installed ${TEST_SHOP}: a streak and a challenge fed by paid orders, ${MEMBERS} members`);

    const member = (o: Order) => ({ externalId: `gid://shopify/Customer/${o.customer}`, firstName: 'Ada', lastName: 'Lovelace' });
    const sent: Order[] = [];
    const direct: Order[] = [];

    /** Runs `work` from CONNECTIONS loops for `seconds`; latencies of the calls that ended within the window. */
    const loops = async (seconds: number, work: (latency: (ms: number) => void) => Promise<void>): Promise<LoadResult> => {
      const latenciesMs: number[] = [];
      const deadline = Date.now() + seconds * 1000;
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          while (Date.now() < deadline) await work((ms) => Date.now() <= deadline && latenciesMs.push(ms));
        }),
      );
      return { latenciesMs, seconds };
    };

    /** One webhook: a new order, signed as Shopify signs it; only the delivery is timed. */
    const deliver = async (latency: (ms: number) => void) => {
      const order = newOrder();
      const request = await webhookRequest('orders/paid', orderPayload(order.id, orderSpec(order)));
      const body = await request.text();
      const t0 = performance.now();
      const res = await fetch(`${app.url}/webhooks/orders/paid`, { method: 'POST', headers: request.headers, body });
      await res.arrayBuffer();
      latency(performance.now() - t0);
      if (res.status !== 200) throw new Error(`webhook of order ${order.id} answered ${res.status}`);
      sent.push(order);
    };
    const orderSpec = (o: Order) => ({
      customer: { id: o.customer, first_name: 'Ada', last_name: 'Lovelace' },
      lines: [{ product: PRODUCT, quantity: o.quantity, price: o.price }],
      processedAt: o.processedAt,
    });

    /** The same two logs, straight to the core; each POST is one log (both sides count logs). */
    const log = async (path: string, body: Record<string, unknown>, latency: (ms: number) => void) => {
      const t0 = performance.now();
      const res = await post(path, body);
      await res.arrayBuffer();
      latency(performance.now() - t0);
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
    };
    const logDirectly = async (latency: (ms: number) => void) => {
      const order = newOrder();
      const common = {
        ownedBy: member(order),
        activityId: 'order_paid',
        activityAt: order.processedAt,
        uniqueIdentifier: `direct:${order.id}`,
      };
      await log('/schema/streak_log/record', { ...common, streakId, activityValue: 1 }, latency);
      await log('/schema/challenge_log/record', { ...common, challengeId, activityValue: amountOf(order) }, latency);
      direct.push(order);
    };

    /** A window of webhooks, then the wait until the worker has drained the backlog; logs/s over both. */
    const throughApp = async () => {
      const before = sent.length;
      const startedAt = new Date();
      const webhooks = await loops(DURATION_SECONDS, deliver);
      const expected = 2 * (sent.length - before);
      const deadline = Date.now() + DRAIN_TIMEOUT_SECONDS * 1000;
      for (;;) {
        const { rows } = await appPool.query<{ n: string }>(`select count(*) as n from shopify_webhooks where status <> 'done'`);
        if (Number(rows[0]!.n) === 0) break;
        if (Date.now() > deadline) throw new Error(`the backlog did not drain within ${DRAIN_TIMEOUT_SECONDS} s`);
        await new Promise((r) => setTimeout(r, 200));
      }
      // The window's logs, and when the last of them was written (the core's clock is this machine's).
      const ids = sent.slice(before).map((o) => `order:${o.id}`);
      const { rows } = await corePool.query<{ n: string; last: Date }>(
        `select count(*) as n, max(created_at) as last from (
           select created_at from streak_log where unique_identifier = any($1)
           union all select created_at from challenge_log where unique_identifier = any($1)) logs`,
        [ids],
      );
      const logs = Number(rows[0]!.n);
      if (logs !== expected) throw new Error(`the window's ${ids.length} orders have ${logs} logs, not ${expected}`);
      const seconds = (rows[0]!.last.getTime() - startedAt.getTime()) / 1000;
      return { webhooks, logs, seconds };
    };
    const toCore = async () => {
      const result = await loops(DURATION_SECONDS, logDirectly);
      // Logs whose answer came after the window are left out, as their latencies are.
      return { logs: result.latenciesMs.length, seconds: result.seconds };
    };

    // Warm both paths (connections, plans, the app's first core calls): not counted.
    await loops(1, deliver);
    await loops(1, logDirectly);
    const warmed = { sent: sent.length, direct: direct.length };

    const windows: Record<Side, { logs: number; seconds: number }[]> = { 'through the app': [], 'direct to the core': [] };
    const webhookWindows: LoadResult[] = [];
    for (let round = 0; round < ROUNDS; round++)
      for (const side of inTurn<Side>(['through the app', 'direct to the core'], round)) {
        if (side === 'through the app') {
          const r = await throughApp();
          webhookWindows.push(r.webhooks);
          windows[side].push({ logs: r.logs, seconds: r.seconds });
          console.log(
            `round ${round + 1}, through the app: ${r.webhooks.latenciesMs.length} webhooks in ${DURATION_SECONDS} s, ${r.logs} logs written in ${r.seconds.toFixed(1)} s`,
          );
        } else {
          const r = await toCore();
          windows[side].push(r);
          console.log(`round ${round + 1}, direct: ${r.logs} logs in ${r.seconds} s`);
        }
      }

    // Every order that was answered 200 has exactly its logs, with its amount; nothing else is there.
    const verify = async () => {
      const problems: string[] = [];
      const { rows: webhookRows } = await appPool.query<{ subject: string; status: string; last_error: string | null }>(
        `select subject, status, last_error from shopify_webhooks where topic = 'orders/paid'`,
      );
      const rowsBySubject = new Map(webhookRows.map((r) => [r.subject, r]));
      for (const o of sent) {
        const row = rowsBySubject.get(`order:${o.id}`);
        if (!row || row.status !== 'done' || row.last_error) problems.push(`order ${o.id}'s webhook: ${JSON.stringify(row ?? null)}`);
      }
      if (webhookRows.length !== sent.length) problems.push(`${webhookRows.length} webhook rows for ${sent.length} orders`);
      for (const [prefix, orders] of [
        ['order:', sent],
        ['direct:', direct],
      ] as const) {
        for (const [table, value] of [
          ['streak_log', (_: Order) => 1],
          ['challenge_log', amountOf],
        ] as const) {
          const { rows } = await corePool.query<{ unique_identifier: string; n: number; value: number; member: string }>(
            `select l.unique_identifier, count(*)::int as n, sum(l.activity_value)::float8 as value, min(u.external_id) as member
             from ${table} l join account_user u on u.id = l.owned_by_id
             where l.unique_identifier like $1 group by l.unique_identifier`,
            [`${prefix}%`],
          );
          const got = new Map(rows.map((r) => [r.unique_identifier, r]));
          for (const o of orders) {
            const r = got.get(`${prefix}${o.id}`);
            if (!r) problems.push(`${table} ${prefix}${o.id} missing`);
            else if (r.n !== 1 || Math.abs(r.value - value(o)) > 1e-6 || r.member !== `gid://shopify/Customer/${o.customer}`)
              problems.push(`${table} ${prefix}${o.id}: ${JSON.stringify(r)}, expected value ${value(o)}`);
          }
          if (rows.length !== orders.length) problems.push(`${table}: ${rows.length} ${prefix} identifiers for ${orders.length} orders`);
        }
      }
      if (problems.length) throw new Error(`${problems.length} problem(s):\n${problems.slice(0, 20).join('\n')}`);
    };
    await verify();

    const perSecond = (side: Side) => {
      const ws = windows[side];
      return ws.reduce((s, w) => s + w.logs, 0) / ws.reduce((s, w) => s + w.seconds, 0);
    };
    const appRate = perSecond('through the app');
    const directRate = perSecond('direct to the core');
    const ratio = appRate / directRate;
    const webhook = summarize(combine(webhookWindows));
    const load = loadavg();
    const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
    console.log(
      `bench:orders on ${coreDb.description} and ${appDb.description}; load average ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} at start, ${load
        .map((l) => l.toFixed(2))
        .join(' ')} at end`,
    );
    console.log(
      formatTable(
        [`orders/paid webhooks, c${CONNECTIONS}, ${ROUNDS} x ${DURATION_SECONDS} s`, 'n', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'target'],
        [
          [
            'answered 200',
            String(webhook.requests),
            webhook.requestsPerSecond.toFixed(0),
            webhook.p50Ms.toFixed(1),
            webhook.p95Ms.toFixed(1),
            webhook.p99Ms.toFixed(1),
            `p99 <= ${TARGETS.webhookP99Ms} ms: ${met(webhook.p99Ms <= TARGETS.webhookP99Ms)}`,
          ],
        ],
      ),
    );
    console.log(
      formatTable(
        ['logs written in the core', 'logs', 'seconds', 'logs/s', 'ratio'],
        [
          ['direct to the core (baseline)', ...row(windows['direct to the core']), '1.00x'],
          [
            'through the app (to the drained backlog)',
            ...row(windows['through the app']),
            `${ratio.toFixed(2)}x (target >= ${TARGETS.ratio.toFixed(2)}x: ${met(ratio >= TARGETS.ratio)})`,
          ],
        ],
      ),
    );
    console.log(
      `checked: ${sent.length} orders through the app (${warmed.sent} warming) and ${direct.length} direct (${warmed.direct} warming), each with exactly its streak and challenge log, amount and member`,
    );
    mkdirSync(fileURLToPath(new URL('results/', import.meta.url)), { recursive: true });
    writeFileSync(
      RESULTS_FILE,
      `${JSON.stringify(
        {
          generatedAt: new Date().toISOString(),
          loadAverage: { start: loadAtStart, end: load },
          connections: CONNECTIONS,
          windowSeconds: DURATION_SECONDS,
          rounds: ROUNDS,
          members: MEMBERS,
          targets: TARGETS,
          webhook,
          logsPerSecond: { throughApp: appRate, direct: directRate, ratio },
          windows,
          orders: { throughApp: sent.length, direct: direct.length },
        },
        null,
        2,
      )}\n`,
    );
    console.log(`wrote ${RESULTS_FILE}`);
  } finally {
    await corePool.end();
    await appPool.end();
    await app.close();
    await stub.close();
    await core.stop();
    await appDb.close();
    await coreDb.close();
  }
}

const row = (ws: { logs: number; seconds: number }[]) => {
  const logs = ws.reduce((s, w) => s + w.logs, 0);
  const seconds = ws.reduce((s, w) => s + w.seconds, 0);
  return [String(logs), seconds.toFixed(1), (logs / seconds).toFixed(0)];
};

await main();
