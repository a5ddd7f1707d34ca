import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, type HeaderMap, type Reply, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

let app: TestApp;
let acct: TestAccount;
let other: TestAccount;

beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount();
  other = await app.createAccount();
});
afterAll(() => app.close());

/** Every error answers with the §2 envelope, and its requestId is the response's x-request-id. */
function expectError(res: Reply, status: number, code: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toEqual({
    error: { status, code, message: expect.any(String), details: expect.any(Array), requestId: expect.any(String) },
  });
  expect(res.body.error.requestId).toBe(res.headers.get('x-request-id'));
}

function expectOk(res: Reply, status = 200): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

interface Signer {
  accountId: string;
  apiKey: string;
  apiSecret: string;
}

/** Signs an end-user token exactly as CONTRACT §5 tells a merchant backend to. */
async function signToken(
  signer: Signer,
  options: {
    userData?: Record<string, unknown>;
    iat?: number;
    exp?: number;
    sub?: string;
    omit?: ('sub' | 'iat' | 'exp')[];
    header?: Record<string, unknown>;
    secret?: string;
  } = {},
): Promise<string> {
  const iat = options.iat ?? nowSeconds();
  const payload: Record<string, unknown> = {
    sub: options.sub ?? signer.accountId,
    userData: options.userData ?? { externalId: 'member-1' },
    iat,
    exp: options.exp ?? iat + 600,
  };
  for (const claim of options.omit ?? []) delete payload[claim];
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: signer.apiKey, ...options.header })
    .sign(new TextEncoder().encode(options.secret ?? signer.apiSecret));
}

/** An end-user client; `accountId: null` leaves out x-account-id. */
const asEndUser = (token: string, accountId: string | null = acct.accountId): Client => {
  const headers: HeaderMap = { 'x-enduser-access-token': token };
  if (accountId !== null) headers['x-account-id'] = accountId;
  return app.anon.with(headers);
};

const endUser = async (externalId: string, userData: Record<string, unknown> = {}) =>
  asEndUser(await signToken(acct, { userData: { externalId, ...userData } }));

const withKey = (apiKey: string, apiSecret: string) => app.anon.with({ 'x-api-key': apiKey, 'x-api-secret': apiSecret });

async function createKey(owner: TestAccount, name: string, status = 'live') {
  const res = await owner.api.post('/schema/apikey/record', { name, status });
  expectOk(res);
  return res.body.data as { id: string; name: string; apiKey: string; apiSecret: string; status: string };
}

async function createStreak(owner: TestAccount, body: Record<string, unknown> = {}): Promise<string> {
  const res = await owner.api.post('/schema/streak/record', { name: `Streak ${randomUUID()}`, eudTitle: 'Log daily', ...body });
  expectOk(res);
  return res.body.data.id as string;
}

