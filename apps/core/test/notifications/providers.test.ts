import { generateKeyPairSync } from 'node:crypto';
import { jwtVerify } from 'jose';
import PostalMime from 'postal-mime';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { NotificationPool } from '../../src/notifications/sender.js';
import { startTestApp, type TestAccount, type TestApp } from '../support/harness.js';
import { at, type Captured, create, eventsOf, json, logRow, NOW, postLog, queue, send, startProvider } from './support.js';

/** The AWS environment the SES client reads its credentials from (CONTRACT §11). */
const ENV_KEY = 'AKIAENVIRONMENT01';
const ENV_SECRET = 'env-secret-access-key-0123456789';
const ACCESS_TOKEN = 'ya29.test-access-token-abcdefghijklmnop';
const SMS_SECRET = 'sms-secret-access-key-0123456789';
const BAD_SMS_SECRET = 'bad-sms-secret-access-key-987654';
const CHAT_SECRET = 'chat-secret-access-key-0123456789';

const mode = { ses: 'ok', push: 'ok', sms: 'ok' } as { ses: 'ok' | 'fail'; push: 'ok' | 'fail'; sms: 'ok' | 'hang' };
/** SMS publishes the provider holds open, never answered. */
const hung: import('node:http').ServerResponse[] = [];
let provider: Awaited<ReturnType<typeof startProvider>>;
let app: TestApp;
let acct: TestAccount;
let streak: Record<string, any>;
let counter = 0;

const keyPair = () => generateKeyPairSync('rsa', { modulusLength: 2048 });
const GOOD_KEY = keyPair();
const REVOKED_KEY = keyPair();
const pem = (k: ReturnType<typeof keyPair>) => k.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;

const form = (body: string) => Object.fromEntries(new URLSearchParams(body));
const requestsTo = (prefix: string) => provider.requests.filter((r) => r.url.startsWith(prefix));
const awsCredential = (r: Captured) => /Credential=([^,]+)/.exec(String(r.headers.authorization))?.[1] ?? '';

function xml(res: import('node:http').ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/xml' });
  res.end(body);
}

/** A test's own answer to a request, ahead of the usual ones: true when it answered. */
let special: ((req: Captured, res: import('node:http').ServerResponse) => boolean) | undefined;

async function answer(req: Captured, res: import('node:http').ServerResponse) {
  if (special?.(req, res)) return;
  if (req.url === '/v2/email/outbound-emails') {
    if (mode.ses === 'fail')
      return json(res, 500, { message: 'We encountered an internal error. Please try again.' }, { 'x-amzn-ErrorType': 'InternalFailure' });
    return json(res, 200, { MessageId: `ses-msg-${++counter}` });
  }
  if (req.url === '/token' || req.url === '/revoked-token') {
    if (req.url === '/revoked-token') return json(res, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
    return json(res, 200, { access_token: ACCESS_TOKEN, expires_in: 3600, token_type: 'Bearer' });
  }
  if (req.url.startsWith('/v1/projects/')) {
    if (req.headers.authorization !== `Bearer ${ACCESS_TOKEN}`)
      return json(res, 401, { error: { code: 401, status: 'UNAUTHENTICATED', message: 'Bad token' } });
    // A provider that echoes the request's credentials in its error: the sender must not store them.
    if (mode.push === 'fail')
      return json(res, 500, { error: { code: 500, status: 'INTERNAL', message: `Backend failure for ${req.headers.authorization}` } });
    const token = JSON.parse(req.body).message.token as string;
    if (token === 'stale-token')
      return json(res, 404, { error: { code: 404, status: 'NOT_FOUND', message: 'Requested entity was not found.' } });
    return json(res, 200, { name: `projects/demo-project/messages/${token}` });
  }
  if (req.url === '/v1/whatsapp/send') return json(res, 200, { messageId: `wa-msg-${++counter}` });
  if (req.url === '/' && form(req.body).Action === 'Publish' && mode.sms === 'hang') {
    hung.push(res);
    return;
  }
  if (req.url === '/' && form(req.body).Action === 'Publish') {
    if (awsCredential(req).startsWith('AKIABADKEY')) {
      return xml(
        res,
        403,
        `<ErrorResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><Error><Type>Sender</Type><Code>InvalidClientTokenId</Code><Message>The security token included in the request is invalid (${BAD_SMS_SECRET}).</Message></Error><RequestId>r-1</RequestId></ErrorResponse>`,
      );
    }
    return xml(
      res,
      200,
      `<PublishResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><PublishResult><MessageId>sns-msg-${++counter}</MessageId></PublishResult><ResponseMetadata><RequestId>r-2</RequestId></ResponseMetadata></PublishResponse>`,
    );
  }
  json(res, 404, { message: `no route ${req.method} ${req.url}` });
}

beforeAll(async () => {
  provider = await startProvider(answer);
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: ENV_KEY, AWS_SECRET_ACCESS_KEY: ENV_SECRET, AWS_REGION: 'us-east-1' });
  app = await startTestApp({
    LOYALTY_EMAIL_TRANSPORT: 'ses',
    LOYALTY_SES_ENDPOINT: provider.url,
    LOYALTY_PUSH_API_URL: provider.url,
    LOYALTY_SMS_ENDPOINT: provider.url,
    LOYALTY_CHAT_ENDPOINT: provider.url,
    LOYALTY_EMAIL_SHARED_DOMAIN: 'mail.loyalty.test',
    // The push provider's token endpoint is this test's own, on loopback.
    LOYALTY_WEBHOOK_ALLOW_PRIVATE: 'true',
  });
  app.running.services.records.now = () => NOW;
  acct = await app.createAccount({ organizationName: 'Acme Group', accountName: 'Acme Fitness', timezone: 'Europe/Paris' });
  streak = await create(acct, 'streak', { name: 'Daily visit', status: 'live', completionTargetValue: 30 });
  await create(acct, 'milestone', {
    linkedSchemaSlug: 'streak',
    linkedSchemaRecordId: streak.id,
    name: 'Three',
    description: 'd',
    milestoneTargetValue: 3,
    status: 'live',
  });
});

