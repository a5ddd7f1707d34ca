import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accepted, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';
import { earningStreak } from '../support/programs.js';

// The service clock stays the real one here: issuance and the reward-log PATCH both stamp "now",
// and the tests bound it by the wall-clock time around each request.
let app: TestApp;
let acct: TestAccount;
beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount({ timezone: 'UTC', defaultLanguageCode: 'en' });
});
afterAll(() => app.close());

const DAY_MS = 86_400_000;
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const ACTIVITY_AT = '2026-11-01T10:00:00Z';
let seq = 0;

const eq = (fieldSlug: string, fieldValue: unknown) => ({ operator: 'and', conditions: [{ fieldSlug, operator: 'equals', fieldValue }] });

async function reward(body: Record<string, unknown>): Promise<any> {
  return accepted(
    acct.api.post('/schema/reward/record', {
      name: `R${++seq}`,
      description: 'd',
      discountType: 'percentage',
      discountValue: 10,
      rewardExpiryType: 'no_expiry',
      ...body,
    }),
  );
}

/** Logs once for a new member and returns the reward log it earned, with the wall-clock bounds of the request. */
async function earn(streakId: string, ownedBy: Record<string, unknown> = { externalId: `member-${++seq}` }) {
  const before = Date.now();
  const res = await acct.api.post('/schema/streak_log/record', {
    streakId,
    ownedBy,
    activityId: 'visit',
    activityAt: ACTIVITY_AT,
    uniqueIdentifier: `r-${++seq}`,
  });
  const after = Date.now();
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const rewardLog = res.body.data.achievedMilestoneRewardLog;
  expect(res.body.data.achievedMilestoneRewardLogs).toEqual([rewardLog]);
  return { rewardLog, before, after, memberId: res.body.data.ownedById as string };
}

function expectNow(iso: string, before: number, after: number): void {
  const t = Date.parse(iso);
  expect(t).toBeGreaterThanOrEqual(before);
  expect(t).toBeLessThanOrEqual(after);
}

async function couponsOf(rewardId: string): Promise<any[]> {
  const res = await acct.api.get('/schema/coupon/record', { filters: eq('rewardId', rewardId), limit: '1000' });
  return res.body.data;
}

describe('a log of a known member that reaches a reward', () => {
  it('reads once: it goes on under the lock from what it read instead of reading again', async () => {
    const r = await reward({});
    const streakId = await earningStreak(acct.api, r.id);
    const member = await accepted(acct.api.post('/schema/account_user/record', { externalId: `member-${++seq}` }));
    const issued: string[] = [];
    const listener = (query: { sql: string }) => issued.push(query.sql);
    app.db.on('query', listener);
    let res;
    try {
      res = await acct.api.post('/schema/streak_log/record', {
        streakId,
        ownedById: member.id,
        activityId: 'visit',
        activityAt: ACTIVITY_AT,
        uniqueIdentifier: `r-${++seq}`,
      });
    } finally {
      app.db.off('query', listener);
    }
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.achievedMilestoneRewardLog).toMatchObject({ rewardId: r.id, ownedById: member.id });
    // The lookup reads the definition, its milestones, the member and the progress in one statement.
    expect(issued.filter((sql) => sql.includes(' as milestones,'))).toHaveLength(1);
    expect(issued.filter((sql) => sql.includes('pg_advisory_xact_lock('))).toHaveLength(1);
  });
});

