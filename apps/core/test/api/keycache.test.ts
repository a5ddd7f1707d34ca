import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/knex.js';
import { type RunningApi, startApi } from '../../src/server.js';
import { Client, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

/**
 * API processes remember verified keys. A second API on the same database stands for another
 * process: it hears of changes made through the first only by the database's notification.
 */
let app: TestApp;
let second: RunningApi;
let secondDb: ReturnType<typeof createDb>;

beforeAll(async () => {
  app = await startTestApp();
  secondDb = createDb(app.config.databaseUrl!);
  second = await startApi(app.config, secondDb, pino({ level: 'silent' }));
});
afterAll(async () => {
  await second.close();
  await secondDb.destroy();
  await app.close();
});

const onSecond = (acct: Pick<TestAccount, 'apiKey' | 'apiSecret'>) =>
  new Client(`${second.url}/api/v1.0`).with({ 'x-api-key': acct.apiKey, 'x-api-secret': acct.apiSecret });

/** Polls until the status is `want`; the notice travels asynchronously, so allow it a moment. */
async function eventually(read: () => Promise<{ status: number }>, want: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const { status } = await read();
    if (status === want || Date.now() - started > 5_000) return status;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('remembered API keys', () => {
  it('stop working on another process once paused, and work again once live', async () => {
    const acct = await app.createAccount();
    const created = (await acct.api.post('/schema/apikey/record', { name: 'shared', status: 'live' })).body.data;
    const key = { apiKey: created.apiKey, apiSecret: created.apiSecret };
    const read = () => onSecond(key).get('/schema/streak/record');
    expect((await read()).status).toBe(200);

    expect((await acct.api.patch(`/schema/apikey/record/${created.id}`, { status: 'paused' })).status).toBe(200);
    expect(await eventually(read, 401)).toBe(401);
    expect((await acct.api.patch(`/schema/apikey/record/${created.id}`, { status: 'live' })).status).toBe(200);
    expect(await eventually(read, 200)).toBe(200);
  });

  it('stop working on another process once deleted, or once their account is erased', async () => {
    const acct = await app.createAccount();
    const created = (await acct.api.post('/schema/apikey/record', { name: 'doomed', status: 'live' })).body.data;
    const deleted = () => onSecond({ apiKey: created.apiKey, apiSecret: created.apiSecret }).get('/schema/streak/record');
    const erased = () => onSecond(acct).get('/schema/streak/record');
    expect((await deleted()).status).toBe(200);
    expect((await erased()).status).toBe(200);

    expect((await acct.api.delete(`/schema/apikey/record/${created.id}`)).status).toBe(204);
    expect(await eventually(deleted, 401)).toBe(401);
    expect((await app.platform.delete(`/platform/accounts/${acct.accountId}`)).status).toBe(204);
    expect(await eventually(erased, 401)).toBe(401);
  });

  it('never accept a wrong secret for a remembered key', async () => {
    const acct = await app.createAccount();
    expect((await onSecond(acct).get('/schema/streak/record')).status).toBe(200);
    const wrong = { apiKey: acct.apiKey, apiSecret: `${acct.apiSecret.slice(0, -1)}${acct.apiSecret.endsWith('a') ? 'b' : 'a'}` };
    expect((await onSecond(wrong).get('/schema/streak/record')).status).toBe(401);
    expect((await onSecond(acct).get('/schema/streak/record')).status).toBe(200);
  });

  it('stop end-user tokens they signed on another process once paused or deleted', async () => {
    const acct = await app.createAccount();
    const created = (await acct.api.post('/schema/apikey/record', { name: 'signer', status: 'live' })).body.data;
    const signer = new Client(`${second.url}/api/v1.0`).with({ 'x-api-key': created.apiKey, 'x-api-secret': created.apiSecret });
    const minted = (await signer.post('/enduser/token', { externalId: 'shopper-1' })).body.data;
    const read = () =>
      new Client(`${second.url}/api/v1.0`)
        .with({ 'x-enduser-access-token': minted.accessToken, 'x-account-id': acct.accountId })
        .get('/schema/account_user/me');
    expect((await read()).status).toBe(200);

    expect((await acct.api.patch(`/schema/apikey/record/${created.id}`, { status: 'paused' })).status).toBe(200);
    expect(await eventually(read, 401)).toBe(401);
    expect((await acct.api.patch(`/schema/apikey/record/${created.id}`, { status: 'live' })).status).toBe(200);
    expect(await eventually(read, 200)).toBe(200);
    expect((await acct.api.delete(`/schema/apikey/record/${created.id}`)).status).toBe(204);
    expect(await eventually(read, 401)).toBe(401);
  });
});
