import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setUpValidSession, TEST_SHOP } from '@shopify/shopify-api/test-helpers';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../core/test/support/harness';
import { objectOf } from '../app/json';
import type { AdminGraphql } from '../app/shopify/admin-api.server';
import { migrate } from '../app/storage/migrate.server';
import { PgSessionStorage } from '../app/storage/sessions.server';
import { ShopStore } from '../app/storage/shops.server';
import { type AdminStub, startAdminStub } from './support/admin-stub';
import { appConfig, SHOPIFY } from './support/stack';

/**
 * The worker role on one database from several processes at once: the built command as `start`
 * runs it (build/commands/worker.js), twice, and the sender it runs, twice in one process on two
 * pools. Every queued Flow trigger reaches Shopify once, whoever claims it.
 */
const WORKER = fileURLToPath(new URL('../build/commands/worker.js', import.meta.url));
const ROUTE_ADMIN_API = new URL('./support/admin-api-route.mjs', import.meta.url).href;
const ROWS = 40;

let db: { url: string; drop(): Promise<void> };
let pool: pg.Pool;
let admin: AdminStub;
const encryptionKey = randomBytes(32);
const appEnv = () =>
  appConfig({ databaseUrl: db.url, coreUrl: 'http://127.0.0.1:9', platformToken: 'test-platform-token-0123456789', encryptionKey });

beforeAll(async () => {
  db = await createTestDatabase({ empty: true });
  pool = new pg.Pool({ connectionString: db.url, max: 4 });
  await migrate(pool);
  // The shop's offline session, which the worker's Admin API client is made from.
  await new PgSessionStorage(() => pool, encryptionKey).storeSession(setUpValidSession({ shop: TEST_SHOP, scope: 'read_customers' }));
  admin = await startAdminStub(SHOPIFY.apiSecretKey);
  admin.delayMs = 20;
});

afterAll(async () => {
  await admin?.close();
  await pool?.end();
  await db?.drop();
});

/** Queues `ROWS` Flow triggers in one transaction and announces them, as a core delivery does. */
async function queue(run: string): Promise<void> {
  await pool.query(
    `with queued as (
       insert into flow_trigger_outbox (shop, event_id, handle, payload)
       select $1, $2 || ':' || n, 'loyalty-streak-broken', jsonb_build_object('customer_id', 1001, 'run', $2::text, 'n', n)
       from generate_series(1, $3::int) n returning 1)
     select pg_notify('loyalty_shopify_outbox', $1) from (select count(*) from queued) q`,
    [TEST_SHOP, run, ROWS],
  );
}

async function untilSent(run: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { rows } = await pool.query<{ sent: number }>(
      `select count(*)::int as sent from flow_trigger_outbox where event_id like $1 || ':%' and status = 'sent'`,
      [run],
    );
    if (rows[0]!.sent === ROWS) return;
    if (Date.now() > deadline) throw new Error(`${rows[0]!.sent} of ${ROWS} triggers sent`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Each queued trigger of the run reached Shopify exactly once, at its first attempt. */
async function expectSentOnce(run: string, sent: unknown[]): Promise<void> {
  const numbers = sent
    .map(objectOf)
    .filter((payload) => payload.run === run)
    .map((payload) => Number(payload.n))
    .sort((a, b) => a - b);
  expect(numbers).toEqual(Array.from({ length: ROWS }, (_, i) => i + 1));
  const { rows } = await pool.query('select distinct attempts from flow_trigger_outbox where event_id like $1', [`${run}:%`]);
  expect(rows).toEqual([{ attempts: 1 }]);
}

describe('two worker processes on one database', () => {
  it('send every queued trigger once, and stop cleanly on SIGTERM', async () => {
    if (!existsSync(WORKER)) throw new Error(`${WORKER} is missing: run the app's build first`);
    const workers = [startWorker(), startWorker()];
    try {
      await Promise.all(workers.map((w) => w.started));
      await queue('processes');
      await untilSent('processes');
      const sent = admin.requests.filter((r) => r.operation === 'LoyaltyFlowTrigger').map((r) => r.variables.payload);
      await expectSentOnce('processes', sent);
    } finally {
      for (const w of workers) w.child.kill('SIGTERM');
    }
    expect(await Promise.all(workers.map((w) => w.exited))).toEqual([0, 0]);
  }, 60_000);
});

describe('two senders in one process, on two pools', () => {
  it('share the rows without sending one twice', async () => {
    Object.assign(process.env, appEnv());
    const { OutboxSender } = await import('../app/loop/sender.server');
    const sentBy: unknown[][] = [[], []];
    const senders = sentBy.map((sent) => {
      const own = new pg.Pool({ connectionString: db.url, max: 2 });
      const shopAdmin: AdminGraphql = {
        async graphql(_query, options) {
          sent.push(options?.variables?.payload);
          await new Promise((r) => setTimeout(r, 5));
          return Response.json({ data: { flowTriggerReceive: { userErrors: [] } } });
        },
      };
      const sender = new OutboxSender({
        pool: own,
        databaseUrl: db.url,
        shops: new ShopStore(() => own, encryptionKey),
        coreUrl: 'http://127.0.0.1:9',
        retrySchedule: [1],
        adminFor: async () => shopAdmin,
      });
      return { sender, own };
    });
    try {
      for (const { sender } of senders) sender.start(200);
      await queue('senders');
      await untilSent('senders');
    } finally {
      for (const { sender, own } of senders) {
        await sender.stop();
        await own.end();
      }
    }
    await expectSentOnce('senders', sentBy.flat());
    // Both took part: the second claimed rows while the first held its own.
    for (const sent of sentBy) expect(sent.length).toBeGreaterThan(0);
  });
});

function startWorker(): { child: ChildProcess; started: Promise<void>; exited: Promise<number | null> } {
  const child = spawn(process.execPath, [WORKER], {
    env: { ...process.env, ...appEnv(), NODE_OPTIONS: `--import=${ROUTE_ADMIN_API}`, SHOPIFY_ADMIN_STUB_ORIGIN: admin.origin },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const started = new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('[loyalty-loop] worker started')) resolve();
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    void exited.then(() => reject(new Error(`the worker exited before it started:\n${output}`)));
  });
  return { child, started, exited };
}
