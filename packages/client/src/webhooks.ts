import { createHmac, timingSafeEqual } from 'node:crypto';
import type { components } from './generated/schema.js';

/** The body of a loyalty webhook delivery (CONTRACT §10), as the core's OpenAPI document describes it. */
export type WebhookEnvelope = components['schemas']['WebhookDelivery'];
/** One event of a delivery: its payload's type follows its `eventCode`. */
export type WebhookEvent = components['schemas']['WebhookEvent'];

export class WebhookVerificationError extends Error {}

type Headers = Record<string, string | string[] | undefined> | { get(name: string): string | null };

function header(headers: Headers, name: string): string | undefined {
  if (typeof (headers as { get?: unknown }).get === 'function')
    return (headers as { get(n: string): string | null }).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value[0] : value;
}

function equal(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface VerifyOptions {
  /** The webhook's `webhookSecret`, exactly as the API returns it (`whsec_…`). */
  secret: string;
  /** The raw request body, byte for byte: re-serialised JSON does not verify. */
  body: string | Buffer;
  headers: Headers;
  /** How far `webhook-timestamp` may be from now, in seconds (default 300). */
  toleranceSeconds?: number;
  now?: () => Date;
}

/**
 * Verifies a delivery: `x-service-signature` (hex HMAC-SHA256 of the body keyed with the secret
 * string) and the Standard Webhooks `webhook-signature` over `{id}.{timestamp}.{body}` with the
 * timestamp inside the tolerance, both compared in constant time. Returns the parsed envelope;
 * throws WebhookVerificationError otherwise. Deduplicate on `webhook-id`: delivery is at least once.
 */
export function verifyWebhook(options: VerifyOptions): WebhookEnvelope {
  const body = typeof options.body === 'string' ? Buffer.from(options.body, 'utf8') : options.body;
  const id = header(options.headers, 'webhook-id');
  const timestamp = header(options.headers, 'webhook-timestamp');
  const standard = header(options.headers, 'webhook-signature');
  const service = header(options.headers, 'x-service-signature');
  if (!id || !timestamp || !standard || !service) throw new WebhookVerificationError('missing signature headers');
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('invalid webhook-timestamp');
  const now = Math.floor((options.now?.() ?? new Date()).getTime() / 1000);
  if (Math.abs(now - Number(timestamp)) > (options.toleranceSeconds ?? 300))
    throw new WebhookVerificationError('timestamp outside the tolerance');

  const expectedService = createHmac('sha256', options.secret).update(body).digest();
  if (!/^[0-9a-f]{64}$/i.test(service) || !equal(Buffer.from(service, 'hex'), expectedService)) {
    throw new WebhookVerificationError('x-service-signature does not match');
  }
  const key = Buffer.from(options.secret.replace(/^whsec_/, ''), 'base64');
  const expectedStandard = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest();
  // The header may carry several space-separated signatures (key rotation); any v1 match counts.
  const matches = standard.split(' ').some((part) => {
    const [version, signature] = part.split(',', 2);
    return version === 'v1' && !!signature && equal(Buffer.from(signature, 'base64'), expectedStandard);
  });
  if (!matches) throw new WebhookVerificationError('webhook-signature does not match');
  try {
    return JSON.parse(body.toString('utf8')) as WebhookEnvelope;
  } catch {
    throw new WebhookVerificationError('body is not JSON');
  }
}
