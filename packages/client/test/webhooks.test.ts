import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from '../src/webhooks.js';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const body = JSON.stringify({ id: 'log-1', accountId: 'acc', createdAt: '2026-11-21T00:00:00.000Z', events: [] });
const at = new Date('2026-11-21T12:00:00Z');
const timestamp = Math.floor(at.getTime() / 1000);

/** Signs as the contract describes, independently of the core's code. */
function headers(overrides: Record<string, string> = {}) {
  const key = Buffer.from(secret.slice(6), 'base64');
  return {
    'webhook-id': 'log-1',
    'webhook-timestamp': String(timestamp),
    'webhook-signature': `v1,${createHmac('sha256', key).update(`log-1.${timestamp}.${body}`).digest('base64')}`,
    'x-service-signature': createHmac('sha256', secret).update(body).digest('hex'),
    ...overrides,
  };
}

describe('verifyWebhook', () => {
  it('accepts a correctly signed delivery and returns the envelope', () => {
    expect(verifyWebhook({ secret, body, headers: headers(), now: () => at }).id).toBe('log-1');
    expect(verifyWebhook({ secret, body: Buffer.from(body), headers: new Headers(headers()), now: () => at }).id).toBe('log-1');
  });

  it('agrees with the official Standard Webhooks library', () => {
    const wh = new Webhook(secret.slice(6));
    const signature = wh.sign('log-1', at, body);
    expect(signature).toBe(headers()['webhook-signature']);
  });

  it.each([
    ['a tampered body', { body: body.replace('acc', 'acx') }],
    ['another secret', { secret: `whsec_${randomBytes(32).toString('base64')}` }],
    ['an old timestamp', { now: () => new Date(at.getTime() + 301_000) }],
    ['a future timestamp', { now: () => new Date(at.getTime() - 301_000) }],
    ['a wrong service signature', { headers: headers({ 'x-service-signature': '0'.repeat(64) }) }],
    ['a missing standard signature', { headers: { ...headers(), 'webhook-signature': '' } }],
    ['a v2 signature', { headers: headers({ 'webhook-signature': headers()['webhook-signature'].replace('v1,', 'v2,') }) }],
    ['a changed id', { headers: headers({ 'webhook-id': 'log-2' }) }],
  ])('refuses %s', (_name, change) => {
    expect(() => verifyWebhook({ secret, body, headers: headers(), now: () => at, ...change })).toThrow(WebhookVerificationError);
  });

  it('accepts any matching signature among several', () => {
    const h = headers();
    expect(() =>
      verifyWebhook({ secret, body, headers: { ...h, 'webhook-signature': `v1,AAAA ${h['webhook-signature']}` }, now: () => at }),
    ).not.toThrow();
  });
});
