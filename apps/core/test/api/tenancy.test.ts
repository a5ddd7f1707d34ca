import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, type Reply, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';
import { cliArgs } from '../support/processes.js';

const run = promisify(execFile);
const CORE_DIR = fileURLToPath(new URL('../..', import.meta.url));

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

function expectError(res: Reply, status: number, code: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toEqual({
    error: { status, code, message: expect.any(String), details: expect.any(Array), requestId: expect.any(String) },
  });
}

function expectOk(res: Reply, status = 200): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
}

const withKey = (apiKey: string, apiSecret: string): Client => app.anon.with({ 'x-api-key': apiKey, 'x-api-secret': apiSecret });

interface Provisioned {
  organization: { id: string; name: string };
  account: { id: string; organizationId: string; name: string; timezone: string; defaultLanguageCode: string; externalRef: string | null };
  apiKey: { id: string; name: string; apiKey: string; apiSecret: string; status: string };
}

async function provision(body: Record<string, unknown>): Promise<Provisioned> {
  const res = await app.platform.post('/platform/accounts', body);
  expectOk(res);
  return res.body.data as Provisioned;
}

describe('platform API', () => {
  it('refuses a wrong or missing bearer token with 401', async () => {
    const body = { organizationName: 'O', accountName: 'A' };
    expectError(await app.anon.post('/platform/accounts', body), 401, 'unauthenticated');
    expectError(await app.anon.post('/platform/accounts', body, { authorization: 'Bearer wrong-token' }), 401, 'unauthenticated');
    expectError(await app.anon.post('/platform/accounts', body, { authorization: 'Bearer ' }), 401, 'unauthenticated');
    expectError(
      await app.anon.post('/platform/accounts', body, { authorization: `Basic ${app.config.platformToken!}` }),
      401,
      'unauthenticated',
    );
    expectError(await app.anon.post('/platform/accounts', body, { authorization: app.config.platformToken! }), 401, 'unauthenticated');
    // The scheme's name is case-insensitive (RFC 9110 §11.1).
    expectOk(await app.anon.post('/platform/accounts', body, { authorization: `bearer ${app.config.platformToken!}` }));
    // An API key is not a platform credential.
    const acct = await app.createAccount();
    expectError(await acct.api.post('/platform/accounts', body), 401, 'unauthenticated');
    expectError(await app.anon.delete(`/platform/accounts/${acct.accountId}`), 401, 'unauthenticated');
    expectError(await acct.api.delete(`/platform/accounts/${acct.accountId}`), 401, 'unauthenticated');
    expectOk(await acct.api.get('/schema/streak/record'));
  });

  it('creates an organization, an account and a live key that works', async () => {
    const made = await provision({
      organizationName: 'Acme',
      accountName: 'Acme EU',
      timezone: 'Europe/Berlin',
      defaultLanguageCode: 'de',
    });
    expect(made.organization).toMatchObject({ id: expect.any(String), name: 'Acme' });
    expect(made.account).toMatchObject({
      id: expect.any(String),
      organizationId: made.organization.id,
      name: 'Acme EU',
      timezone: 'Europe/Berlin',
      defaultLanguageCode: 'de',
    });
    expect(made.apiKey).toMatchObject({
      id: expect.any(String),
      name: expect.any(String),
      apiKey: expect.any(String),
      apiSecret: expect.any(String),
      status: 'live',
    });

    const client = withKey(made.apiKey.apiKey, made.apiKey.apiSecret);
    const keys = await client.get('/schema/apikey/record');
    expectOk(keys);
    expect(keys.body.data).toEqual([expect.objectContaining({ id: made.apiKey.id, apiKey: made.apiKey.apiKey, status: 'live' })]);
    expect(keys.body.data[0]).not.toHaveProperty('apiSecret');

    const defaults = await provision({ organizationName: 'Plain', accountName: 'Plain' });
    expect(defaults.account).toMatchObject({ timezone: 'UTC', defaultLanguageCode: 'en' });
  });

  it('is idempotent on externalRef: the same organization and account with a new key; both keys work', async () => {
    const externalRef = `shop-${randomUUID()}.myshopify.com`;
    const first = await provision({ organizationName: 'Shop', accountName: 'Shop', externalRef });
    const second = await provision({ organizationName: 'Shop renamed', accountName: 'Shop renamed', externalRef });
    expect(second.organization.id).toBe(first.organization.id);
    expect(second.account.id).toBe(first.account.id);
    expect(second.account.externalRef).toBe(externalRef);
    expect(second.apiKey.apiKey).not.toBe(first.apiKey.apiKey);
    expect(second.apiKey.apiSecret).not.toBe(first.apiKey.apiSecret);
    for (const key of [first.apiKey, second.apiKey]) {
      const res = await withKey(key.apiKey, key.apiSecret).get('/schema/apikey/record');
      expectOk(res);
      expect(res.body.data.map((k: { id: string }) => k.id).sort()).toEqual([first.apiKey.id, second.apiKey.id].sort());
    }
    // Another reference is another account.
    const third = await provision({ organizationName: 'Shop', accountName: 'Shop', externalRef: `other-${externalRef}` });
    expect(third.account.id).not.toBe(first.account.id);
  });

  it('yields one account for concurrent creates with one new externalRef', async () => {
    const externalRef = `race-${randomUUID()}`;
    const made = await Promise.all(
      Array.from({ length: 6 }, () => provision({ organizationName: 'Race', accountName: 'Race', externalRef })),
    );
    expect(new Set(made.map((m) => m.account.id)).size).toBe(1);
    expect(new Set(made.map((m) => m.organization.id)).size).toBe(1);
    expect(new Set(made.map((m) => m.apiKey.apiKey)).size).toBe(6);
    expect(await app.db('account').where({ external_ref: externalRef })).toHaveLength(1);
    expect(await app.db('apikey').where({ account_id: made[0]!.account.id })).toHaveLength(6);
  });

  it('answers invalid bodies with 400 and details naming the fields', async () => {
    const valid = { organizationName: 'O', accountName: 'A' };
    const fieldsOf = (res: Reply) => res.body.error.details.map((d: { field?: string }) => d.field);
    const cases: [Record<string, unknown>, string[]][] = [
      [{ ...valid, shopDomain: 'x', plan: 'gold' }, ['shopDomain', 'plan']],
      [{ ...valid, timezone: 'Mars/Olympus_Mons' }, ['timezone']],
      [{ ...valid, timezone: 42 }, ['timezone']],
      // Node's ICU still takes it; PostgreSQL's zone data, which the reports' SQL uses, retired it.
      [{ ...valid, timezone: 'US/Pacific-New' }, ['timezone']],
      [{ ...valid, defaultLanguageCode: 'xx' }, ['defaultLanguageCode']],
      [{ accountName: 'A' }, ['organizationName']],
      [{ organizationName: 'O' }, ['accountName']],
      [{}, ['organizationName', 'accountName']],
      [{ ...valid, organizationName: '' }, ['organizationName']],
      [{ ...valid, accountName: 'a'.repeat(257) }, ['accountName']],
      [{ ...valid, externalRef: '' }, ['externalRef']],
    ];
    for (const [body, fields] of cases) {
      const res = await app.platform.post('/platform/accounts', body);
      expectError(res, 400, 'invalid_input');
      expect(fieldsOf(res).sort(), JSON.stringify(body)).toEqual([...fields].sort());
    }
    expectError(
      await app.platform.request('POST', '/platform/accounts', { raw: '{oops', headers: { 'content-type': 'application/json' } }),
      400,
      'invalid_input',
    );
    expectError(
      await app.platform.request('POST', '/platform/accounts', { raw: 'a=b', headers: { 'content-type': 'text/plain' } }),
      415,
      'unsupported_media_type',
    );
    expectError(await app.platform.post('/platform/accounts', ['not', 'an', 'object']), 400, 'invalid_input');
    expectError(await app.platform.get('/platform/accounts'), 405, 'method_not_allowed');
  });

  it('refuses an unknown query parameter or languageCode with 400 invalid_query, before the record and the body, changing nothing', async () => {
    const accounts = async () => Number((await app.db('account').count({ n: '*' }))[0]!.n);
    const before = await accounts();
    const valid = { organizationName: 'O', accountName: 'Q' };
    for (const query of ['foo=1', 'languageCode=xx', 'languageCode=de&languageCode=fr'])
      expectError(await app.platform.post(`/platform/accounts?${query}`, valid), 400, 'invalid_query');
    expect(await accounts()).toBe(before);
    const made = (await app.platform.post('/platform/accounts?languageCode=de', valid)).body.data as Provisioned;
    expectError(await app.platform.delete(`/platform/accounts/${made.account.id}?foo=1`), 400, 'invalid_query');
    expectError(await app.platform.delete(`/platform/accounts/${randomUUID()}?foo=1`), 400, 'invalid_query');
    expect(await accounts()).toBe(before + 1);
    expect((await app.platform.delete(`/platform/accounts/${made.account.id}?languageCode=de`)).status).toBe(204);
  });

  it('answers requests that race the deletion of their account as unauthenticated, never as a bad body', async () => {
    const doomed = await app.createAccount();
    const streak = (await doomed.api.post('/schema/streak/record', { name: 'S', status: 'live' })).body.data;
    const logs = Array.from({ length: 40 }, (_, i) =>
      doomed.api.post('/schema/streak_log/record', {
        streakId: streak.id,
        ownedBy: { externalId: `racer-${i}` },
        activityId: 'visit',
        activityAt: new Date().toISOString(),
        uniqueIdentifier: `race-${i}`,
      }),
    );
    const deleted = new Promise((resolve) => setTimeout(resolve, 15)).then(() =>
      app.platform.delete(`/platform/accounts/${doomed.accountId}`),
    );
    const answers = await Promise.all(logs);
    expect((await deleted).status).toBe(204);
    const refused = answers.filter((r) => r.status !== 200);
    expect(refused.filter((r) => r.status !== 401 || r.body.error.code !== 'unauthenticated').map((r) => [r.status, r.body])).toEqual([]);
  });

  it('DELETE erases the account and all of its records; its keys stop working', async () => {
    const doomed = await app.createAccount();
    const keeper = await app.createAccount();
    for (const owner of [doomed, keeper]) {
      const streak = await owner.api.post('/schema/streak/record', { name: 'S', eudTitle: 'S' });
      expectOk(streak);
      const reward = await owner.api.post('/schema/reward/record', {
        name: 'R',
        description: 'R',
        discountType: 'percentage',
        discountValue: 10,
        rewardExpiryType: 'no_expiry',
      });
      expectOk(reward);
      expectOk(
        await owner.api.post('/schema/coupon/record', { rewardId: reward.body.data.id, couponCode: `C-${randomUUID()}`, status: 'live' }),
      );
      const member = await owner.api.post('/schema/account_user/record', { externalId: 'm-1' });
      expectOk(member);
      expectOk(await owner.api.post('/schema/apikey/record', { name: 'extra', status: 'live' }));
      const [progress] = await app
        .db('streak_progress')
        .insert({
          account_id: owner.accountId,
          streak_id: streak.body.data.id,
          owned_by_id: member.body.data.id,
          unique_identifier: `${streak.body.data.id}:${member.body.data.id}`,
          streak_started_at: new Date(),
        })
        .returning('id');
      await app.db('reward_log').insert({
        account_id: owner.accountId,
        reward_id: reward.body.data.id,
        owned_by_id: member.body.data.id,
        linked_schema_slug: 'streak_progress',
        linked_schema_record_id: progress.id,
      });
    }
    const tables = ['apikey', 'account_user', 'streak', 'reward', 'coupon', 'streak_progress', 'reward_log'];
    const count = async (table: string, accountId: string) =>
      Number((await app.db(table).where({ account_id: accountId }).count({ n: '*' }))[0]!.n);
    for (const table of tables) expect(await count(table, doomed.accountId), table).toBeGreaterThan(0);

    expectOk(await app.platform.delete(`/platform/accounts/${doomed.accountId}`), 204);

    expect(await app.db('account').where({ id: doomed.accountId })).toHaveLength(0);
    expect(await app.db('organization').where({ id: doomed.organizationId })).toHaveLength(0);
    for (const table of tables) {
      expect(await count(table, doomed.accountId), table).toBe(0);
      expect(await count(table, keeper.accountId), table).toBeGreaterThan(0);
    }
    expectError(await doomed.api.get('/schema/streak/record'), 401, 'unauthenticated');
    expectOk(await keeper.api.get('/schema/streak/record'));
    expectError(await app.platform.delete(`/platform/accounts/${doomed.accountId}`), 404, 'not_found');
  });

  it('DELETE keeps an organization that still has accounts', async () => {
    const externalRef = `multi-${randomUUID()}`;
    const first = await provision({ organizationName: 'Multi', accountName: 'One', externalRef });
    // A second account of the same organization exists only in the database: the API makes one per call.
    const [secondAccount] = await app.db('account').insert({ organization_id: first.organization.id, name: 'Two' }).returning('id');
    expectOk(await app.platform.delete(`/platform/accounts/${first.account.id}`), 204);
    expect(await app.db('organization').where({ id: first.organization.id })).toHaveLength(1);
    expect(await app.db('account').where({ id: secondAccount.id })).toHaveLength(1);
    // The reference is free again.
    const again = await provision({ organizationName: 'Multi', accountName: 'One', externalRef });
    expect(again.account.id).not.toBe(first.account.id);
  });

  it('DELETE of an unknown or malformed id is 404', async () => {
    expectError(await app.platform.delete(`/platform/accounts/${randomUUID()}`), 404, 'not_found');
    expectError(await app.platform.delete('/platform/accounts/not-a-uuid'), 404, 'not_found');
    expectError(await app.platform.delete('/platform/accounts/123'), 404, 'not_found');
  });
});