describe('coupon assignment', () => {
  it('issues the oldest live unissued pool coupon, then leaves the code null when the pool is empty', async () => {
    const r = await reward({ handleCoupon: true, rewardExpiryType: 'relative', rewardExpiryInDays: 7 });
    // Oldest of all, but paused: never issued.
    expect((await acct.api.post('/schema/coupon/record', { rewardId: r.id, couponCode: 'PAUSED-1', status: 'paused' })).status).toBe(200);
    expect(
      (await acct.api.post(`/schema/reward/record/${r.id}/action/import_coupons`, { couponCodes: ['POOL-B', 'POOL-A'] })).body.data,
    ).toEqual({ imported: 2, duplicates: 0 });
    expect((await acct.api.post('/schema/coupon/record', { rewardId: r.id, couponCode: 'POOL-0', status: 'live' })).status).toBe(200);
    const streakId = await earningStreak(acct.api, r.id);

    // Import order, then the later single coupon: creation order, not code order.
    for (const code of ['POOL-B', 'POOL-A', 'POOL-0']) {
      const { rewardLog, before, after } = await earn(streakId);
      expect(rewardLog).toMatchObject({ rewardId: r.id, couponCode: code });
      expectNow(rewardLog.rewardIssuedAt, before, after);
      expect(Date.parse(rewardLog.rewardExpiryAt) - Date.parse(rewardLog.rewardIssuedAt)).toBe(7 * DAY_MS);
    }
    const { rewardLog: empty } = await earn(streakId);
    expect(empty).toMatchObject({ rewardId: r.id, couponCode: null, rewardIssuedAt: null, rewardExpiryAt: null });

    const coupons = Object.fromEntries((await couponsOf(r.id)).map((c) => [c.couponCode, c.isCouponIssued]));
    expect(coupons).toEqual({ 'PAUSED-1': false, 'POOL-A': true, 'POOL-B': true, 'POOL-0': true });
  });

  it('waits for a pool coupon another transaction holds (an edit that leaves it in the pool) instead of issuing none', async () => {
    const r = await reward({ handleCoupon: true });
    const coupon = (await acct.api.post('/schema/coupon/record', { rewardId: r.id, couponCode: 'HELD-1', status: 'live' })).body.data;
    const streakId = await earningStreak(acct.api, r.id);
    // The coupon's row held as a PATCH of it holds it, released a moment after the log arrives.
    const holder = await app.db.transaction();
    await holder('coupon').where({ id: coupon.id }).forUpdate().first();
    const earning = earn(streakId);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await holder.commit();
    expect((await earning).rewardLog).toMatchObject({ couponCode: 'HELD-1' });
    // With nothing left in the pool and nothing held, the next one finds it empty at once.
    expect((await earn(streakId)).rewardLog).toMatchObject({ couponCode: null });
  });

  it('generates prefix + random codes from the alphabet once the pool is empty, when auto-generation is on', async () => {
    const r = await reward({ handleCoupon: true, handleCouponAutoGeneration: true, couponCodePrefix: 'GEN-', couponCodeLength: 8 });
    await acct.api.post(`/schema/reward/record/${r.id}/action/import_coupons`, { couponCodes: ['SEED-1'] });
    const streakId = await earningStreak(acct.api, r.id);

    expect((await earn(streakId)).rewardLog.couponCode).toBe('SEED-1');
    const generated: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { rewardLog, before, after } = await earn(streakId);
      expect(rewardLog.couponCode).toMatch(new RegExp(`^GEN-[${ALPHABET}]{8}$`));
      expectNow(rewardLog.rewardIssuedAt, before, after);
      generated.push(rewardLog.couponCode);
    }
    expect(new Set(generated).size).toBe(3);
    // Generated codes are stored as issued coupons of the reward.
    const stored = (await couponsOf(r.id)).filter((c) => generated.includes(c.couponCode));
    expect(stored.map((c) => [c.isCouponIssued, c.status])).toEqual([
      [true, 'live'],
      [true, 'live'],
      [true, 'live'],
    ]);

    // Without a prefix or a length: the random part alone, 10 characters.
    const plain = await reward({ handleCoupon: true, handleCouponAutoGeneration: true });
    expect((await earn(await earningStreak(acct.api, plain.id))).rewardLog.couponCode).toMatch(new RegExp(`^[${ALPHABET}]{10}$`));
  });

  it('sets expiry by the reward rule: relative, absolute, no_expiry', async () => {
    const cases = [
      {
        rule: { rewardExpiryType: 'relative', rewardExpiryInDays: 30 },
        expiry: (issued: number) => new Date(issued + 30 * DAY_MS).toISOString(),
      },
      { rule: { rewardExpiryType: 'absolute', rewardExpiryAt: '2027-03-31T20:00:00Z' }, expiry: () => '2027-03-31T20:00:00.000Z' },
      { rule: { rewardExpiryType: 'no_expiry' }, expiry: () => null },
    ];
    for (const { rule, expiry } of cases) {
      const r = await reward({ handleCoupon: true, handleCouponAutoGeneration: true, ...rule });
      const { rewardLog } = await earn(await earningStreak(acct.api, r.id));
      expect(rewardLog.rewardExpiryAt, rule.rewardExpiryType).toBe(expiry(Date.parse(rewardLog.rewardIssuedAt)));
    }
  });
});

