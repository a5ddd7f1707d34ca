import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintEndUserToken } from '../app/core/enduser-token.server';
import type { ShopAccount } from '../app/storage/shops.server';

// A local stand-in for the core's POST /enduser/token, counting what it mints.
let core: Server;
let coreUrl = '';
const asked: string[] = [];
let lifetimeMs = 30 * 60_000;
let down = false;
beforeAll(async () => {
  core = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      if (down || req.url !== '/api/v1.0/enduser/token') return res.writeHead(500).end();
      asked.push(`${String(req.headers['x-api-key'])}:${(JSON.parse(body) as { externalId: string }).externalId}`);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ data: { accessToken: `token-${asked.length}`, expiresAt: new Date(Date.now() + lifetimeMs).toISOString() } }),
      );
    });
  });
  await new Promise<void>((resolve) => core.listen(0, '127.0.0.1', resolve));
  coreUrl = `http://127.0.0.1:${(core.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => core.close(() => resolve())));

const account = (apiKeyId: string): ShopAccount => ({
  shop: 'token-shop.myshopify.com',
  organizationId: 'o',
  accountId: 'a',
  apiKeyId,
  apiKey: `lk_${apiKeyId}`,
  apiSecret: 's',
  currencyCode: 'EUR',
  installedAt: new Date(),
});
const token = async (apiKeyId: string, customer: string) => {
  const minted = await mintEndUserToken(coreUrl, account(apiKeyId), `gid://shopify/Customer/${customer}`);
  return minted instanceof Response ? minted.status : minted.accessToken;
};

describe('end-user tokens for storefront surfaces', () => {
  it('hand a customer’s token out again while it has ten minutes left, per customer and shop key', async () => {
    expect(await token('k1', '1')).toBe('token-1');
    expect(await token('k1', '1')).toBe('token-1');
    expect(await token('k1', '2')).toBe('token-2');
    // A rotated key mints anew: its tokens are the ones the core accepts.
    expect(await token('k2', '1')).toBe('token-3');
    expect(asked).toEqual(['lk_k1:gid://shopify/Customer/1', 'lk_k1:gid://shopify/Customer/2', 'lk_k2:gid://shopify/Customer/1']);
  });

  it('mint anew once the kept token has ten minutes or less, and keep nothing when the core cannot mint', async () => {
    lifetimeMs = 9 * 60_000;
    expect(await token('k3', '1')).toBe('token-4');
    expect(await token('k3', '1')).toBe('token-5');
    down = true;
    expect(await token('k4', '1')).toBe(503);
    down = false;
    lifetimeMs = 30 * 60_000;
    expect(await token('k4', '1')).toBe('token-6');
  });
});
