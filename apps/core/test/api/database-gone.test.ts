import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { Client, createTestDatabase, PLATFORM_TOKEN } from '../support/harness.js';
import { type ServiceProcess, startProcessWith, until } from '../support/processes.js';

/**
 * A database that refuses new sessions (gone, renamed away, out of connections) is an outage like
 * a server that is down: the service's process answers 503 with Retry-After, never 500, and serves
 * again once it is back, without a restart.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let api: ServiceProcess;
let admin: pg.Client;
let name = '';

beforeAll(async () => {
  database = await createTestDatabase();
  name = new URL(database.url).pathname.slice(1);
  api = await startProcessWith(
    {
      DATABASE_URL: database.url,
      LOYALTY_MASTER_KEY: randomBytes(32).toString('base64'),
      LOYALTY_PLATFORM_TOKEN: PLATFORM_TOKEN,
    },
    ['serve', '--no-workers'],
  );
  admin = new pg.Client({ connectionString: inject('adminUrl') });
  await admin.connect();
}, 60_000);

afterAll(async () => {
  await api?.kill();
  await admin?.query(`alter database ${name}_away rename to ${name}`).catch(() => undefined);
  await admin?.end();
  await database?.drop();
});

describe('a database that refuses new sessions', () => {
  it('answers 503 with Retry-After while it is gone, and serves again once it is back', async () => {
    const platform = new Client(api.url, { authorization: `Bearer ${PLATFORM_TOKEN}` });
    const made = (await platform.post('/platform/accounts', { organizationName: 'Gone', accountName: 'Gone' })).body.data;
    const key = new Client(api.url, { 'x-api-key': made.apiKey.apiKey, 'x-api-secret': made.apiKey.apiSecret });
    expect((await key.get('/schema/streak/record')).status).toBe(200);

    // Renamed away, as a database dropped or restored under another name: new sessions fail with 3D000.
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
    await admin.query(`alter database ${name} rename to ${name}_away`);
    const answers = [
      await key.get('/schema/streak/record'),
      await key.post('/enduser/token', { externalId: 'm-1' }),
      await new Client(api.url, { 'x-api-key': 'unknown', 'x-api-secret': 'unknown' }).get('/schema/streak/record'),
    ];
    for (const answer of answers) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(503);
      expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
    }

    await admin.query(`alter database ${name}_away rename to ${name}`);
    await until(async () => (await key.get('/schema/streak/record')).status === 200, 30_000, 'serving again');
  }, 60_000);

  it('answers 503, not 500, while a database of its name has none of its tables (recreated, not yet migrated)', async () => {
    const platform = new Client(api.url, { authorization: `Bearer ${PLATFORM_TOKEN}` });
    const made = (await platform.post('/platform/accounts', { organizationName: 'Empty', accountName: 'Empty' })).body.data;
    const key = new Client(api.url, { 'x-api-key': made.apiKey.apiKey, 'x-api-secret': made.apiKey.apiSecret });
    expect((await key.get('/schema/streak/record')).status).toBe(200);

    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
    await admin.query(`alter database ${name} rename to ${name}_away`);
    await admin.query(`create database ${name}`);
    try {
      const answers = [
        await key.get('/schema/streak/record'),
        await new Client(api.url, { 'x-api-key': 'unknown', 'x-api-secret': 'unknown' }).get('/schema/streak/record'),
        await platform.post('/platform/accounts', { organizationName: 'Nowhere', accountName: 'Nowhere' }),
      ];
      for (const answer of answers) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(503);
        expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
      }
    } finally {
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
      await admin.query(`drop database ${name}`);
      await admin.query(`alter database ${name}_away rename to ${name}`);
    }
    await until(async () => (await key.get('/schema/streak/record')).status === 200, 30_000, 'serving again');
  }, 60_000);
});