describe('client-stamped coupons (handleCoupon false)', () => {
  it('leaves the code null until PATCH, which is idempotent for the same values and 409 for others', async () => {
    const r = await reward({ rewardExpiryType: 'relative', rewardExpiryInDays: 30 });
    const streakId = await earningStreak(acct.api, r.id);
    const minted = await acct.api.post('/enduser/token', { externalId: 'stamp-me' });
    const { rewardLog } = await earn(streakId, { externalId: 'stamp-me' });
    expect(rewardLog).toMatchObject({ couponCode: null, rewardIssuedAt: null, rewardExpiryAt: null });
    const path = `/schema/reward_log/record/${rewardLog.id}`;

    const noCode = await acct.api.patch(path, { rewardIssuedAt: '2026-11-02T00:00:00Z' });
    expect(noCode.status).toBe(400);
    expect(noCode.body.error.details.map((d: any) => d.field)).toEqual(['couponCode']);

    const endUser = app.anon.with({ 'x-enduser-access-token': minted.body.data.accessToken, 'x-account-id': acct.accountId });
    expect((await endUser.get(path)).status).toBe(200);
    const refused = await endUser.patch(path, { couponCode: 'MINE' });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');

    // A code that would expire before it is issued is refused, and stamps nothing.
    const backwards = await acct.api.patch(path, {
      couponCode: 'SHOP-0',
      rewardIssuedAt: '2026-12-01T00:00:00Z',
      rewardExpiryAt: '2026-11-01T00:00:00Z',
    });
    expect([backwards.status, backwards.body.error.details[0].field]).toEqual([400, 'rewardExpiryAt']);

    const before = Date.now();
    const first = await acct.api.patch(path, { couponCode: 'SHOP-1' });
    const after = Date.now();
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const stamped = first.body.data;
    expect(stamped.couponCode).toBe('SHOP-1');
    expectNow(stamped.rewardIssuedAt, before, after);
    expect(Date.parse(stamped.rewardExpiryAt) - Date.parse(stamped.rewardIssuedAt)).toBe(30 * DAY_MS);

    // Retries with the same values (compared on the fields sent) answer 200 and change nothing.
    for (const body of [
      { couponCode: 'SHOP-1' },
      { couponCode: 'SHOP-1', rewardIssuedAt: stamped.rewardIssuedAt },
      { couponCode: 'SHOP-1', rewardIssuedAt: stamped.rewardIssuedAt, rewardExpiryAt: stamped.rewardExpiryAt },
    ]) {
      const again = await acct.api.patch(path, body);
      expect(again.status, JSON.stringify(body)).toBe(200);
      expect(again.body.data).toMatchObject({
        couponCode: 'SHOP-1',
        rewardIssuedAt: stamped.rewardIssuedAt,
        rewardExpiryAt: stamped.rewardExpiryAt,
      });
    }
    for (const body of [
      { couponCode: 'SHOP-2' },
      { couponCode: 'SHOP-1', rewardIssuedAt: '2026-11-02T00:00:00Z' },
      { couponCode: 'SHOP-1', rewardExpiryAt: '2030-01-01T00:00:00Z' },
      // No expiry is a value sent too: this code has one.
      { couponCode: 'SHOP-1', rewardExpiryAt: null },
    ]) {
      const conflict = await acct.api.patch(path, body);
      expect(conflict.status, JSON.stringify(body)).toBe(409);
      expect(conflict.body.error.code).toBe('conflict');
    }
    expect((await acct.api.get(path)).body.data).toMatchObject({
      couponCode: 'SHOP-1',
      rewardIssuedAt: stamped.rewardIssuedAt,
      rewardExpiryAt: stamped.rewardExpiryAt,
    });
  });

  it('takes sent times as given, and defaults the expiry from the reward rule and the issue time', async () => {
    const relative = await reward({ rewardExpiryType: 'relative', rewardExpiryInDays: 10 });
    const absolute = await reward({ rewardExpiryType: 'absolute', rewardExpiryAt: '2027-06-30T00:00:00Z' });
    const none = await reward({ rewardExpiryType: 'no_expiry' });
    const stamp = async (rewardId: string, body: Record<string, unknown>) => {
      const { rewardLog } = await earn(await earningStreak(acct.api, rewardId));
      return accepted(acct.api.patch(`/schema/reward_log/record/${rewardLog.id}`, body));
    };
    expect(
      await stamp(relative.id, { couponCode: 'A-1', rewardIssuedAt: '2026-11-05T08:00:00Z', rewardExpiryAt: '2026-12-01T00:00:00Z' }),
    ).toMatchObject({ rewardIssuedAt: '2026-11-05T08:00:00.000Z', rewardExpiryAt: '2026-12-01T00:00:00.000Z' });
    expect(await stamp(relative.id, { couponCode: 'A-2', rewardIssuedAt: '2026-11-05T08:00:00Z' })).toMatchObject({
      rewardIssuedAt: '2026-11-05T08:00:00.000Z',
      rewardExpiryAt: '2026-11-15T08:00:00.000Z',
    });
    expect(await stamp(absolute.id, { couponCode: 'A-3' })).toMatchObject({ rewardExpiryAt: '2027-06-30T00:00:00.000Z' });
    expect(await stamp(none.id, { couponCode: 'A-4' })).toMatchObject({ rewardExpiryAt: null });
  });

  it('refuses a code of a reward’s pool, which the pool would give another member too', async () => {
    const pool = await reward({ handleCoupon: true });
    expect((await acct.api.post(`/schema/reward/record/${pool.id}/action/import_coupons`, { couponCodes: ['POOLED-1'] })).status).toBe(200);
    const { rewardLog } = await earn(await earningStreak(acct.api, (await reward({})).id));
    const refused = await acct.api.patch(`/schema/reward_log/record/${rewardLog.id}`, { couponCode: 'POOLED-1' });
    expect(refused.status).toBe(409);
    expect(refused.body.error.details).toEqual([expect.objectContaining({ field: 'couponCode', code: 'duplicate' })]);
    expect((await acct.api.get(`/schema/reward_log/record/${rewardLog.id}`)).body.data.couponCode).toBeNull();
  });

  it('answers 200 to the service-assigned code and 409 to another one', async () => {
    const r = await reward({ handleCoupon: true, handleCouponAutoGeneration: true });
    const { rewardLog } = await earn(await earningStreak(acct.api, r.id));
    const path = `/schema/reward_log/record/${rewardLog.id}`;
    expect((await acct.api.patch(path, { couponCode: rewardLog.couponCode })).status).toBe(200);
    expect((await acct.api.patch(path, { couponCode: 'SOMETHING-ELSE' })).status).toBe(409);
  });
});

