import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDns, type TestDns } from '../support/dns.js';
import { startTestApp, type TestAccount, type TestApp } from '../support/harness.js';
import { startReceiver } from '../support/receiver.js';

/** With the SES transport, custom-domain DKIM comes from SES CreateEmailIdentity (real SDK, local endpoint). */
let app: TestApp;
let acct: TestAccount;
let ses: Awaited<ReturnType<typeof startReceiver>>;
let dns: TestDns;
const TOKENS = ['abcdefghijklmnopqrstuvwxyz234567', 'bcdefghijklmnopqrstuvwxyz2345678', 'cdefghijklmnopqrstuvwxyz23456789'];

beforeAll(async () => {
  Object.assign(process.env, { AWS_ACCESS_KEY_ID: 'AKIATESTSESIDENTITY0', AWS_SECRET_ACCESS_KEY: 'test-secret', AWS_REGION: 'eu-west-1' });
  ses = await startReceiver((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.method === 'POST' && req.url === '/v2/email/identities') {
      res
        .writeHead(200)
        .end(JSON.stringify({ IdentityType: 'DOMAIN', VerifiedForSendingStatus: false, DkimAttributes: { Tokens: TOKENS } }));
    } else {
      res.writeHead(404).end(JSON.stringify({ message: 'unknown route' }));
    }
  });
  dns = await startTestDns();
  app = await startTestApp({ LOYALTY_EMAIL_TRANSPORT: 'ses', LOYALTY_SES_ENDPOINT: ses.url, LOYALTY_DNS_SERVERS: dns.server });
  acct = await app.createAccount();
});
afterAll(async () => {
  await app.close();
  await ses.close();
  await dns.close();
});

describe('service_email on SES', () => {
  it('publishes the DKIM CNAMEs SES answered and verifies them', async () => {
    const created = await acct.api.post('/schema/service_email/record', {
      name: 'Custom',
      useGamopandaDomain: false,
      domain: 'shop.example',
      mailFrom: 'mail',
      senderEmailAddress: 'hello@shop.example',
      replyToEmailAddress: 'help@shop.example',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const request = ses.received.find((r) => r.path === '/v2/email/identities')!;
    expect(JSON.parse(request.body)).toEqual({ EmailIdentity: 'shop.example' });
    expect(request.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIATESTSESIDENTITY0\//);
    const records = created.body.data.dnsRecords as { type: string; name: string; value: string }[];
    const cnames = records.filter((r) => r.type === 'CNAME');
    expect(cnames).toEqual(TOKENS.map((t) => ({ type: 'CNAME', name: `${t}._domainkey.shop.example`, value: `${t}.dkim.amazonses.com` })));
    const stored = await app.db('service_email').where({ id: created.body.data.id }).first();
    expect(stored.dkim_private_key_enc).toBeNull();

    const verification = records.find((r) => r.name.startsWith('_loyalty-verification.'))!;
    dns.zone.set(verification.name, { TXT: [[verification.value]] });
    for (const [i, t] of TOKENS.entries()) {
      // Publish two of three first: DKIM is verified only when every CNAME is there.
      if (i < 2) dns.zone.set(`${t}._domainkey.shop.example`, { CNAME: `${t}.dkim.amazonses.com` });
    }
    const partial = await acct.api.post(`/schema/service_email/record/${created.body.data.id}/action/verify_dns`);
    expect(partial.body.data).toMatchObject({ isDomainVerified: true, isDkimVerified: false, isVerified: false });
    dns.zone.set(`${TOKENS[2]}._domainkey.shop.example`, { CNAME: `${TOKENS[2]}.dkim.amazonses.com` });
    const complete = await acct.api.post(`/schema/service_email/record/${created.body.data.id}/action/verify_dns`);
    expect(complete.body.data).toMatchObject({
      isDomainVerified: true,
      isDkimVerified: true,
      isMailFromVerified: false,
      isVerified: false,
    });
  });

  it('answers 502 naming the provider when SES refuses, and stores nothing', async () => {
    ses.respond((_req, res) =>
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ __type: 'BadRequestException', message: 'Domain not allowed' })),
    );
    const refused = await acct.api.post('/schema/service_email/record', {
      name: 'Custom',
      useGamopandaDomain: false,
      domain: 'refused.example',
      mailFrom: 'mail',
      senderEmailAddress: 'hello@refused.example',
      replyToEmailAddress: 'help@refused.example',
    });
    expect(refused.status).toBe(502);
    expect(refused.body.error.code).toBe('provider_error');
    expect(refused.body.error.message).not.toContain('test-secret');
    expect(await app.db('service_email').where({ domain: 'refused.example' })).toHaveLength(0);
  });
});
