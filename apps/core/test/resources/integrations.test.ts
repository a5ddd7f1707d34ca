import { createPrivateKey, createPublicKey, generateKeyPairSync, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/auth/crypto.js';
import { startTestDns, type TestDns } from '../support/dns.js';
import { type Client, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

let dns: TestDns;
let app: TestApp;
let box: SecretBox;
let acct: TestAccount;
let other: TestAccount;
let member: Client;

const pem = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }) as string;
const KEY_1 = pem();
const KEY_2 = pem();
const serviceAccount = (over: Record<string, unknown> = {}) => ({
  type: 'service_account',
  project_id: 'demo-project',
  private_key_id: 'kid-1',
  private_key: KEY_1,
  client_email: 'push@demo-project.iam.example.com',
  client_id: '1234567890',
  token_uri: 'https://oauth2.example.com/token',
  ...over,
});

const path = (slug: string, id?: string) => `/schema/${slug}/record${id ? `/${id}` : ''}`;

const BODIES: Record<string, () => Record<string, unknown>> = {
  service_email: () => ({ name: 'Mail', replyToEmailAddress: 'help@shop.example' }),
  push_cloud_messaging: () => ({ name: 'Push', serviceAccountJSON: serviceAccount() }),
  cloud_sms: () => ({
    name: 'SMS',
    accessKeyId: 'AKIAEXAMPLE123456',
    secretAccessKey: 'sms-secret-value-0123456789',
    region: 'us-east-1',
    senderId: 'Shop',
  }),
  cloud_chat: () => ({
    name: 'Chat',
    accessKeyId: 'AKIAEXAMPLE123456',
    secretAccessKey: 'chat-secret-value-0123456789',
    region: 'eu-west-1',
    messagingBusinessAccountId: 'waba-1',
    messagingPhoneNumberId: 'phone-number-id-1',
  }),
};
const CUSTOM = { useGamopandaDomain: false, domain: 'Shop.Example.com', mailFrom: 'mail', senderEmailAddress: 'hello@shop.example.com' };

