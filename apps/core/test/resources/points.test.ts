import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertEventsDocumented } from '../support/fixtures.js';
import { accepted, type Client, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

// Points (CONTRACT §19) through the HTTP API: the setting, entries, balances and redeeming.
let app: TestApp;
let acct: TestAccount;
beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount({ timezone: 'UTC', defaultLanguageCode: 'en' });
});
afterAll(() => app.close());

let seq = 0;
const eq = (fieldSlug: string, fieldValue: unknown) => ({ operator: 'and', conditions: [{ fieldSlug, operator: 'equals', fieldValue }] });

async function create(api: Client, slug: string, body: Record<string, unknown>): Promise<any> {
  return accepted(api.post(`/schema/${slug}/record`, body));
}
const member = async (api = acct.api) => (await create(api, 'account_user', { externalId: `pts-${++seq}` })).id as string;
const entry = (body: Record<string, unknown>, api = acct.api) => api.post('/schema/point_entry/record', body);
async function setting(api = acct.api): Promise<any> {
  const res = await api.get('/schema/points_setting/record');
  expect(res.status).toBe(200);
  expect(res.body.data).toHaveLength(1);
  return res.body.data[0];
}
const setStatus = async (status: string, api = acct.api) =>
  accepted(api.patch(`/schema/points_setting/record/${(await setting(api)).id}`, { status }));
async function reward(extra: Record<string, unknown> = {}, api = acct.api): Promise<any> {
  return create(api, 'reward', {
    name: `R${++seq}`,
    description: 'd',
    discountType: 'percentage',
    discountValue: 10,
    rewardExpiryType: 'no_expiry',
    handleCoupon: true,
    handleCouponAutoGeneration: true,
    couponCodePrefix: 'PTS',
    pointsCost: 100,
    ...extra,
  });
}
async function endUser(externalId: string, acc = acct): Promise<{ client: Client; memberId: string }> {
  const token = await accepted(acc.api.post('/enduser/token', { externalId }));
  return {
    client: app.anon.with({ 'x-enduser-access-token': token.accessToken, 'x-account-id': acc.accountId }),
    memberId: token.memberId,
  };
}
/** What a refused request must leave as it was: the member's balance, entries and reward logs. */
async function stateOf(memberId: string) {
  const m = await app.db('account_user').where({ id: memberId }).first('points_balance', 'points_earned_in_tier_window');
  const entries = await app.db('point_entry').where({ owned_by_id: memberId }).count({ n: '*' });
  const logs = await app.db('reward_log').where({ owned_by_id: memberId }).count({ n: '*' });
  return { ...m, entries: Number(entries[0]!.n), rewardLogs: Number(logs[0]!.n) };
}
const balanceOf = async (memberId: string) => (await accepted(acct.api.get(`/schema/account_user/record/${memberId}`))).pointsBalance;
const redeem = (rewardId: string, body?: unknown, api = acct.api) => api.post(`/schema/reward/record/${rewardId}/action/redeem`, body);
const detailOf = (body: any, field: string) => body.error.details.find((d: any) => d.field === field);

