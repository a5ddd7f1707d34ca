import { createHmac } from 'node:crypto';

/** `x-service-signature`: hex HMAC-SHA256 of the raw body, keyed with the secret string as returned (spec). */
export function serviceSignature(secret: string, body: string | Buffer): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Standard Webhooks `webhook-signature`: `v1,` + base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`,
 * keyed with the base64-decoded bytes after `whsec_`.
 */
export function standardSignature(secret: string, id: string, timestamp: number, body: string | Buffer): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.`).update(body).digest('base64')}`;
}

export function signedHeaders(secret: string, id: string, timestamp: number, body: string | Buffer): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-service-signature': serviceSignature(secret, body),
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': standardSignature(secret, id, timestamp, body),
  };
}
