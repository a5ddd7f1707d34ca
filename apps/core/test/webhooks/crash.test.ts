import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestAccount, type TestApp } from '../support/harness.js';
import { type ServiceProcess, startProcess, until } from '../support/processes.js';
import { startReceiver } from '../support/receiver.js';

/** Real worker processes (`loyalty worker`) against one database, killed with SIGKILL mid-delivery. */
const EVENTS = 40;
const WORKER_ENV = { LOYALTY_WEBHOOK_ALLOW_PRIVATE: 'true', LOYALTY_WEBHOOK_TIMEOUT_MS: '1000' };

let app: TestApp;
let acct: TestAccount;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const inFlight = new Set<string>();
let overlaps = 0;
const workers: ServiceProcess[] = [];

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
  await Promise.all(workers.map((w) => w.kill('SIGKILL')));
  await receiver.close();
  await app.close();
});

describe('delivery across worker crashes', () => {
  it('delivers every event after a worker is killed mid-delivery, and two workers never overlap', async () => {
    await acct.api.post('/schema/webhook/record', {
      name: 'crash',
      endpointUrl: `${receiver.url}/hook`,
      eventCodes: ['streak_progress_non_milestone_completed'],
      status: 'live',
    });
    const streak = (await acct.api.post('/schema/streak/record', { name: 'S' })).body.data;
    for (let i = 0; i < EVENTS; i++) {
      const res = await acct.api.post('/schema/streak_log/record', {
        streakId: streak.id,
        ownedBy: { externalId: `m${i}` },
        activityId: 'v',
        activityAt: new Date().toISOString(),
        uniqueIdentifier: `u${i}`,
      });
      expect(res.status).toBe(200);
    }

    const first = await startProcess(app, ['worker'], WORKER_ENV);
    workers.push(first);
    await until(() => receiver.received.length >= 5, 30_000, 'first deliveries');
    await first.kill('SIGKILL');
    const deliveredBeforeCrash = new Set(receiver.received.map((r) => r.headers['webhook-id'])).size;
    expect(deliveredBeforeCrash).toBeLessThan(EVENTS);

    workers.push(await startProcess(app, ['worker'], WORKER_ENV), await startProcess(app, ['worker'], WORKER_ENV));
    await until(
      async () => {
        const [row] = await app.db('webhook_log').whereNot('webhook_log_status', 'processed').count({ n: '*' });
        return Number(row!.n) === 0 && (await app.db('webhook_log').count({ n: '*' }))[0]!.n === EVENTS;
      },
      60_000,
      'every delivery processed',
    );

    const ids = new Set(receiver.received.map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(EVENTS);
    expect(overlaps).toBe(0);
  }, 90_000);
});