async function create(slug: string, over: Record<string, unknown> = {}, account = acct): Promise<Record<string, any>> {
  const res = await account.api.post(path(slug), { ...BODIES[slug]!(), ...over });
  expect(res.status, `${slug}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body.data;
}

/** The error details of a 400 as `field:code` pairs. */
function details(res: { status: number; body: any }): string[] {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.code).toBe('invalid_input');
  return res.body.error.details.map((d: { field: string; code: string }) => `${d.field}:${d.code}`);
}

beforeAll(async () => {
  dns = await startTestDns();
  dns.zone.set('metadata.internal.test', { A: ['10.0.0.5'] });
  app = await startTestApp({ LOYALTY_DNS_SERVERS: dns.server });
  box = new SecretBox(app.config.masterKey!);
  acct = await app.createAccount();
  other = await app.createAccount();
  const token = await acct.api.post('/enduser/token', { externalId: 'member-1' });
  member = app.anon.with({ 'x-enduser-access-token': token.body.data.accessToken, 'x-account-id': acct.accountId });
});
afterAll(async () => {
  await app?.close();
  await dns?.close();
});

describe('every integration', () => {
  const slugs = Object.keys(BODIES);

  it.each(slugs)('%s: create, get, list, update, delete', async (slug) => {
    const record = await create(slug, { description: 'Main' });
    expect(record).toMatchObject({ name: BODIES[slug]!().name, description: 'Main', status: 'draft' });
    const got = await acct.api.get(path(slug, record.id));
    expect(got.status).toBe(200);
    const list = await acct.api.get(path(slug), {
      filters: { operator: 'and', conditions: [{ fieldSlug: 'id', operator: 'equals', fieldValue: record.id }] },
    });
    expect(list.body.data).toEqual([got.body.data]);
    const patched = await acct.api.patch(path(slug, record.id), { name: 'Renamed', status: 'live', description: null });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data).toMatchObject({ name: 'Renamed', status: 'live', description: null });
    expect((await acct.api.delete(path(slug, record.id))).status).toBe(204);
    expect((await acct.api.get(path(slug, record.id))).status).toBe(404);
  });

  it.each(slugs)('%s: 404 for another account, 403 for an end user, 401 for a guest', async (slug) => {
    const record = await create(slug);
    expect((await other.api.get(path(slug, record.id))).status).toBe(404);
    expect((await other.api.patch(path(slug, record.id), { name: 'x' })).status).toBe(404);
    expect((await other.api.delete(path(slug, record.id))).status).toBe(404);
    expect((await other.api.get(path(slug))).body.data).toEqual([]);
    expect((await member.get(path(slug))).status).toBe(403);
    expect((await member.get(path(slug, record.id))).status).toBe(403);
    expect((await member.post(path(slug), BODIES[slug]!())).status).toBe(403);
    expect((await member.patch(path(slug, record.id), { name: 'x' })).status).toBe(403);
    expect((await member.delete(path(slug, record.id))).status).toBe(403);
    expect((await app.anon.get(path(slug))).status).toBe(401);
    expect((await acct.api.get(path(slug, record.id))).status).toBe(200);
  });

  it.each(slugs)('%s: name, description, status and unknown fields', async (slug) => {
    const body = BODIES[slug]!();
    expect(details(await acct.api.post(path(slug), { ...body, name: undefined }))).toEqual(['name:required']);
    expect(details(await acct.api.post(path(slug), { ...body, name: 'n'.repeat(257) }))).toEqual(['name:too_long']);
    expect(details(await acct.api.post(path(slug), { ...body, description: 'd'.repeat(1025) }))).toEqual(['description:too_long']);
    expect(details(await acct.api.post(path(slug), { ...body, status: 'on' }))).toEqual(['status:invalid_enum']);
    expect(details(await acct.api.post(path(slug), { ...body, status: null }))).toEqual(['status:not_nullable']);
    expect(details(await acct.api.post(path(slug), { ...body, apiToken: 'x' }))).toEqual(['apiToken:unknown_field']);
  });
});

describe('service_email', () => {
  it('uses the shared domain by default, with nothing to publish', async () => {
    const rec = await create('service_email');
    expect(rec).toEqual({
      id: rec.id,
      name: 'Mail',
      description: null,
      useGamopandaDomain: true,
      replyToEmailAddress: 'help@shop.example',
      status: 'draft',
      domain: null,
      mailFrom: null,
      senderEmailAddress: null,
      isVerified: false,
      isDomainVerified: false,
      isDkimVerified: false,
      isMailFromVerified: false,
      dnsRecords: [],
      createdAt: rec.createdAt,
      updatedAt: rec.updatedAt,
    });
  });

  it('keeps a custom domain given beside the shared one in lower case, as a custom domain is stored', async () => {
    const rec = await create('service_email', { domain: 'Shop.Example.COM', mailFrom: 'MAIL' });
    expect(rec).toMatchObject({ useGamopandaDomain: true, domain: 'shop.example.com', mailFrom: 'mail' });
  });

  it.each([
    [{ replyToEmailAddress: undefined }, 'replyToEmailAddress:required'],
    [{ replyToEmailAddress: 'not-an-address' }, 'replyToEmailAddress:invalid_format'],
    [{ useGamopandaDomain: 'yes' }, 'useGamopandaDomain:invalid_type'],
    [{ useGamopandaDomain: null }, 'useGamopandaDomain:not_nullable'],
    [{ isVerified: true }, 'isVerified:read_only'],
    [{ isDomainVerified: true }, 'isDomainVerified:read_only'],
    [{ isDkimVerified: true }, 'isDkimVerified:read_only'],
    [{ isMailFromVerified: true }, 'isMailFromVerified:read_only'],
    [{ dnsRecords: [] }, 'dnsRecords:read_only'],
    [{ senderEmailAddress: 'nope' }, 'senderEmailAddress:invalid_format'],
  ])('refuses %j', async (over, expected) => {
    expect(details(await acct.api.post(path('service_email'), { ...BODIES.service_email!(), ...over }))).toEqual([expected]);
  });

  it('requires domain, mailFrom and senderEmailAddress for a custom domain, the sender at that domain', async () => {
    const body = { ...BODIES.service_email!(), useGamopandaDomain: false };
    expect(details(await acct.api.post(path('service_email'), body))).toEqual([
      'domain:required',
      'mailFrom:required',
      'senderEmailAddress:required',
    ]);
    expect(
      details(await acct.api.post(path('service_email'), { ...body, ...CUSTOM, senderEmailAddress: 'hello@elsewhere.example' })),
    ).toEqual(['senderEmailAddress:domain_mismatch']);
    expect(
      details(await acct.api.post(path('service_email'), { ...body, ...CUSTOM, senderEmailAddress: 'hello@news.shop.example.com' })),
    ).toEqual(['senderEmailAddress:domain_mismatch']);
    expect(details(await acct.api.post(path('service_email'), { ...body, ...CUSTOM, domain: 'not a domain' }))).toEqual([
      'domain:invalid_format',
    ]);
    expect(details(await acct.api.post(path('service_email'), { ...body, ...CUSTOM, domain: '-bad.example.com' }))).toEqual([
      'domain:invalid_format',
    ]);
    expect(details(await acct.api.post(path('service_email'), { ...body, ...CUSTOM, mailFrom: 'mail.shop.example.com' }))).toEqual([
      'mailFrom:invalid',
    ]);
    expect(details(await acct.api.post(path('service_email'), { ...body, ...CUSTOM, mailFrom: 'bounce_s' }))).toEqual([
      'mailFrom:invalid_format',
    ]);
    expect(
      details(
        await acct.api.post(path('service_email'), {
          ...body,
          ...CUSTOM,
          domain: `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}`,
        }),
      ),
    ).toContain('domain:too_long');
  });

  it('publishes verification, DKIM, MAIL FROM MX and SPF records and seals the DKIM key', async () => {
    const rec = await create('service_email', CUSTOM);
    expect(rec).toMatchObject({
      useGamopandaDomain: false,
      domain: 'shop.example.com',
      mailFrom: 'mail',
      senderEmailAddress: 'hello@shop.example.com',
      isVerified: false,
    });
    const [verification, dkim, mx, spf] = rec.dnsRecords;
    expect(rec.dnsRecords).toHaveLength(4);
    expect(verification).toMatchObject({ type: 'TXT', name: '_loyalty-verification.shop.example.com' });
    expect(verification.value).toMatch(/^[0-9a-f]{32}$/);
    expect(dkim).toMatchObject({ type: 'TXT' });
    expect(dkim.name).toMatch(/^[a-z0-9]+\._domainkey\.shop\.example\.com$/);
    expect(dkim.value).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]+=*$/);
    expect(mx).toEqual({ type: 'MX', name: 'mail.shop.example.com', value: expect.any(String), priority: 10 });
    expect(spf).toMatchObject({ type: 'TXT', name: 'mail.shop.example.com' });
    expect(spf.value).toMatch(/^v=spf1 /);

    const raw = await app.db('service_email').where({ id: rec.id }).first();
    expect(raw.dkim_selector).toBe(dkim.name.split('.')[0]);
    expect(raw.dkim_private_key_enc).not.toContain('PRIVATE KEY');
    const privateKey = createPrivateKey(box.open(raw.dkim_private_key_enc));
    const publishedKey = dkim.value.split('p=')[1];
    expect(createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64')).toBe(publishedKey);

    const another = await create('service_email', CUSTOM);
    expect(another.dnsRecords[0].value).not.toBe(verification.value);
    expect(another.dnsRecords[1].value).not.toBe(dkim.value);
  });

  it('keeps domain and mailFrom as created; other fields follow the custom-domain rules', async () => {
    const rec = await create('service_email', CUSTOM);
    const id = rec.id;
    expect(details(await acct.api.patch(path('service_email', id), { domain: 'other.example.com' }))).toEqual(['domain:not_editable']);
    expect(details(await acct.api.patch(path('service_email', id), { mailFrom: 'bounce' }))).toEqual(['mailFrom:not_editable']);
    expect(details(await acct.api.patch(path('service_email', id), { dnsRecords: [] }))).toEqual(['dnsRecords:read_only']);
    expect(details(await acct.api.patch(path('service_email', id), { senderEmailAddress: 'a@other.example' }))).toEqual([
      'senderEmailAddress:domain_mismatch',
    ]);
    expect(details(await acct.api.patch(path('service_email', id), { senderEmailAddress: null }))).toEqual(['senderEmailAddress:required']);
    const ok = await acct.api.patch(path('service_email', id), {
      senderEmailAddress: 'news@SHOP.example.com',
      replyToEmailAddress: 'care@shop.example.com',
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({
      senderEmailAddress: 'news@SHOP.example.com',
      domain: 'shop.example.com',
      dnsRecords: rec.dnsRecords,
    });
    const shared = await acct.api.patch(path('service_email', id), { useGamopandaDomain: true });
    expect(shared.body.data).toMatchObject({ useGamopandaDomain: true, domain: 'shop.example.com' });
    const back = await acct.api.patch(path('service_email', id), { useGamopandaDomain: false });
    expect(back.body.data).toMatchObject({ useGamopandaDomain: false, dnsRecords: rec.dnsRecords });
  });

  it('cannot switch a shared-domain record to a custom domain it never had', async () => {
    const rec = await create('service_email');
    expect(
      details(await acct.api.patch(path('service_email', rec.id), { useGamopandaDomain: false, senderEmailAddress: 'a@b.example' })),
    ).toEqual(['useGamopandaDomain:not_editable']);
  });

  it('verify_dns checks each published record', async () => {
    const rec = await create('service_email', { ...CUSTOM, domain: 'verify.example.com', senderEmailAddress: 'hello@verify.example.com' });
    const verifyPath = `${path('service_email', rec.id)}/action/verify_dns`;
    const [verification, dkim, mx, spf] = rec.dnsRecords;

    const none = await acct.api.post(verifyPath);
    expect(none.status, JSON.stringify(none.body)).toBe(200);
    expect(none.body.data).toMatchObject({
      id: rec.id,
      isVerified: false,
      isDomainVerified: false,
      isDkimVerified: false,
      isMailFromVerified: false,
    });

    dns.zone.set(verification.name, { TXT: [['unrelated'], [verification.value]] });
    // Published as the 255-octet chunks a DNS host splits long TXT values into.
    dns.zone.set(dkim.name, { TXT: [[dkim.value.slice(0, 255), dkim.value.slice(255)]] });
    dns.zone.set(mx.name, { MX: [{ exchange: mx.value, priority: 10 }] });
    const partial = await acct.api.post(verifyPath);
    expect(partial.body.data).toMatchObject({ isVerified: false, isDomainVerified: true, isDkimVerified: true, isMailFromVerified: false });

    dns.zone.set(mx.name, { MX: [{ exchange: mx.value, priority: 10 }], TXT: [[spf.value]] });
    const full = await acct.api.post(verifyPath);
    expect(full.body.data).toMatchObject({ isVerified: true, isDomainVerified: true, isDkimVerified: true, isMailFromVerified: true });
    expect((await acct.api.get(path('service_email', rec.id))).body.data.isVerified).toBe(true);

    const again = await acct.api.post(verifyPath);
    expect(again.status).toBe(409);
  });

  it('verify_dns is 409 on the shared domain, 404 across accounts, 403 for end users', async () => {
    const shared = await create('service_email');
    expect((await acct.api.post(`${path('service_email', shared.id)}/action/verify_dns`)).status).toBe(409);
    const custom = await create('service_email', CUSTOM);
    expect((await other.api.post(`${path('service_email', custom.id)}/action/verify_dns`)).status).toBe(404);
    expect((await member.post(`${path('service_email', custom.id)}/action/verify_dns`)).status).toBe(403);
  });
});

describe('push_cloud_messaging', () => {
  it('returns the service account on create only, extracts its ids and seals it', async () => {
    const rec = await create('push_cloud_messaging');
    expect(rec).toMatchObject({
      serviceAccountJSON: serviceAccount(),
      projectId: 'demo-project',
      clientEmail: 'push@demo-project.iam.example.com',
      privateKeyId: 'kid-1',
    });
    const got = (await acct.api.get(path('push_cloud_messaging', rec.id))).body.data;
    expect(got).not.toHaveProperty('serviceAccountJSON');
    expect(got).toMatchObject({ projectId: 'demo-project', clientEmail: 'push@demo-project.iam.example.com', privateKeyId: 'kid-1' });
    const listed = (await acct.api.get(path('push_cloud_messaging'))).body.data;
    expect(listed.every((r: object) => !('serviceAccountJSON' in r))).toBe(true);
    const narrowed = await acct.api.get(path('push_cloud_messaging', rec.id), { fields: ['serviceAccountJSON'] });
    expect(narrowed.status).toBe(400);
    expect(narrowed.body.error.code).toBe('invalid_query');

    const raw = await app.db('push_cloud_messaging').where({ id: rec.id }).first();
    const stored = JSON.stringify(raw);
    expect(stored).not.toContain('PRIVATE KEY');
    expect(stored).not.toContain(KEY_1.split('\n')[1]);
    expect(JSON.parse(box.open(raw.service_account_json_enc))).toEqual(serviceAccount());
  });

  it('re-extracts the ids when the service account is replaced', async () => {
    const rec = await create('push_cloud_messaging');
    const patched = await acct.api.patch(path('push_cloud_messaging', rec.id), {
      serviceAccountJSON: serviceAccount({
        project_id: 'next-project',
        private_key_id: 'kid-2',
        private_key: KEY_2,
        client_email: 'push@next.example.com',
      }),
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data).not.toHaveProperty('serviceAccountJSON');
    expect(patched.body.data).toMatchObject({ projectId: 'next-project', privateKeyId: 'kid-2', clientEmail: 'push@next.example.com' });
    const raw = await app.db('push_cloud_messaging').where({ id: rec.id }).first();
    expect(JSON.parse(box.open(raw.service_account_json_enc)).private_key).toBe(KEY_2);
    expect(details(await acct.api.patch(path('push_cloud_messaging', rec.id), { serviceAccountJSON: null }))).toEqual([
      'serviceAccountJSON:required',
    ]);
  });

  it.each([
    [{ serviceAccountJSON: undefined }, ['serviceAccountJSON:required']],
    [{ serviceAccountJSON: 'json' }, ['serviceAccountJSON:invalid_type']],
    [{ serviceAccountJSON: serviceAccount({ type: 'user' }) }, ['serviceAccountJSON.type:invalid_enum']],
    [{ serviceAccountJSON: serviceAccount({ project_id: undefined }) }, ['serviceAccountJSON.project_id:invalid_type']],
    [{ serviceAccountJSON: serviceAccount({ private_key_id: '' }) }, ['serviceAccountJSON.private_key_id:too_short']],
    [{ serviceAccountJSON: serviceAccount({ private_key: 'not a key' }) }, ['serviceAccountJSON.private_key:invalid']],
    [{ serviceAccountJSON: serviceAccount({ client_email: 'nobody' }) }, ['serviceAccountJSON.client_email:invalid_format']],
    [{ serviceAccountJSON: serviceAccount({ client_id: 7 }) }, ['serviceAccountJSON.client_id:invalid_type']],
    [{ serviceAccountJSON: serviceAccount({ token_uri: 'file:///etc/passwd' }) }, ['serviceAccountJSON.token_uri:invalid_format']],
    // An address the service would post the account's assertion to: public only, as a webhook's (CONTRACT §10).
    [
      { serviceAccountJSON: serviceAccount({ token_uri: 'http://127.0.0.1:4733/token' }) },
      ['serviceAccountJSON.token_uri:private_address'],
    ],
    [
      { serviceAccountJSON: serviceAccount({ token_uri: 'http://169.254.169.254/latest' }) },
      ['serviceAccountJSON.token_uri:private_address'],
    ],
    [
      { serviceAccountJSON: serviceAccount({ token_uri: 'https://metadata.internal.test/token' }) },
      ['serviceAccountJSON.token_uri:private_address'],
    ],
    [{ projectId: 'mine' }, ['projectId:read_only']],
    [{ clientEmail: 'a@b.example' }, ['clientEmail:read_only']],
    [{ privateKeyId: 'k' }, ['privateKeyId:read_only']],
  ])('refuses %j', async (over, expected) => {
    expect(details(await acct.api.post(path('push_cloud_messaging'), { ...BODIES.push_cloud_messaging!(), ...over }))).toEqual(expected);
  });
});

describe.each(['cloud_sms', 'cloud_chat'])('%s', (slug) => {
  it('returns secretAccessKey on create only and stores it sealed', async () => {
    const body = BODIES[slug]!();
    const rec = await create(slug);
    expect(rec).toMatchObject({ ...body, status: 'draft' });
    const got = (await acct.api.get(path(slug, rec.id))).body.data;
    expect(got).not.toHaveProperty('secretAccessKey');
    expect(got).toMatchObject({ accessKeyId: body.accessKeyId, region: body.region });
    expect((await acct.api.get(path(slug))).body.data.every((r: object) => !('secretAccessKey' in r))).toBe(true);

    const raw = await app.db(slug).where({ id: rec.id }).first();
    expect(JSON.stringify(raw)).not.toContain(body.secretAccessKey);
    expect(box.open(raw.secret_access_key_enc)).toBe(body.secretAccessKey);

    const rotated = await acct.api.patch(path(slug, rec.id), { secretAccessKey: 'rotated-secret-value-987654321' });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data).not.toHaveProperty('secretAccessKey');
    const rawAfter = await app.db(slug).where({ id: rec.id }).first();
    expect(JSON.stringify(rawAfter)).not.toContain('rotated-secret-value-987654321');
    expect(box.open(rawAfter.secret_access_key_enc)).toBe('rotated-secret-value-987654321');
  });

  const specific: [Record<string, unknown>, string][] =
    slug === 'cloud_sms'
      ? [
          [{ senderId: undefined }, 'senderId:required'],
          [{ senderId: 'TwelveChars1' }, 'senderId:invalid_format'],
          [{ senderId: 'Shop Name' }, 'senderId:invalid_format'],
          [{ senderId: '12' }, 'senderId:invalid_format'],
        ]
      : [
          [{ messagingBusinessAccountId: undefined }, 'messagingBusinessAccountId:required'],
          [{ messagingPhoneNumberId: '' }, 'messagingPhoneNumberId:too_short'],
          [{ messagingPhoneNumberId: 'p'.repeat(257) }, 'messagingPhoneNumberId:too_long'],
        ];

  it.each([
    [{ accessKeyId: undefined }, 'accessKeyId:required'],
    [{ accessKeyId: 'AKIA EXAMPLE' }, 'accessKeyId:invalid_format'],
    [{ accessKeyId: 'A'.repeat(129) }, 'accessKeyId:too_long'],
    [{ secretAccessKey: undefined }, 'secretAccessKey:required'],
    [{ secretAccessKey: '' }, 'secretAccessKey:too_short'],
    [{ secretAccessKey: 's'.repeat(257) }, 'secretAccessKey:too_long'],
    [{ region: undefined }, 'region:required'],
    [{ region: 'Mars' }, 'region:invalid_format'],
    ...specific,
  ])('refuses %j', async (over, expected) => {
    expect(details(await acct.api.post(path(slug), { ...BODIES[slug]!(), ...over }))).toEqual([expected]);
  });

  it('accepts numeric and alphanumeric sender ids and other regions', async () => {
    if (slug === 'cloud_sms') {
      await create(slug, { senderId: '+14155550100' });
      await create(slug, { senderId: 'SHOP2026' });
    }
    await create(slug, { region: 'ap-southeast-2' });
    await create(slug, { region: 'us-gov-west-1' });
  });

  it('is 404 for an unknown id', async () => {
    expect((await acct.api.get(path(slug, randomUUID()))).status).toBe(404);
  });
});
