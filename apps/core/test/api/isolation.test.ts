import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Op } from '../../src/records/context.js';
import { Client, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

/**
 * The isolation matrix: for every resource the registry serves, a record of account A is
 * invisible to account B through every operation and flow. A resource without a fixture fails.
 */
let app: TestApp;
let a: TestAccount;
let b: TestAccount;
const ids = new Map<string, string>();

const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

async function created(api: Client, slug: string, body: Record<string, unknown>): Promise<string> {
  const res = await api.post(`/schema/${slug}/record`, body);
  if (res.status !== 200) throw new Error(`${slug}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

async function seed(acct: TestAccount): Promise<void> {
  const api = acct.api;
  const base = { account_id: acct.accountId };
  const put = (slug: string, id: string) => ids.set(slug, id);
  put('account_user', await created(api, 'account_user', { externalId: 'iso-member' }));
  put('apikey', await created(api, 'apikey', { name: 'iso key', status: 'live' }));
  const streak = await created(api, 'streak', { name: 'S' });
  put('streak', streak);
  put('challenge', await created(api, 'challenge', { name: 'C', completionTargetValue: 10 }));
  put('mission', await created(api, 'mission', { name: 'M', tasks: [{ name: 't', activityId: 'a', targetValue: 1 }] }));
  put('milestone', await created(api, 'milestone', { linkedSchemaSlug: 'streak', linkedSchemaRecordId: streak, name: 'M', description: 'd', milestoneTargetValue: 1, status: 'live' }));
  const reward = await created(api, 'reward', { name: 'R', description: 'd', discountType: 'percentage', discountValue: 5, rewardExpiryType: 'no_expiry' });
  put('reward', reward);
  put('coupon', await created(api, 'coupon', { rewardId: reward, couponCode: 'ISO-1', status: 'live' }));
  const at = new Date(Date.now() - 60_000).toISOString();
  const streakLog = (await api.post('/schema/streak_log/record', { streakId: streak, ownedById: ids.get('account_user'), activityId: 'a', activityAt: at, uniqueIdentifier: 'iso' })).body.data;
  put('streak_log', streakLog.id);
  put('streak_progress', streakLog.streakProgress.id);
  put('task_progress', streakLog.taskProgress.id);
  const challengeLog = (await api.post('/schema/challenge_log/record', { challengeId: ids.get('challenge'), ownedById: ids.get('account_user'), activityId: 'a', activityAt: at, uniqueIdentifier: 'iso' })).body.data;
  put('challenge_log', challengeLog.id);
  put('challenge_progress', challengeLog.challengeProgress.id);
  const missionLog = (await api.post('/schema/mission_log/record', { missionId: ids.get('mission'), ownedById: ids.get('account_user'), activityId: 'a', activityAt: at, uniqueIdentifier: 'iso' })).body.data;
  put('mission_log', missionLog.id);
  put('mission_progress', missionLog.missionProgress.id);
  put('reward_log', streakLog.achievedMilestoneRewardLog?.id ?? (await app.db('reward_log').insert({ ...base, reward_id: reward, linked_schema_slug: 'streak', linked_schema_record_id: streak, owned_by_id: ids.get('account_user') }).returning('id'))[0].id);
  put('event_log', (await api.get('/schema/event_log/record', { limit: '1' })).body.data[0].id);
  put('floating_widget', await created(api, 'floating_widget', { name: 'W', description: 'd' }));
  put('theme', await created(api, 'theme', { name: 'T' }));
  put('template', await created(api, 'template', { name: 'T' }));
  put('upload', (await app.db('upload').insert({ ...base, content_type: 'image/png', size: 1, data: Buffer.from([0]) }).returning('id'))[0].id);
  const webhook = await created(api, 'webhook', { name: 'H', endpointUrl: 'http://127.0.0.1:9/hook', eventCodes: ['streak_progress_in_progress'] });
  put('webhook', webhook);
  put('webhook_log', (await app.db('webhook_log').insert({ ...base, webhook_id: webhook, event_log_ids: [ids.get('event_log')] }).returning('id'))[0].id);
  const email = await created(api, 'service_email', { name: 'E', replyToEmailAddress: 'reply@example.com' });
  put('service_email', email);
  const emailTemplate = await created(api, 'email_template', { name: 'ET', status: 'live', sampleEventCode: 'streak_progress_in_progress', subject: 'Hi', htmlContent: '<p>Hi</p>' });
  put('email_template', emailTemplate);
  const rule = await created(api, 'notification', { name: 'N', eventCodes: ['streak_progress_in_progress'], integrationProvider: 'service_email', integrationId: email, templateId: emailTemplate });
  put('notification', rule);
  put('notification_log', (await app.db('notification_log').insert({ ...base, notification_id: rule, event_log_id: ids.get('event_log'), channel: 'email' }).returning('id'))[0].id);
  put('email_theme', await created(api, 'email_theme', { name: 'Theme', status: 'live' }));
  put('email_header', await created(api, 'email_header', { name: 'H', htmlContent: '<b>h</b>' }));
  put('email_footer', await created(api, 'email_footer', { name: 'F', htmlContent: '<i>f</i>' }));
  put('push_notification_template', await created(api, 'push_notification_template', { name: 'P', title: 't', body: 'b' }));
  put('sms_template', await created(api, 'sms_template', { name: 'S', body: 'b' }));
  put('chat_message_template', await created(api, 'chat_message_template', { name: 'C', templateName: 'promo', templateLanguageCode: 'en_US' }));
  put('push_cloud_messaging', await created(api, 'push_cloud_messaging', {
    name: 'P',
    serviceAccountJSON: { type: 'service_account', project_id: 'p', private_key_id: 'k', private_key: privateKey, client_email: 'svc@p.iam.example.com', client_id: '1' },
  }));
  const cloud = { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret/key+value', region: 'eu-west-1' };
  put('cloud_sms', await created(api, 'cloud_sms', { name: 'S', ...cloud, senderId: 'Shop' }));
  put('cloud_chat', await created(api, 'cloud_chat', { name: 'C', ...cloud, messagingBusinessAccountId: 'waba-1', messagingPhoneNumberId: 'phone-1' }));
}

beforeAll(async () => {
  app = await startTestApp({ LOYALTY_WEBHOOK_ALLOW_PRIVATE: 'true' });
  a = await app.createAccount();
  b = await app.createAccount();
  await seed(a);
}, 120_000);
afterAll(() => app.close());

describe('cross-account isolation', () => {
  it('has a fixture for every resource', () => {
    const missing = app.running.services.registry.all().map((r) => r.slug).filter((slug) => !ids.has(slug));
    expect(missing).toEqual([]);
  });

  it('hides every record of account A from account B on every operation', async () => {
    const member = (await b.api.post('/enduser/token', { externalId: 'b-member' })).body.data.accessToken as string;
    const flows = {
      apikey: b.api,
      enduser: app.anon.with({ 'x-enduser-access-token': member, 'x-account-id': b.accountId }),
      guest: app.anon.with({ 'x-account-id': b.accountId }),
    };
    for (const resource of app.running.services.registry.all()) {
      const id = ids.get(resource.slug)!;
      const item = `/schema/${resource.slug}/record/${id}`;
      const allowed = (op: Op, flow: keyof typeof flows) => resource.access[op]?.includes(flow);
      for (const flow of Object.keys(flows) as (keyof typeof flows)[]) {
        const client = flows[flow];
        const where = `${resource.slug} as ${flow}`;
        if (allowed('get', flow)) expect((await client.get(item)).status, `get ${where}`).toBe(404);
        if (allowed('update', flow)) expect((await client.patch(item, {})).status, `update ${where}`).toBe(404);
        if (allowed('delete', flow)) expect((await client.delete(item)).status, `delete ${where}`).toBe(404);
        if (allowed('list', flow)) {
          const list = await client.get(`/schema/${resource.slug}/record`, {
            filters: { operator: 'and', conditions: [{ fieldSlug: 'id', operator: 'equals', fieldValue: id }] },
          });
          expect(list.status, `list ${where}`).toBe(200);
          expect(list.body.data, `list ${where}`).toEqual([]);
        }
        for (const [name, action] of Object.entries(resource.actions ?? {})) {
          if (flow !== 'apikey') continue;
          const res = await client.request('POST', `${item}/action/${name}`, action.accepts?.includes('application/json') === false ? {} : { body: {} });
          expect(res.status, `action ${name} ${where}`).toBe(404);
        }
      }
      // The owner still sees it, unchanged by B's attempts.
      if (resource.access.get?.includes('apikey')) expect((await a.api.get(item)).status, `owner get ${resource.slug}`).toBe(200);
    }
  });
});