afterAll(async () => {
  await app?.close();
  await provider?.close();
});

/** A member with one completed day: a streak_progress_non_milestone_completed event, two days short of the milestone. */
async function memberEvent(externalId: string, over: Record<string, unknown> = {}) {
  const member = await create(acct, 'account_user', { externalId, firstName: 'Ada', ...over });
  await postLog(acct, 'streak_log', { streakId: streak.id, ownedById: member.id });
  const [event] = await eventsOf(app, member.id);
  expect(event.event_code).toBe('streak_progress_non_milestone_completed');
  return event;
}

async function rule(provider: string, integrationId: string, templateId: string) {
  return create(acct, 'notification', {
    name: `${provider} rule`,
    status: 'live',
    eventCodes: ['streak_progress_non_milestone_completed'],
    integrationProvider: provider,
    integrationId,
    templateId,
  }) as Promise<{ id: string; integrationProvider: string }>;
}

describe('email through SES v2', () => {
  let sesRule: { id: string; integrationProvider: string };

  beforeAll(async () => {
    const integration = await create(acct, 'service_email', { name: 'SES', replyToEmailAddress: 'help@acme.test', status: 'live' });
    const template = await create(acct, 'email_template', {
      name: 'SES mail',
      status: 'live',
      sampleEventCode: 'streak_progress_non_milestone_completed',
      subject: 'Keep going, {{$account_user.firstName}}',
      htmlContent: '<div class="content">{{$helpers.remainingValue}} {{$helpers.periodText}}s to go</div>',
    });
    sesRule = await rule('service_email', integration.id, template.id);
  });

  it('sends the raw message with SendEmail and keeps the MessageId', async () => {
    const event = await memberEvent('ses-1', { email: 'ada@example.net' });
    const id = await queue(app, sesRule, event);
    const before = requestsTo('/v2/email').length;
    await send(app);
    const [request] = requestsTo('/v2/email').slice(before);
    expect(request!.method).toBe('POST');
    // Signed with the standard AWS environment's credentials.
    expect(awsCredential(request!)).toMatch(new RegExp(`^${ENV_KEY}/\\d{8}/us-east-1/ses/aws4_request$`));
    const body = JSON.parse(request!.body);
    expect(body).toMatchObject({
      FromEmailAddress: 'no-reply@mail.loyalty.test',
      Destination: { ToAddresses: ['ada@example.net'] },
      ReplyToAddresses: ['help@acme.test'],
    });
    const mail = await PostalMime.parse(Buffer.from(body.Content.Raw.Data, 'base64'));
    expect(mail.subject).toBe('Keep going, Ada');
    expect(mail.from).toEqual({ name: 'Acme Fitness', address: 'no-reply@mail.loyalty.test' });
    expect(mail.html).toMatch(/<div class="content" style="[^"]+">2 days to go<\/div>/);
    const log = await logRow(app, id);
    expect(log).toMatchObject({ notification_log_status: 'sent', provider_message_id: `ses-msg-${counter}`, attempt_count: 1 });
  });

  it('retries a provider 500 with backoff, then fails with its message and no secret', async () => {
    const event = await memberEvent('ses-2', { email: 'ada2@example.net' });
    const id = await queue(app, sesRule, event);
    mode.ses = 'fail';
    try {
      const times = [0, 30_000, 150_000, 750_000];
      for (const [i, t] of times.entries()) {
        expect(await send(app, at(t))).toBe(1);
        const log = await logRow(app, id);
        expect(log.attempt_count).toBe(i + 1);
        if (i < 3) {
          expect(log.notification_log_status).toBe('pending');
          expect(log.next_attempt_at).toEqual(at(times[i + 1]!));
        }
      }
    } finally {
      mode.ses = 'ok';
    }
    const log = await logRow(app, id);
    expect(log.notification_log_status).toBe('failed');
    expect(log.error).toContain('InternalFailure');
    expect(log.error).toContain('We encountered an internal error');
    expect(log.error).not.toContain(ENV_SECRET);
  });
});

