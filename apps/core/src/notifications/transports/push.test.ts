import { generateKeyPairSync } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResolver } from '../../webhooks/addresses.js';
import { redact, SendFailure } from './errors.js';
import { PushTransport, type ServiceAccount } from './push.js';

// A token endpoint that takes the connection and never answers, as a hung provider does.
const held: ServerResponse[] = [];
const server = createServer((_req, res) => {
  held.push(res);
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of held) res.destroy();
  await new Promise<void>((ok) => server.close(() => ok()));
});

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const account = (): ServiceAccount => ({
  project_id: 'p',
  private_key_id: 'k',
  private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  client_email: 'push@p.example.com',
  token_uri: `${url}/token`,
});

describe('push transport', () => {
  it('gives up on a token endpoint that never answers, as a failure to retry, and closes the request', async () => {
    const push = new PushTransport(url, { allowPrivate: true, resolver: createResolver([]) }, { timeoutMs: 300 });
    const started = Date.now();
    const failure = await push
      .send('hung', account(), ['device'], { title: 't', body: 'b', imageUrl: null, data: null })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SendFailure);
    expect((failure as SendFailure).permanent).toBe(false);
    // Stored as it reads: no word of it taken for a credential by the redaction (it once ate "Could").
    expect(redact((failure as SendFailure).message, [])).toBe((failure as SendFailure).message);
    // Well short of the 30-s default, and the library's request is aborted, not left open.
    expect(Date.now() - started).toBeLessThan(10_000);
    await expect.poll(() => held.every((res) => res.socket === null || res.socket.destroyed), { timeout: 5_000 }).toBe(true);
  });

  it('refuses, for good, to ask a token_uri that is not a public address for a token, unless private addresses are allowed', async () => {
    const push = new PushTransport(url, { allowPrivate: false, resolver: createResolver([]) }, { timeoutMs: 300 });
    const asked = held.length;
    const failure = await push
      .send('private', account(), ['device'], { title: 't', body: 'b', imageUrl: null, data: null })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(SendFailure);
    expect(failure).toMatchObject({ permanent: true, message: expect.stringContaining('127.0.0.1, which is not a public address') });
    expect(held.length).toBe(asked);
  });
});
