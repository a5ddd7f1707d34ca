import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoyaltyClient } from '../src/index.js';

/** The client against the real core binary on a database of its own (DATABASE_URL's server). */
const CORE = fileURLToPath(new URL('../../../apps/core/', import.meta.url));
const PLATFORM_TOKEN = randomBytes(16).toString('hex');
let core: ChildProcess;
let baseUrl: string;
let databaseName: string;
let adminUrl: string | undefined;
let stopEmbedded: (() => Promise<void>) | undefined;

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(sql);
  await client.end();
}

beforeAll(async () => {
  adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const { mkdtempSync, chmodSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { startEmbeddedPostgres } = await import('../../../apps/core/src/db/embedded.js');
    const dir = mkdtempSync(join(tmpdir(), 'loyalty-client-pg-'));
    chmodSync(dir, 0o755);
    const embedded = await startEmbeddedPostgres(dir, 'admin');
    adminUrl = embedded.url;
    stopEmbedded = embedded.stop;
  }
  databaseName = `loyalty_client_${randomBytes(4).toString('hex')}`;
  await admin(`create database ${databaseName}`);
  const url = new URL(adminUrl);
  url.pathname = `/${databaseName}`;
  core = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve', '--no-workers'], {
    cwd: CORE,
    env: {
      ...process.env,
      DATABASE_URL: url.toString(),
      LOYALTY_MASTER_KEY: randomBytes(32).toString('base64'),
      LOYALTY_PLATFORM_TOKEN: PLATFORM_TOKEN,
      PORT: '0',
      LOG_LEVEL: 'silent',
      // No e-mail is sent here: files, so the start does not warn of SMTP without a server.
      LOYALTY_EMAIL_TRANSPORT: 'file',
      LOYALTY_DATA_DIR: join(tmpdir(), databaseName),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  baseUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    core.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    core.once('exit', (code) => reject(new Error(`core exited with ${code}`)));
  });
}, 60_000);

afterAll(async () => {
  core?.kill('SIGTERM');
  await new Promise((r) => (core?.exitCode !== null ? r(null) : core.once('exit', r)));
  await admin(`drop database if exists ${databaseName} with (force)`);
  await stopEmbedded?.();
});

describe('typed client', () => {
  it('creates, lists and reads records with typed requests and responses', async () => {
    const made = await fetch(`${baseUrl}/platform/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${PLATFORM_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ organizationName: 'Client Org', accountName: 'Client' }),
    });
    const { apiKey, account } = (await made.json()).data;
    const api = createLoyaltyClient(baseUrl, { apiKey: apiKey.apiKey, apiSecret: apiKey.apiSecret });

    const created = await api.POST('/schema/streak/record', { body: { name: 'Daily visit', completionTargetValue: 7 } });
    expect(created.response.status).toBe(200);
    const streak = created.data!.data;
    expect(streak.aggregationPeriod).toBe('daily');

    const listed = await api.GET('/schema/streak/record', {
      params: {
        query: {
          filters: JSON.stringify({ operator: 'and', conditions: [{ fieldSlug: 'id', operator: 'equals', fieldValue: streak.id }] }),
          fetchTotalCount: true,
        },
      },
    });
    expect(listed.data!.paging.total).toBe(1);

    const invalid = await api.POST('/schema/streak/record', { body: { name: '' } });
    expect(invalid.response.status).toBe(400);
    expect(invalid.error).toMatchObject({ error: { code: 'invalid_input', details: [{ field: 'name', code: 'too_short' }] } });

    const guest = createLoyaltyClient(baseUrl, { accountId: account.id });
    const publicList = await guest.GET('/schema/streak/record');
    expect(publicList.data!.data[0]).not.toHaveProperty('name');

    // An id with a lone surrogate (a JSON body can carry one) is sent as an id of nothing, not thrown on; an id with a pair keeps it.
    for (const id of ['\ud800', `${streak.id}\udc00`, 'a\ud83d\ude00b']) {
      const odd = await api.GET('/schema/streak/record/{id}', { params: { path: { id } } });
      expect([id, odd.response.status]).toEqual([id, 404]);
    }
    expect((await api.GET('/schema/streak/record/{id}', { params: { path: { id: 'a\ud83d\ude00b' } } })).response.url).toMatch(
      /a%F0%9F%98%80b$/,
    );
  });

  it('reads leaderboard standings with typed parameters and response', async () => {
    const made = await fetch(`${baseUrl}/platform/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${PLATFORM_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ organizationName: 'Client Org', accountName: 'Leaderboards' }),
    });
    const { apiKey } = (await made.json()).data;
    const api = createLoyaltyClient(baseUrl, { apiKey: apiKey.apiKey, apiSecret: apiKey.apiSecret });
    const streak = (await api.POST('/schema/streak/record', { body: { name: 'Daily visit' } })).data!.data;
    const board = (
      await api.POST('/schema/leaderboard/record', {
        body: { name: 'Top visitors', linkedSchemaSlug: 'streak', linkedSchemaRecordId: streak.id },
      })
    ).data!.data;
    const ownedBy = { externalId: 'client-1', firstName: 'Marie', lastName: 'Dupont' };
    const log = await api.POST('/schema/streak_log/record', {
      body: { streakId: streak.id, ownedBy, activityId: 'visit', activityAt: new Date().toISOString(), uniqueIdentifier: 'client-1' },
    });
    expect(log.response.status).toBe(200);

    const standings = await api.GET('/schema/leaderboard/record/{id}/standings', {
      params: { path: { id: board.id }, query: { limit: 5 } },
    });
    expect(standings.data!.data).toMatchObject({ leaderboardId: board.id, periodKey: null, caller: null, rankedCount: 1 });
    expect(standings.data!.data.entries).toEqual([
      { rank: 1, value: 1, displayName: 'Marie D.', isCaller: false, ownedById: log.data!.data.ownedById, externalId: 'client-1' },
    ]);
  });

  it('grants streak freezes with a typed body and reads them on the progress', async () => {
    const made = await fetch(`${baseUrl}/platform/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${PLATFORM_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ organizationName: 'Client Org', accountName: 'Freezes' }),
    });
    const { apiKey } = (await made.json()).data;
    const api = createLoyaltyClient(baseUrl, { apiKey: apiKey.apiKey, apiSecret: apiKey.apiSecret });
    const streak = (await api.POST('/schema/streak/record', { body: { name: 'Daily visit', maxFreezes: 2, freezeEarnEveryPeriods: 7 } }))
      .data!.data;
    expect(streak).toMatchObject({ maxFreezes: 2, freezeEarnEveryPeriods: 7 });
    const ownedBy = { externalId: 'freezer' };
    await api.POST('/schema/streak_log/record', {
      body: { streakId: streak.id, ownedBy, activityId: 'visit', activityAt: new Date().toISOString(), uniqueIdentifier: 'freezer-1' },
    });
    const progress = (await api.GET('/schema/streak_progress/record')).data!.data[0]!;
    expect(progress).toMatchObject({ freezesAvailable: 0, freezesUsed: 0, frozenPeriodKeys: [] });

    const granted = await api.POST('/schema/streak_progress/record/{id}/action/grant_freezes', {
      params: { path: { id: progress.id } },
      body: { count: 5 },
    });
    expect(granted.response.status).toBe(200);
    expect(granted.data!.data.freezesAvailable).toBe(2);
  });
});