describe('push through the HTTP v1 API', () => {
  let pushRule: { id: string; integrationProvider: string };
  let revokedRule: { id: string; integrationProvider: string };
  const serviceAccount = (key: ReturnType<typeof keyPair>, tokenPath: string) => ({
    type: 'service_account',
    project_id: 'demo-project',
    private_key_id: 'kid-1',
    private_key: pem(key),
    client_email: 'push@demo-project.iam.example.com',
    client_id: '1234567890',
    token_uri: `${provider.url}${tokenPath}`,
  });

  beforeAll(async () => {
    const template = await create(acct, 'push_notification_template', {
      name: 'Push',
      title: 'Hi {{$account_user.firstName}}',
      body: '{{$helpers.remainingValue}} more {{$helpers.periodText}}s to go & win',
      imageUrl: 'https://cdn.example.com/streak.png',
      data: { streakId: '{{$event_log.payload.streakLog.streakId}}', kind: 'streak' },
    });
    const good = await create(acct, 'push_cloud_messaging', {
      name: 'Push',
      status: 'live',
      serviceAccountJSON: serviceAccount(GOOD_KEY, '/token'),
    });
    const revoked = await create(acct, 'push_cloud_messaging', {
      name: 'Revoked',
      status: 'live',
      serviceAccountJSON: serviceAccount(REVOKED_KEY, '/revoked-token'),
    });
    pushRule = await rule('push_cloud_messaging', good.id, template.id);
    revokedRule = await rule('push_cloud_messaging', revoked.id, template.id);
  });

  it('gets a token with a JWT assertion grant at token_uri and sends one message per device token', async () => {
    const event = await memberEvent('push-1', { pushDeviceTokens: ['device-a', 'device-b'] });
    const id = await queue(app, pushRule, event);
    await send(app);

    const [tokenRequest, ...more] = requestsTo('/token');
    expect(more).toHaveLength(0);
    const grant = form(tokenRequest!.body);
    expect(grant.grant_type).toBe('urn:ietf:params:oauth:grant-type:jwt-bearer');
    const { payload, protectedHeader } = await jwtVerify(grant.assertion!, GOOD_KEY.publicKey, { audience: `${provider.url}/token` });
    expect(protectedHeader.alg).toBe('RS256');
    expect(payload).toMatchObject({
      iss: 'push@demo-project.iam.example.com',
      scope: 'https://www.googleapis.com/auth/firebase.messaging',
    });

    const sends = requestsTo('/v1/projects/');
    expect(sends.map((r) => r.url)).toEqual(['/v1/projects/demo-project/messages:send', '/v1/projects/demo-project/messages:send']);
    for (const r of sends) expect(r.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
    const messages = sends.map((r) => JSON.parse(r.body).message).sort((a, b) => a.token.localeCompare(b.token));
    expect(messages).toEqual(
      ['device-a', 'device-b'].map((token) => ({
        token,
        notification: { title: 'Hi Ada', body: '2 more days to go & win', image: 'https://cdn.example.com/streak.png' },
        data: { streakId: streak.id, kind: 'streak' },
      })),
    );
    const log = await logRow(app, id);
    expect(log).toMatchObject({ notification_log_status: 'sent', channel: 'push' });
    expect(log.provider_message_id.split(' ').sort()).toEqual([
      'projects/demo-project/messages/device-a',
      'projects/demo-project/messages/device-b',
    ]);
  });

  it('reuses the access token, and a stale device token does not fail the others', async () => {
    const event = await memberEvent('push-2', { pushDeviceTokens: ['stale-token', 'device-c'] });
    const id = await queue(app, pushRule, event);
    await send(app);
    expect(requestsTo('/token')).toHaveLength(1);
    expect(await logRow(app, id)).toMatchObject({
      notification_log_status: 'sent',
      provider_message_id: 'projects/demo-project/messages/device-c',
      // Said, not dropped: the device that was not reached.
      error: expect.stringMatching(/^1 of 2 devices were not reached: .*404/),
    });
  });

  it('spends no attempt on trouble of its own (a secret it cannot open) and stores none of its detail; it goes out once mended', async () => {
    const [integration] = await app
      .db('push_cloud_messaging')
      .where({ id: (await app.db('notification').where({ id: pushRule.id }).first()).integration_id });
    const event = await memberEvent('push-own-trouble', { pushDeviceTokens: ['device-own'] });
    const id = await queue(app, pushRule, event);
    await app.db('push_cloud_messaging').where({ id: integration.id }).update({ service_account_json_enc: 'not-a-sealed-secret' });
    try {
      await send(app);
    } finally {
      await app
        .db('push_cloud_messaging')
        .where({ id: integration.id })
        .update({ service_account_json_enc: integration.service_account_json_enc });
    }
    const waiting = await logRow(app, id);
    expect(waiting).toMatchObject({
      notification_log_status: 'pending',
      attempt_count: 0,
      error: 'The service could not prepare the message (its own trouble, not the provider’s); it tries again.',
    });
    expect(waiting.next_attempt_at).toEqual(at(30_000));
    await send(app, at(30_000));
    expect(await logRow(app, id)).toMatchObject({ notification_log_status: 'sent', attempt_count: 1, error: null });
  });

  it('fails on a refused grant at once; retries a 500 without storing the access token', async () => {
    const event = await memberEvent('push-3', { pushDeviceTokens: ['device-d'] });
    const refused = await queue(app, revokedRule, event);
    const retried = await queue(app, pushRule, event);
    mode.push = 'fail';
    try {
      expect(await send(app)).toBe(2);
    } finally {
      mode.push = 'ok';
    }
    const refusedLog = await logRow(app, refused);
    expect(refusedLog).toMatchObject({ notification_log_status: 'failed', attempt_count: 1 });
    expect(refusedLog.error).toContain('invalid_grant');
    expect(refusedLog.error).not.toContain('PRIVATE KEY');
    const retriedLog = await logRow(app, retried);
    expect(retriedLog).toMatchObject({ notification_log_status: 'pending', attempt_count: 1 });
    expect(retriedLog.error).toContain('HTTP 500');
    expect(retriedLog.error).toContain('INTERNAL');
    expect(retriedLog.error).not.toContain(ACCESS_TOKEN);
    expect(await send(app, at(30_000))).toBe(1);
    expect(await logRow(app, retried)).toMatchObject({ notification_log_status: 'sent', attempt_count: 2, error: null });
  });

  it('skips a member without device tokens', async () => {
    const event = await memberEvent('push-4');
    const id = await queue(app, pushRule, event);
    await send(app);
    expect(await logRow(app, id)).toMatchObject({ notification_log_status: 'skipped', error: 'The member has no push device tokens.' });
  });
});

describe('SMS and chat through the cloud SDK', () => {
  let smsRule: { id: string; integrationProvider: string };
  let badSmsRule: { id: string; integrationProvider: string };
  let chatRule: { id: string; integrationProvider: string };

  beforeAll(async () => {
    const smsTemplate = await create(acct, 'sms_template', {
      name: 'SMS',
      body: '{{$account.name}}: {{$account_user.firstName}}, {{$helpers.remainingValue}} {{$helpers.periodText}}s to go & win',
    });
    const sms = await create(acct, 'cloud_sms', {
      name: 'SMS',
      status: 'live',
      accessKeyId: 'AKIAGOODKEY0001',
      secretAccessKey: SMS_SECRET,
      region: 'eu-west-1',
      senderId: 'AcmeFit',
    });
    const badSms = await create(acct, 'cloud_sms', {
      name: 'Bad SMS',
      status: 'live',
      accessKeyId: 'AKIABADKEY0001',
      secretAccessKey: BAD_SMS_SECRET,
      region: 'eu-west-1',
      senderId: 'AcmeFit',
    });
    smsRule = await rule('cloud_sms', sms.id, smsTemplate.id);
    badSmsRule = await rule('cloud_sms', badSms.id, smsTemplate.id);
    const chatTemplate = await create(acct, 'chat_message_template', {
      name: 'Chat',
      templateName: 'streak_reminder',
      templateLanguageCode: 'en_US',
      bodyParameters: ['{{$account_user.firstName}}', '{{$helpers.remainingValue}}', '{{$helpers.periodText}}'],
    });
    const chat = await create(acct, 'cloud_chat', {
      name: 'Chat',
      status: 'live',
      accessKeyId: 'AKIACHATKEY0001',
      secretAccessKey: CHAT_SECRET,
      region: 'us-east-1',
      messagingBusinessAccountId: 'waba-1',
      messagingPhoneNumberId: 'phone-number-id-0123456789abcdef0123456789abcdef',
    });
    chatRule = await rule('cloud_chat', chat.id, chatTemplate.id);
  });

  it('fails a send the provider never answers by the send deadline, retryably, without holding the lane or the worker', async () => {
    const event = await memberEvent('sms-hang', { phoneNumber: '+14155550111' });
    const id = await queue(app, smsRule, event);
    mode.sms = 'hang';
    try {
      const pool = new NotificationPool(app.running.services, () => NOW, { deadlineMs: 500 });
      const started = Date.now();
      expect(await pool.claim()).toBe(1);
      await pool.settled();
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      mode.sms = 'ok';
      for (const res of hung.splice(0)) res.destroy();
    }
    const log = await logRow(app, id);
    expect(log).toMatchObject({ notification_log_status: 'pending', attempt_count: 1, lease_until: null });
    expect(log.error).toBe('The provider did not answer within 0.5 s.');
    expect(log.next_attempt_at.getTime()).toBe(NOW.getTime() + 30_000);
  });

  it('publishes an SMS with the sender id, signed with the integration key; bad credentials fail without the secret', async () => {
    const event = await memberEvent('sms-1', { phoneNumber: '+14155550100' });
    const bad = await queue(app, badSmsRule, event);
    const good = await queue(app, smsRule, event);
    const before = requestsTo('/').filter((r) => r.url === '/').length;
    expect(await send(app)).toBe(2);

    const publishes = provider.requests.filter((r) => r.url === '/').slice(before);
    const publish = publishes.find((r) => awsCredential(r).startsWith('AKIAGOODKEY0001'))!;
    expect(awsCredential(publish)).toMatch(/^AKIAGOODKEY0001\/\d{8}\/eu-west-1\/sns\/aws4_request$/);
    expect(form(publish.body)).toMatchObject({
      Action: 'Publish',
      PhoneNumber: '+14155550100',
      Message: 'Acme Fitness: Ada, 2 days to go & win',
      'MessageAttributes.entry.1.Name': 'AWS.SNS.SMS.SenderID',
      'MessageAttributes.entry.1.Value.DataType': 'String',
      'MessageAttributes.entry.1.Value.StringValue': 'AcmeFit',
    });
    const goodLog = await logRow(app, good);
    expect(goodLog).toMatchObject({ notification_log_status: 'sent', channel: 'sms', attempt_count: 1 });
    expect(goodLog.provider_message_id).toMatch(/^sns-msg-\d+$/);

    const badLog = await logRow(app, bad);
    expect(badLog).toMatchObject({ notification_log_status: 'failed', attempt_count: 1 });
    expect(badLog.error).toContain('InvalidClientTokenId');
    expect(badLog.error).toContain('The security token included in the request is invalid');
    expect(badLog.error).not.toContain(BAD_SMS_SECRET);
  });

  it('sends a chat template message with the rendered body parameters, in its provider template’s language', async () => {
    // A German member: the provider template is English, so are the values put into it.
    const event = await memberEvent('chat-1', { phoneNumber: '+447700900123', languageCode: 'de' });
    const id = await queue(app, chatRule, event);
    await send(app);
    const [request] = requestsTo('/v1/whatsapp/send');
    expect(awsCredential(request!)).toMatch(/^AKIACHATKEY0001\/\d{8}\/us-east-1\/social-messaging\/aws4_request$/);
    const body = JSON.parse(request!.body);
    expect(body).toMatchObject({ originationPhoneNumberId: 'phone-number-id-0123456789abcdef0123456789abcdef', metaApiVersion: 'v20.0' });
    expect(JSON.parse(Buffer.from(body.message, 'base64').toString('utf8'))).toEqual({
      messaging_product: 'whatsapp',
      to: '+447700900123',
      type: 'template',
      template: {
        name: 'streak_reminder',
        language: { code: 'en_US' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'Ada' },
              { type: 'text', text: '2' },
              { type: 'text', text: 'day' },
            ],
          },
        ],
      },
    });
    const log = await logRow(app, id);
    expect(log).toMatchObject({ notification_log_status: 'sent', channel: 'chat' });
    expect(log.provider_message_id).toMatch(/^wa-msg-\d+$/);
  });

  it('skips members without a phone number', async () => {
    const event = await memberEvent('no-phone');
    const ids = [await queue(app, smsRule, event), await queue(app, chatRule, event)];
    await send(app);
    for (const id of ids)
      expect(await logRow(app, id)).toMatchObject({ notification_log_status: 'skipped', error: 'The member has no phone number.' });
  });
});