describe('rendered reward texts', () => {
  it('show the expiry date in the member language and time zone, and nothing when there is none', async () => {
    const absolute = await reward({
      handleCoupon: true,
      handleCouponAutoGeneration: true,
      rewardExpiryType: 'absolute',
      rewardExpiryAt: '2027-03-31T20:00:00Z',
    });
    const streakId = await earningStreak(acct.api, absolute.id);
    // 20:00Z on 31 March is already 1 April in Tokyo.
    const en = await earn(streakId, { externalId: 'tokyo-en', timezone: 'Asia/Tokyo', languageCode: 'en' });
    expect(en.rewardLog.eudRedeemInstructionMessage).toBe('Use the offer code at checkout, valid till April 1, 2027.');
    expect((await acct.api.get(`/schema/reward_log/record/${en.rewardLog.id}`)).body.data.eudRedeemInstructionMessage).toBe(
      'Use the offer code at checkout, valid till April 1, 2027.',
    );
    const de = await earn(streakId, { externalId: 'berlin-de', timezone: 'Europe/Berlin', languageCode: 'de' });
    const deRead = await acct.api.get(`/schema/reward_log/record/${de.rewardLog.id}`, { languageCode: 'de' });
    expect(deRead.body.data.eudRedeemInstructionMessage).toBe('Löse den Code an der Kasse ein, gültig bis 31. März 2027.');
    // A member without a language of their own reads the date in the language the text is read in.
    const unset = await earn(streakId, { externalId: 'berlin-unset', timezone: 'Europe/Berlin' });
    const unsetRead = await acct.api.get(`/schema/reward_log/record/${unset.rewardLog.id}`, { languageCode: 'de' });
    expect(unsetRead.body.data.eudRedeemInstructionMessage).toBe('Löse den Code an der Kasse ein, gültig bis 31. März 2027.');

    const never = await reward({ handleCoupon: true, handleCouponAutoGeneration: true, rewardExpiryType: 'no_expiry' });
    expect((await earn(await earningStreak(acct.api, never.id))).rewardLog.eudRedeemInstructionMessage).toBe(
      'Use the offer code at checkout.',
    );

    const custom = await reward({
      handleCoupon: true,
      handleCouponAutoGeneration: true,
      rewardExpiryType: 'absolute',
      rewardExpiryAt: '2027-03-31T20:00:00Z',
      eudRedeemInstructionMessage: 'Until {{$helpers.rewardValidTill}} ({{rewardValidTill}})',
    });
    const customLog = await earn(await earningStreak(acct.api, custom.id), { externalId: 'custom-text', timezone: 'UTC' });
    expect(customLog.rewardLog.eudRedeemInstructionMessage).toBe('Until March 31, 2027 (March 31, 2027)');
  });

  it('show the expiry once a client stamps the coupon', async () => {
    const r = await reward({ rewardExpiryType: 'relative', rewardExpiryInDays: 30 });
    const { rewardLog } = await earn(await earningStreak(acct.api, r.id), { externalId: 'stamped-text', timezone: 'UTC' });
    expect(rewardLog.eudRedeemInstructionMessage).toBe('Use the offer code at checkout.');
    const stamped = await acct.api.patch(`/schema/reward_log/record/${rewardLog.id}`, {
      couponCode: 'LATE-1',
      rewardIssuedAt: '2026-11-05T08:00:00Z',
    });
    expect(stamped.body.data.eudRedeemInstructionMessage).toBe('Use the offer code at checkout, valid till December 5, 2026.');
  });
});

