import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accepted, type Client, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

// What the storefront reads of rewards (CONTRACT §19): the live ones with a points cost, while
// points are live, in their public fields; never the merchant's names, coupon settings or codes.
let app: TestApp;
let acct: TestAccount;
let other: TestAccount;
let guest: Client;
let member: Client;
beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount({ timezone: 'UTC', defaultLanguageCode: 'en' });
  other = await app.createAccount();
  guest = app.anon.with({ 'x-account-id': acct.accountId });
  const token = await accepted(acct.api.post('/enduser/token', { externalId: 'reader' }));
  member = app.anon.with({ 'x-enduser-access-token': token.accessToken, 'x-account-id': acct.accountId });
});
afterAll(() => app.close());

let seq = 0;
async function reward(extra: Record<string, unknown> = {}, api = acct.api): Promise<string> {
  const created = await accepted(
    api.post('/schema/reward/record', {
      name: `Internal name ${++seq}`,
      description: 'Internal note',
      discountType: 'percentage',
      discountValue: 10,
      rewardExpiryType: 'no_expiry',
      handleCoupon: true,
      handleCouponAutoGeneration: true,
      couponCodePrefix: 'SECRET',
      eudTitle: '10% off',
      eudRedeemInstructionMessage: 'Use it at checkout.',
      ...extra,
    }),
  );
  return created.id as string;
}
async function setPoints(status: string, api = acct.api): Promise<void> {
  const [setting] = await accepted(api.get('/schema/points_setting/record'));
  await accepted(api.patch(`/schema/points_setting/record/${setting.id}`, { status }));
}
const ids = async (reader: Client, query: Record<string, unknown> = {}) =>
  ((await accepted(reader.get('/schema/reward/record', query))) as { id: string }[]).map((r) => r.id).sort();

const PUBLIC_FIELDS = [
  'id',
  'createdAt',
  'updatedAt',
  'rewardKind',
  'discountType',
  'discountValue',
  'pointsValue',
  'pointsCost',
  'eudTitle',
  'eudRedeemInstructionMessage',
].sort();

describe('rewards as end users and guests read them', () => {
  let priced: string;
  let cheap: string;
  let pointsReward: string;
  let milestoneOnly: string;
  let paused: string;
  beforeAll(async () => {
    priced = await reward({ pointsCost: 500 });
    cheap = await reward({ pointsCost: 40 });
    pointsReward = await reward({ rewardKind: 'points', pointsValue: 50, pointsCost: 40, discountType: null, discountValue: null });
    milestoneOnly = await reward();
    paused = await reward({ pointsCost: 100, status: 'paused' });
    await reward({ pointsCost: 100 }, other.api);
    await setPoints('live', other.api);
  });

  it('shows nothing while points are not live', async () => {
    for (const reader of [guest, member]) {
      expect(await ids(reader)).toEqual([]);
      const res = await reader.get(`/schema/reward/record/${priced}`);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  it('lists and gets the live rewards with a cost, in their public fields only, in the asked language', async () => {
    await setPoints('live');
    await accepted(acct.api.patch(`/schema/reward/record/${priced}`, { eudTitle: '10 % de réduction' }, {}, { languageCode: 'fr' }));
    for (const reader of [guest, member]) {
      // Another account's reward and the ones without a cost, not live, or giving points (which are not bought with points) stay out.
      expect(await ids(reader)).toEqual([priced, cheap].sort());
      const list = (await accepted(reader.get('/schema/reward/record', { languageCode: 'fr' }))) as Record<string, unknown>[];
      for (const read of list) expect(Object.keys(read).sort()).toEqual(PUBLIC_FIELDS);
      const got = await accepted(reader.get(`/schema/reward/record/${priced}`, { languageCode: 'fr' }));
      expect(got).toMatchObject({
        id: priced,
        rewardKind: 'code',
        discountType: 'percentage',
        discountValue: 10,
        pointsValue: null,
        pointsCost: 500,
        eudTitle: '10 % de réduction',
        eudRedeemInstructionMessage: 'Use it at checkout.',
      });
      expect(JSON.stringify(got)).not.toMatch(/Internal|SECRET/);
      for (const hidden of [milestoneOnly, paused, pointsReward])
        expect((await reader.get(`/schema/reward/record/${hidden}`)).status).toBe(404);
    }
  });

  it('sorts and filters by public fields only', async () => {
    const byCost = (await accepted(guest.get('/schema/reward/record', { sortBy: [{ fieldSlug: 'pointsCost', order: 'ASC' }] }))) as {
      id: string;
    }[];
    expect(byCost.map((r) => r.id)).toEqual([cheap, priced]);
    const below100 = { operator: 'and', conditions: [{ fieldSlug: 'pointsCost', operator: 'lt', fieldValue: 100 }] };
    expect(await ids(member, { filters: below100 })).toEqual([cheap]);
    for (const query of [
      { fields: ['name'] },
      { fields: ['couponCodePrefix'] },
      { sortBy: [{ fieldSlug: 'name', order: 'ASC' }] },
      { filters: { operator: 'and', conditions: [{ fieldSlug: 'handleCoupon', operator: 'equals', fieldValue: true }] } },
    ]) {
      const res = await guest.get('/schema/reward/record', query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error.code).toBe('invalid_query');
    }
  });

  it('lets neither end users nor guests write rewards or read coupons', async () => {
    for (const reader of [guest, member]) {
      expect([401, 403]).toContain((await reader.post('/schema/reward/record', { name: 'R' })).status);
      expect([401, 403]).toContain((await reader.patch(`/schema/reward/record/${priced}`, { pointsCost: 1 })).status);
      expect([401, 403]).toContain((await reader.delete(`/schema/reward/record/${priced}`)).status);
      expect([401, 403]).toContain((await reader.get('/schema/coupon/record')).status);
      expect([401, 403]).toContain(
        (await reader.post(`/schema/reward/record/${priced}/action/import_coupons`, { couponCodes: ['X'] })).status,
      );
    }
    // The merchant still reads every reward in full.
    expect((await ids(acct.api)).length).toBe(5);
    expect(await accepted(acct.api.get(`/schema/reward/record/${milestoneOnly}`))).toMatchObject({
      name: expect.stringMatching(/^Internal/),
    });
  });
});