describe('points_setting', () => {
  it('exists once per account from its creation, with its defaults', async () => {
    const other = await app.createAccount();
    for (const a of [acct, other])
      expect(await setting(a.api)).toMatchObject({
        status: 'draft',
        eudCurrencyName: null,
        expiryMonthsOfInactivity: 0,
        tierWindowMonths: 12,
      });
    expect((await setting(other.api)).id).not.toBe((await setting()).id);
  });

  it('is created and deleted by nobody (405), updated only by API keys, and read by end users and guests in its public fields while live', async () => {
    const s = await setting();
    const post = await acct.api.post('/schema/points_setting/record', { status: 'live' });
    expect(post.status).toBe(405);
    expect(post.body.error.code).toBe('method_not_allowed');
    const del = await acct.api.delete(`/schema/points_setting/record/${s.id}`);
    expect(del.status).toBe(405);
    expect(del.body.error.code).toBe('method_not_allowed');
    expect(await setting()).toMatchObject({ id: s.id });
    const { client } = await endUser(`eu-${++seq}`);
    const readers = [client, app.anon.with({ 'x-account-id': acct.accountId })];
    // A program not live is none of the storefront's business.
    for (const reader of readers) expect(await accepted(reader.get('/schema/points_setting/record'))).toEqual([]);
    await setStatus('live');
    for (const reader of readers) {
      expect([401, 403]).toContain((await reader.patch(`/schema/points_setting/record/${s.id}`, { status: 'draft' })).status);
      // The widget's ways to earn: its public fields, nothing of the account's own.
      const [read] = (await accepted(reader.get('/schema/points_setting/record'))) as Record<string, unknown>[];
      expect(Object.keys(read!).sort()).toEqual(
        [
          'id',
          'createdAt',
          'updatedAt',
          'status',
          'eudCurrencyName',
          'eudCurrencyNameOne',
          'expiryMonthsOfInactivity',
          'tierWindowMonths',
          'pointsPerCurrencyUnit',
          'pointsPerOrder',
          'pointsOnSignUp',
          'pointsOnNewsletter',
          'pointsOnBirthday',
          'pointsOnReferral',
          'pointsOnReferredOrder',
          'referralRewardId',
          'pointsOnFollow',
          'instagramUrl',
          'tiktokUrl',
          'facebookUrl',
          'youtubeUrl',
          'xUrl',
          'pinterestUrl',
          'bonusMultiplier',
          'bonusStartsAt',
          'bonusEndsAt',
        ].sort(),
      );
    }
    expect(await setting()).toMatchObject({ status: 'live' });
    await setStatus('draft');
  });

  it('keeps the earning rates, checking their bounds', async () => {
    const s = await setting();
    await accepted(
      acct.api.patch(`/schema/points_setting/record/${s.id}`, {
        pointsPerCurrencyUnit: 1.5,
        pointsPerOrder: 10,
        pointsOnSignUp: 100,
        pointsOnNewsletter: 50,
        pointsOnReferral: 500,
        pointsOnReferredOrder: 250,
      }),
    );
    const rates = {
      pointsPerCurrencyUnit: 1.5,
      pointsPerOrder: 10,
      pointsOnSignUp: 100,
      pointsOnNewsletter: 50,
      pointsOnReferral: 500,
      pointsOnReferredOrder: 250,
    };
    expect(await setting()).toMatchObject(rates);
    for (const [body, field, code] of [
      [{ pointsPerCurrencyUnit: -1 }, 'pointsPerCurrencyUnit', 'too_small'],
      [{ pointsPerOrder: 2.5 }, 'pointsPerOrder', 'invalid_type'],
      [{ pointsOnSignUp: 1_000_001 }, 'pointsOnSignUp', 'too_large'],
      [{ pointsOnNewsletter: -5 }, 'pointsOnNewsletter', 'too_small'],
      [{ pointsOnReferral: 1.5 }, 'pointsOnReferral', 'invalid_type'],
      [{ pointsOnReferredOrder: -1 }, 'pointsOnReferredOrder', 'too_small'],
    ] as const) {
      const res = await acct.api.patch(`/schema/points_setting/record/${s.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(detailOf(res.body, field)?.code).toBe(code);
    }
    expect(await setting()).toMatchObject(rates);
  });

  it('keeps a bonus points event: a multiplier of one decimal with its start and end, or none (1)', async () => {
    const s = await setting();
    expect(s).toMatchObject({ bonusMultiplier: 1, bonusStartsAt: null, bonusEndsAt: null });
    const event = { bonusMultiplier: 2, bonusStartsAt: '2026-12-11T23:00:00.000Z', bonusEndsAt: '2026-12-13T23:00:00.000Z' };
    await accepted(acct.api.patch(`/schema/points_setting/record/${s.id}`, event));
    expect(await setting()).toMatchObject(event);
    for (const [body, field, code] of [
      [{ bonusMultiplier: 1.25 }, 'bonusMultiplier', 'invalid'],
      [{ bonusMultiplier: 11 }, 'bonusMultiplier', 'too_large'],
      [{ bonusMultiplier: 0.5 }, 'bonusMultiplier', 'too_small'],
      [{ bonusStartsAt: null }, 'bonusStartsAt', 'required'],
      [{ bonusEndsAt: null }, 'bonusEndsAt', 'required'],
      [{ bonusEndsAt: '2026-12-11T23:00:00.000Z' }, 'bonusEndsAt', 'invalid'],
      [{ bonusEndsAt: 'next Sunday' }, 'bonusEndsAt', 'invalid_format'],
    ] as const) {
      const res = await acct.api.patch(`/schema/points_setting/record/${s.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(detailOf(res.body, field)?.code, JSON.stringify(res.body)).toBe(code);
    }
    expect(await setting()).toMatchObject(event);
    // Ended: a multiplier of 1 needs no times, and may keep the last event's.
    await accepted(acct.api.patch(`/schema/points_setting/record/${s.id}`, { bonusMultiplier: 1 }));
    await accepted(acct.api.patch(`/schema/points_setting/record/${s.id}`, { bonusStartsAt: null, bonusEndsAt: null }));
    expect(await setting()).toMatchObject({ bonusMultiplier: 1, bonusStartsAt: null, bonusEndsAt: null });
  });

  it('keeps eudCurrencyName per language and checks its bounds', async () => {
    const s = await setting();
    await accepted(acct.api.patch(`/schema/points_setting/record/${s.id}`, { eudCurrencyName: 'Stars' }));
    await accepted(
      acct.api.request('PATCH', `/schema/points_setting/record/${s.id}`, {
        body: { eudCurrencyName: 'Étoiles' },
        query: { languageCode: 'fr' },
      }),
    );
    expect((await accepted(acct.api.get(`/schema/points_setting/record/${s.id}`))).eudCurrencyName).toBe('Stars');
    expect((await accepted(acct.api.get(`/schema/points_setting/record/${s.id}`, { languageCode: 'fr' }))).eudCurrencyName).toBe('Étoiles');
    for (const [body, field, code] of [
      [{ expiryMonthsOfInactivity: 61 }, 'expiryMonthsOfInactivity', 'too_large'],
      [{ expiryMonthsOfInactivity: -1 }, 'expiryMonthsOfInactivity', 'too_small'],
      [{ tierWindowMonths: 37 }, 'tierWindowMonths', 'too_large'],
      [{ tierWindowMonths: 1.5 }, 'tierWindowMonths', 'invalid_type'],
      [{ status: 'on' }, 'status', 'invalid_enum'],
    ] as const) {
      const res = await acct.api.patch(`/schema/points_setting/record/${s.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('invalid_input');
      expect(detailOf(res.body, field)?.code).toBe(code);
    }
    expect(await setting()).toMatchObject({ expiryMonthsOfInactivity: 0, tierWindowMonths: 12 });
  });
});

describe('point_entry', () => {
  it('refuses what an API key may not write (400), leaving the member as it was', async () => {
    await setStatus('live');
    const m = await member();
    await accepted(entry({ ownedById: m, points: 50, reason: 'earned' }));
    const before = await stateOf(m);
    for (const [body, field] of [
      [{ points: 10, reason: 'redeemed' }, 'reason'],
      [{ points: 10, reason: 'reversed' }, 'reason'],
      [{ points: 10, reason: 'expired' }, 'reason'],
      [{ points: 0, reason: 'adjusted' }, 'points'],
      [{ points: -5, reason: 'earned' }, 'points'],
      [{ points: 1.5, reason: 'earned' }, 'points'],
      [{ points: 10, reason: 'earned', note: 'x'.repeat(257) }, 'note'],
      [{ points: 10, reason: 'earned', pointsBalance: 3 }, 'pointsBalance'],
    ] as const) {
      const res = await entry({ ownedById: m, ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('invalid_input');
      expect(detailOf(res.body, field), JSON.stringify(res.body)).toBeDefined();
    }
    // A number past both the safe integers and the field's bound is told the field's bound alone.
    const huge = await entry({ ownedById: m, points: 1e300, reason: 'earned' });
    expect(huge.body.error.details).toEqual([
      expect.objectContaining({ field: 'points', code: 'too_large', message: 'Must be at most 1000000.' }),
    ]);
    const unknown = await entry({ ownedById: '00000000-0000-4000-8000-000000000000', points: 10, reason: 'earned' });
    expect(unknown.status).toBe(400);
    expect(detailOf(unknown.body, 'ownedById')?.code).toBe('not_found');
    expect((await entry({ points: 10, reason: 'earned' })).status).toBe(400);
    // A link to one of the service's records names one of this account's; another slug is the client's own reference.
    const elsewhere = await member((await app.createAccount()).api);
    // Unknown, not an id, a record of another resource, another account's record.
    for (const linkedSchemaRecordId of ['00000000-0000-4000-8000-000000000000', 'not-a-uuid', m, elsewhere]) {
      const slug = linkedSchemaRecordId === elsewhere ? 'account_user' : 'streak_log';
      const dangling = await entry({ ownedById: m, points: 10, reason: 'adjusted', linkedSchemaSlug: slug, linkedSchemaRecordId });
      expect(dangling.status, linkedSchemaRecordId).toBe(400);
      expect(detailOf(dangling.body, 'linkedSchemaRecordId')?.code).toBe('not_found');
    }
    expect(await stateOf(m)).toEqual(before);
    const order = await entry({
      ownedById: m,
      points: 10,
      reason: 'adjusted',
      linkedSchemaSlug: 'shopify_order',
      linkedSchemaRecordId: '1001',
    });
    expect(order.status).toBe(200);
    expect(
      (await entry({ ownedById: m, points: 1, reason: 'adjusted', linkedSchemaSlug: 'account_user', linkedSchemaRecordId: m })).status,
    ).toBe(200);
  });

  it('moves the balance with each entry; a negative adjustment beyond it is 409 insufficient_points', async () => {
    await setStatus('live');
    const m = await member();
    const earned = await accepted(
      entry({ ownedById: m, points: 120, reason: 'earned', note: 'welcome', linkedSchemaSlug: 'order', linkedSchemaRecordId: 'order-1' }),
    );
    expect(earned).toMatchObject({
      ownedById: m,
      points: 120,
      reason: 'earned',
      note: 'welcome',
      linkedSchemaSlug: 'order',
      linkedSchemaRecordId: 'order-1',
    });
    expect((await accepted(acct.api.get(`/schema/account_user/record/${m}`))).lastPointEntryAt).toBe(earned.createdAt);
    await accepted(entry({ ownedById: m, points: -20, reason: 'adjusted' }));
    const last = await accepted(entry({ ownedById: m, points: 5, reason: 'adjusted' }));
    // The newest entry's time, from which the member's points expire (read-only, as the balance).
    expect(await accepted(acct.api.get(`/schema/account_user/record/${m}`))).toMatchObject({
      pointsBalance: 105,
      pointsEarnedInTierWindow: 120,
      lastPointEntryAt: last.createdAt,
    });
    const before = await stateOf(m);
    const over = await entry({ ownedById: m, points: -106, reason: 'adjusted' });
    expect(over.status).toBe(409);
    expect(over.body.error.code).toBe('insufficient_points');
    expect(await stateOf(m)).toEqual(before);
    await accepted(entry({ ownedById: m, points: -105, reason: 'adjusted' }));
    expect(await balanceOf(m)).toBe(0);
  });

  it('answers a replayed uniqueIdentifier with 409 duplicate_unique_identifier and changes nothing', async () => {
    await setStatus('live');
    const m = await member();
    const first = await accepted(entry({ ownedById: m, points: 10, reason: 'earned', uniqueIdentifier: `u-${++seq}` }));
    const before = await stateOf(m);
    const replay = await entry({ ownedById: m, points: 10, reason: 'earned', uniqueIdentifier: first.uniqueIdentifier });
    expect(replay.status).toBe(409);
    expect(replay.body.error).toMatchObject({
      code: 'duplicate_unique_identifier',
      details: [{ field: 'uniqueIdentifier', existingRecordId: first.id }],
    });
    // Also for another member: the identifier is unique per account.
    const other = await member();
    expect((await entry({ ownedById: other, points: 3, reason: 'adjusted', uniqueIdentifier: first.uniqueIdentifier })).status).toBe(409);
    expect(await stateOf(m)).toEqual(before);
    expect(await balanceOf(other)).toBe(0);
    // Replays that race: one entry, one balance change.
    const uid = `race-${++seq}`;
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => entry({ ownedById: other, points: 7, reason: 'earned', uniqueIdentifier: uid })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(7).fill(409)]);
    expect(await balanceOf(other)).toBe(7);
    // A replayed deduction is a replay even when the balance no longer covers it.
    const deduction = await accepted(entry({ ownedById: other, points: -5, reason: 'adjusted', uniqueIdentifier: `d-${++seq}` }));
    const again = await entry({ ownedById: other, points: -5, reason: 'adjusted', uniqueIdentifier: deduction.uniqueIdentifier });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'duplicate_unique_identifier', details: [{ existingRecordId: deduction.id }] });
    expect(await balanceOf(other)).toBe(2);
  });

  it('earns nothing while points are not live', async () => {
    const m = await member();
    await setStatus('draft');
    const res = await entry({ ownedById: m, points: 10, reason: 'earned' });
    expect(res.status).toBe(409);
    expect(await stateOf(m)).toMatchObject({ points_balance: 0, entries: 0 });
    await setStatus('live');
  });

  it('is not updated or deleted (405)', async () => {
    await setStatus('live');
    const e = await accepted(entry({ ownedById: await member(), points: 10, reason: 'earned' }));
    expect((await acct.api.patch(`/schema/point_entry/record/${e.id}`, { note: 'x' })).status).toBe(405);
    expect((await acct.api.delete(`/schema/point_entry/record/${e.id}`)).status).toBe(405);
    expect((await acct.api.patch(`/schema/account_user/record/${e.ownedById}`, { pointsBalance: 1000 })).status).toBe(400);
  });

  it('shows an end user their own entries only, and another account none', async () => {
    await setStatus('live');
    const me = await endUser(`own-${++seq}`);
    const them = await endUser(`other-${++seq}`);
    const mine = await accepted(entry({ ownedById: me.memberId, points: 10, reason: 'earned' }));
    const theirs = await accepted(entry({ ownedById: them.memberId, points: 20, reason: 'earned' }));
    const list = await accepted(me.client.get('/schema/point_entry/record'));
    expect(list.map((e: any) => e.id)).toEqual([mine.id]);
    expect((await me.client.get(`/schema/point_entry/record/${mine.id}`)).status).toBe(200);
    expect((await me.client.get(`/schema/point_entry/record/${theirs.id}`)).status).toBe(404);
    expect((await me.client.post('/schema/point_entry/record', { ownedById: me.memberId, points: 5, reason: 'earned' })).status).toBe(403);
    expect(await accepted(me.client.get('/schema/account_user/me'))).toMatchObject({ pointsBalance: 10, lastPointEntryAt: mine.createdAt });
    // The customer account page's history: newest first, with where each came from and the shop's note.
    const noted = await accepted(entry({ ownedById: me.memberId, points: 5, reason: 'adjusted', note: 'Sorry for the wait' }));
    const history = await accepted(
      me.client.get('/schema/point_entry/record', { sortBy: [{ fieldSlug: 'createdAt', order: 'DESC' }], limit: 20 }),
    );
    expect(history.map((e: any) => e.id)).toEqual([noted.id, mine.id]);
    expect(history[0]).toMatchObject({
      points: 5,
      reason: 'adjusted',
      note: 'Sorry for the wait',
      linkedSchemaSlug: null,
      createdAt: expect.any(String),
    });

    const other = await app.createAccount();
    expect((await other.api.get(`/schema/point_entry/record/${mine.id}`)).status).toBe(404);
    expect(await accepted(other.api.get('/schema/point_entry/record'))).toEqual([]);
    expect((await entry({ ownedById: me.memberId, points: 5, reason: 'adjusted' }, other.api)).status).toBe(400);
  });
});

describe('reward points fields', () => {
  it('requires pointsValue for a points reward and the discount for a code reward', async () => {
    const points = await create(acct.api, 'reward', {
      name: 'P',
      description: 'd',
      rewardKind: 'points',
      pointsValue: 50,
      rewardExpiryType: 'no_expiry',
    });
    expect(points).toMatchObject({
      rewardKind: 'points',
      pointsValue: 50,
      discountType: null,
      discountValue: null,
      pointsCost: null,
      status: 'live',
    });
    const noValue = await acct.api.post('/schema/reward/record', {
      name: 'P',
      description: 'd',
      rewardKind: 'points',
      rewardExpiryType: 'no_expiry',
    });
    expect(detailOf(noValue.body, 'pointsValue')?.code).toBe('required');
    const noDiscount = await acct.api.post('/schema/reward/record', { name: 'C', description: 'd', rewardExpiryType: 'no_expiry' });
    expect(detailOf(noDiscount.body, 'discountType')?.code).toBe('required');
    for (const [body, field] of [
      [{ pointsValue: 0 }, 'pointsValue'],
      [{ pointsValue: 1_000_001 }, 'pointsValue'],
      [{ pointsCost: 0 }, 'pointsCost'],
      [{ pointsCost: 1_000_001 }, 'pointsCost'],
      [{ rewardKind: 'cash' }, 'rewardKind'],
    ] as const) {
      const base: Record<string, unknown> = {
        name: 'P',
        description: 'd',
        rewardKind: 'points',
        rewardExpiryType: 'no_expiry',
        pointsValue: 5,
      };
      const res = await acct.api.post('/schema/reward/record', { ...base, ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(detailOf(res.body, field)).toBeDefined();
    }
  });
});

describe('redeem', () => {
  it('deducts the cost and issues a reward log with a code, for an end user and for an API key', async () => {
    await setStatus('live');
    const r = await reward({ pointsCost: 100 });
    const me = await endUser(`red-${++seq}`);
    await accepted(entry({ ownedById: me.memberId, points: 250, reason: 'earned' }));
    const res = await accepted(redeem(r.id, undefined, me.client));
    expect(res.pointsBalance).toBe(150);
    expect(res.rewardLog).toMatchObject({
      rewardId: r.id,
      ownedById: me.memberId,
      rewardLogStatus: 'issued',
      linkedSchemaSlug: 'point_entry',
    });
    expect(res.rewardLog.couponCode).toMatch(/^PTS/);
    const byKey = await accepted(redeem(r.id, { ownedById: me.memberId, uniqueIdentifier: `redeem-${++seq}` }));
    expect(byKey.pointsBalance).toBe(50);
    const entries = await accepted(me.client.get('/schema/point_entry/record', { filters: eq('reason', 'redeemed') }));
    expect(entries).toHaveLength(2);
    expect(entries.every((e: any) => e.points === -100 && e.linkedSchemaSlug === 'reward_log')).toBe(true);
    expect(entries.map((e: any) => e.linkedSchemaRecordId).sort()).toEqual([res.rewardLog.id, byKey.rewardLog.id].sort());
    const logs = await accepted(me.client.get('/schema/reward_log/record'));
    expect(logs).toHaveLength(2);
    const events = await accepted(acct.api.get('/schema/event_log/record', { filters: eq('eventCode', 'points_redeemed') }));
    const mine = events.filter((e: any) => e.ownedById === me.memberId);
    expect(mine).toHaveLength(2);
    expect(mine[0].payload).toMatchObject({
      pointEntry: { reason: 'redeemed', points: -100 },
      member: { id: me.memberId, pointsBalance: 50 },
    });
    const earned = await accepted(acct.api.get('/schema/event_log/record', { filters: eq('eventCode', 'points_earned') }));
    expect(earned.some((e: any) => e.ownedById === me.memberId && e.payload.pointEntry.points === 250)).toBe(true);
    await assertEventsDocumented(app, acct.api);
  });

  it('refuses each case with its error and nothing changed', async () => {
    await setStatus('live');
    const m = await member();
    await accepted(entry({ ownedById: m, points: 150, reason: 'earned' }));
    const r = await reward({ pointsCost: 100 });
    const uid = `once-${++seq}`;
    const first = await accepted(redeem(r.id, { ownedById: m, uniqueIdentifier: uid }));
    await accepted(entry({ ownedById: m, points: 100, reason: 'adjusted' }));
    const before = await stateOf(m);
    const me = await endUser(`refused-${++seq}`);

    const expectRefused = async (res: Promise<any>, status: number, code: string) => {
      const answer = await res;
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      expect(answer.body.error.code).toBe(code);
      expect(await stateOf(m)).toEqual(before);
    };
    const replay = await redeem(r.id, { ownedById: m, uniqueIdentifier: uid });
    expect(replay.body.error.details[0].existingRecordId).toBe(first.rewardLog.id);
    await expectRefused(Promise.resolve(replay), 409, 'duplicate_unique_identifier');
    await expectRefused(redeem((await reward({ pointsCost: null })).id, { ownedById: m }), 409, 'not_redeemable');
    await expectRefused(redeem((await reward({ pointsCost: 10, status: 'paused' })).id, { ownedById: m }), 409, 'not_redeemable');
    // A reward that gives points, even with a cost, says so rather than that it has none.
    const givesPoints = reward({ rewardKind: 'points', pointsValue: 5, pointsCost: 5, discountType: null, discountValue: null });
    const bought = await redeem((await givesPoints).id, { ownedById: m });
    expect(bought.body.error).toMatchObject({ code: 'not_redeemable', details: [expect.objectContaining({ field: 'rewardKind' })] });
    await expectRefused(Promise.resolve(bought), 409, 'not_redeemable');
    await expectRefused(redeem((await reward({ pointsCost: 151 })).id, { ownedById: m }), 409, 'insufficient_points');
    await expectRefused(redeem(r.id, {}), 400, 'invalid_input');
    await expectRefused(redeem(r.id, { ownedById: m, extra: 1 }), 400, 'invalid_input');
    // Fields are named as the record endpoints name them; a body that is no object names none.
    const fieldsOf = async (res: Promise<any>) => (await res).body.error.details.map((d: { field?: string }) => d.field);
    expect(await fieldsOf(redeem(r.id, { ownedById: 'nope' }))).toEqual(['ownedById']);
    expect(await fieldsOf(redeem(r.id, { ownedById: m, extra: 1 }))).toEqual(['extra']);
    expect(await fieldsOf(redeem(r.id, [1]))).toEqual([undefined]);
    await expectRefused(redeem(r.id, null), 400, 'invalid_input');
    await expectRefused(redeem(r.id, { ownedById: '00000000-0000-4000-8000-000000000000' }), 400, 'invalid_input');
    // A body naming no member is refused as such before what the reward allows (CONTRACT §3).
    const unknownMember = await redeem((await reward({ pointsCost: null })).id, { ownedById: '00000000-0000-4000-8000-000000000000' });
    expect(unknownMember.body.error.details).toEqual([expect.objectContaining({ field: 'ownedById', code: 'not_found' })]);
    await expectRefused(Promise.resolve(unknownMember), 400, 'invalid_input');
    await expectRefused(redeem(r.id, { ownedById: m }, me.client), 400, 'invalid_input');
    await expectRefused(redeem('00000000-0000-4000-8000-000000000000', { ownedById: m }), 404, 'not_found');
    await expectRefused(acct.api.request('GET', `/schema/reward/record/${r.id}/action/redeem`), 405, 'method_not_allowed');
    const other = await app.createAccount();
    await expectRefused(redeem(r.id, { ownedById: m }, other.api), 404, 'not_found');
    await setStatus('draft');
    await expectRefused(redeem(r.id, { ownedById: m }), 409, 'not_redeemable');
    await setStatus('live');
    // A member who does not take part (paused, as the Shopify app's exclusions leave a customer out) spends nothing.
    expect((await acct.api.patch(`/schema/account_user/record/${m}`, { status: 'paused' })).status).toBe(200);
    const paused = await redeem(r.id, { ownedById: m });
    expect(paused.body.error.details).toEqual([expect.objectContaining({ field: 'ownedById', code: 'not_redeemable' })]);
    await expectRefused(Promise.resolve(paused), 409, 'not_redeemable');
    expect((await acct.api.patch(`/schema/account_user/record/${m}`, { status: 'live' })).status).toBe(200);
    expect(first.pointsBalance).toBe(50);
    expect(await accepted(redeem(r.id, { ownedById: m }))).toMatchObject({ pointsBalance: 50 });
  });
});

describe('a redemption with no code to give', () => {
  it('is refused, taking no points, while the reward’s pool is empty and it generates none; a code imported then goes out', async () => {
    await setStatus('live');
    const m = await member();
    await accepted(entry({ ownedById: m, points: 100, reason: 'adjusted' }));
    const r = await reward({ handleCouponAutoGeneration: false, pointsCost: 40 });
    const before = await stateOf(m);
    const refused = await redeem(r.id, { ownedById: m });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'not_redeemable', details: [{ field: 'couponCode', code: 'not_redeemable' }] });
    expect(await stateOf(m)).toEqual(before);
    await accepted(acct.api.post(`/schema/reward/record/${r.id}/action/import_coupons`, { couponCodes: ['POOL-1'] }));
    expect(await accepted(redeem(r.id, { ownedById: m }))).toMatchObject({ pointsBalance: 60, rewardLog: { couponCode: 'POOL-1' } });
    // A reward whose codes the merchant gives otherwise (no coupon handling) is redeemed without one.
    const handedOut = await reward({ handleCoupon: false, handleCouponAutoGeneration: false, pointsCost: 10 });
    expect(await accepted(redeem(handedOut.id, { ownedById: m }))).toMatchObject({ pointsBalance: 50, rewardLog: { couponCode: null } });
  });
});

describe('uniqueIdentifier namespaces', () => {
  it('keeps redemptions apart from the other entries: one identifier in both is neither refused nor answered as the other’s replay', async () => {
    await setStatus('live');
    const m = await member();
    const shared = `shared-${++seq}`;
    const given = await accepted(entry({ ownedById: m, points: 200, reason: 'adjusted', uniqueIdentifier: shared }));
    const r = await reward({ pointsCost: 50 });
    const bought = await redeem(r.id, { ownedById: m, uniqueIdentifier: shared });
    expect(bought.status, JSON.stringify(bought.body)).toBe(200);
    const [redeemed] = await accepted(
      acct.api.get('/schema/point_entry/record', { filters: eq('reason', 'redeemed'), limit: '1000' }),
    ).then((all: any[]) => all.filter((e) => e.ownedById === m));
    expect(redeemed).toMatchObject({ uniqueIdentifier: shared, linkedSchemaRecordId: bought.body.data.rewardLog.id });
    // Each replay names what its first request made: a redemption its reward log, an entry itself.
    const again = await redeem(r.id, { ownedById: m, uniqueIdentifier: shared });
    expect(again.status).toBe(409);
    expect(again.body.error.details[0].existingRecordId).toBe(bought.body.data.rewardLog.id);
    const adjustAgain = await entry({ ownedById: m, points: 200, reason: 'adjusted', uniqueIdentifier: shared });
    expect(adjustAgain.status).toBe(409);
    expect(adjustAgain.body.error.details[0].existingRecordId).toBe(given.id);
    // A redemption's identifier is free for an entry, and the other way round.
    const key = `first-redeemed-${seq}`;
    expect((await redeem(r.id, { ownedById: m, uniqueIdentifier: key })).status).toBe(200);
    expect((await entry({ ownedById: m, points: 10, reason: 'earned', uniqueIdentifier: key })).status).toBe(200);
    expect(await balanceOf(m)).toBe(200 - 50 - 50 + 10);
  });

  it('tells a retried redemption it was made whatever the reward or the points are now, and names no other member’s entry', async () => {
    await setStatus('live');
    const m = await member();
    await accepted(entry({ ownedById: m, points: 100, reason: 'adjusted' }));
    const r = await reward({ pointsCost: 10 });
    const key = `retried-${++seq}`;
    const made = await accepted(redeem(r.id, { ownedById: m, uniqueIdentifier: key }));
    const [redeemed] = await accepted(acct.api.get('/schema/point_entry/record', { filters: eq('ownedById', m) })).then((all: any[]) =>
      all.filter((e) => e.reason === 'redeemed'),
    );
    expect(redeemed.linkedSchemaRecordId).toBe(made.rewardLog.id);
    const retried = async () => {
      const res = await redeem(r.id, { ownedById: m, uniqueIdentifier: key });
      expect(res.status, JSON.stringify(res.body)).toBe(409);
      expect(res.body.error).toMatchObject({ code: 'duplicate_unique_identifier', details: [{ existingRecordId: made.rewardLog.id }] });
      expect(res.body.error.message).toBe('A redemption with this uniqueIdentifier already exists; nothing was changed.');
    };
    await accepted(acct.api.patch(`/schema/reward/record/${r.id}`, { status: 'paused' }));
    await retried();
    await accepted(acct.api.patch(`/schema/reward/record/${r.id}`, { status: 'live', pointsCost: null }));
    await retried();
    await setStatus('paused');
    await retried();
    await setStatus('live');
    await accepted(acct.api.patch(`/schema/reward/record/${r.id}`, { pointsCost: 10 }));

    // Another member with the same key: refused (keys are the account's), without the first member's reward log id.
    const other = await member();
    await accepted(entry({ ownedById: other, points: 100, reason: 'adjusted' }));
    const theirs = await redeem(r.id, { ownedById: other, uniqueIdentifier: key });
    expect(theirs.status).toBe(409);
    expect(theirs.body.error.code).toBe('duplicate_unique_identifier');
    expect(theirs.body.error.details[0].existingRecordId).toBeUndefined();
    expect(await balanceOf(other)).toBe(100);
    expect(await balanceOf(m)).toBe(90);
  });
});

describe('reverse', () => {
  const reverse = (id: string, body?: unknown, api = acct.api) => api.post(`/schema/point_entry/record/${id}/action/reverse`, body);

  it('takes back part, then the rest of an earned entry, even below 0, and then nothing more', async () => {
    await setStatus('live');
    const m = await member();
    const earned = await accepted(entry({ ownedById: m, points: 100, reason: 'earned' }));
    await accepted(entry({ ownedById: m, points: -90, reason: 'adjusted' }));
    const part = await accepted(reverse(earned.id, { points: 30, note: 'refund 1', uniqueIdentifier: `r-${++seq}` }));
    expect(part.pointEntry).toMatchObject({
      points: -30,
      reason: 'reversed',
      note: 'refund 1',
      linkedSchemaSlug: 'point_entry',
      linkedSchemaRecordId: earned.id,
    });
    expect(part.pointsBalance).toBe(-20);
    // More than remains takes what remains.
    const rest = await accepted(reverse(earned.id, { points: 500 }));
    expect(rest).toMatchObject({ pointEntry: { points: -70 }, pointsBalance: -90 });
    const none = await reverse(earned.id, {});
    expect(none.status).toBe(409);
    expect(none.body.error.code).toBe('not_reversible');
    expect((await accepted(acct.api.get(`/schema/account_user/record/${m}`))).pointsEarnedInTierWindow).toBe(0);
  });

  it('refuses entries that are not earned, replays, bad bodies, end users and other accounts, changing nothing', async () => {
    await setStatus('live');
    const m = await member();
    const earned = await accepted(entry({ ownedById: m, points: 50, reason: 'earned' }));
    const adjusted = await accepted(entry({ ownedById: m, points: 5, reason: 'adjusted' }));
    const key = `r-${++seq}`;
    await accepted(reverse(earned.id, { points: 10, uniqueIdentifier: key }));
    const before = await stateOf(m);
    const other = await app.createAccount();
    const { client } = await endUser(`eu-${++seq}`);
    for (const [res, status, code] of [
      [await reverse(adjusted.id), 409, 'not_reversible'],
      [await reverse(earned.id, { points: 10, uniqueIdentifier: key }), 409, 'duplicate_unique_identifier'],
      [await reverse(earned.id, { points: 0 }), 400, 'invalid_input'],
      [await reverse(earned.id, { points: 1.5 }), 400, 'invalid_input'],
      [await reverse(earned.id, { extra: true }), 400, 'invalid_input'],
      // A JSON null is not an empty body: it reverses nothing.
      [await reverse(earned.id, null), 400, 'invalid_input'],
      [await reverse(earned.id, {}, client), 403, 'forbidden'],
      [await reverse(earned.id, {}, other.api), 404, 'not_found'],
    ] as const) {
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(res.body.error.code).toBe(code);
    }
    expect((await reverse(earned.id, { points: 1.5 })).body.error.details.map((d: { field: string }) => d.field)).toEqual(['points']);
    expect(await stateOf(m)).toEqual(before);
  });

  it('answers a replay of a full reversal, racing or late, with the reversal it made', async () => {
    await setStatus('live');
    const m = await member();
    const earned = await accepted(entry({ ownedById: m, points: 40, reason: 'earned' }));
    const key = `r-${++seq}`;
    const answers = await Promise.all(Array.from({ length: 10 }, () => reverse(earned.id, { uniqueIdentifier: key })));
    const made = answers.filter((a) => a.status === 200);
    expect(made).toHaveLength(1);
    const madeId = made[0]!.body.data.pointEntry.id;
    for (const replay of [...answers.filter((a) => a.status !== 200), await reverse(earned.id, { uniqueIdentifier: key })]) {
      expect(replay.status, JSON.stringify(replay.body)).toBe(409);
      expect(replay.body.error.code).toBe('duplicate_unique_identifier');
      expect(replay.body.error.details[0].existingRecordId).toBe(madeId);
    }
    expect(await balanceOf(m)).toBe(0);
  });

  it('racing reversals of one entry never take back more than it earned', async () => {
    await setStatus('live');
    const m = await member();
    const earned = await accepted(entry({ ownedById: m, points: 100, reason: 'earned' }));
    const answers = await Promise.all(Array.from({ length: 20 }, () => reverse(earned.id, { points: 7 })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(15);
    expect(answers.filter((a) => a.status !== 200).every((a) => a.status === 409 && a.body.error.code === 'not_reversible')).toBe(true);
    expect(await balanceOf(m)).toBe(0);
  });
});

describe('tiers', () => {
  /** A fresh account, so its tiers are the test's alone. */
  async function program() {
    const a = await app.createAccount({ timezone: 'UTC', defaultLanguageCode: 'en' });
    await setStatus('live', a.api);
    return a;
  }
  const tierOf = async (a: TestAccount, memberId: string) => (await accepted(a.api.get(`/schema/account_user/record/${memberId}`))).tierId;
  const balanceIn = async (a: TestAccount, memberId: string) =>
    (await accepted(a.api.get(`/schema/account_user/record/${memberId}`))).pointsBalance;
  const events = async (a: TestAccount, code: string) =>
    ((await accepted(a.api.get('/schema/event_log/record', { limit: '1000' }))) as any[]).filter((e) => e.eventCode === code);

  it('checks its fields and shows end users and guests live tiers in their public fields', async () => {
    const a = await program();
    for (const [body, field] of [
      [{ name: 'T', pointsThreshold: -1 }, 'pointsThreshold'],
      [{ name: 'T', pointsThreshold: 1, earnMultiplier: 0.5 }, 'earnMultiplier'],
      [{ name: 'T', pointsThreshold: 1, earnMultiplier: 11 }, 'earnMultiplier'],
      [{ name: 'T', pointsThreshold: 1, earnMultiplier: 1.25 }, 'earnMultiplier'],
      [{ name: 'T', pointsThreshold: 1, entryRewardId: '00000000-0000-4000-8000-000000000000' }, 'entryRewardId'],
    ] as const) {
      const res = await a.api.post('/schema/tier/record', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(detailOf(res.body, field), JSON.stringify(res.body)).toBeTruthy();
    }
    const live = await create(a.api, 'tier', {
      name: 'Gold (merchant)',
      status: 'live',
      pointsThreshold: 500,
      earnMultiplier: 1.5,
      eudTitle: 'Gold',
    });
    await create(a.api, 'tier', { name: 'Draft', pointsThreshold: 100 });
    const { client } = await endUser(`eu-${++seq}`, a);
    for (const reader of [client, app.anon.with({ 'x-account-id': a.accountId })]) {
      const tiers = await accepted(reader.get('/schema/tier/record'));
      expect(tiers).toEqual([expect.objectContaining({ id: live.id, pointsThreshold: 500, earnMultiplier: 1.5, eudTitle: 'Gold' })]);
      expect(tiers[0]).not.toHaveProperty('name');
      expect([401, 403]).toContain((await reader.post('/schema/tier/record', { name: 'X', pointsThreshold: 1 })).status);
    }
  });

  it('answers a redemption or reversal that lifts the member with the balance after the tier’s entry reward of points', async () => {
    const a = await program();
    const bonus = await reward({ rewardKind: 'points', pointsValue: 50, pointsCost: null }, a.api);
    const prize = await reward({}, a.api);
    const [m, n] = [await member(a.api), await member(a.api)];
    await accepted(entry({ ownedById: m, points: 150, reason: 'earned' }, a.api));
    const earned = await accepted(entry({ ownedById: n, points: 150, reason: 'earned' }, a.api));
    // Created after the entries: the next entry of each member lifts it.
    await create(a.api, 'tier', { name: 'Silver', status: 'live', pointsThreshold: 100, earnMultiplier: 2, entryRewardId: bonus.id });
    const redeemed = await accepted(redeem(prize.id, { ownedById: m }, a.api));
    expect(redeemed.pointsBalance).toBe(150 - 100 + 100);
    expect(redeemed.pointsBalance).toBe(await balanceIn(a, m));
    const reversed = await accepted(a.api.post(`/schema/point_entry/record/${earned.id}/action/reverse`, { points: 10 }));
    expect(reversed.pointsBalance).toBe(150 - 10 + 100);
    expect(reversed.pointsBalance).toBe(await balanceIn(a, n));
  });

  it('lifts a member into the highest tier reached, multiplies later earned entries, and issues only the landed tier’s entry reward, once', async () => {
    const a = await program();
    const silverGift = await reward({ pointsCost: null }, a.api);
    const goldGift = await reward({ pointsCost: null }, a.api);
    const silver = await create(a.api, 'tier', {
      name: 'Silver',
      status: 'live',
      pointsThreshold: 100,
      earnMultiplier: 1.2,
      entryRewardId: silverGift.id,
    });
    const gold = await create(a.api, 'tier', {
      name: 'Gold',
      status: 'live',
      pointsThreshold: 300,
      earnMultiplier: 1.5,
      entryRewardId: goldGift.id,
    });
    const m = await member(a.api);
    await accepted(entry({ ownedById: m, points: 50, reason: 'earned' }, a.api));
    expect(await tierOf(a, m)).toBeNull();
    // Skips Silver: only Gold's entry reward.
    await accepted(entry({ ownedById: m, points: 300, reason: 'earned' }, a.api));
    expect(await tierOf(a, m)).toBe(gold.id);
    const doubled = await accepted(entry({ ownedById: m, points: 15, reason: 'earned' }, a.api));
    expect(doubled.points).toBe(22);
    // Adjustments and redemptions are not multiplied, and a reversal never lowers the tier.
    expect((await accepted(entry({ ownedById: m, points: 15, reason: 'adjusted' }, a.api))).points).toBe(15);
    const logs = (await accepted(a.api.get('/schema/reward_log/record', { filters: eq('ownedById', m) }))) as any[];
    expect(logs.map((l) => [l.rewardId, l.linkedSchemaSlug, l.linkedSchemaRecordId])).toEqual([[goldGift.id, 'tier', gold.id]]);
    expect(logs[0].couponCode).toMatch(/^PTS/);
    const changes = await events(a, 'tier_changed');
    expect(changes).toHaveLength(1);
    expect(changes[0].payload).toMatchObject({
      tierBefore: null,
      tierAfter: { id: gold.id, name: 'Gold' },
      member: { id: m, tierId: gold.id },
    });
    expect((await events(a, 'reward_log_issued')).map((e) => e.payload.rewardLog.id)).toEqual([logs[0].id]);
    expect(silver.id).not.toBe(gold.id);
    // The member's tier taken out of the program: it multiplies nothing, and the member stays in it until the daily pass.
    await accepted(a.api.patch(`/schema/tier/record/${gold.id}`, { status: 'draft' }));
    expect((await accepted(entry({ ownedById: m, points: 15, reason: 'earned' }, a.api))).points).toBe(15);
    expect(await tierOf(a, m)).toBe(gold.id);
    await assertEventsDocumented(app, a.api);
  });

  it('multiplies a new member’s first earned entry by the tier at 0 they are in from the start, and enters them in it with it', async () => {
    const a = await program();
    const welcome = await reward({ pointsCost: null }, a.api);
    const base = await create(a.api, 'tier', {
      name: 'Base',
      status: 'live',
      pointsThreshold: 0,
      earnMultiplier: 2,
      entryRewardId: welcome.id,
    });
    const m = await member(a.api);
    expect((await accepted(entry({ ownedById: m, points: 10, reason: 'earned' }, a.api))).points).toBe(20);
    expect(await tierOf(a, m)).toBe(base.id);
    expect(await balanceIn(a, m)).toBe(20);
    expect((await events(a, 'tier_changed')).map((e) => e.payload.tierAfter.id)).toEqual([base.id]);
    const logs = (await accepted(a.api.get('/schema/reward_log/record', { filters: eq('ownedById', m) }))) as any[];
    expect(logs.map((l) => l.rewardId)).toEqual([welcome.id]);
  });

  it('a points entry reward earns its points, and racing entries enter a tier once', async () => {
    const a = await program();
    const bonus = await reward({ rewardKind: 'points', pointsValue: 40, pointsCost: null, discountType: null, discountValue: null }, a.api);
    const silver = await create(a.api, 'tier', {
      name: 'Silver',
      status: 'live',
      pointsThreshold: 100,
      earnMultiplier: 2,
      entryRewardId: bonus.id,
    });
    const m = await member(a.api);
    const answers = await Promise.all(Array.from({ length: 12 }, () => entry({ ownedById: m, points: 10, reason: 'earned' }, a.api)));
    expect(answers.every((r) => r.status === 200)).toBe(true);
    expect(await tierOf(a, m)).toBe(silver.id);
    expect(await events(a, 'tier_changed')).toHaveLength(1);
    // Ten entries of 10 reach 100; the bonus (40, doubled in Silver) and the last two (20 each) are doubled.
    const all = (await accepted(a.api.get('/schema/point_entry/record', { filters: eq('ownedById', m), limit: '100' }))) as any[];
    expect(all.reduce((s: number, e: any) => s + e.points, 0)).toBe(await balanceIn(a, m));
    expect(all.filter((e) => e.linkedSchemaSlug === 'reward_log')).toEqual([expect.objectContaining({ points: 80, reason: 'earned' })]);
    expect(await balanceIn(a, m)).toBe(100 + 80 + 40);
  });

  it('counts a tier’s members with a filter on tierId, as the admin’s ladder does', async () => {
    const a = await program();
    const silver = await create(a.api, 'tier', { name: 'Silver', status: 'live', pointsThreshold: 10 });
    const gold = await create(a.api, 'tier', { name: 'Gold', status: 'live', pointsThreshold: 100 });
    const earned = [5, 20, 30, 150];
    for (const points of earned) await accepted(entry({ ownedById: await member(a.api), points, reason: 'earned' }, a.api));
    const count = async (tierId: string) => {
      const res = await a.api.get('/schema/account_user/record', { filters: eq('tierId', tierId), limit: '1', fetchTotalCount: 'true' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.paging.total;
    };
    expect([await count(silver.id), await count(gold.id)]).toEqual([2, 1]);
  });

  it('deleting a tier leaves its members in none', async () => {
    const a = await program();
    const t = await create(a.api, 'tier', { name: 'Silver', status: 'live', pointsThreshold: 10 });
    const m = await member(a.api);
    await accepted(entry({ ownedById: m, points: 20, reason: 'earned' }, a.api));
    expect(await tierOf(a, m)).toBe(t.id);
    expect((await a.api.delete(`/schema/tier/record/${t.id}`)).status).toBe(204);
    expect(await tierOf(a, m)).toBeNull();
  });

  it('deleting a reward leaves the tier it entered without an entry reward, as it leaves a milestone', async () => {
    const a = await program();
    const gift = await reward({ pointsCost: null }, a.api);
    const t = await create(a.api, 'tier', { name: 'Silver', status: 'live', pointsThreshold: 10, entryRewardId: gift.id });
    expect((await a.api.delete(`/schema/reward/record/${gift.id}`)).status).toBe(204);
    expect((await accepted(a.api.get(`/schema/tier/record/${t.id}`))).entryRewardId).toBeNull();
    // The tier is still saved as it is now.
    expect((await a.api.patch(`/schema/tier/record/${t.id}`, { name: 'Silver', entryRewardId: null })).status).toBe(200);
  });
});