describe('API keys', () => {
  it('returns apiSecret on create only, never on get or list', async () => {
    const created = await createKey(acct, 'reveal-once');
    expect(created.apiKey).toMatch(/^.{1,32}$/);
    expect(created.apiSecret).toMatch(/^.{32,64}$/);
    expect(created.status).toBe('live');

    const got = await acct.api.get(`/schema/apikey/record/${created.id}`);
    expectOk(got);
    expect(got.body.data.apiKey).toBe(created.apiKey);
    expect(got.body.data).not.toHaveProperty('apiSecret');

    const asked = await acct.api.get(`/schema/apikey/record/${created.id}`, { fields: ['apiSecret', 'apiKey'] });
    expectError(asked, 400, 'invalid_query');
    expect(JSON.stringify(asked.body)).not.toContain(created.apiSecret);

    const list = await acct.api.get('/schema/apikey/record', { limit: 1000 });
    expectOk(list);
    expect(list.body.data.map((k: { id: string }) => k.id)).toContain(created.id);
    expect(JSON.stringify(list.body)).not.toContain(created.apiSecret);
    for (const key of list.body.data) expect(key).not.toHaveProperty('apiSecret');

    // Filtering on the secret would be an oracle for it.
    const probe = await acct.api.get('/schema/apikey/record', {
      filters: { operator: 'and', conditions: [{ fieldSlug: 'apiSecret', operator: 'equals', fieldValue: created.apiSecret }] },
    });
    expectError(probe, 400, 'invalid_query');
  });

  it('stores the secret encrypted, not in clear', async () => {
    const created = await createKey(acct, 'at-rest');
    const row = await app.db('apikey').where({ id: created.id }).first('api_secret_enc', 'api_key');
    expect(row.api_key).toBe(created.apiKey);
    expect(row.api_secret_enc).toEqual(expect.any(String));
    expect(row.api_secret_enc).not.toContain(created.apiSecret);
    expect(row.api_secret_enc).not.toContain(Buffer.from(created.apiSecret).toString('base64'));
    // Sealing twice gives different ciphertexts (random IV), so equal secrets are not recognisable.
    const again = await createKey(acct, 'at-rest-2');
    const other = await app.db('apikey').where({ id: again.id }).first('api_secret_enc');
    expect(other.api_secret_enc).not.toBe(row.api_secret_enc);
  });

  it('authenticates a new key for its own account', async () => {
    const created = await createKey(acct, 'works');
    const res = await withKey(created.apiKey, created.apiSecret).get(`/schema/apikey/record/${created.id}`);
    expectOk(res);
    expect(res.body.data.id).toBe(created.id);
  });

  it('rejects a draft key until it is made live, and a paused key until it is live again', async () => {
    const created = await createKey(acct, 'lifecycle', 'draft');
    const client = withKey(created.apiKey, created.apiSecret);
    expectError(await client.get('/schema/streak/record'), 401, 'unauthenticated');

    expectOk(await acct.api.patch(`/schema/apikey/record/${created.id}`, { status: 'live' }));
    expectOk(await client.get('/schema/streak/record'));

    expectOk(await acct.api.patch(`/schema/apikey/record/${created.id}`, { status: 'paused' }));
    expectError(await client.get('/schema/streak/record'), 401, 'unauthenticated');

    expectOk(await acct.api.patch(`/schema/apikey/record/${created.id}`, { status: 'live' }));
    expectOk(await client.get('/schema/streak/record'));
  });

  it('rejects a deleted key at once', async () => {
    const created = await createKey(acct, 'to-delete');
    const client = withKey(created.apiKey, created.apiSecret);
    expectOk(await client.get('/schema/streak/record'));
    expectOk(await acct.api.delete(`/schema/apikey/record/${created.id}`), 204);
    expectError(await client.get('/schema/streak/record'), 401, 'unauthenticated');
  });

  it('answers 401 with the error envelope for wrong, missing and unknown credentials', async () => {
    const cases: HeaderMap[] = [
      { 'x-api-key': acct.apiKey, 'x-api-secret': `${acct.apiSecret.slice(0, -1)}${acct.apiSecret.endsWith('A') ? 'B' : 'A'}` },
      { 'x-api-key': acct.apiKey, 'x-api-secret': other.apiSecret },
      { 'x-api-key': acct.apiKey },
      { 'x-api-secret': acct.apiSecret },
      { 'x-api-key': 'lk_doesnotexist0000000000000000', 'x-api-secret': acct.apiSecret },
      { 'x-api-key': other.apiKey, 'x-api-secret': acct.apiSecret },
      { 'x-api-key': acct.apiKey, 'x-api-secret': '' },
      { 'x-api-key': 'x'.repeat(5000), 'x-api-secret': acct.apiSecret },
    ];
    for (const headers of cases) {
      const res = await app.anon.get('/schema/streak/record', undefined, headers);
      expectError(res, 401, 'unauthenticated');
      // The message names what is wrong: a header missing, or credentials that are not an account's.
      const missing = !headers['x-api-key'] || !headers['x-api-secret'];
      expect(res.body.error.message, JSON.stringify(headers).slice(0, 80)).toBe(
        missing ? 'Both x-api-key and x-api-secret are required.' : 'Invalid API credentials.',
      );
    }
  });

  it('refuses a duplicate key name with 409', async () => {
    await createKey(acct, 'same-name');
    const res = await acct.api.post('/schema/apikey/record', { name: 'same-name', status: 'live' });
    expectError(res, 409, 'conflict');
    expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'name' })]);
    // Names are unique per account only.
    expectOk(await other.api.post('/schema/apikey/record', { name: 'same-name', status: 'live' }));
  });
});

