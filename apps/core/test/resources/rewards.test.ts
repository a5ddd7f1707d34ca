import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestAccount, type TestApp } from '../support/harness.js';
import { earningStreak } from '../support/programs.js';

let app: TestApp;
let acct: TestAccount;
beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount();
});
afterAll(() => app.close());

const detailOf = (body: any, field: string) => body.error.details.find((d: any) => d.field === field);
const reward = (extra: Record<string, unknown> = {}) =>
  acct.api.post('/schema/reward/record', {
    name: 'Ten off',
    description: '10%',
    discountType: 'percentage',
    discountValue: 10,
    rewardExpiryType: 'no_expiry',
    ...extra,
  });

describe('reward', () => {
  it('applies defaults', async () => {
    const r = await reward();
    expect(r.body.data).toMatchObject({
      handleCoupon: false,
      handleCouponAutoGeneration: false,
      couponCodeLength: 10,
      couponCodePrefix: null,
    });
  });

  it('requires the expiry matching the expiry type, on create and on update', async () => {
    expect(detailOf((await reward({ rewardExpiryType: 'relative' })).body, 'rewardExpiryInDays')?.code).toBe('required');
    expect(detailOf((await reward({ rewardExpiryType: 'absolute' })).body, 'rewardExpiryAt')?.code).toBe('required');
    const ok = await reward({ rewardExpiryType: 'relative', rewardExpiryInDays: 30 });
    expect(ok.status).toBe(200);
    const toAbsolute = await acct.api.patch(`/schema/reward/record/${ok.body.data.id}`, { rewardExpiryType: 'absolute' });
    expect(detailOf(toAbsolute.body, 'rewardExpiryAt')?.code).toBe('required');
    const done = await acct.api.patch(`/schema/reward/record/${ok.body.data.id}`, {
      rewardExpiryType: 'absolute',
      rewardExpiryAt: '2027-01-01T00:00:00Z',
    });
    expect(done.body.data.rewardExpiryAt).toBe('2027-01-01T00:00:00.000Z');
  });

  it("names a new record's broken rules beside its fields' refusals, in one answer, and makes nothing", async () => {
    const before = (await acct.api.get('/schema/reward/record', { fetchTotalCount: 'true' })).body.paging.total;
    const res = await reward({ discountValue: 150, rewardExpiryType: 'relative', pointsCost: -5, couponCodeLength: 5 });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: any) => [d.field, d.code]).sort()).toEqual([
      ['couponCodeLength', 'too_small'],
      ['discountValue', 'too_large'],
      ['pointsCost', 'too_small'],
      ['rewardExpiryInDays', 'required'],
    ]);
    // A field refused on its own is not named again by a rule that requires it.
    const invalidDays = await reward({ rewardExpiryType: 'relative', rewardExpiryInDays: -1, pointsCost: -5 });
    expect(invalidDays.body.error.details.filter((d: any) => d.field === 'rewardExpiryInDays')).toHaveLength(1);
    expect((await acct.api.get('/schema/reward/record', { fetchTotalCount: 'true' })).body.paging.total).toBe(before);
  });

  it.each([
    [{ discountType: 'bogo' }, 'discountType', 'invalid_enum'],
    [{ discountValue: -1 }, 'discountValue', 'too_small'],
    [{ couponCodeLength: 5 }, 'couponCodeLength', 'too_small'],
    [{ couponCodeLength: 33 }, 'couponCodeLength', 'too_large'],
    [{ couponCodePrefix: 'x'.repeat(17) }, 'couponCodePrefix', 'too_long'],
    [{ couponCodePrefix: 'a b' }, 'couponCodePrefix', 'invalid_format'],
    [{ handleCoupon: 'yes' }, 'handleCoupon', 'invalid_type'],
  ])('refuses %j', async (extra, field, code) => {
    const res = await reward(extra);
    expect(res.status).toBe(400);
    expect(detailOf(res.body, field)?.code).toBe(code);
  });
});

