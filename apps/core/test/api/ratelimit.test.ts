import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, type Reply, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

const API_RATE = 5;
const ENDUSER_RATE = 3;
const GUEST_RATE = 4;
const LIMITS = {
  LOYALTY_RATE_LIMIT_PER_SECOND: String(API_RATE),
  LOYALTY_ENDUSER_RATE_LIMIT_PER_SECOND: String(ENDUSER_RATE),
  LOYALTY_GUEST_RATE_LIMIT_PER_SECOND: String(GUEST_RATE),
};

/** Every describe gets an app of its own, so that each starts with full buckets. */
function useApp(): () => TestApp {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(LIMITS);
  });
  afterAll(() => app.close());
  return () => app;
}

function expectLimitHeaders(res: Reply, rate: number): number {
  expect(res.headers.get('x-ratelimit-limit'), `${res.status} ${JSON.stringify(res.body)}`).toBe(String(rate));
  const remaining = res.headers.get('x-ratelimit-remaining');
  expect(remaining).toMatch(/^\d+$/);
  return Number(remaining);
}

function expectRateLimited(res: Reply, rate: number): void {
  expect(res.status, JSON.stringify(res.body)).toBe(429);
  expect(res.body).toEqual({
    error: { status: 429, code: 'rate_limited', message: expect.any(String), details: [], requestId: expect.any(String) },
  });
  expect(res.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
  expect(expectLimitHeaders(res, rate)).toBe(0);
}

/** Sends requests until one is refused; a refused bucket holds less than one token. */
async function exhaust(send: () => Promise<Reply>): Promise<void> {
  for (let i = 0; i < 1000; i++) if ((await send()).status === 429) return;
  throw new Error('never rate limited');
}

/**
 * Sends requests one after another until one is refused. The bucket holds 2× the rate and
 * refills while the burst runs, so the number allowed is bounded by the time it took.
 */
async function burst(send: () => Promise<Reply>, rate: number): Promise<{ allowed: Reply[]; refused: Reply; refusedSentAt: number }> {
  const allowed: Reply[] = [];
  const started = Date.now();
  for (;;) {
    const sentAt = Date.now();
    const res = await send();
    if (res.status === 429) {
      const refilled = ((Date.now() - started) / 1000) * rate;
      expect(allowed.length).toBeGreaterThanOrEqual(2 * rate);
      expect(allowed.length).toBeLessThanOrEqual(2 * rate + Math.ceil(refilled));
      return { allowed, refused: res, refusedSentAt: sentAt };
    }
    allowed.push(res);
    if (allowed.length > 10 * rate) throw new Error('never rate limited');
  }
}

/**
 * Sends until refused from a bucket another caller was just refused from (at `since`). A refusal
 * leaves up to one token short of a whole one, so a request can get through; no more than that and
 * what refilled since may, where a bucket of its own would let 2× the rate through.
 */
async function expectDrawsOnEmptied(send: () => Promise<Reply>, rate: number, since: number): Promise<void> {
  let allowed = 0;
  for (;;) {
    const res = await send();
    if (res.status === 429) {
      expectRateLimited(res, rate);
      expect(allowed).toBeLessThan(1 + ((Date.now() - since) / 1000) * rate);
      return;
    }
    if (++allowed > 2 * rate) throw new Error('not drawn from the emptied bucket');
  }
}

describe('per API key', () => {
  const app = useApp();
  let acct: TestAccount;
  let sameAccountKey: Client;
  let otherAccount: TestAccount;

  beforeAll(async () => {
    // The platform API draws on a bucket of its own per address, so these cost the key's nothing.
    const externalRef = `rl-${randomUUID()}`;
    acct = await app().createAccount({ externalRef });
    const again = await app().platform.post('/platform/accounts', { organizationName: 'x', accountName: 'x', externalRef });
    sameAccountKey = app().anon.with({ 'x-api-key': again.body.data.apiKey.apiKey, 'x-api-secret': again.body.data.apiKey.apiSecret });
    otherAccount = await app().createAccount();
  });

  it('allows a burst of 2× the rate, then 429 rate_limited with Retry-After', async () => {
    const { allowed, refused } = await burst(() => acct.api.get('/schema/streak/record'), API_RATE);
    for (const res of allowed) expect(res.status).toBe(200);
    const remaining = allowed.map((res) => expectLimitHeaders(res, API_RATE));
    expect(remaining[0]).toBe(2 * API_RATE - 1);
    // The last one allowed took the last whole token.
    expect(remaining.at(-1)).toBe(0);
    expectRateLimited(refused, API_RATE);
  });

  it('keeps a bucket per key: another key of the account and another account are unaffected', async () => {
    await exhaust(() => acct.api.get('/schema/streak/record'));
    const sibling = await sameAccountKey.get('/schema/streak/record');
    expect(sibling.status).toBe(200);
    expect(expectLimitHeaders(sibling, API_RATE)).toBe(2 * API_RATE - 1);
    const stranger = await otherAccount.api.get('/schema/streak/record');
    expect(stranger.status).toBe(200);
    expect(expectLimitHeaders(stranger, API_RATE)).toBe(2 * API_RATE - 1);
  });

  it('refills over time', async () => {
    await exhaust(() => acct.api.get('/schema/streak/record'));
    await sleep(1100);
    // A second at 5/s is five tokens.
    for (let i = 0; i < API_RATE; i++) expect((await acct.api.get('/schema/streak/record')).status).toBe(200);
    await sleep(2100);
    await burst(() => acct.api.get('/schema/streak/record'), API_RATE);
  });

  it('puts the headers on errors too', async () => {
    await sleep(2100);
    const replies = [
      await acct.api.get(`/schema/streak/record/${randomUUID()}`),
      await acct.api.get('/schema/streak/record', { bogus: 1 }),
      await acct.api.patch(`/schema/streak_log/record/${randomUUID()}`, {}),
      await acct.api.post('/schema/streak/record', { noSuchField: 1 }),
      await acct.api.request('POST', '/schema/streak/record', { raw: 'x', headers: { 'content-type': 'text/plain' } }),
    ];
    expect(replies.map((r) => r.status)).toEqual([404, 400, 405, 400, 415]);
    const remaining = replies.map((r) => expectLimitHeaders(r, API_RATE));
    // Each of them was charged to the key.
    expect(remaining[0]).toBeGreaterThan(remaining.at(-1)!);
  });
});

describe('per member (end-user tokens)', () => {
  const app = useApp();
  let acct: TestAccount;

  const memberClient = async (externalId: string): Promise<Client> => {
    const res = await acct.api.post('/enduser/token', { externalId });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return app().anon.with({ 'x-enduser-access-token': res.body.data.accessToken, 'x-account-id': acct.accountId });
  };

  beforeAll(async () => {
    acct = await app().createAccount();
  });

  it('limits each member to its own bucket, apart from the API key', async () => {
    const first = await memberClient('m-1');
    const again = await memberClient('m-1');
    const second = await memberClient('m-2');
    const { allowed, refused } = await burst(() => first.get('/schema/account_user/me'), ENDUSER_RATE);
    for (const res of allowed) {
      expect(res.status).toBe(200);
      expectLimitHeaders(res, ENDUSER_RATE);
    }
    expectRateLimited(refused, ENDUSER_RATE);

    // A second token of the same member draws on the same, empty bucket (a fresh one would show 5).
    expect(expectLimitHeaders(await again.get('/schema/account_user/me'), ENDUSER_RATE)).toBe(0);

    const other = await second.get('/schema/account_user/me');
    expect(other.status).toBe(200);
    expect(expectLimitHeaders(other, ENDUSER_RATE)).toBe(2 * ENDUSER_RATE - 1);

    const admin = await acct.api.get('/schema/streak/record');
    expect(admin.status).toBe(200);
    expectLimitHeaders(admin, API_RATE);

    await sleep(1100);
    expect((await first.get('/schema/account_user/me')).status).toBe(200);
  });
});

describe('per client address (guests and failed credentials)', () => {
  const app = useApp();
  let acct: TestAccount;

  beforeAll(async () => {
    acct = await app().createAccount();
  });

  it('limits guests per address, and a valid key from that address is unaffected', async () => {
    const guest = app().anon.with({ 'x-account-id': acct.accountId });
    const { allowed, refused } = await burst(() => guest.get('/schema/streak/record'), GUEST_RATE);
    for (const res of allowed) {
      expect(res.status).toBe(200);
      expectLimitHeaders(res, GUEST_RATE);
    }
    expectRateLimited(refused, GUEST_RATE);

    const admin = await acct.api.get('/schema/streak/record');
    expect(admin.status).toBe(200);
    expect(expectLimitHeaders(admin, API_RATE)).toBe(2 * API_RATE - 1);

    await sleep(1100);
    expect((await guest.get('/schema/streak/record')).status).toBe(200);
  });

  it('charges failed credentials to the address, so guessing secrets is limited too', async () => {
    await sleep(2100);
    const guessing = app().anon.with({ 'x-api-key': acct.apiKey, 'x-api-secret': 'guess' });
    const { allowed, refused } = await burst(() => guessing.get('/schema/streak/record'), GUEST_RATE);
    for (const res of allowed) {
      expect(res.status).toBe(401);
      expectLimitHeaders(res, GUEST_RATE);
    }
    expectRateLimited(refused, GUEST_RATE);
    // The real key still works: its own bucket is full.
    expect((await acct.api.get('/schema/streak/record')).status).toBe(200);
  });
});

describe('every route, whatever it answers', () => {
  const app = useApp();

  it('limits the platform API per address at the API-key rate, wrong tokens included', async () => {
    const guessing = app().anon.with({ authorization: 'Bearer guess' });
    const { allowed, refused, refusedSentAt } = await burst(() => guessing.delete(`/platform/accounts/${randomUUID()}`), API_RATE);
    for (const res of allowed) {
      expect(res.status).toBe(401);
      expectLimitHeaders(res, API_RATE);
    }
    expectRateLimited(refused, API_RATE);
    // The right token from the same address waits too: the bucket is the address's.
    await expectDrawsOnEmptied(
      () => app().platform.post('/platform/accounts', { organizationName: 'o', accountName: 'a' }),
      API_RATE,
      refusedSentAt,
    );
  });

  it('limits answers to unknown paths per address at the guest rate', async () => {
    await sleep(2100);
    const { allowed, refused } = await burst(() => app().anon.request('GET', '/no/such/path', { validate: false }), GUEST_RATE);
    for (const res of allowed) {
      expect(res.status).toBe(404);
      expectLimitHeaders(res, GUEST_RATE);
    }
    expectRateLimited(refused, GUEST_RATE);
  });

  it('marks every answer nosniff', async () => {
    await sleep(2100);
    for (const res of [await app().anon.get('/schema/streak/record'), await app().anon.request('GET', '/nope', { validate: false })])
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
