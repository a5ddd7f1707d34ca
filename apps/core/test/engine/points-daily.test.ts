import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPointsDaily } from '../../src/scheduler/points.js';
import { assertEventsDocumented } from '../support/fixtures.js';
import { accepted, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

/*
 * The daily points pass (CONTRACT §19): the tier window slides (downgrades happen only here), tiers
 * created or changed since take effect, and inactive points are warned of and expire; each member
 * once a day. Entries are written now; the pass runs at chosen later moments, and an entry "from
 * months ago" is one whose moment the test moves back, with the member's note of its oldest entry.
 */
let app: TestApp;
const DAY = 86_400_000;
const MONTH = 31 * DAY;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

let seq = 0;
const eq = (fieldSlug: string, fieldValue: unknown) => ({ operator: 'and', conditions: [{ fieldSlug, operator: 'equals', fieldValue }] });
const pass = (at: Date) => runPointsDaily(app.running.services.records, at);
const later = (ms: number) => new Date(Date.now() + ms);

/** An account with points live and the given setting. */
async function program(setting: Record<string, unknown> = {}): Promise<TestAccount> {
  const a = await app.createAccount({ timezone: 'UTC', defaultLanguageCode: 'en' });
  const s = (await accepted(a.api.get('/schema/points_setting/record')))[0];
  await accepted(a.api.patch(`/schema/points_setting/record/${s.id}`, { status: 'live', ...setting }));
  return a;
}
const create = (a: TestAccount, slug: string, body: Record<string, unknown>): Promise<any> =>
  accepted(a.api.post(`/schema/${slug}/record`, body));
const member = async (a: TestAccount) => (await create(a, 'account_user', { externalId: `pd-${++seq}` })).id as string;
const earn = (a: TestAccount, ownedById: string, points: number, reason = 'earned') =>
  create(a, 'point_entry', { ownedById, points, reason });
const memberOf = (a: TestAccount, id: string) => accepted(a.api.get(`/schema/account_user/record/${id}`));
const eventsOf = async (a: TestAccount, code: string, memberId?: string) =>
  (
    (await accepted(a.api.get('/schema/event_log/record', { limit: '1000', sortBy: [{ fieldSlug: 'createdAt', order: 'ASC' }] }))) as any[]
  ).filter((e) => e.eventCode === code && (!memberId || e.ownedById === memberId));
const entriesOf = async (a: TestAccount, id: string) =>
  (await accepted(a.api.get('/schema/point_entry/record', { filters: eq('ownedById', id), limit: '1000' }))) as any[];

/** Moves an entry (and the member's note of the oldest one counted) `ms` into the past. */
async function backdate(entryId: string, memberId: string, ms: number) {
  const [row] = await app
    .db('point_entry')
    .where({ id: entryId })
    .update({ created_at: new Date(Date.now() - ms) }, ['created_at']);
  await app
    .db('account_user')
    .where({ id: memberId })
    .update({ points_window_oldest_at: row.created_at, last_point_entry_at: row.created_at });
}

describe('tier window', () => {
  it('lets entries leave the window, lowering the sum and the tier, once a day, with tier_changed', async () => {
    const a = await program({ tierWindowMonths: 1 });
    const silver = await create(a, 'tier', { name: 'Silver', status: 'live', pointsThreshold: 100, earnMultiplier: 1 });
    const gold = await create(a, 'tier', { name: 'Gold', status: 'live', pointsThreshold: 300, earnMultiplier: 1 });
    const m = await member(a);
    const old = await earn(a, m, 250);
    await backdate(old.id, m, 2 * MONTH);
    await earn(a, m, 120);
    expect(await memberOf(a, m)).toMatchObject({ pointsEarnedInTierWindow: 370, tierId: gold.id });
    const quiet = await member(a);
    await earn(a, quiet, 10);
    const today = new Date();
    expect(await pass(today)).toMatchObject({ complete: true });
    // A member with nothing to do is read, never locked or written.
    expect(await app.db('account_user').where({ id: quiet }).first('points_passed_on')).toEqual({ points_passed_on: null });
    expect(await memberOf(a, m)).toMatchObject({ pointsEarnedInTierWindow: 120, tierId: silver.id, pointsBalance: 370 });
    const changes = await eventsOf(a, 'tier_changed', m);
    expect(changes.map((e) => [e.payload.tierBefore?.id ?? null, e.payload.tierAfter?.id ?? null])).toEqual([
      [null, silver.id],
      [silver.id, gold.id],
      [gold.id, silver.id],
    ]);
    expect(changes[2].payload.member).toMatchObject({ id: m, tierId: silver.id, pointsEarnedInTierWindow: 120 });
    // Once a day: the same day again passes nobody, even one whose window would need it.
    await app
      .db('account_user')
      .where({ id: m })
      .update({ points_window_oldest_at: new Date(0), points_earned_in_tier_window: 999 });
    await pass(new Date(today.getTime() + 1000));
    expect((await memberOf(a, m)).pointsEarnedInTierWindow).toBe(999);
    // The next day the last entry has left too.
    await pass(later(2 * MONTH));
    expect(await memberOf(a, m)).toMatchObject({ pointsEarnedInTierWindow: 0, tierId: null });
    expect(await eventsOf(a, 'tier_changed', m)).toHaveLength(4);
    await assertEventsDocumented(app, a.api);
  });

  it('takes back from the window only what is in it: reversing an entry that left it keeps the window and the tier, now and at the pass', async () => {
    const a = await program({ tierWindowMonths: 12 });
    const gold = await create(a, 'tier', { name: 'Gold', status: 'live', pointsThreshold: 100, earnMultiplier: 1 });
    const m = await member(a);
    const old = await earn(a, m, 100);
    await backdate(old.id, m, 13 * MONTH);
    expect(await pass(new Date())).toMatchObject({ complete: true });
    expect(await memberOf(a, m)).toMatchObject({ pointsEarnedInTierWindow: 0, tierId: null });
    const recent = await earn(a, m, 100);
    expect(await memberOf(a, m)).toMatchObject({ pointsEarnedInTierWindow: 100, tierId: gold.id });
    // A refund of the old order: the balance loses it, the window (which no longer held it) does not.
    await accepted(a.api.post(`/schema/point_entry/record/${old.id}/action/reverse`, {}));
    expect(await memberOf(a, m)).toMatchObject({ pointsBalance: 100, pointsEarnedInTierWindow: 100, tierId: gold.id });
    // The pass sums the window anew, the old entry and its reversal both outside what it counts.
    await app
      .db('account_user')
      .where({ id: m })
      .update({ points_window_oldest_at: new Date(0) });
    await pass(later(DAY));
    expect(await memberOf(a, m)).toMatchObject({ pointsEarnedInTierWindow: 100, tierId: gold.id });
    // Into Gold, out with the pass, back in with the recent entry: and no more.
    expect(await eventsOf(a, 'tier_changed', m)).toHaveLength(3);
    // Taking back the recent one lowers it.
    await accepted(a.api.post(`/schema/point_entry/record/${recent.id}/action/reverse`, { points: 40 }));
    expect(await memberOf(a, m)).toMatchObject({ pointsBalance: 60, pointsEarnedInTierWindow: 60 });
    await app
      .db('account_user')
      .where({ id: m })
      .update({ points_window_oldest_at: new Date(0) });
    await pass(later(2 * DAY));
    expect(await memberOf(a, m)).toMatchObject({ pointsEarnedInTierWindow: 60, tierId: null });
  });

  it('applies tiers created, changed and deleted since, and a new window length, and issues the landed tier’s entry reward once', async () => {
    const a = await program({ tierWindowMonths: 1 });
    const m = await member(a);
    const old = await earn(a, m, 200);
    await backdate(old.id, m, 6 * MONTH);
    await earn(a, m, 50);
    const gift = await create(a, 'reward', {
      name: 'Welcome',
      description: 'd',
      discountType: 'percentage',
      discountValue: 10,
      rewardExpiryType: 'no_expiry',
      handleCoupon: true,
      handleCouponAutoGeneration: true,
    });
    // Created after the entries: nobody is placed until the pass (nor by the next entry: it would, upwards).
    const bronze = await create(a, 'tier', { name: 'Bronze', status: 'live', pointsThreshold: 40, entryRewardId: gift.id });
    expect((await memberOf(a, m)).tierId).toBeNull();
    const day1 = later(0);
    await pass(day1);
    expect(await memberOf(a, m)).toMatchObject({ tierId: bronze.id, pointsEarnedInTierWindow: 50 });
    // A longer window brings the old entry back.
    const s = (await accepted(a.api.get('/schema/points_setting/record')))[0];
    await accepted(a.api.patch(`/schema/points_setting/record/${s.id}`, { tierWindowMonths: 12 }));
    const silver = await create(a, 'tier', { name: 'Silver', status: 'live', pointsThreshold: 200 });
    await pass(new Date(day1.getTime() + DAY));
    expect(await memberOf(a, m)).toMatchObject({ tierId: silver.id, pointsEarnedInTierWindow: 250 });
    // Silver raised above them: down to Bronze, whose entry reward they had already.
    await accepted(a.api.patch(`/schema/tier/record/${silver.id}`, { pointsThreshold: 1000 }));
    await pass(new Date(day1.getTime() + 2 * DAY));
    expect((await memberOf(a, m)).tierId).toBe(bronze.id);
    const logs = (await accepted(a.api.get('/schema/reward_log/record', { filters: eq('ownedById', m) }))) as any[];
    expect(logs.map((l) => [l.rewardId, l.linkedSchemaSlug, l.linkedSchemaRecordId])).toEqual([[gift.id, 'tier', bronze.id]]);
    // A deleted tier leaves its members in none; a paused one holds nobody after the pass.
    await accepted(a.api.patch(`/schema/tier/record/${bronze.id}`, { status: 'draft' }));
    await pass(new Date(day1.getTime() + 3 * DAY));
    expect((await memberOf(a, m)).tierId).toBeNull();
    expect((await eventsOf(a, 'tier_changed', m)).map((e) => e.payload.tierAfter?.name ?? null)).toEqual([
      'Bronze',
      'Silver',
      'Bronze',
      null,
    ]);
  });

  it('raises a member on any entry once a tier is within reach, and never lowers one on entries', async () => {
    const a = await program();
    const m = await member(a);
    const e = await earn(a, m, 100);
    const silver = await create(a, 'tier', { name: 'Silver', status: 'live', pointsThreshold: 80 });
    await earn(a, m, 5, 'adjusted');
    expect((await memberOf(a, m)).tierId).toBe(silver.id);
    await accepted(a.api.post(`/schema/point_entry/record/${e.id}/action/reverse`, {}));
    expect(await memberOf(a, m)).toMatchObject({ tierId: silver.id, pointsEarnedInTierWindow: 0 });
    await pass(later(0));
    expect((await memberOf(a, m)).tierId).toBeNull();
  });
});

describe('expiry', () => {
  it('warns 14 days ahead once per inactivity period, then expires the whole balance with one entry', async () => {
    const a = await program({ expiryMonthsOfInactivity: 3 });
    const m = await member(a);
    const idle = await member(a);
    const e = await earn(a, m, 70);
    await backdate(e.id, m, 3 * MONTH - 10 * DAY);
    await earn(a, idle, 10);
    // Within 14 days of the expiry: warned, with the expiry at least 14 days ahead.
    const day1 = new Date();
    await pass(day1);
    expect(await eventsOf(a, 'points_to_expire', idle)).toEqual([]);
    const [warning] = await eventsOf(a, 'points_to_expire', m);
    expect(warning.payload).toMatchObject({ member: { id: m, pointsBalance: 70 }, expiringPoints: 70 });
    const expiresAt = new Date(warning.payload.expiresAt);
    expect(expiresAt.getTime()).toBeGreaterThanOrEqual(day1.getTime() + 14 * DAY);
    // Not again in the same period, and not before the announced moment.
    await pass(new Date(day1.getTime() + DAY));
    await pass(new Date(expiresAt.getTime() - 1000));
    expect(await memberOf(a, m)).toMatchObject({ pointsBalance: 70 });
    await pass(new Date(expiresAt.getTime() + DAY));
    expect(await memberOf(a, m)).toMatchObject({ pointsBalance: 0 });
    expect((await entriesOf(a, m)).filter((x) => x.reason === 'expired')).toEqual([expect.objectContaining({ points: -70 })]);
    expect(await eventsOf(a, 'points_to_expire', m)).toHaveLength(1);
    // Nothing left to expire; the other member was never idle long enough.
    await pass(new Date(expiresAt.getTime() + 2 * DAY));
    expect((await entriesOf(a, m)).filter((x) => x.reason === 'expired')).toHaveLength(1);
    expect((await memberOf(a, idle)).pointsBalance).toBe(10);
    await assertEventsDocumented(app, a.api);
  });

  it('expires a balance larger than an integer holds, with one entry', async () => {
    const a = await program({ expiryMonthsOfInactivity: 1 });
    await create(a, 'tier', { name: 'All', status: 'live', pointsThreshold: 0, earnMultiplier: 10 });
    const m = await member(a);
    let last: { id: string } | undefined;
    // 216 entries of the most a client may write, each times 10 (the member is in the tier at 0 from the start).
    for (let i = 0; i < 216; i++) last = await earn(a, m, 1_000_000);
    expect((await memberOf(a, m)).pointsBalance).toBe(2_160_000_000);
    await backdate(last!.id, m, 2 * MONTH);
    await pass(new Date());
    const [warning] = await eventsOf(a, 'points_to_expire', m);
    expect(warning.payload.expiringPoints).toBe(2_160_000_000);
    await pass(new Date(new Date(warning.payload.expiresAt).getTime() + DAY));
    expect(await memberOf(a, m)).toMatchObject({ pointsBalance: 0 });
    expect((await entriesOf(a, m)).filter((x) => x.reason === 'expired')).toEqual([expect.objectContaining({ points: -2_160_000_000 })]);
  });

  it('counts the months on the calendar, the day kept within the month, as the storefront shows the date', async () => {
    const a = await program({ expiryMonthsOfInactivity: 1 });
    // The view model's pointsExpireAt (packages/view-model) says Feb 28 and Feb 29 for these two.
    // Moments after today, which the service's own scheduler may have passed already.
    for (const [last, warnedOn, expires] of [
      ['2027-01-31T23:30:00.000Z', '2027-02-14T23:30:00.000Z', '2027-02-28T23:30:00.000Z'],
      ['2028-01-31T08:00:00.000Z', '2028-02-15T08:00:00.000Z', '2028-02-29T08:00:00.000Z'],
    ]) {
      const m = await member(a);
      const e = await earn(a, m, 20);
      await app
        .db('point_entry')
        .where({ id: e.id })
        .update({ created_at: new Date(last!) });
      await app
        .db('account_user')
        .where({ id: m })
        .update({ points_window_oldest_at: new Date(last!), last_point_entry_at: new Date(last!) });
      await pass(new Date(warnedOn!));
      const [warning] = await eventsOf(a, 'points_to_expire', m);
      expect(warning.payload.expiresAt).toBe(expires);
    }
  });

  it('starts a new period with every entry, and never expires while expiry is 0 or points are off', async () => {
    const a = await program({ expiryMonthsOfInactivity: 1 });
    const m = await member(a);
    const e = await earn(a, m, 30);
    await backdate(e.id, m, 2 * MONTH);
    await pass(later(0));
    expect(await eventsOf(a, 'points_to_expire', m)).toHaveLength(1);
    // An entry after the warning: a new period, so the announced expiry does not happen.
    await earn(a, m, 1, 'adjusted');
    await pass(later(20 * DAY));
    expect(await memberOf(a, m)).toMatchObject({ pointsBalance: 31 });
    expect(await eventsOf(a, 'points_to_expire', m)).toHaveLength(2);
    const s = (await accepted(a.api.get('/schema/points_setting/record')))[0];
    await accepted(a.api.patch(`/schema/points_setting/record/${s.id}`, { expiryMonthsOfInactivity: 0 }));
    await pass(later(60 * DAY));
    await accepted(a.api.patch(`/schema/points_setting/record/${s.id}`, { expiryMonthsOfInactivity: 1, status: 'draft' }));
    await pass(later(61 * DAY));
    expect(await memberOf(a, m)).toMatchObject({ pointsBalance: 31 });
    expect(await eventsOf(a, 'points_to_expire', m)).toHaveLength(2);
  });
});
