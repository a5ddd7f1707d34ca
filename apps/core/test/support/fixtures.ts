import { generateKeyPairSync } from 'node:crypto';
import type { Client, TestAccount, TestApp } from './harness.js';
import { assertSchema } from './openapi.js';

/**
 * One live record of every resource in an account, created through the API where the API
 * creates it and inserted where only the service writes it. Suites that walk the registry
 * (isolation, authorisation, fuzzing) fail when a resource has no fixture here.
 */
const privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** A push integration's service account whose key parses (no provider is reached with it). */
export const SERVICE_ACCOUNT = {
  type: 'service_account',
  project_id: 'p',
  private_key_id: 'k',
  private_key: privateKey,
  client_email: 'svc@p.iam.example.com',
  client_id: '1',
};

async function created(api: Client, slug: string, body: Record<string, unknown>): Promise<string> {
  const res = await api.post(`/schema/${slug}/record`, body);
  if (res.status !== 200) throw new Error(`${slug}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id;
}

export async function seedEveryResource(app: TestApp, acct: TestAccount): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  const api = acct.api;
  const base = { account_id: acct.accountId };
  const put = (slug: string, id: string) => ids.set(slug, id);
  put('account_user', await created(api, 'account_user', { externalId: 'iso-member' }));
  put('apikey', await created(api, 'apikey', { name: 'iso key', status: 'live' }));
  const streak = await created(api, 'streak', { name: 'S' });
  put('streak', streak);
  put('challenge', await created(api, 'challenge', { name: 'C', completionTargetValue: 10 }));
  put('mission', await created(api, 'mission', { name: 'M', tasks: [{ name: 't', activityId: 'a', targetValue: 1 }] }));
  put('leaderboard', await created(api, 'leaderboard', { name: 'L', linkedSchemaSlug: 'streak', linkedSchemaRecordId: streak }));
  put(
    'milestone',
    await created(api, 'milestone', {
      linkedSchemaSlug: 'streak',
      linkedSchemaRecordId: streak,
      name: 'M',
      description: 'd',
      milestoneTargetValue: 1,
      status: 'live',
    }),
  );
  const reward = await created(api, 'reward', {
    name: 'R',
    description: 'd',
    discountType: 'percentage',
    discountValue: 5,
    rewardExpiryType: 'no_expiry',
    // A cost, so that end users and guests may read it (CONTRACT §19).
    pointsCost: 100,
  });
  put('reward', reward);
  put('coupon', await created(api, 'coupon', { rewardId: reward, couponCode: 'ISO-1', status: 'live' }));
  const at = new Date(Date.now() - 60_000).toISOString();
  const streakLog = (
    await api.post('/schema/streak_log/record', {
      streakId: streak,
      ownedById: ids.get('account_user'),
      activityId: 'a',
      activityAt: at,
      uniqueIdentifier: 'iso',
    })
  ).body.data;
  put('streak_log', streakLog.id);
  put('streak_progress', streakLog.streakProgress.id);
  put('task_progress', streakLog.taskProgress.id);
  const challengeLog = (
    await api.post('/schema/challenge_log/record', {
      challengeId: ids.get('challenge'),
      ownedById: ids.get('account_user'),
      activityId: 'a',
      activityAt: at,
      uniqueIdentifier: 'iso',
    })
  ).body.data;
  put('challenge_log', challengeLog.id);
  put('challenge_progress', challengeLog.challengeProgress.id);
  const missionLog = (
    await api.post('/schema/mission_log/record', {
      missionId: ids.get('mission'),
      ownedById: ids.get('account_user'),
      activityId: 'a',
      activityAt: at,
      uniqueIdentifier: 'iso',
    })
  ).body.data;
  put('mission_log', missionLog.id);
  put('mission_progress', missionLog.missionProgress.id);
  put(
    'reward_log',
    streakLog.achievedMilestoneRewardLog?.id ??
      (
        await app
          .db('reward_log')
          .insert({
            ...base,
            reward_id: reward,
            linked_schema_slug: 'streak',
            linked_schema_record_id: streak,
            owned_by_id: ids.get('account_user'),
          })
          .returning('id')
      )[0].id,
  );
  const pointsSetting = (await api.get('/schema/points_setting/record')).body.data[0].id as string;
  // Live, as the storefront reads it only then.
  await api.patch(`/schema/points_setting/record/${pointsSetting}`, { status: 'live' });
  put('points_setting', pointsSetting);
  put('tier', await created(api, 'tier', { name: 'Gold', status: 'live', pointsThreshold: 1000, earnMultiplier: 1.5 }));
  put('point_entry', await created(api, 'point_entry', { ownedById: ids.get('account_user'), points: 5, reason: 'adjusted' }));
  put('event_log', (await api.get('/schema/event_log/record', { limit: '1' })).body.data[0].id);
  put('floating_widget', await created(api, 'floating_widget', { name: 'W', description: 'd' }));
  put('theme', await created(api, 'theme', { name: 'T' }));
  put('template', await created(api, 'template', { name: 'T' }));
  put(
    'upload',
    (
      await app
        .db('upload')
        .insert({ ...base, content_type: 'image/png', size: 1, data: Buffer.from([0]) })
        .returning('id')
    )[0].id,
  );
  const webhook = await created(api, 'webhook', {
    name: 'H',
    endpointUrl: 'http://127.0.0.1:9/hook',
    eventCodes: ['streak_progress_in_progress'],
  });
  put('webhook', webhook);
  put(
    'webhook_log',
    (
      await app
        .db('webhook_log')
        .insert({ ...base, webhook_id: webhook, event_log_ids: [ids.get('event_log')] })
        .returning('id')
    )[0].id,
  );
  const email = await created(api, 'service_email', { name: 'E', replyToEmailAddress: 'reply@example.com' });
  put('service_email', email);
  const emailTemplate = await created(api, 'email_template', {
    name: 'ET',
    status: 'live',
    sampleEventCode: 'streak_progress_in_progress',
    subject: 'Hi',
    htmlContent: '<p>Hi</p>',
  });
  put('email_template', emailTemplate);
  const rule = await created(api, 'notification', {
    name: 'N',
    eventCodes: ['streak_progress_in_progress'],
    integrationProvider: 'service_email',
    integrationId: email,
    templateId: emailTemplate,
  });
  put('notification', rule);
  put(
    'notification_log',
    (
      await app
        .db('notification_log')
        .insert({ ...base, notification_id: rule, event_log_id: ids.get('event_log'), channel: 'email' })
        .returning('id')
    )[0].id,
  );
  put('email_theme', await created(api, 'email_theme', { name: 'Theme', status: 'live' }));
  put('email_header', await created(api, 'email_header', { name: 'H', htmlContent: '<b>h</b>' }));
  put('email_footer', await created(api, 'email_footer', { name: 'F', htmlContent: '<i>f</i>' }));
  put('push_notification_template', await created(api, 'push_notification_template', { name: 'P', title: 't', body: 'b' }));
  put('sms_template', await created(api, 'sms_template', { name: 'S', body: 'b' }));
  put(
    'chat_message_template',
    await created(api, 'chat_message_template', { name: 'C', templateName: 'promo', templateLanguageCode: 'en_US' }),
  );
  put(
    'push_cloud_messaging',
    await created(api, 'push_cloud_messaging', {
      name: 'P',
      serviceAccountJSON: SERVICE_ACCOUNT,
    }),
  );
  const cloud = { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret/key+value', region: 'eu-west-1' };
  put('cloud_sms', await created(api, 'cloud_sms', { name: 'S', ...cloud, senderId: 'Shop' }));
  put(
    'cloud_chat',
    await created(api, 'cloud_chat', { name: 'C', ...cloud, messagingBusinessAccountId: 'waba-1', messagingPhoneNumberId: 'phone-1' }),
  );
  return ids;
}

/**
 * Checks every event of the account against the document's `WebhookEvent`, as a delivery would
 * carry it, and returns the codes seen, so that a suite shows which payloads it covered.
 */
export async function assertEventsDocumented(app: TestApp, api: Client): Promise<Set<string>> {
  const res = await api.get('/schema/event_log/record', { limit: '1000' });
  const events = res.body.data as { id: string; eventCode: string; createdAt: string; ownedById: string | null; payload: unknown }[];
  for (const { id, eventCode, createdAt, ownedById, payload } of events)
    await assertSchema(app.url, 'WebhookEvent', { id, eventCode, createdAt, ownedById, payload });
  return new Set(events.map((e) => e.eventCode));
}