describe('cross-account isolation', () => {
  let a: TestAccount;
  let b: TestAccount;
  const records: Record<string, { id: string; patch: Record<string, unknown> }> = {};

  beforeAll(async () => {
    a = await app.createAccount();
    b = await app.createAccount();
    const create = async (slug: string, body: Record<string, unknown>, patch: Record<string, unknown>) => {
      const res = await a.api.post(`/schema/${slug}/record`, body);
      expectOk(res);
      records[slug] = { id: res.body.data.id as string, patch };
    };
    await create('streak', { name: 'A streak', eudTitle: 'A' }, { name: 'Hijacked' });
    await create(
      'reward',
      { name: 'A reward', description: 'A', discountType: 'fixed_amount', discountValue: 5, rewardExpiryType: 'no_expiry' },
      { name: 'Hijacked' },
    );
    await create('coupon', { rewardId: records.reward!.id, couponCode: 'A-ONLY-1', status: 'live' }, { couponCode: 'HIJACKED' });
    await create('account_user', { externalId: 'a-member' }, { firstName: 'Hijacked' });
    await create('apikey', { name: 'A key', status: 'live' }, { status: 'paused' });
  });

  it('a record of account A is 404 to account B on get, patch and delete, and stays intact', async () => {
    for (const [slug, { id, patch }] of Object.entries(records)) {
      expectError(await b.api.get(`/schema/${slug}/record/${id}`), 404, 'not_found');
      expectError(await b.api.patch(`/schema/${slug}/record/${id}`, patch), 404, 'not_found');
      expectError(await b.api.delete(`/schema/${slug}/record/${id}`), 404, 'not_found');
      const still = await a.api.get(`/schema/${slug}/record/${id}`);
      expect(still.status, slug).toBe(200);
      for (const [field, value] of Object.entries(patch)) expect(still.body.data[field], slug).not.toBe(value);
    }
  });

  it("never lists A's records to B, not even when filtered by id", async () => {
    for (const [slug, { id }] of Object.entries(records)) {
      const all = await b.api.get(`/schema/${slug}/record`, { limit: 1000, fetchTotalCount: true });
      expectOk(all);
      expect(
        all.body.data.map((r: { id: string }) => r.id),
        slug,
      ).not.toContain(id);
      const byId = await b.api.get(`/schema/${slug}/record`, {
        filters: { operator: 'and', conditions: [{ fieldSlug: 'id', operator: 'equals', fieldValue: id }] },
        fetchTotalCount: true,
      });
      expectOk(byId);
      expect(byId.body.data, slug).toEqual([]);
      expect(byId.body.paging.total, slug).toBe(0);
      const mine = await a.api.get(`/schema/${slug}/record`, {
        filters: { operator: 'and', conditions: [{ fieldSlug: 'id', operator: 'equals', fieldValue: id }] },
      });
      expect(
        mine.body.data.map((r: { id: string }) => r.id),
        slug,
      ).toEqual([id]);
    }
  });

  it("B cannot reference A's records, and unique values are per account", async () => {
    const coupon = await b.api.post('/schema/coupon/record', { rewardId: records.reward!.id, couponCode: 'B-1', status: 'live' });
    expectError(coupon, 400, 'invalid_input');
    expect(coupon.body.error.details).toEqual([expect.objectContaining({ field: 'rewardId' })]);
    expectOk(await b.api.post('/schema/account_user/record', { externalId: 'a-member' }));
    const reward = await b.api.post('/schema/reward/record', {
      name: 'B reward',
      description: 'B',
      discountType: 'fixed_amount',
      discountValue: 5,
      rewardExpiryType: 'no_expiry',
    });
    expectOk(await b.api.post('/schema/coupon/record', { rewardId: reward.body.data.id, couponCode: 'A-ONLY-1', status: 'live' }));
  });
});

