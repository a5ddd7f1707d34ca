import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_IN_FLIGHT, DELIVERY_WIDTH } from '../../src/webhooks/delivery.js';
import { CONNECTIONS_PER_RECEIVER } from '../../src/webhooks/post.js';
import { startTestApp, type TestAccount, type TestApp } from '../support/harness.js';
import { type ServiceProcess, startProcess, until } from '../support/processes.js';
import { startReceiver } from '../support/receiver.js';

/**
 * Five accounts' receivers on one host hang, each with a backlog of deliveries; another account's
 * deliveries to that host, first attempts and retries, go out beside them through a real worker
 * process (`loyalty worker`).
 */
const HANGING = 40;
const SLOW_SHOPS = 5;
const TIMEOUT_MS = 10_000;
const CODE = 'streak_progress_non_milestone_completed';

let app: TestApp;
let slowShops: TestAccount[];
let quickShop: TestAccount;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let worker: ServiceProcess | undefined;
const held: ServerResponse[] = [];
/** Requests held open, in all and per hanging account (by its receiver path). */
let hanging = 0;
const hangingOf = new Map<string, number>();
let mostHanging = 0;
const quickAttempts = new Map<string, number>();

beforeAll(async () => {
  app = await startTestApp({ LOYALTY_WEBHOOK_ALLOW_PRIVATE: 'true' });
  slowShops = [];
  for (let i = 0; i < SLOW_SHOPS; i++) slowShops.push(await app.createAccount());
  quickShop = await app.createAccount();
  receiver = await startReceiver((req, res) => {
    if (req.url?.startsWith('/hang')) {
      // Never answered: the worker gives up at its time-out.
      const path = req.url;
      hanging += 1;
      hangingOf.set(path, (hangingOf.get(path) ?? 0) + 1);
      mostHanging = Math.max(mostHanging, hangingOf.get(path)!);
      held.push(res);
      res.on('close', () => {
        hanging -= 1;
        hangingOf.set(path, hangingOf.get(path)! - 1);
      });
      return;
    }
    // The quick shop's receiver fails each delivery's first attempt, so its retries come due behind the slow shop's backlog.
    const id = req.headers['webhook-id'] as string;
    const attempt = (quickAttempts.get(id) ?? 0) + 1;
    quickAttempts.set(id, attempt);
    res.writeHead(attempt === 1 ? 503 : 200).end();
  });
});
afterAll(async () => {
  await worker?.kill('SIGKILL');
  await receiver.close();
  await app.close();
});

async function logs(shop: TestAccount, count: number) {
  const slow = slowShops.indexOf(shop);
  await shop.api.post('/schema/webhook/record', {
    name: 'Hook',
    endpointUrl: `${receiver.url}/${slow >= 0 ? `hang-${slow}` : 'quick'}`,
    eventCodes: [CODE],
    status: 'live',
  });
  const streak = (await shop.api.post('/schema/streak/record', { name: 'S' })).body.data;
  for (let i = 0; i < count; i++) {
    const res = await shop.api.post('/schema/streak_log/record', {
      streakId: streak.id,
      ownedBy: { externalId: `m${i}` },
      activityId: 'v',
      activityAt: new Date().toISOString(),
      uniqueIdentifier: `u${i}`,
    });
    expect(res.status).toBe(200);
  }
}

const endedAttempts = async (shops: TestAccount[]) =>
  Number(
    (
      await app
        .db('webhook_log')
        .whereIn(
          'account_id',
          shops.map((s) => s.accountId),
        )
        .andWhere((q) => q.where('retry_count', '>', 0).orWhereNot('webhook_log_status', 'pending'))
        .count({ n: '*' })
    )[0]!.n,
  );

describe('webhook delivery between accounts', () => {
  it("delivers one account's deliveries and retries while five others' receivers on the same host hang with a backlog", async () => {
    // The slow shops' events are the older: a worker taking deliveries in age order would reach the quick shop's last.
    for (const shop of slowShops) await logs(shop, HANGING);
    await logs(quickShop, 5);
    worker = await startProcess(app, ['worker'], {
      LOYALTY_WEBHOOK_ALLOW_PRIVATE: 'true',
      LOYALTY_WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      LOYALTY_WEBHOOK_RETRY_SCHEDULE: '1,1,1',
    });

    await until(
      async () => (await app.db('webhook_log').where({ account_id: quickShop.accountId, webhook_log_status: 'processed' })).length === 5,
      TIMEOUT_MS * 3,
      "the quick shop's deliveries processed",
    );
    // Each of them failed once and was retried, all before the first of the slow shop's attempts ended.
    expect([...quickAttempts.values()]).toEqual([2, 2, 2, 2, 2]);
    expect(await endedAttempts(slowShops)).toBe(0);
    expect(hanging).toBeGreaterThan(0);
    expect(mostHanging).toBeLessThanOrEqual(ACCOUNT_IN_FLIGHT);

    // Every slow shop holds its share of the lanes, and together less than the host's connections.
    expect(hangingOf.size).toBe(SLOW_SHOPS);
    expect(CONNECTIONS_PER_RECEIVER).toBeGreaterThanOrEqual(DELIVERY_WIDTH);
    // The slow shops' own deliveries are attempted too, their share at a time, and retried on the schedule.
    // (Past here the receiver learns of a timed-out request's end after the worker's next one may
    // have come, so its count of open requests is no longer the worker's.)
    await until(async () => (await endedAttempts(slowShops)) >= ACCOUNT_IN_FLIGHT, TIMEOUT_MS * 3, "the slow shops' first attempts ended");
    for (const res of held) res.destroy();
  }, 90_000);
});