describe('a milestone whose target was raised after a member reached it', () => {
  it('gives its reward once per streak run, challenge window and mission run, crossed again or not', async () => {
    const r = await reward({});
    const milestoneOf = async (slug: string, definitionId: string, target: number) =>
      accepted(
        acct.api.post('/schema/milestone/record', {
          linkedSchemaSlug: slug,
          linkedSchemaRecordId: definitionId,
          name: `M${++seq}`,
          description: 'd',
          milestoneTargetValue: target,
          status: 'live',
          rewardId: r.id,
        }),
      );
    const raise = (id: string, target: number) =>
      accepted(acct.api.patch(`/schema/milestone/record/${id}`, { milestoneTargetValue: target }));
    const logOf = (slug: string, body: Record<string, unknown>) =>
      accepted(acct.api.post(`/schema/${slug}_log/record`, { activityId: 'act', uniqueIdentifier: `raise-${++seq}`, ...body }));
    const rewardLogsOf = async (memberId: string) =>
      (await accepted(acct.api.get('/schema/reward_log/record', { filters: eq('ownedById', memberId) }))) as any[];
    const codesOf = async (memberId: string) =>
      ((await accepted(acct.api.get('/schema/event_log/record', { filters: eq('ownedById', memberId), limit: '1000' }))) as any[]).map(
        (e) => e.eventCode,
      );

    // A challenge window: 12 reaches 10; raised to 15, 17 crosses it again in the same window.
    const c = await accepted(
      acct.api.post('/schema/challenge/record', {
        name: `C${++seq}`,
        aggregationMethod: 'sum',
        aggregationPeriod: 'monthly',
        completionTargetValue: 100,
      }),
    );
    const cm = await milestoneOf('challenge', c.id, 10);
    const ext = `raise-c-${seq}`;
    const first = await logOf('challenge', { challengeId: c.id, ownedBy: { externalId: ext }, activityValue: 12, activityAt: ACTIVITY_AT });
    expect(first.achievedMilestoneRewardLog).toBeTruthy();
    await raise(cm.id, 15);
    const again = await logOf('challenge', { challengeId: c.id, ownedBy: { externalId: ext }, activityValue: 5, activityAt: ACTIVITY_AT });
    expect([again.achievedMilestone, again.achievedMilestoneRewardLog]).toEqual([null, null]);
    expect(await rewardLogsOf(first.ownedById)).toHaveLength(1);
    expect((await codesOf(first.ownedById)).filter((code) => code === 'challenge_progress_milestone_completed')).toHaveLength(1);

    // A streak run: day 1 reaches 1; raised to 2, day 2 crosses it again in the same run.
    const s = await accepted(acct.api.post('/schema/streak/record', { name: `S${++seq}` }));
    const sm = await milestoneOf('streak', s.id, 1);
    const day1 = await logOf('streak', { streakId: s.id, ownedBy: { externalId: `raise-s-${seq}` }, activityAt: '2026-11-01T10:00:00Z' });
    await raise(sm.id, 2);
    const day2 = await logOf('streak', { streakId: s.id, ownedById: day1.ownedById, activityAt: '2026-11-02T10:00:00Z' });
    expect(day2.streakProgress.currentProgressValue).toBe(2);
    expect(day2.achievedMilestoneRewardLog ?? null).toBeNull();
    expect(await rewardLogsOf(day1.ownedById)).toHaveLength(1);

    // A mission run: one task done reaches 1; raised to 2, the second crosses it again in the same run.
    // The next run, once this one completes, reaches it anew and is given it.
    const mission = await accepted(
      acct.api.post('/schema/mission/record', {
        name: `Mi${++seq}`,
        aggregationPeriod: 'monthly',
        isRepeatable: true,
        tasks: [
          { name: 'A', activityId: 'a', targetValue: 1 },
          { name: 'B', activityId: 'b', targetValue: 1 },
          { name: 'C', activityId: 'c', targetValue: 1 },
        ],
      }),
    );
    const mm = await milestoneOf('mission', mission.id, 1);
    const a = await logOf('mission', {
      missionId: mission.id,
      ownedBy: { externalId: `raise-m-${seq}` },
      activityId: 'a',
      activityAt: ACTIVITY_AT,
    });
    await raise(mm.id, 2);
    const b = await logOf('mission', { missionId: mission.id, ownedById: a.ownedById, activityId: 'b', activityAt: ACTIVITY_AT });
    expect(b.achievedMilestone ?? null).toBeNull();
    expect(await rewardLogsOf(a.ownedById)).toHaveLength(1);
    await logOf('mission', { missionId: mission.id, ownedById: a.ownedById, activityId: 'c', activityAt: ACTIVITY_AT });
    for (const activityId of ['a', 'b'])
      await logOf('mission', { missionId: mission.id, ownedById: a.ownedById, activityId, activityAt: '2026-11-02T10:00:00Z' });
    expect(await rewardLogsOf(a.ownedById)).toHaveLength(2);
  });
});