describe('coupon', () => {
  it('creates codes unique per account and checks the reward', async () => {
    const r = (await reward()).body.data;
    const c = await acct.api.post('/schema/coupon/record', { rewardId: r.id, couponCode: 'SAVE10', status: 'live' });
    expect(c.body.data).toMatchObject({ couponCode: 'SAVE10', isCouponIssued: false });
    const dup = await acct.api.post('/schema/coupon/record', { rewardId: r.id, couponCode: 'SAVE10', status: 'live' });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('conflict');
    const other = await app.createAccount();
    const otherReward = (
      await other.api.post('/schema/reward/record', {
        name: 'R',
        description: 'd',
        discountType: 'fixed_amount',
        discountValue: 5,
        rewardExpiryType: 'no_expiry',
      })
    ).body.data;
    expect((await other.api.post('/schema/coupon/record', { rewardId: otherReward.id, couponCode: 'SAVE10', status: 'live' })).status).toBe(
      200,
    );
    const foreign = await acct.api.post('/schema/coupon/record', { rewardId: otherReward.id, couponCode: 'X', status: 'live' });
    expect(detailOf(foreign.body, 'rewardId')?.code).toBe('not_found');
    expect(detailOf((await acct.api.post('/schema/coupon/record', { rewardId: r.id, couponCode: 'Y' })).body, 'status')?.code).toBe(
      'required',
    );
  });

  it('imports JSON and CSV, counting duplicates and skipping blanks', async () => {
    const r = (await reward()).body.data;
    const path = `/schema/reward/record/${r.id}/action/import_coupons`;
    const json = await acct.api.post(path, { couponCodes: ['A1', ' A2 ', '', 'A1', 'A3'] });
    expect(json.status).toBe(200);
    expect(json.body.data).toEqual({ imported: 3, duplicates: 1 });
    const csv = await acct.api.request('POST', path, {
      raw: 'A3\r\nB1\n\n  B2  \nB1\n',
      headers: { 'content-type': 'text/csv; charset=utf-8' },
    });
    expect(csv.body.data).toEqual({ imported: 2, duplicates: 2 });
    // An empty file is a file of no codes.
    const empty = await acct.api.request('POST', path, { raw: '', headers: { 'content-type': 'text/csv' } });
    expect([empty.status, empty.body.data]).toEqual([200, { imported: 0, duplicates: 0 }]);
    const listed = await acct.api.get('/schema/coupon/record', {
      filters: { operator: 'and', conditions: [{ fieldSlug: 'rewardId', operator: 'equals', fieldValue: r.id }] },
      fetchTotalCount: 'true',
    });
    expect(listed.body.paging.total).toBe(5);
  });

  it('imports 10,000 codes in one call and refuses more, or any invalid code, importing nothing', async () => {
    const r = (await reward()).body.data;
    const path = `/schema/reward/record/${r.id}/action/import_coupons`;
    const codes = Array.from({ length: 10_000 }, (_, i) => `BULK-${i}`);
    const big = await acct.api.post(path, { couponCodes: codes });
    expect(big.body.data).toEqual({ imported: 10_000, duplicates: 0 });
    const tooMany = await acct.api.post(path, { couponCodes: [...codes, 'ONE-MORE'] });
    expect(tooMany.status).toBe(400);
    const bad = await acct.api.post(path, { couponCodes: ['OK-1', 'x'.repeat(257)] });
    expect(detailOf(bad.body, 'couponCodes[1]')?.code).toBe('too_long');
    const badCsv = await acct.api.request('POST', path, { raw: `OK-2\n${'y'.repeat(300)}\n`, headers: { 'content-type': 'text/csv' } });
    expect(detailOf(badCsv.body, 'line 2')?.code).toBe('too_long');
    const ok = await app.db('coupon').whereIn('coupon_code', ['OK-1', 'OK-2', 'ONE-MORE']).count({ n: '*' });
    expect(ok[0]!.n).toBe(0);
    // Each wrong or unknown field is named (CONTRACT §2).
    const unknown = await acct.api.post(path, { couponCodes: [], x: 1 });
    expect([unknown.status, unknown.body.error.details]).toEqual([400, [expect.objectContaining({ field: 'x', code: 'unknown_field' })]]);
    const missing = await acct.api.post(path, { codes: [] });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['codes', 'couponCodes']);
    expect(detailOf((await acct.api.post(path, { couponCodes: ['A', 7] })).body, 'couponCodes[1]')?.code).toBe('invalid_type');
    expect((await acct.api.request('POST', path, { raw: 'A', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
  });

  it('takes codes as shoppers type them: no white space at either end, no control characters; CSV in any line ending, "" as a quote', async () => {
    const r = (await reward()).body.data;
    for (const couponCode of ['   ', ' PAD', 'PAD ', 'TAB\tIN', 'LINE\nBREAK']) {
      const res = await acct.api.post('/schema/coupon/record', { rewardId: r.id, couponCode, status: 'live' });
      expect(detailOf(res.body, 'couponCode')?.code, JSON.stringify(couponCode)).toBe('invalid_format');
    }
    expect((await acct.api.post('/schema/coupon/record', { rewardId: r.id, couponCode: 'IN SIDE', status: 'live' })).status).toBe(200);
    const path = `/schema/reward/record/${r.id}/action/import_coupons`;
    const tabbed = await acct.api.post(path, { couponCodes: ['FINE', 'TAB\tIN'] });
    expect(detailOf(tabbed.body, 'couponCodes[1]')?.code).toBe('invalid_format');
    const csv = await acct.api.request('POST', path, { raw: 'CR1\rCR2\r"Q""UOTE"\r', headers: { 'content-type': 'text/csv' } });
    expect(csv.body.data).toEqual({ imported: 3, duplicates: 0 });
    const codes = (await app.db('coupon').where({ reward_id: r.id }).select('coupon_code')).map((c) => c.coupon_code).sort();
    expect(codes).toEqual(['CR1', 'CR2', 'IN SIDE', 'Q"UOTE']);
    // 256 characters, whatever their UTF-16 length.
    const emoji = await acct.api.post(path, { couponCodes: ['😀'.repeat(256)] });
    expect(emoji.body.data).toEqual({ imported: 1, duplicates: 0 });
  });

  it('keeps a coupon issued to a reward log as it was given: not unissued, renamed, moved or deleted, so no second member gets its code', async () => {
    const r = (await reward({ handleCoupon: true })).body.data;
    const streakId = await earningStreak(acct.api, r.id, { name: 'Kept codes', status: 'live' });
    const issued = (await acct.api.post('/schema/coupon/record', { rewardId: r.id, couponCode: 'ONCE-1', status: 'live' })).body.data;
    const spare = (await acct.api.post('/schema/coupon/record', { rewardId: r.id, couponCode: 'ONCE-2', status: 'live' })).body.data;
    const log = (
      await acct.api.post('/schema/streak_log/record', {
        streakId,
        ownedBy: { externalId: 'kept-1' },
        activityId: 'visit',
        activityAt: new Date().toISOString(),
        uniqueIdentifier: 'kept-1',
      })
    ).body.data;
    expect(log.achievedMilestoneRewardLogs[0].couponCode).toBe('ONCE-1');
    const other = (await reward()).body.data;
    for (const [change, field] of [
      [{ isCouponIssued: false }, 'isCouponIssued'],
      [{ couponCode: 'ONCE-1B' }, 'couponCode'],
      [{ rewardId: other.id }, 'rewardId'],
    ] as const) {
      const res = await acct.api.patch(`/schema/coupon/record/${issued.id}`, change);
      expect(res.status, field).toBe(409);
      expect(detailOf(res.body, field)?.code).toBe('issued');
    }
    expect((await acct.api.delete(`/schema/coupon/record/${issued.id}`)).status).toBe(409);
    // What changes nothing of its issue stays allowed; an unissued coupon is the merchant's to change.
    expect((await acct.api.patch(`/schema/coupon/record/${issued.id}`, { status: 'paused' })).status).toBe(200);
    expect((await acct.api.patch(`/schema/coupon/record/${spare.id}`, { couponCode: 'ONCE-2B' })).status).toBe(200);
    expect((await acct.api.delete(`/schema/coupon/record/${spare.id}`)).status).toBe(204);
    expect((await acct.api.get(`/schema/coupon/record/${issued.id}`)).body.data).toMatchObject({
      couponCode: 'ONCE-1',
      isCouponIssued: true,
    });
  });

  it('deleting a reward removes its unissued coupons and keeps issued ones', async () => {
    const r = (await reward()).body.data;
    await acct.api.post(`/schema/reward/record/${r.id}/action/import_coupons`, { couponCodes: ['D1', 'D2'] });
    await app.db('coupon').where({ coupon_code: 'D1', account_id: acct.accountId }).update({ is_coupon_issued: true });
    await acct.api.delete(`/schema/reward/record/${r.id}`);
    const left = await app.db('coupon').where({ reward_id: r.id }).select('coupon_code');
    expect(left.map((c) => c.coupon_code)).toEqual(['D1']);
  });
});