describe('end-user tokens', () => {
  it('creates the member on first sight, updates given names and email later, and serves /me', async () => {
    const externalId = `first-sight-${randomUUID()}`;
    const before = await app.db('account_user').where({ account_id: acct.accountId, external_id: externalId });
    expect(before).toHaveLength(0);

    const first = await endUser(externalId, { firstName: 'Ann' });
    const me = await first.get('/schema/account_user/me');
    expectOk(me);
    expect(me.body.data).toMatchObject({ externalId, firstName: 'Ann', lastName: null, email: null });
    const rows = await app.db('account_user').where({ account_id: acct.accountId, external_id: externalId });
    expect(rows).toHaveLength(1);
    expect(rows[0].id).toBe(me.body.data.id);

    const second = await endUser(externalId, { firstName: 'Anna', lastName: 'Lee', email: 'anna@example.com' });
    const updated = await second.get('/schema/account_user/me');
    expectOk(updated);
    expect(updated.body.data).toMatchObject({
      id: me.body.data.id,
      externalId,
      firstName: 'Anna',
      lastName: 'Lee',
      email: 'anna@example.com',
    });

    // Fields the token leaves out are kept, not erased.
    const bare = await endUser(externalId);
    const kept = await bare.get('/schema/account_user/me');
    expect(kept.body.data).toMatchObject({ id: me.body.data.id, firstName: 'Anna', lastName: 'Lee', email: 'anna@example.com' });
    expect(await app.db('account_user').where({ account_id: acct.accountId, external_id: externalId })).toHaveLength(1);

    // The same external id in another account is another member.
    const elsewhere = asEndUser(await signToken(other, { userData: { externalId } }), other.accountId);
    const theirs = await elsewhere.get('/schema/account_user/me');
    expectOk(theirs);
    expect(theirs.body.data.id).not.toBe(me.body.data.id);
  });

  it('creates one member when its first requests arrive together', async () => {
    const externalId = `together-${randomUUID()}`;
    const client = await endUser(externalId, { firstName: 'Tess' });
    const replies = await Promise.all(Array.from({ length: 8 }, () => client.get('/schema/account_user/me')));
    for (const res of replies) expectOk(res);
    expect(new Set(replies.map((r) => r.body.data.id)).size).toBe(1);
    expect(await app.db('account_user').where({ account_id: acct.accountId, external_id: externalId })).toHaveLength(1);
  });

  it('/me is for end users: 401 for guests, 403 for API keys; of writes, only their birthday (a PATCH of anything else is 400)', async () => {
    expectError(await app.anon.get('/schema/account_user/me'), 401, 'unauthenticated');
    expectError(await acct.api.get('/schema/account_user/me'), 403, 'forbidden');
    const client = await endUser('me-writer');
    expectError(await client.patch('/schema/account_user/me', { firstName: 'X' }), 400, 'invalid_input');
    expectError(await client.post('/schema/account_user/me', { firstName: 'X' }), 405, 'method_not_allowed');
    expectError(await client.delete('/schema/account_user/me'), 405, 'method_not_allowed');
  });

  it('accepts a token that expired within the 60 s clock skew, rejects one beyond it', async () => {
    const now = nowSeconds();
    const skewed = await signToken(acct, { iat: now - 600, exp: now - 30 });
    expectOk(await asEndUser(skewed).get('/schema/account_user/me'));
    const expired = await signToken(acct, { iat: now - 600, exp: now - 120 });
    expectError(await asEndUser(expired).get('/schema/account_user/me'), 401, 'unauthenticated');
  });

  it('refuses a token issued in the future beyond the 60 s clock skew, and accepts one within it', async () => {
    const now = nowSeconds();
    const tenYears = now + 10 * 365 * 86_400;
    const future = await signToken(acct, { iat: tenYears, exp: tenYears + 60 });
    expectError(await asEndUser(future).get('/schema/account_user/me'), 401, 'unauthenticated');
    const early = await signToken(acct, { iat: now + 120, exp: now + 600 });
    expectError(await asEndUser(early).get('/schema/account_user/me'), 401, 'unauthenticated');
    expectOk(await asEndUser(await signToken(acct, { iat: now + 30, exp: now + 600 })).get('/schema/account_user/me'));
  });

  it('accepts a lifetime of exactly 86400 s and rejects a longer one', async () => {
    const iat = nowSeconds();
    expectOk(await asEndUser(await signToken(acct, { iat, exp: iat + 86_400 })).get('/schema/account_user/me'));
    const tooLong = await signToken(acct, { iat, exp: iat + 86_401 });
    expectError(await asEndUser(tooLong).get('/schema/account_user/me'), 401, 'unauthenticated');
  });

  it('rejects every malformed or misdirected token with 401', async () => {
    const paused = await createKey(acct, 'paused-signer');
    const pausedSigner = { accountId: acct.accountId, apiKey: paused.apiKey, apiSecret: paused.apiSecret };
    expectOk(await asEndUser(await signToken(pausedSigner)).get('/schema/account_user/me'));
    expectOk(await acct.api.patch(`/schema/apikey/record/${paused.id}`, { status: 'paused' }));

    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const claims = { sub: acct.accountId, userData: { externalId: 'member-1' }, iat: nowSeconds(), exp: nowSeconds() + 600 };
    const unsigned = `${b64({ alg: 'none', typ: 'JWT', kid: acct.apiKey })}.${b64(claims)}.`;
    const valid = await signToken(acct);

    const cases: Record<string, { token: string; accountId?: string }> = {
      'wrong signature': { token: await signToken(acct, { secret: other.apiSecret }) },
      'tampered payload': {
        token: `${valid.split('.')[0]}.${b64({ ...claims, userData: { externalId: 'someone-else' } })}.${valid.split('.')[2]}`,
      },
      'unknown kid': { token: await signToken(acct, { header: { kid: 'lk_unknown00000000000000000000' } }) },
      'no kid': { token: await signToken(acct, { header: { kid: undefined } }) },
      "a paused key's kid": { token: await signToken(pausedSigner) },
      'kid of another account': { token: await signToken({ ...other, accountId: acct.accountId }) },
      'alg none': { token: unsigned },
      'alg HS512': { token: await signToken(acct, { header: { alg: 'HS512' } }) },
      garbage: { token: 'not-a-token' },
      empty: { token: '' },
      'sub of another account': { token: await signToken(acct, { sub: other.accountId }) },
      'x-account-id of another account': { token: valid, accountId: other.accountId },
      'x-account-id not a UUID': { token: valid, accountId: 'nope' },
      'no sub': { token: await signToken(acct, { omit: ['sub'] }) },
      'no iat': { token: await signToken(acct, { omit: ['iat'] }) },
      'no exp': { token: await signToken(acct, { omit: ['exp'] }) },
      'iat not a number': { token: await signToken(acct, { iat: 'yesterday' as unknown as number, exp: nowSeconds() + 60 }) },
      'no userData.externalId': { token: await signToken(acct, { userData: { firstName: 'Nobody' } }) },
      'invalid email': { token: await signToken(acct, { userData: { externalId: 'member-1', email: 'not-an-email' } }) },
      // What the database cannot keep as signed: a NUL, and a lone surrogate (which would make it another's id).
      'NUL in externalId': { token: await signToken(acct, { userData: { externalId: 'member\u00001' } }) },
      'lone surrogate in externalId': { token: await signToken(acct, { userData: { externalId: 'member-1\ud800' } }) },
      'lone surrogate in firstName': { token: await signToken(acct, { userData: { externalId: 'member-1', firstName: 'A\udfff' } }) },
      // Another spelling of the same signature bytes is not the signature.
      'padding after the signature': { token: `${valid}=` },
      'a character after the signature': { token: `${valid}!` },
      'a signature with its last bits set': {
        token: `${valid.slice(0, -1)}${'AEIMQUYcgkosw048'.includes(valid.at(-1)!) ? String.fromCharCode(valid.charCodeAt(valid.length - 1) + 1) : valid.at(-1)}`,
      },
    };
    for (const [name, { token, accountId }] of Object.entries(cases)) {
      const res = await asEndUser(token, accountId ?? acct.accountId).get('/schema/account_user/me');
      expect(res.status, name).toBe(401);
      expectError(res, 401, 'unauthenticated');
    }

    const missingAccount = await asEndUser(valid, null).get('/schema/account_user/me');
    expectError(missingAccount, 401, 'unauthenticated');
    expect(missingAccount.body.error.message).toBe('x-account-id is required with an end-user token.');
    const notAnId = await asEndUser(valid, 'nope').get('/schema/account_user/me');
    expect(notAnId.body.error.message).toBe('x-account-id must be an account id (a UUID).');
  });

  it('refuses API-key headers together with a token: 400 invalid_input', async () => {
    const token = await signToken(acct);
    const combinations: HeaderMap[] = [
      { 'x-api-key': acct.apiKey, 'x-api-secret': acct.apiSecret },
      { 'x-api-key': acct.apiKey },
      { 'x-api-secret': acct.apiSecret },
    ];
    for (const headers of combinations) {
      const res = await asEndUser(token).get('/schema/streak/record', undefined, headers);
      expectError(res, 400, 'invalid_input');
    }
  });

  it('POST /enduser/token mints a working token for the member', async () => {
    const externalId = `minted-${randomUUID()}`;
    const before = Date.now();
    const res = await acct.api.post('/enduser/token', { externalId, firstName: 'Mia', email: 'mia@example.com' });
    expectOk(res);
    const { accessToken, expiresAt, accountId, memberId } = res.body.data;
    expect(accountId).toBe(acct.accountId);
    const lifetime = Date.parse(expiresAt) - before;
    expect(lifetime).toBeGreaterThan(1790_000);
    expect(lifetime).toBeLessThanOrEqual(1802_000);

    const me = await asEndUser(accessToken).get('/schema/account_user/me');
    expectOk(me);
    expect(me.body.data).toMatchObject({ id: memberId, externalId, firstName: 'Mia', email: 'mia@example.com' });

    const day = await acct.api.post('/enduser/token', { externalId, expiresInSeconds: 86_400 });
    expectOk(day);
    expectOk(await asEndUser(day.body.data.accessToken).get('/schema/account_user/me'));

    expectError(await acct.api.post('/enduser/token', { externalId, expiresInSeconds: 86_401 }), 400, 'invalid_input');
    expectError(await acct.api.post('/enduser/token', {}), 400, 'invalid_input');
    expectError(await acct.api.post('/enduser/token?bogus=1', { externalId }), 400, 'invalid_query');
    expectError(await acct.api.post('/enduser/token?languageCode=xx', { externalId }), 400, 'invalid_query');
    expectOk(await acct.api.post('/enduser/token?languageCode=ja', { externalId }));
    const unknown = await acct.api.post('/enduser/token', { externalId, memberId, role: 'admin' });
    expectError(unknown, 400, 'invalid_input');
    expect(unknown.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['memberId', 'role']);
    expectError(await app.anon.post('/enduser/token', { externalId }), 401, 'unauthenticated');
    expectError(await asEndUser(accessToken).post('/enduser/token', { externalId }), 403, 'forbidden');
  });
});

