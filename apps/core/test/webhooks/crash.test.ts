import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestAccount, type TestApp } from '../support/harness.js';
import { startReceiver } from '../support/receiver.js';

/** Real worker processes (`loyalty worker`) against one database, killed with SIGKILL mid-delivery. */
const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const EVENTS = 40;

let app: TestApp;
let acct: TestAccount;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const inFlight = new Set<string>();
let overlaps = 0;
const children: ChildProcess[] = [];

function worker(): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'worker'], {
    env: {
      ...process.env,
      DATABASE_URL: app.config.databaseUrl,
      LOYALTY_MASTER_KEY: app.config.masterKey!.toString('base64'),
      LOYALTY_WEBHOOK_ALLOW_PRIVATE: 'true',
      LOYALTY_WEBHOOK_TIMEOUT_MS: '1000',
      LOYALTY_SCHEDULER_INTERVAL_MS: '60000',
      LOG_LEVEL: 'silent',
    },
    stdio: 'ignore',
  });
  children.push(child);
  return child;
}

const exited = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

async function until(check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  app = await startTestApp({ LOYALTY_WEBHOOK_ALLOW_PRIVATE: 'true' });
  acct = await app.createAccount();
  // A slow receiver keeps deliveries in flight; a delivery id arriving while it is in flight elsewhere is an overlap.
  receiver = await startReceiver((req, res) => {
    const id = req.headers['webhook-id'] as string;
    if (inFlight.has(id)) overlaps += 1;
    inFlight.add(id);
    setTimeout(() => {
      inFlight.delete(id);
      res.writeHead(200).end();
    }, 150);
  });
});
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL');
  await Promise.all(children.map(exited));
  await receiver.close();
  await app.close();
});

describe('delivery across worker crashes', () => {
  it('delivers every event after a worker is killed mid-delivery, and two workers never overlap', async () => {
    await acct.api.post('/schema/webhook/record', {
      name: 'crash', endpointUrl: `${receiver.url}/hook`, eventCodes: ['streak_progress_non_milestone_completed'], status: 'live',
    });
    const streak = (await acct.api.post('/schema/streak/record', { name: 'S' })).body.data;
    for (let i = 0; i < EVENTS; i++) {
      const res = await acct.api.post('/schema/streak_log/record', {
        streakId: streak.id, ownedBy: { externalId: `m${i}` }, activityId: 'v', activityAt: new Date().toISOString(), uniqueIdentifier: `u${i}`,
      });
      expect(res.status).toBe(200);
    }

    const first = worker();
    await until(() => receiver.received.length >= 5, 30_000);
    first.kill('SIGKILL');
    await exited(first);
    const deliveredBeforeCrash = new Set(receiver.received.map((r) => r.headers['webhook-id'])).size;
    expect(deliveredBeforeCrash).toBeLessThan(EVENTS);

    worker();
    worker();
    await until(async () => {
      const [row] = await app.db('webhook_log').whereNot('webhook_log_status', 'processed').count({ n: '*' });
      return Number(row!.n) === 0 && (await app.db('webhook_log').count({ n: '*' }))[0]!.n === EVENTS;
    }, 60_000);

    const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(EVENTS);
    expect(overlaps).toBe(0);
  }, 90_000);
});