describe('CLI', () => {
  /** The CLI as an operator runs it against the app's database: its own process, only what it needs in its environment. */
  const cliOptions = () => ({
    cwd: CORE_DIR,
    timeout: 60_000,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: app.config.databaseUrl,
      LOYALTY_MASTER_KEY: app.config.masterKey!.toString('base64'),
    },
  });

  it('account create --json prints credentials that work against the running app', async () => {
    const { stdout } = await run(
      process.execPath,
      [
        ...cliArgs(),
        'account',
        'create',
        '--organization',
        'CLI Org',
        '--account',
        'CLI Account',
        '--timezone',
        'America/New_York',
        '--json',
      ],
      cliOptions(),
    );
    // --json is for scripts: stdout is exactly one JSON line.
    const lines = stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const out = JSON.parse(lines[0]!) as Record<string, string>;
    expect(Object.keys(out).sort()).toEqual(['accountId', 'apiKey', 'apiSecret', 'organizationId']);

    const account = await app.db('account').where({ id: out.accountId }).first();
    expect(account).toMatchObject({ organization_id: out.organizationId, name: 'CLI Account', timezone: 'America/New_York' });
    const res = await withKey(out.apiKey!, out.apiSecret!).get('/schema/apikey/record');
    expectOk(res);
    expect(res.body.data).toEqual([expect.objectContaining({ apiKey: out.apiKey, status: 'live' })]);
    expectOk(await withKey(out.apiKey!, out.apiSecret!).post('/schema/streak/record', { name: 'From CLI' }));
  });

  it('account create refuses a time zone the database does not know as a usage error (exit 2), creating nothing', async () => {
    const before = await app.db('account').count({ n: '*' });
    const refused = await run(
      process.execPath,
      [...cliArgs(), 'account', 'create', '--organization', 'CLI Org', '--account', 'Nowhere', '--timezone', 'Mars/Olympus_Mons'],
      cliOptions(),
    ).then(
      () => undefined,
      (err: { code: number; stderr: string }) => err,
    );
    expect(refused?.code).toBe(2);
    expect(refused?.stderr.trim()).toBe('--timezone: Expected an IANA time zone that PostgreSQL’s zone data has.');
    expect(await app.db('account').count({ n: '*' })).toEqual(before);
  });
});