describe('opt-outs per channel', () => {
  it('an email link opts out of email only, an SMS link of SMS only, and a merchant can clear one', async () => {
    const emailTemplate = await create(acct, 'email_template', {
      name: 'Opt-out mail',
      status: 'live',
      sampleEventCode: 'streak_progress_non_milestone_completed',
      subject: 'Hi',
      htmlContent: '<p>Go on</p><a href="{{$helpers.unsubscribeUrl}}">Unsubscribe</a>',
    });
    const email = await create(acct, 'service_email', { name: 'Opt-out SES', replyToEmailAddress: 'help@acme.test', status: 'live' });
    const smsTemplate = await create(acct, 'sms_template', { name: 'Opt-out SMS', body: 'Go on. Stop: {{$helpers.unsubscribeUrl}}' });
    const sms = await create(acct, 'cloud_sms', {
      name: 'Opt-out SMS',
      status: 'live',
      accessKeyId: 'AKIAGOODKEY0002',
      secretAccessKey: SMS_SECRET,
      region: 'eu-west-1',
      senderId: 'AcmeFit',
    });
    const rules = [await rule('service_email', email.id, emailTemplate.id), await rule('cloud_sms', sms.id, smsTemplate.id)];
    const event = await memberEvent('opt-1', { email: 'opt@example.net', phoneNumber: '+14155550111' });
    const memberPath = `/schema/account_user/record/${event.owned_by_id}`;

    /** Queues the event for both rules, sends, and answers each log's status and error, email first. */
    async function round() {
      const ids = [await queue(app, rules[0]!, event), await queue(app, rules[1]!, event)];
      await send(app);
      return Promise.all(
        ids.map(async (id) => {
          const log = await logRow(app, id);
          return [log.notification_log_status, log.error];
        }),
      );
    }
    const lastSmsLink = () => {
      const publish = provider.requests.filter((r) => r.url === '/').at(-1)!;
      return /(https?:\/\/\S+\/u\/[A-Za-z0-9_-]+)/.exec(form(publish.body).Message!)![1]!;
    };
    const lastEmailLink = async () => {
      const request = requestsTo('/v2/email').at(-1)!;
      const mail = await PostalMime.parse(Buffer.from(JSON.parse(request.body).Content.Raw.Data, 'base64'));
      return /href="([^"]+)"/.exec(mail.html as string)![1]!;
    };

    expect(await round()).toEqual([
      ['sent', null],
      ['sent', null],
    ]);
    const emailLink = new URL(await lastEmailLink());
    const smsLink = new URL(lastSmsLink());
    expect(smsLink.pathname).not.toBe(emailLink.pathname);

    expect((await fetch(`${app.url}${emailLink.pathname}`)).status).toBe(200);
    expect((await acct.api.get(memberPath)).body.data.unsubscribedChannels).toEqual(['email']);
    expect(await round()).toEqual([
      ['skipped', 'The member has unsubscribed from email messages.'],
      ['sent', null],
    ]);

    expect((await fetch(`${app.url}${smsLink.pathname}`, { method: 'POST' })).status).toBe(200);
    expect((await acct.api.get(memberPath)).body.data.unsubscribedChannels).toEqual(['email', 'sms']);
    expect(await round()).toEqual([
      ['skipped', 'The member has unsubscribed from email messages.'],
      ['skipped', 'The member has unsubscribed from sms messages.'],
    ]);

    // The member opts back in to email with the merchant.
    const cleared = await acct.api.patch(memberPath, { unsubscribedChannels: ['sms'] });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect(cleared.body.data.unsubscribedChannels).toEqual(['sms']);
    expect(await round()).toEqual([
      ['sent', null],
      ['skipped', 'The member has unsubscribed from sms messages.'],
    ]);
  });
});