describe('flows', () => {
  it('an end user on apikey or account_user records is 403', async () => {
    const client = await endUser('nosy');
    const member = (await client.get('/schema/account_user/me')).body.data.id as string;
    expectError(await client.get('/schema/apikey/record'), 403, 'forbidden');
    expectError(await client.post('/schema/apikey/record', { name: 'mine', status: 'live' }), 403, 'forbidden');
    expectError(await client.get('/schema/account_user/record'), 403, 'forbidden');
    expectError(await client.get(`/schema/account_user/record/${member}`), 403, 'forbidden');
    expectError(await client.patch(`/schema/account_user/record/${member}`, { firstName: 'Me' }), 403, 'forbidden');
    // End users only read definitions.
    expectError(await client.post('/schema/streak/record', { name: 'Mine' }), 403, 'forbidden');
  });

  it('a guest on an admin resource is 401', async () => {
    expectError(await app.anon.get('/schema/apikey/record'), 401, 'unauthenticated');
    expectError(await app.anon.get('/schema/account_user/record', undefined, { 'x-account-id': acct.accountId }), 401, 'unauthenticated');
    expectError(
      await app.anon.post('/schema/streak/record', { name: 'Guest' }, { 'x-account-id': acct.accountId }),
      401,
      'unauthenticated',
    );
    expectError(await app.anon.get('/schema/reward_log/record', undefined, { 'x-account-id': acct.accountId }), 401, 'unauthenticated');
  });

  it("an end user sees only its own streak_progress and reward_log; another member's is 404", async () => {
    const streakId = await createStreak(acct);
    const alice = await endUser(`alice-${randomUUID()}`);
    const bob = await endUser(`bob-${randomUUID()}`);
    const aliceId = (await alice.get('/schema/account_user/me')).body.data.id as string;
    const bobId = (await bob.get('/schema/account_user/me')).body.data.id as string;

    const progress = (owner: string) => ({
      account_id: acct.accountId,
      streak_id: streakId,
      owned_by_id: owner,
      unique_identifier: `${streakId}:${owner}`,
      streak_started_at: new Date(),
    });
    const [aliceProgress] = await app.db('streak_progress').insert(progress(aliceId)).returning('id');
    const [bobProgress] = await app.db('streak_progress').insert(progress(bobId)).returning('id');
    const rewardLog = (owner: string, record: string) => ({
      account_id: acct.accountId,
      owned_by_id: owner,
      linked_schema_slug: 'streak_progress',
      linked_schema_record_id: record,
    });
    const [aliceLog] = await app.db('reward_log').insert(rewardLog(aliceId, aliceProgress.id)).returning('id');
    const [bobLog] = await app.db('reward_log').insert(rewardLog(bobId, bobProgress.id)).returning('id');

    for (const [slug, mine, theirs] of [
      ['streak_progress', aliceProgress.id, bobProgress.id],
      ['reward_log', aliceLog.id, bobLog.id],
    ] as const) {
      const own = await alice.get(`/schema/${slug}/record/${mine}`);
      expectOk(own);
      expect(own.body.data.ownedById).toBe(aliceId);
      expectError(await alice.get(`/schema/${slug}/record/${theirs}`), 404, 'not_found');
      const list = await alice.get(`/schema/${slug}/record`);
      expectOk(list);
      expect(list.body.data.map((r: { id: string }) => r.id)).toEqual([mine]);
      // The API key sees both.
      const all = await acct.api.get(`/schema/${slug}/record`, {
        filters: {
          operator: 'or',
          conditions: [
            { fieldSlug: 'id', operator: 'equals', fieldValue: mine },
            { fieldSlug: 'id', operator: 'equals', fieldValue: theirs },
          ],
        },
      });
      expect(all.body.data).toHaveLength(2);
    }
  });

  describe('guests', () => {
    let streakId: string;
    let draftId: string;
    beforeAll(async () => {
      streakId = await createStreak(acct);
      draftId = await createStreak(acct, { status: 'draft' });
    });

    it('list needs x-account-id naming an account', async () => {
      expectError(await app.anon.get('/schema/streak/record'), 401, 'unauthenticated');
      expectError(await app.anon.get('/schema/streak/record', undefined, { 'x-account-id': randomUUID() }), 401, 'unauthenticated');
      expectError(await app.anon.get('/schema/streak/record', undefined, { 'x-account-id': 'not-a-uuid' }), 401, 'unauthenticated');
      const list = await app.anon.get('/schema/streak/record', { limit: 1000 }, { 'x-account-id': acct.accountId });
      expectOk(list);
      const ids = list.body.data.map((r: { id: string }) => r.id);
      expect(ids).toContain(streakId);
      expect(ids).not.toContain(draftId);
      // Public fields only.
      expect(list.body.data[0]).not.toHaveProperty('name');
      expect(list.body.data[0]).not.toHaveProperty('status');
    });

    it('get by id works without x-account-id; a mismatching or unknown one is 404', async () => {
      const got = await app.anon.get(`/schema/streak/record/${streakId}`);
      expectOk(got);
      expect(got.body.data.id).toBe(streakId);
      expect(got.body.data).not.toHaveProperty('name');
      expectOk(await app.anon.get(`/schema/streak/record/${streakId}`, undefined, { 'x-account-id': acct.accountId }));
      expectError(
        await app.anon.get(`/schema/streak/record/${streakId}`, undefined, { 'x-account-id': other.accountId }),
        404,
        'not_found',
      );
      expectError(await app.anon.get(`/schema/streak/record/${streakId}`, undefined, { 'x-account-id': randomUUID() }), 404, 'not_found');
      expectError(await app.anon.get(`/schema/streak/record/${draftId}`), 404, 'not_found');
    });

    it('a bad token on a guest-readable route is 401, never a fall-back to guest', async () => {
      const expired = await signToken(acct, { iat: nowSeconds() - 7200, exp: nowSeconds() - 3600 });
      expectError(await asEndUser(expired).get('/schema/streak/record'), 401, 'unauthenticated');
      expectError(await asEndUser('garbage').get(`/schema/streak/record/${streakId}`), 401, 'unauthenticated');
      const badKey = { 'x-api-key': acct.apiKey, 'x-api-secret': 'wrong', 'x-account-id': acct.accountId };
      expectError(await app.anon.get(`/schema/streak/record/${streakId}`, undefined, badKey), 401, 'unauthenticated');
    });
  });
});

