import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ACCOUNT_IN_FLIGHT } from '../../src/webhooks/delivery.js';
import { startTestApp, type TestAccount, type TestApp } from '../support/harness.js';
import { type ServiceProcess, startProcess, until } from '../support/processes.js';
import { startReceiver } from '../support/receiver.js';

/**
 * A receiver that stops answering, through a real worker process (`loyalty worker`): after its
 * first time-outs its account holds one lane, not its whole share, so it takes many hanging
 * accounts more to fill a worker's lanes; once it answers again its share comes back.
 */
const BACKLOG = 40;
const TIMEOUT_MS = 1_500;
const CODE = 'streak_progress_non_milestone_completed';

let app: TestApp;
let shop: TestAccount;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let worker: ServiceProcess | undefined;
let answering = false;
const arrivals: number[] = [];
const held: ServerResponse[] = [];
let open = 0;
let mostOpenAnswering = 0;

beforeAll(async () => {
  app = await startTestApp({ LOYALTY_WEBHOOK_ALLOW_PRIVATE: 'true' });
  shop = await app.createAccount();
  receiver = await startReceiver((_req, res) => {
    arrivals.push(Date.now());
    if (!answering) {
      held.push(res);
      return;
    }
    open += 1;
    mostOpenAnswering = Math.max(mostOpenAnswering, open);
    setTimeout(() => {
      open -= 1;
      res.writeHead(200).end();
    }, 100);
  });
});
afterAll(async () => {
  await worker?.kill('SIGKILL');
  for (const res of held) res.destroy();
  await receiver.close();
  await app.close();
});

it('gives an account whose receiver hangs one lane after its first time-outs, and its share back once it answers', async () => {
  await shop.api.post('/schema/webhook/record', { name: 'Hook', endpointUrl: `${receiver.url}/hook`, eventCodes: [CODE], status: 'live' });
  const streak = (await shop.api.post('/schema/streak/record', { name: 'S' })).body.data;
  for (let i = 0; i < BACKLOG; i++) {
    const res = await shop.api.post('/schema/streak_log/record', {
      streakId: streak.id,
      ownedBy: { externalId: `m${i}` },
      activityId: 'v',
      activityAt: new Date().toISOString(),
      uniqueIdentifier: `u${i}`,
    });
    expect(res.status).toBe(200);
  }
  worker = await startProcess(app, ['worker'], {
    LOYALTY_WEBHOOK_ALLOW_PRIVATE: 'true',
    LOYALTY_WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
    LOYALTY_WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1,1,1,1',
  });

  // The first claim fills the account's share of the lanes.
  await until(async () => arrivals.length >= ACCOUNT_IN_FLIGHT, 10_000, 'the first attempts');
  const burst = arrivals.length;
  expect(burst).toBe(ACCOUNT_IN_FLIGHT);
  // From the time-outs on, one at a time: each next attempt starts as the one before it times out,
  // though the backlog and the retries (due a second later) wait.
  await until(async () => arrivals.length >= burst + 5, 20_000, 'later attempts');
  const later = arrivals.slice(burst, burst + 5);
  for (let i = 1; i < later.length; i++) expect(later[i]! - later[i - 1]!).toBeGreaterThanOrEqual(TIMEOUT_MS - 200);

  answering = true;
  await until(
    async () => (await app.db('webhook_log').where({ account_id: shop.accountId, webhook_log_status: 'processed' })).length === BACKLOG,
    30_000,
    'every delivery processed',
  );
  // Each answer gives a lane back: the account runs several at once again.
  expect(mostOpenAnswering).toBeGreaterThanOrEqual(4);
}, 90_000);
