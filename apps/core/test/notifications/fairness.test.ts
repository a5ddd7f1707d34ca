import { generateKeyPairSync } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_SENDS } from '../../src/notifications/sender.js';
import { startTestApp, type TestAccount, type TestApp } from '../support/harness.js';
import { type ServiceProcess, startProcess, until } from '../support/processes.js';
import { create, json, startProvider } from './support.js';

/**
 * One account's push provider hangs (its token endpoint never answers) with a backlog of
 * notifications; another account's go out beside them through a real worker process
 * (`loyalty worker`), long before the first hanging send times out (30 s).
 */
const BACKLOG = 40;
const CODE = 'streak_progress_non_milestone_completed';
const KEY = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;

let app: TestApp;
let slowShop: TestAccount;
let quickShop: TestAccount;
let provider: Awaited<ReturnType<typeof startProvider>>;
let worker: ServiceProcess | undefined;
const held: ServerResponse[] = [];
let hanging = 0;
let mostHanging = 0;

beforeAll(async () => {
  provider = await startProvider((req, res) => {
    if (req.url === '/hang-token') {
      hanging += 1;
      mostHanging = Math.max(mostHanging, hanging);
      held.push(res);
      res.on('close', () => (hanging -= 1));
      return;
    }
    if (req.url === '/token') return json(res, 200, { access_token: 'ya29.quick', expires_in: 3600, token_type: 'Bearer' });
    const token = JSON.parse(req.body).message.token as string;
    json(res, 200, { name: `projects/p/messages/${token}` });
  });
  // The token endpoints are this test's own, on loopback.
  app = await startTestApp({ LOYALTY_WEBHOOK_ALLOW_PRIVATE: 'true', LOYALTY_PUSH_API_URL: provider.url });
  [slowShop, quickShop] = [await app.createAccount(), await app.createAccount()];
});
afterAll(async () => {
  await worker?.kill('SIGKILL');
  for (const res of held) res.destroy();
  await provider.close();
  await app.close();
});

/** A live push rule whose service account gets its token at `tokenPath`, and `count` members each with one event for it. */
async function notifications(shop: TestAccount, tokenPath: string, count: number) {
  const template = await create(shop, 'push_notification_template', { name: 'Push', title: 'Hi', body: 'Keep going', status: 'live' });
  const integration = await create(shop, 'push_cloud_messaging', {
    name: 'Push',
    status: 'live',
    serviceAccountJSON: {
      type: 'service_account',
      project_id: 'p',
      private_key_id: 'k',
      private_key: KEY,
      client_email: 'push@p.iam.example.com',
      client_id: '1',
      token_uri: `${provider.url}${tokenPath}`,
    },
  });
  await create(shop, 'notification', {
    name: 'Rule',
    status: 'live',
    eventCodes: [CODE],
    integrationProvider: 'push_cloud_messaging',
    integrationId: integration.id,
    templateId: template.id,
  });
  const streak = await create(shop, 'streak', { name: 'S', status: 'live' });
  for (let i = 0; i < count; i++) {
    const member = await create(shop, 'account_user', { externalId: `m${i}`, pushDeviceTokens: [`device-${i}`] });
    const res = await shop.api.post('/schema/streak_log/record', {
      streakId: streak.id,
      ownedById: member.id,
      activityId: 'v',
      activityAt: new Date().toISOString(),
      uniqueIdentifier: `u${i}`,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
}

const rows = (shop: TestAccount) => app.db('notification_log').where({ account_id: shop.accountId });

describe('notifications between accounts', () => {
  it("sends one account's notifications while another's provider hangs with a backlog", async () => {
    // The slow shop's events are the older: a worker taking rows in age order would reach the quick shop's last.
    await notifications(slowShop, '/hang-token', BACKLOG);
    await notifications(quickShop, '/token', 5);
    worker = await startProcess(app, ['worker'], { LOYALTY_WEBHOOK_ALLOW_PRIVATE: 'true', LOYALTY_PUSH_API_URL: provider.url });

    await until(
      async () => (await rows(quickShop).where({ notification_log_status: 'sent' })).length === 5,
      20_000,
      "the quick shop's notifications sent",
    );
    const slow = await rows(slowShop);
    expect(slow).toHaveLength(BACKLOG);
    // None of the slow shop's sends has ended, and it never held more than its share of the lanes.
    expect(slow.filter((r) => r.notification_log_status !== 'pending' || r.attempt_count > 0)).toEqual([]);
    expect(hanging).toBeGreaterThan(0);
    expect(mostHanging).toBeLessThanOrEqual(ACCOUNT_SENDS);
  }, 60_000);
});