describe('order of checks (CONTRACT §2)', () => {
  let streakId: string;
  beforeAll(async () => {
    streakId = await createStreak(acct);
  });

  it('unknown path 404 comes before 401', async () => {
    expectError(await app.anon.get('/schema/no_such_resource/record'), 404, 'not_found');
    expectError(await app.anon.get(`/schema/no_such_resource/record/${randomUUID()}`), 404, 'not_found');
    expectError(await app.anon.get('/no/such/route'), 404, 'not_found');
    expectError(await app.anon.post(`/schema/streak/record/${streakId}/action/no_such_action`), 404, 'not_found');
  });

  it('401 comes before 405', async () => {
    const path = `/schema/streak_log/record/${randomUUID()}`;
    expectError(await app.anon.patch(path, { activityValue: 1 }), 401, 'unauthenticated');
    expectError(await acct.api.patch(path, { activityValue: 1 }), 405, 'method_not_allowed');
    expectError(await app.anon.request('PUT', `/schema/streak/record/${streakId}`), 401, 'unauthenticated');
    expectError(await acct.api.request('PUT', `/schema/streak/record/${streakId}`), 405, 'method_not_allowed');
  });

  it('405 comes before 403', async () => {
    const client = await endUser('orderly');
    expectError(await client.patch(`/schema/streak_log/record/${randomUUID()}`, {}), 405, 'method_not_allowed');
    expectError(await client.delete(`/schema/streak_progress/record/${randomUUID()}`), 405, 'method_not_allowed');
    expectError(await client.request('PUT', '/schema/apikey/record'), 405, 'method_not_allowed');
  });

  it('403 comes before 400 invalid_query', async () => {
    const client = await endUser('orderly');
    expectError(await client.get('/schema/apikey/record', { bogus: 1 }), 403, 'forbidden');
    expectError(await client.get('/schema/apikey/record', { limit: 'many' }), 403, 'forbidden');
  });

  it('400 invalid_query comes before record 404', async () => {
    expectError(await acct.api.get(`/schema/streak/record/${randomUUID()}`, { bogus: 1 }), 400, 'invalid_query');
    expectError(await acct.api.get(`/schema/streak/record/${randomUUID()}`, { languageCode: 'xx' }), 400, 'invalid_query');
    expectError(await acct.api.get(`/schema/streak/record/${randomUUID()}`), 404, 'not_found');
  });

  it('record 404 comes before 415', async () => {
    const res = await acct.api.request('PATCH', `/schema/streak/record/${randomUUID()}`, {
      raw: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectError(res, 404, 'not_found');
  });

  it('415 comes before 400 body', async () => {
    const path = `/schema/streak/record/${streakId}`;
    expectError(
      await acct.api.request('PATCH', path, { raw: '{not json', headers: { 'content-type': 'text/plain' } }),
      415,
      'unsupported_media_type',
    );
    expectError(await acct.api.request('PATCH', path, { raw: Buffer.from('{not json') }), 415, 'unsupported_media_type');
    expectError(
      await acct.api.request('PATCH', path, { raw: '{not json', headers: { 'content-type': 'application/json; charset=utf-8' } }),
      400,
      'invalid_input',
    );
    expectError(await acct.api.patch(path, { noSuchField: 1 }), 400, 'invalid_input');
  });

  it('ids that are not UUIDs are 404', async () => {
    for (const id of ['123', 'not-a-uuid', `${randomUUID()}x`]) {
      expectError(await acct.api.get(`/schema/streak/record/${id}`), 404, 'not_found');
      expectError(await acct.api.patch(`/schema/streak/record/${id}`, { name: 'x' }), 404, 'not_found');
      expectError(await acct.api.delete(`/schema/streak/record/${id}`), 404, 'not_found');
      expectError(await app.anon.get(`/schema/streak/record/${id}`), 404, 'not_found');
    }
  });
});