describe('render action of push, SMS and chat templates', () => {
  const render = (slug: string, id: string, body: unknown, languageCode?: string) =>
    acct.api.request('POST', `/schema/${slug}/record/${id}/action/render`, { body, ...(languageCode ? { query: { languageCode } } : {}) });

  it('fills the texts in for the sample moment of the event named, in the language asked', async () => {
    const push = await create(acct, 'push_notification_template', {
      name: 'Preview push',
      title: 'Hi {{$account_user.firstName}}',
      body: '{{$helpers.remainingValue}} more {{$helpers.periodText}}s to go',
    });
    const french = await acct.api.request('PATCH', `/schema/push_notification_template/record/${push.id}`, {
      body: { title: 'Salut {{$account_user.firstName}}' },
      query: { languageCode: 'fr' },
    });
    expect(french.status).toBe(200);
    const sent = await render('push_notification_template', push.id, { eventCode: 'streak_progress_in_progress' });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect(sent.body.data).toEqual({ title: 'Hi Alex', body: '3 more weeks to go', data: null, unknownVariables: [] });
    expect((await render('push_notification_template', push.id, { eventCode: 'streak_progress_in_progress' }, 'fr')).body.data.title).toBe(
      'Salut Alex',
    );

    const sms = await create(acct, 'sms_template', {
      name: 'Preview SMS',
      body: 'Done: {{$helpers.currentProgressValue}}/{{$helpers.completionTargetValue}}',
    });
    expect((await render('sms_template', sms.id, { eventCode: 'challenge_progress_completed' })).body.data).toEqual({
      body: 'Done: 210/200',
      unknownVariables: [],
    });

    const chat = await create(acct, 'chat_message_template', {
      name: 'Preview chat',
      templateName: 'streak_reminder',
      templateLanguageCode: 'en_US',
      bodyParameters: ['{{$account_user.firstName}}', '{{$helpers.remainingValue}}', '{{$helpers.periodText}}'],
    });
    expect((await render('chat_message_template', chat.id, { eventCode: 'streak_progress_in_progress' }, 'fr')).body.data).toEqual({
      templateName: 'streak_reminder',
      bodyParameters: ['Alex', '3', 'week'],
      unknownVariables: [],
    });
  });

  it('refuses a body without a known event code or with other fields, naming each, and changes nothing', async () => {
    const sms = await create(acct, 'sms_template', { name: 'Preview refusal', body: 'x' });
    const refusals: [unknown, { field?: string; code: string }[]][] = [
      [{}, [{ field: 'eventCode', code: 'invalid_enum' }]],
      [{ eventCode: 'nope' }, [{ field: 'eventCode', code: 'invalid_enum' }]],
      [{ eventCode: 'challenge_progress_completed', zz: 1 }, [{ field: 'zz', code: 'unknown_field' }]],
      ['text', [{ code: 'invalid_type' }]],
      [null, [{ code: 'invalid_type' }]],
    ];
    for (const [body, details] of refusals) {
      const res = await render('sms_template', sms.id, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_input', details });
    }
    expect((await acct.api.get(`/schema/sms_template/record/${sms.id}`)).body.data.body).toBe('x');
  });
});

describe('push data templates', () => {
  const BAD_DATA = { a: '{{log "X"}}', b: '{{undefinedhelper 1}}' };

  it('checks each data value as the title and body are, on create and update, naming data.<key>', async () => {
    const created = await acct.api.post('/schema/push_notification_template/record', {
      name: 'Bad data',
      title: 't',
      body: 'b',
      data: BAD_DATA,
    });
    expect(created.status).toBe(400);
    expect(created.body.error).toMatchObject({
      code: 'invalid_input',
      details: [
        { field: 'data.a', code: 'unknown_helper' },
        { field: 'data.b', code: 'unknown_helper' },
      ],
    });
    const good = await create(acct, 'push_notification_template', {
      name: 'Good data',
      title: 't',
      body: 'b',
      data: { a: '{{$account.name}}' },
    });
    const updated = await acct.api.request('PATCH', `/schema/push_notification_template/record/${good.id}`, {
      body: { data: { c: '{{#if}}x{{/if}}' } },
    });
    expect(updated.status).toBe(400);
    expect(updated.body.error.details).toMatchObject([{ field: 'data.c', code: 'helper_usage' }]);
    expect((await acct.api.get(`/schema/push_notification_template/record/${good.id}`)).body.data.data).toEqual({ a: '{{$account.name}}' });
  });

  it('renders the data values in the render action, and a stored template with bad data fails its sends at once, naming the field', async () => {
    const template = await create(acct, 'push_notification_template', {
      name: 'Data preview',
      title: 'Hi {{$account_user.firstName}}',
      body: 'b',
      data: { who: '{{$account_user.firstName}}', left: '{{$helpers.remainingValue}}', typo: '{{$account_user.nickname}}' },
    });
    const render = (id: string) =>
      acct.api.request('POST', `/schema/push_notification_template/record/${id}/action/render`, {
        body: { eventCode: 'streak_progress_in_progress' },
      });
    const preview = await render(template.id);
    expect(preview.status, JSON.stringify(preview.body)).toBe(200);
    expect(preview.body.data).toEqual({
      title: 'Hi Alex',
      body: 'b',
      data: { who: 'Alex', left: '3', typo: '' },
      unknownVariables: ['$account_user.nickname'],
    });

    // A template stored before data was checked.
    await app
      .db('push_notification_template')
      .where({ id: template.id })
      .update({ data: JSON.stringify(BAD_DATA) });
    const refused = await render(template.id);
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toMatch(/^The template's data\.a cannot be rendered: /);

    const integration = await create(acct, 'push_cloud_messaging', {
      name: 'Push for data',
      status: 'live',
      serviceAccountJSON: {
        type: 'service_account',
        project_id: 'demo-project',
        private_key_id: 'kid-1',
        private_key: pem(GOOD_KEY),
        client_email: 'push@demo-project.iam.example.com',
        client_id: '1234567890',
        token_uri: `${provider.url}/token`,
      },
    });
    const dataRule = await rule('push_cloud_messaging', integration.id, template.id);
    const event = await memberEvent('push-data', { pushDeviceTokens: ['device-data'] });
    const id = await queue(app, dataRule, event);
    const sends = requestsTo('/v1/projects/').length;
    expect(await send(app)).toBe(1);
    const log = await logRow(app, id);
    expect(log).toMatchObject({ notification_log_status: 'failed', attempt_count: 1 });
    expect(log.error).toMatch(/^Template error in data\.a: /);
    expect(requestsTo('/v1/projects/').length).toBe(sends);
  });
});

describe('provider answers', () => {
  let pushRule: { id: string; integrationProvider: string };
  let throttledTokenRule: { id: string; integrationProvider: string };
  let smsRule: { id: string; integrationProvider: string };
  let chatRule: { id: string; integrationProvider: string };
  const retryAt = async (id: string) => {
    const log = await logRow(app, id);
    expect(log).toMatchObject({ notification_log_status: 'pending', attempt_count: 1 });
    return log.next_attempt_at.getTime() - NOW.getTime();
  };

  beforeAll(async () => {
    const account = (tokenPath: string) => ({
      type: 'service_account',
      project_id: 'answers',
      private_key_id: 'kid-1',
      private_key: pem(GOOD_KEY),
      client_email: 'push@answers.iam.example.com',
      client_id: '1234567890',
      token_uri: `${provider.url}${tokenPath}`,
    });
    const pushTemplate = await create(acct, 'push_notification_template', { name: 'Answers', title: 't', body: 'b' });
    const push = await create(acct, 'push_cloud_messaging', { name: 'Answers', status: 'live', serviceAccountJSON: account('/token') });
    const throttled = await create(acct, 'push_cloud_messaging', {
      name: 'Throttled token',
      status: 'live',
      serviceAccountJSON: account('/throttled-token'),
    });
    pushRule = await rule('push_cloud_messaging', push.id, pushTemplate.id);
    throttledTokenRule = await rule('push_cloud_messaging', throttled.id, pushTemplate.id);
    const credentials = { status: 'live', secretAccessKey: 'answers-secret-access-key-012345', region: 'eu-west-1' };
    const sms = await create(acct, 'cloud_sms', {
      name: 'Answers SMS',
      accessKeyId: 'AKIAANSWERS0001',
      senderId: 'AcmeFit',
      ...credentials,
    });
    smsRule = await rule('cloud_sms', sms.id, (await create(acct, 'sms_template', { name: 'Answers SMS', body: 'b' })).id);
    const chat = await create(acct, 'cloud_chat', {
      name: 'Answers chat',
      accessKeyId: 'AKIAANSWERS0002',
      messagingBusinessAccountId: 'waba-2',
      messagingPhoneNumberId: 'phone-number-id-answers',
      ...credentials,
    });
    const chatTemplate = await create(acct, 'chat_message_template', {
      name: 'Answers chat',
      templateName: 'answers',
      templateLanguageCode: 'en_US',
      bodyParameters: [],
    });
    chatRule = await rule('cloud_chat', chat.id, chatTemplate.id);
  });

  afterEach(() => {
    special = undefined;
  });

  it("waits for a push provider's Retry-After (seconds or a date) when it asks for longer than the backoff, up to an hour", async () => {
    const event = await memberEvent('retry-push', { pushDeviceTokens: ['device-r'] });
    const waits = ['900', new Date(Date.now() + 20 * 60_000).toUTCString(), '86400', '5'];
    const ids: string[] = [];
    for (const wait of waits) {
      special = (req, res) => {
        if (!req.url.startsWith('/v1/projects/answers/')) return false;
        json(res, 429, { error: { code: 429, status: 'RESOURCE_EXHAUSTED', message: 'Quota exceeded.' } }, { 'retry-after': wait });
        return true;
      };
      const id = await queue(app, pushRule, event);
      expect(await send(app)).toBe(1);
      ids.push(id);
    }
    const [seconds, date, tooLong, short] = await Promise.all(ids.map(retryAt));
    expect(seconds).toBe(900_000);
    expect(date).toBeGreaterThan(19 * 60_000);
    expect(date).toBeLessThanOrEqual(20 * 60_000);
    // Capped at an hour; and a shorter wait than the backoff's keeps the backoff.
    expect(tooLong).toBe(3_600_000);
    expect(short).toBe(30_000);
    expect((await logRow(app, ids[0]!)).error).toContain('RESOURCE_EXHAUSTED');
  });

  it('waits for the Retry-After of a throttled token endpoint, SNS and the chat provider', async () => {
    special = (req, res) => {
      if (req.url === '/throttled-token') {
        json(res, 429, { error: 'rate_limited', error_description: 'Slow down.' }, { 'retry-after': '600' });
        return true;
      }
      if (req.url === '/' && awsCredential(req).startsWith('AKIAANSWERS0001')) {
        res.writeHead(503, { 'content-type': 'text/xml', 'retry-after': '1200' });
        res.end(
          '<ErrorResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><Error><Type>Receiver</Type><Code>ServiceUnavailable</Code><Message>Try later.</Message></Error><RequestId>r-3</RequestId></ErrorResponse>',
        );
        return true;
      }
      if (req.url === '/v1/whatsapp/send') {
        json(res, 429, { message: 'Throttled.' }, { 'x-amzn-ErrorType': 'ThrottledRequestException', 'retry-after': '300' });
        return true;
      }
      return false;
    };
    const event = await memberEvent('retry-aws', { phoneNumber: '+14155550199', pushDeviceTokens: ['device-t'] });
    const ids = [await queue(app, throttledTokenRule, event), await queue(app, smsRule, event), await queue(app, chatRule, event)];
    expect(await send(app)).toBe(3);
    expect(await Promise.all(ids.map(retryAt))).toEqual([600_000, 1_200_000, 300_000]);
  });

  it('counts a 2xx answer it cannot read as sent, once, with the oddity in error and no message id', async () => {
    special = (req, res) => {
      if (req.url.startsWith('/v1/projects/answers/')) {
        json(res, 200, {});
        return true;
      }
      if (req.url === '/v1/whatsapp/send') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{not json');
        return true;
      }
      if (req.url === '/' && awsCredential(req).startsWith('AKIAANSWERS0001')) {
        res.writeHead(200, { 'content-type': 'text/xml' });
        res.end('<PublishResponse xmlns="http://sns.amazonaws.com/doc/2010-03-31/"><PublishResult></PublishResult></PublishResponse>');
        return true;
      }
      return false;
    };
    const event = await memberEvent('unread', { phoneNumber: '+14155550198', pushDeviceTokens: ['device-u'] });
    const ids = [await queue(app, pushRule, event), await queue(app, smsRule, event), await queue(app, chatRule, event)];
    expect(await send(app)).toBe(3);
    // Past every retry time (other tests' retries go out too): none of these is sent again.
    await send(app, at(3_600_000));
    expect(provider.requests.filter((r) => r.body.includes('device-u'))).toHaveLength(1);
    expect(provider.requests.filter((r) => r.url === '/' && r.body.includes('14155550198'))).toHaveLength(1);
    const chatTo = (r: Captured) => JSON.parse(Buffer.from(JSON.parse(r.body).message, 'base64').toString('utf8')).to;
    expect(requestsTo('/v1/whatsapp/send').filter((r) => chatTo(r) === '+14155550198')).toHaveLength(1);
    const [push, sms, chat] = await Promise.all(ids.map((id) => logRow(app, id)));
    for (const log of [push, sms, chat])
      expect(log).toMatchObject({ notification_log_status: 'sent', attempt_count: 1, provider_message_id: null });
    expect(push.error).toBe('Push messages:send took the message (HTTP 200) but answered without its name.');
    expect(sms.error).toBe('SNS Publish took the message but answered without its id.');
    expect(chat.error).toMatch(/^SendWhatsAppMessage took the message \(HTTP 200\) but its answer could not be read: /);
  });
});
