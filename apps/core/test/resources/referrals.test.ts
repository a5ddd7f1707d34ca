import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accepted, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

/*
 * Referrals (points_setting.pointsOnReferral and pointsOnReferredOrder, an addition to CONTRACT
 * §19): every member has a referral code of their own, which finds them among their account's
 * members only, and may name the member who referred them.
 */
let app: TestApp;
let acct: TestAccount;
beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount({ timezone: 'UTC', defaultLanguageCode: 'en' });
});
afterAll(() => app.close());

const CODE = /^[2-9A-HJ-NP-Z]{8}$/;
const eq = (fieldSlug: string, fieldValue: unknown) => ({ operator: 'and', conditions: [{ fieldSlug, operator: 'equals', fieldValue }] });
const member = async (a: TestAccount, externalId: string, fields: Record<string, unknown> = {}) =>
  accepted(a.api.post('/schema/account_user/record', { externalId, ...fields }));

describe('referral codes', () => {
  it('every member has one of 8 characters without look-alikes, never another member’s, however they are made', async () => {
    const made = await Promise.all(Array.from({ length: 200 }, (_, i) => member(acct, `made-${i}`)));
    const streak = await accepted(acct.api.post('/schema/streak/record', { name: 'Daily', status: 'live' }));
    // Members a log names inline get theirs too.
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        accepted(
          acct.api.post('/schema/streak_log/record', {
            streakId: streak.id,
            ownedBy: { externalId: `inline-${i}` },
            activityId: 'visit',
            activityAt: new Date().toISOString(),
            uniqueIdentifier: `inline-${i}`,
          }),
        ),
      ),
    );
    const all = (await accepted(acct.api.get('/schema/account_user/record', { limit: '500', fields: ['referralCode'] }))) as any[];
    expect(all).toHaveLength(220);
    for (const m of all) expect(m.referralCode).toMatch(CODE);
    expect(new Set(all.map((m) => m.referralCode)).size).toBe(220);
    expect(made.map((m) => m.referralCode)).toEqual(expect.arrayContaining([expect.stringMatching(CODE)]));
    // A bijection of the sequence's numbers: 200,000 in a row are 200,000 codes.
    const { rows } = await app.db.raw<{ rows: { n: number; distinct: number }[] }>(
      `select count(*)::int as n, count(distinct loyalty_referral_code(g))::int as distinct from generate_series(1, 200000) g`,
    );
    expect(rows[0]).toEqual({ n: 200_000, distinct: 200_000 });
  });

  it('is read-only, found by the account’s own key only, and shown to the member themselves without who referred them', async () => {
    const ada = await member(acct, 'ada');
    const found = await accepted(acct.api.get('/schema/account_user/record', { filters: eq('referralCode', ada.referralCode) }));
    expect(found.map((m: any) => m.id)).toEqual([ada.id]);
    const other = await app.createAccount({ timezone: 'UTC', defaultLanguageCode: 'en' });
    expect(await accepted(other.api.get('/schema/account_user/record', { filters: eq('referralCode', ada.referralCode) }))).toEqual([]);
    const changed = await acct.api.patch(`/schema/account_user/record/${ada.id}`, { referralCode: 'AAAAAAAA' });
    expect(changed.status).toBe(400);
    expect(changed.body.error.details[0]).toMatchObject({ field: 'referralCode' });

    const bob = await member(acct, 'bob', { referredById: ada.id });
    expect(bob.referredById).toBe(ada.id);
    const token = await accepted(acct.api.post('/enduser/token', { externalId: 'bob' }));
    const me = await app.anon.get('/schema/account_user/me', undefined, {
      'x-enduser-access-token': token.accessToken,
      'x-account-id': acct.accountId,
    });
    expect(me.status).toBe(200);
    expect(me.body.data.referralCode).toBe(bob.referralCode);
    expect(me.body.data).not.toHaveProperty('referredById');
  });

  it('names another member of the account, never the member themselves; erasing the referrer leaves the referred', async () => {
    const ada = await member(acct, 'ada-2');
    const bob = await member(acct, 'bob-2');
    const self = await acct.api.patch(`/schema/account_user/record/${bob.id}`, { referredById: bob.id });
    expect(self.status).toBe(400);
    expect(self.body.error.details[0]).toMatchObject({ field: 'referredById', code: 'self_referral' });
    const other = await app.createAccount({ timezone: 'UTC', defaultLanguageCode: 'en' });
    const stranger = await member(other, 'stranger');
    const foreign = await acct.api.patch(`/schema/account_user/record/${bob.id}`, { referredById: stranger.id });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.details[0]).toMatchObject({ field: 'referredById' });
    expect((await accepted(acct.api.get(`/schema/account_user/record/${bob.id}`))).referredById).toBeNull();
    await accepted(acct.api.patch(`/schema/account_user/record/${bob.id}`, { referredById: ada.id }));
    expect(await accepted(acct.api.get('/schema/account_user/record', { filters: eq('referredById', ada.id) }))).toEqual([
      expect.objectContaining({ id: bob.id }),
    ]);
    expect((await acct.api.delete(`/schema/account_user/record/${ada.id}`)).status).toBe(204);
    expect(await accepted(acct.api.get(`/schema/account_user/record/${bob.id}`))).toMatchObject({ id: bob.id, referredById: null });
  });
});

describe('the referred friend’s gift', () => {
  it('names a reward of the account, read by guests while points are live, and is cleared with its reward', async () => {
    const a = await app.createAccount({ timezone: 'UTC', defaultLanguageCode: 'en' });
    const [setting] = await accepted(a.api.get('/schema/points_setting/record'));
    expect(setting.referralRewardId).toBeNull();
    const gift = await accepted(
      a.api.post('/schema/reward/record', {
        name: '10% off your first order',
        description: 'On a first order.',
        rewardExpiryType: 'no_expiry',
        discountType: 'percentage',
        discountValue: 10,
      }),
    );
    const other = await app.createAccount({ timezone: 'UTC', defaultLanguageCode: 'en' });
    const foreign = await accepted(
      other.api.post('/schema/reward/record', {
        name: 'Theirs',
        description: 'Theirs.',
        rewardExpiryType: 'no_expiry',
        discountType: 'percentage',
        discountValue: 5,
      }),
    );
    for (const id of [foreign.id, '00000000-0000-4000-8000-000000000000']) {
      const refused = await a.api.patch(`/schema/points_setting/record/${setting.id}`, { referralRewardId: id });
      expect(refused.status).toBe(400);
      expect(refused.body.error.details[0]).toMatchObject({ field: 'referralRewardId' });
    }
    await accepted(a.api.patch(`/schema/points_setting/record/${setting.id}`, { referralRewardId: gift.id, status: 'live' }));
    const guest = await app.anon.get('/schema/points_setting/record', undefined, { 'x-account-id': a.accountId });
    expect(guest.status).toBe(200);
    expect(guest.body.data[0].referralRewardId).toBe(gift.id);
    expect((await a.api.delete(`/schema/reward/record/${gift.id}`)).status).toBe(204);
    expect((await accepted(a.api.get('/schema/points_setting/record')))[0].referralRewardId).toBeNull();
  });
});
