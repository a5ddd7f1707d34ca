import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_IN_FLIGHT } from '../../src/webhooks/delivery.js';
import { startTestApp, type TestAccount, type TestApp } from '../support/harness.js';
import { type ServiceProcess, startProcess, until } from '../support/processes.js';
import { startReceiver } from '../support/receiver.js';

/**
 * One account's receiver hangs with a backlog of deliveries; another account's deliveries, first
 * attempts and retries, go out beside them through a real worker process (`loyalty worker`).
 */
const HANGING = 100;
const TIMEOUT_MS = 10_000;
const CODE = 'streak_progress_non_milestone_completed';

let app: TestApp;
let slowShop: TestAccount;
let quickShop: TestAccount;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let worker: ServiceProcess | undefined;
const held: ServerResponse[] = [];
let hanging = 0;
let mostHanging = 0;
const quickAttempts = new Map<string, number>();

beforeAll(async () => {
  app = await startTestApp({ LOYALTY_WEBHOOK_ALLOW_PRIVATE: 'true' });
  [slowShop, quickShop] = [await app.createAccount(), await app.createAccount()];
  receiver = await startReceiver((req, res) => {
    if (req.url === '/hang') {
      // Never answered: the worker gives up at its time-out.
      hanging += 1;
      mostHanging = Math.max(mostHanging, hanging);
      held.push(res);
      res.on('close', () => (hanging -= 1));
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
  await shop.api.post('/schema/webhook/record', {
    name: 'Hook',
    endpointUrl: `${receiver.url}/${shop === slowShop ? 'hang' : 'quick'}`,
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

const endedAttempts = async (shop: TestAccount) =>
  Number(
    (
      await app
        .db('webhook_log')
        .where({ account_id: shop.accountId })
        .andWhere((q) => q.where('retry_count', '>', 0).orWhereNot('webhook_log_status', 'pending'))
        .count({ n: '*' })
    )[0]!.n,
  );

describe('webhook delivery between accounts', () => {
  it("delivers one account's deliveries and retries while another's receiver hangs with a backlog", async () => {
    // The slow shop's events are the older: a worker taking deliveries in age order would reach the quick shop's last.
    await logs(slowShop, HANGING);
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
    expect(await endedAttempts(slowShop)).toBe(0);
    expect(hanging).toBeGreaterThan(0);
    expect(mostHanging).toBeLessThanOrEqual(ACCOUNT_IN_FLIGHT);

    // The slow shop's own deliveries are attempted too, its share at a time, and retried on the schedule.
    // (Past here the receiver learns of a timed-out request's end after the worker's next one may
    // have come, so its count of open requests is no longer the worker's.)
    await until(async () => (await endedAttempts(slowShop)) >= ACCOUNT_IN_FLIGHT, TIMEOUT_MS * 3, "the slow shop's first attempts ended");
    for (const res of held) res.destroy();
  }, 90_000);
});
