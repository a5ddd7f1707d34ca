import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { holdoutPosition } from '../../src/engine/holdout.js';
import { confirmHeldRewards } from '../../src/scheduler/confirm.js';
import { runPointsDaily } from '../../src/scheduler/points.js';
import { assertEventsDocumented } from '../support/fixtures.js';
import { accepted, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

/*
 * Points (CONTRACT §19) under the engine: rewards of kind points earned through milestones,
 * held and revoked reward logs, racing redemptions, and a property: whatever mix of earning,
 * adjusting, redeeming, revoking, reversing and the daily pass's expiries runs (some of it racing),
 * every balance is the sum of its entries and went below 0 only through a reversed entry, every
 * tier is the rule applied to the entries, each tier change fired once and each entry reward was
 * issued once per member and tier.
 */
let app: TestApp;
let acct: TestAccount;
const NOW = new Date('2027-03-01T12:00:00Z');
const DAY = 86_400_000;
beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount({ timezone: 'UTC', defaultLanguageCode: 'en' });
  const setting = (await accepted(acct.api.get('/schema/points_setting/record')))[0];
  await accepted(acct.api.patch(`/schema/points_setting/record/${setting.id}`, { status: 'live' }));
  // Every change of a balance and every entry, by transaction: a balance below 0 is checked against its transaction's entries.
  await app.db.raw(`
    create table test_balance_audit (txid bigint, member uuid, old_balance bigint, new_balance bigint);
    create table test_entry_audit (txid bigint, reason text);
    create function test_audit_balance() returns trigger language plpgsql as $$ begin
      insert into test_balance_audit values (txid_current(), new.id, old.points_balance, new.points_balance); return new; end $$;
    create function test_audit_entry() returns trigger language plpgsql as $$ begin
      insert into test_entry_audit values (txid_current(), new.reason); return new; end $$;
    create trigger test_audit_balance after update of points_balance on account_user for each row execute function test_audit_balance();
    create trigger test_audit_entry after insert on point_entry for each row execute function test_audit_entry();`);
});
beforeEach(() => {
  app.running.services.records.now = () => NOW;
});
afterAll(() => app.close());

let seq = 0;
const eq = (fieldSlug: string, fieldValue: unknown) => ({ operator: 'and', conditions: [{ fieldSlug, operator: 'equals', fieldValue }] });
const create = (slug: string, body: Record<string, unknown>): Promise<any> => accepted(acct.api.post(`/schema/${slug}/record`, body));
const member = async () => (await create('account_user', { externalId: `pe-${++seq}` })).id as string;
const pointsReward = (pointsValue: number) =>
  create('reward', { name: `P${++seq}`, description: 'd', rewardKind: 'points', pointsValue, rewardExpiryType: 'no_expiry' });
const codeReward = (pointsCost: number) =>
  create('reward', {
    name: `C${++seq}`,
    description: 'd',
    discountType: 'percentage',
    discountValue: 10,
    rewardExpiryType: 'no_expiry',
    handleCoupon: true,
    handleCouponAutoGeneration: true,
    pointsCost,
  });
const milestone = (slug: string, definitionId: string, rewardId: string) =>
  create('milestone', {
    linkedSchemaSlug: slug,
    linkedSchemaRecordId: definitionId,
    name: `M${++seq}`,
    description: 'd',
    status: 'live',
    milestoneTargetValue: 1,
    rewardId,
  });
const give = (ownedById: string, points: number, reason = 'adjusted') =>
  acct.api.post('/schema/point_entry/record', { ownedById, points, reason });
const redeem = (rewardId: string, ownedById: string) => acct.api.post(`/schema/reward/record/${rewardId}/action/redeem`, { ownedById });
const reverse = (kind: string, id: string) => acct.api.post(`/schema/${kind}_log/record/${id}/action/reverse`, {});
const memberOf = (id: string) => accepted(acct.api.get(`/schema/account_user/record/${id}`));
const entriesOf = async (ownedById: string): Promise<any[]> =>
  accepted(acct.api.get('/schema/point_entry/record', { filters: eq('ownedById', ownedById), limit: '1000' }));
const eventsOf = async (ownedById: string): Promise<any[]> =>
  accepted(acct.api.get('/schema/event_log/record', { filters: eq('ownedById', ownedById), limit: '1000' }));
const rewardLogsOf = async (ownedById: string): Promise<any[]> =>
  accepted(acct.api.get('/schema/reward_log/record', { filters: eq('ownedById', ownedById), limit: '1000' }));
/** A member's visit yesterday on a streak: their first log there. */
const visit = (streakId: string, ownedById: string): Promise<any> =>
  create('streak_log', {
    streakId,
    ownedById,
    activityId: 'visit',
    activityAt: new Date(NOW.getTime() - DAY).toISOString(),
    uniqueIdentifier: `l-${++seq}`,
  });
const setStatus = async (status: string) => {
  const setting = (await accepted(acct.api.get('/schema/points_setting/record')))[0];
  await accepted(acct.api.patch(`/schema/points_setting/record/${setting.id}`, { status }));
};

/** An account of its own with points live (its tiers the only ones), a creator in it and a points reward maker. */
async function pointsAccount() {
  const own = await app.createAccount({ timezone: 'UTC', defaultLanguageCode: 'en' });
  const make = (slug: string, body: Record<string, unknown>): Promise<any> => accepted(own.api.post(`/schema/${slug}/record`, body));
  const setting = (await accepted(own.api.get('/schema/points_setting/record')))[0];
  await accepted(own.api.patch(`/schema/points_setting/record/${setting.id}`, { status: 'live' }));
  const points = (pointsValue: number) =>
    make('reward', { name: `P${++seq}`, description: 'd', rewardKind: 'points', pointsValue, rewardExpiryType: 'no_expiry' });
  return { own, make, points };
}

describe('points rewards', () => {
  it('earns a milestone reward of kind points when its milestone is achieved, and takes it back when revoked', async () => {
    const r = await pointsReward(75);
    const streak = await create('streak', { name: `S${++seq}`, status: 'live' });
    await milestone('streak', streak.id, r.id);
    const externalId = `pe-${++seq}`;
    const log = await create('streak_log', {
      streakId: streak.id,
      ownedBy: { externalId },
      activityId: 'visit',
      activityAt: new Date(NOW.getTime() - DAY).toISOString(),
      uniqueIdentifier: `l-${++seq}`,
    });
    const rewardLog = log.achievedMilestoneRewardLog;
    expect(rewardLog).toMatchObject({ rewardId: r.id, rewardLogStatus: 'issued', couponCode: null });
    const m = log.ownedById;
    expect(await memberOf(m)).toMatchObject({ pointsBalance: 75, pointsEarnedInTierWindow: 75 });
    const [earned] = await entriesOf(m);
    expect(earned).toMatchObject({ points: 75, reason: 'earned', linkedSchemaSlug: 'reward_log', linkedSchemaRecordId: rewardLog.id });
    const events = await accepted(acct.api.get('/schema/event_log/record', { filters: eq('eventCode', 'points_earned') }));
    expect(events.find((e: any) => e.ownedById === m)?.payload).toMatchObject({
      pointEntry: { id: earned.id },
      member: { pointsBalance: 75 },
    });

    // Spent, then revoked: the reversed entry takes the balance below 0.
    await accepted(give(m, -75));
    const reversal = await accepted(reverse('streak', log.id));
    expect(reversal.revokedRewardLogs.map((l: any) => l.id)).toEqual([rewardLog.id]);
    expect(await memberOf(m)).toMatchObject({ pointsBalance: -75, pointsEarnedInTierWindow: 0 });
    const reversed = (await entriesOf(m)).filter((e) => e.reason === 'reversed');
    expect(reversed).toMatchObject([{ points: -75, linkedSchemaRecordId: rewardLog.id }]);
    // Nothing else takes it further down.
    expect((await give(m, -1)).body.error.code).toBe('insufficient_points');
    await assertEventsDocumented(app, acct.api);
  });

  it('lets a member below 0 earn and be given points: entries, a log reaching a points milestone and a held points reward confirmed', async () => {
    const r = await pointsReward(40);
    const streak = await create('streak', { name: `S${++seq}`, status: 'live' });
    await milestone('streak', streak.id, r.id);
    const m = await member();
    const log = await visit(streak.id, m);
    await accepted(give(m, -40));
    await accepted(reverse('streak', log.id));
    expect((await memberOf(m)).pointsBalance).toBe(-40);
    // What adds points is never refused; what takes some away still is.
    expect((await give(m, 10, 'earned')).status).toBe(200);
    expect((await give(m, 5)).status).toBe(200);
    expect((await give(m, -1)).body.error.code).toBe('insufficient_points');
    const challenge = await create('challenge', {
      name: `C${++seq}`,
      status: 'live',
      aggregationMethod: 'sum',
      completionTargetValue: 100,
    });
    await milestone('challenge', challenge.id, (await pointsReward(5)).id);
    await create('challenge_log', {
      challengeId: challenge.id,
      ownedById: m,
      activityId: 'buy',
      activityValue: 1,
      activityAt: new Date(NOW.getTime() - DAY).toISOString(),
      uniqueIdentifier: `l-${++seq}`,
    });
    expect((await memberOf(m)).pointsBalance).toBe(-20);
    const held = await create('streak', { name: `S${++seq}`, status: 'live', rewardHoldDays: 2 });
    await milestone('streak', held.id, (await pointsReward(7)).id);
    const pending = await visit(held.id, m);
    expect(pending.achievedMilestoneRewardLog.rewardLogStatus).toBe('pending');
    await confirmHeldRewards(app.running.services.records, new Date(NOW.getTime() + 3 * DAY));
    expect(await rewardLogsOf(m)).toContainEqual(
      expect.objectContaining({ id: pending.achievedMilestoneRewardLog.id, rewardLogStatus: 'issued' }),
    );
    expect((await memberOf(m)).pointsBalance).toBe(-13);
  });

  it('earns nothing while points are not live', async () => {
    const r = await pointsReward(30);
    const streak = await create('streak', { name: `S${++seq}`, status: 'live' });
    await milestone('streak', streak.id, r.id);
    await setStatus('draft');
    try {
      const log = await create('streak_log', {
        streakId: streak.id,
        ownedBy: { externalId: `pe-${++seq}` },
        activityId: 'visit',
        activityAt: new Date(NOW.getTime() - DAY).toISOString(),
        uniqueIdentifier: `l-${++seq}`,
      });
      expect(log.achievedMilestoneRewardLog).not.toBeNull();
      expect(await memberOf(log.ownedById)).toMatchObject({ pointsBalance: 0 });
      expect(await entriesOf(log.ownedById)).toEqual([]);
    } finally {
      await setStatus('live');
    }
  });

  it('earns a held reward only when it is confirmed, and a mission reward of kind points', async () => {
    const r = await pointsReward(40);
    const streak = await create('streak', { name: `S${++seq}`, status: 'live', rewardHoldDays: 2 });
    await milestone('streak', streak.id, r.id);
    const m = await member();
    const log = await visit(streak.id, m);
    expect(log.achievedMilestoneRewardLog.rewardLogStatus).toBe('pending');
    expect((await memberOf(m)).pointsBalance).toBe(0);
    await confirmHeldRewards(app.running.services.records, new Date(NOW.getTime() + 3 * DAY));
    expect((await memberOf(m)).pointsBalance).toBe(40);
    expect(await entriesOf(m)).toMatchObject([{ reason: 'earned', points: 40, linkedSchemaRecordId: log.achievedMilestoneRewardLog.id }]);

    const mission = await create('mission', {
      name: `Mi${++seq}`,
      status: 'live',
      rewardId: (await pointsReward(15)).id,
      tasks: [{ name: 't', activityId: 'buy', targetValue: 1 }],
    });
    const done = await create('mission_log', {
      missionId: mission.id,
      ownedById: m,
      activityId: 'buy',
      activityAt: new Date(NOW.getTime() - DAY).toISOString(),
      uniqueIdentifier: `l-${++seq}`,
    });
    expect(done.rewardLog).toMatchObject({ rewardLogStatus: 'issued' });
    expect((await memberOf(m)).pointsBalance).toBe(55);
  });

  it("leaves to a member's erasure the held points rewards it is deleting, where the two could deadlock", async () => {
    const streak = await create('streak', { name: `S${++seq}`, status: 'live', rewardHoldDays: 2 });
    await milestone('streak', streak.id, (await pointsReward(25)).id);
    const [erased, other] = [await member(), await member()];
    const held = await visit(streak.id, erased);
    await visit(streak.id, other);
    // The erasure as it goes (resources/account-user.ts): the member's lock, then its row, ... then its reward logs.
    const erasure = await app.db.client.acquireConnection();
    try {
      await erasure.query('begin');
      await erasure.query(`select pg_advisory_xact_lock(hashtextextended('member:' || $1, 0))`, [erased]);
      await erasure.query('select id from account_user where id = $1 for update', [erased]);
      const confirming = confirmHeldRewards(app.running.services.records, new Date(NOW.getTime() + 3 * DAY));
      // The issuing leaves the erased member's log alone rather than wait for its row holding the log.
      expect(await confirming).toBe(1);
      await erasure.query('delete from reward_log where id = $1', [held.achievedMilestoneRewardLog.id]);
      await erasure.query('commit');
    } finally {
      await app.db.client.releaseConnection(erasure);
    }
    expect((await memberOf(other)).pointsBalance).toBe(25);
  });

  it('gives held-out members no reward log and so no points', async () => {
    const r = await pointsReward(20);
    const streak = await create('streak', { name: `S${++seq}`, status: 'live', holdoutPercent: 50 });
    await milestone('streak', streak.id, r.id);
    let externalId = '';
    do externalId = `held-${++seq}`;
    while (holdoutPosition(streak.id, externalId) >= 0.5);
    const log = await create('streak_log', {
      streakId: streak.id,
      ownedBy: { externalId },
      activityId: 'visit',
      activityAt: new Date(NOW.getTime() - DAY).toISOString(),
      uniqueIdentifier: `l-${++seq}`,
    });
    expect(log).toMatchObject({ notAggregatedReason: 'holdout', achievedMilestoneRewardLog: null });
    expect((await memberOf(log.ownedById)).pointsBalance).toBe(0);
  });

  it('earns every points reward one log reaches, and the entry reward of the tier they lift the member into, each from the balance the one before left', async () => {
    const { own, make, points } = await pointsAccount();
    const gift = await points(5);
    const silver = await make('tier', { name: 'Silver', status: 'live', pointsThreshold: 60, entryRewardId: gift.id });
    // A mission whose completion gives 30 points and whose first completion is a milestone giving 50.
    const mission = await make('mission', {
      name: `Mi${++seq}`,
      status: 'live',
      rewardId: (await points(30)).id,
      tasks: [{ name: 't', activityId: 'buy', targetValue: 1 }],
    });
    await make('milestone', {
      linkedSchemaSlug: 'mission',
      linkedSchemaRecordId: mission.id,
      name: `M${++seq}`,
      description: 'd',
      status: 'live',
      milestoneTargetValue: 1,
      rewardId: (await points(50)).id,
    });
    const log = await make('mission_log', {
      missionId: mission.id,
      ownedBy: { externalId: `multi-${++seq}` },
      activityId: 'buy',
      activityAt: new Date(NOW.getTime() - DAY).toISOString(),
      uniqueIdentifier: `l-${++seq}`,
    });
    const m = log.ownedById;
    const entries = (await accepted(own.api.get('/schema/point_entry/record', { filters: eq('ownedById', m), limit: '100' }))) as any[];
    expect(entries.map((e) => e.points).sort((a, b) => a - b)).toEqual([5, 30, 50]);
    expect(await accepted(own.api.get(`/schema/account_user/record/${m}`))).toMatchObject({
      pointsBalance: 85,
      pointsEarnedInTierWindow: 85,
      tierId: silver.id,
    });
    const events = (await accepted(own.api.get('/schema/event_log/record', { filters: eq('ownedById', m), limit: '100' }))) as any[];
    const earned = events.filter((e) => e.eventCode === 'points_earned');
    // Whichever reward came first, each entry's member is the balance after it.
    expect([
      [30, 80, 85],
      [50, 80, 85],
    ]).toContainEqual(earned.map((e) => e.payload.member.pointsBalance).sort((a, b) => a - b));
    expect(events.filter((e) => e.eventCode === 'tier_changed')).toHaveLength(1);
  });

  it("takes a reward's points back once, whether its entry or its log is reversed first, or both at once", async () => {
    const r = await pointsReward(50);
    const streak = await create('streak', { name: `S${++seq}`, status: 'live' });
    await milestone('streak', streak.id, r.id);
    const earn = async () => {
      const m = await member();
      const log = await visit(streak.id, m);
      const [earned] = await entriesOf(m);
      return { m, log, earned };
    };
    const reverseEntry = (id: string, body: Record<string, unknown> = {}) =>
      acct.api.post(`/schema/point_entry/record/${id}/action/reverse`, body);
    const takenBack = async (m: string) => (await entriesOf(m)).filter((e) => e.reason === 'reversed').map((e) => e.points);

    // The entry first (a refund of the points), then the log: the reward log is revoked, its points are already back.
    const a = await earn();
    await accepted(reverseEntry(a.earned.id));
    expect((await accepted(reverse('streak', a.log.id))).revokedRewardLogs).toHaveLength(1);
    expect(await takenBack(a.m)).toEqual([-50]);
    expect(await memberOf(a.m)).toMatchObject({ pointsBalance: 0, pointsEarnedInTierWindow: 0 });

    // The log first: nothing of the entry remains to take back.
    const b = await earn();
    await accepted(reverse('streak', b.log.id));
    const again = await reverseEntry(b.earned.id);
    expect([again.status, again.body.error.code]).toEqual([409, 'not_reversible']);
    expect((await memberOf(b.m)).pointsBalance).toBe(0);

    // Part of the entry, then the log: the log takes back the rest.
    const c = await earn();
    await accepted(reverseEntry(c.earned.id, { points: 20 }));
    await accepted(reverse('streak', c.log.id));
    expect((await takenBack(c.m)).sort((x, y) => x - y)).toEqual([-30, -20]);
    expect((await memberOf(c.m)).pointsBalance).toBe(0);

    // Both at once, for several members: each gives back 50 in all, whichever comes first.
    const racing = await Promise.all(Array.from({ length: 6 }, earn));
    await Promise.all(racing.flatMap((x) => [reverseEntry(x.earned.id), reverse('streak', x.log.id)]));
    for (const x of racing) {
      expect((await takenBack(x.m)).reduce((sum, p) => sum + p, 0)).toBe(-50);
      expect((await memberOf(x.m)).pointsBalance).toBe(0);
    }
  });

  it("multiplies a tier's entry reward by the tier a log's points reward has just lifted the member into", async () => {
    const { own, make, points } = await pointsAccount();
    const gold = await make('tier', {
      name: 'Gold',
      status: 'live',
      pointsThreshold: 50,
      earnMultiplier: 2,
      entryRewardId: (await points(20)).id,
    });
    const streak = await make('streak', { name: `S${++seq}`, status: 'live' });
    await make('milestone', {
      linkedSchemaSlug: 'streak',
      linkedSchemaRecordId: streak.id,
      name: `M${++seq}`,
      description: 'd',
      status: 'live',
      milestoneTargetValue: 1,
      rewardId: (await points(30)).id,
    });
    const m = (await make('account_user', { externalId: `lifted-${++seq}` })).id;
    await accepted(own.api.post('/schema/point_entry/record', { ownedById: m, points: 40, reason: 'earned' }));
    // 40 + 30 reaches Gold's 50: its entry reward of 20 is earned in Gold, twice over.
    await make('streak_log', {
      streakId: streak.id,
      ownedById: m,
      activityId: 'visit',
      activityAt: new Date(NOW.getTime() - DAY).toISOString(),
      uniqueIdentifier: `l-${++seq}`,
    });
    const entries = (await accepted(own.api.get('/schema/point_entry/record', { filters: eq('ownedById', m), limit: '100' }))) as any[];
    expect(entries.map((e) => e.points).sort((a, b) => a - b)).toEqual([30, 40, 40]);
    expect(await accepted(own.api.get(`/schema/account_user/record/${m}`))).toMatchObject({ pointsBalance: 110, tierId: gold.id });
  });

  it('earns the points of a milestone a reversal reaches again on the run it split off, with points_earned', async () => {
    const r = await pointsReward(10);
    const streak = await create('streak', { name: `S${++seq}`, status: 'live' });
    await milestone('streak', streak.id, r.id);
    const externalId = `split-${++seq}`;
    const logs = [];
    for (const day of [3, 2, 1])
      logs.push(
        await create('streak_log', {
          streakId: streak.id,
          ownedBy: { externalId },
          activityId: 'visit',
          activityAt: new Date(NOW.getTime() - day * DAY).toISOString(),
          uniqueIdentifier: `l-${++seq}`,
        }),
      );
    const m = logs[0].ownedById;
    expect((await memberOf(m)).pointsBalance).toBe(10);
    // The middle day taken back: the first day's run keeps its reward, the last day starts a run that reaches the milestone again.
    const reversal = await accepted(reverse('streak', logs[1].id));
    expect(reversal.revokedRewardLogs).toEqual([]);
    expect(await rewardLogsOf(m)).toHaveLength(2);
    expect(await memberOf(m)).toMatchObject({ pointsBalance: 20, pointsEarnedInTierWindow: 20 });
    expect((await entriesOf(m)).map((e) => [e.reason, e.points])).toEqual([
      ['earned', 10],
      ['earned', 10],
    ]);
    const earned = (await eventsOf(m)).filter((e) => e.eventCode === 'points_earned');
    expect(earned.map((e) => e.payload.member.pointsBalance).sort((a, b) => a - b)).toEqual([10, 20]);
  });
});

describe("a new member's tier", () => {
  /** The account's members, their tier_changed events and reward logs, read with the account's own key. */
  const readerOf = (own: TestAccount) => {
    const list = (slug: string, field: string, value: string): Promise<any[]> =>
      accepted(own.api.get(`/schema/${slug}/record`, { filters: eq(field, value), limit: '100' }));
    return {
      byExternalId: async (externalId: string) => (await list('account_user', 'externalId', externalId))[0],
      tierChanges: async (id: string) => (await list('event_log', 'ownedById', id)).filter((e) => e.eventCode === 'tier_changed'),
      rewardLogs: (id: string) => list('reward_log', 'ownedById', id),
    };
  };

  /** A live tier of threshold 0 whose entry reward is a welcome code. */
  const welcomeTier = async (make: Awaited<ReturnType<typeof pointsAccount>>['make']) => {
    const welcome = await make('reward', {
      name: `W${++seq}`,
      description: 'd',
      discountType: 'percentage',
      discountValue: 5,
      rewardExpiryType: 'no_expiry',
    });
    return { welcome, base: await make('tier', { name: 'Member', status: 'live', pointsThreshold: 0, entryRewardId: welcome.id }) };
  };

  it('is the live tier of threshold 0 from the moment the member is made, by an API key, a log or a token: entered once, with its event and entry reward', async () => {
    const { own, make } = await pointsAccount();
    const read = readerOf(own);
    const { welcome, base } = await welcomeTier(make);
    await make('tier', { name: 'Gold', status: 'live', pointsThreshold: 100, earnMultiplier: 2 });
    const streak = await make('streak', { name: `S${++seq}`, status: 'live' });

    const byKey = await make('account_user', { externalId: `new-${++seq}` });
    expect(byKey.tierId).toBe(base.id);
    const logged = `new-${++seq}`;
    await make('streak_log', {
      streakId: streak.id,
      ownedBy: { externalId: logged },
      activityId: 'visit',
      activityAt: new Date(NOW.getTime() - DAY).toISOString(),
      uniqueIdentifier: `l-${++seq}`,
    });
    const tokened = `new-${++seq}`;
    await accepted(own.api.post('/enduser/token', { externalId: tokened }));
    const made = [byKey, await read.byExternalId(logged), await read.byExternalId(tokened)];
    for (const m of made) {
      expect(m.tierId).toBe(base.id);
      const changes = await read.tierChanges(m.id);
      expect(changes.map((c) => [c.payload.tierBefore, c.payload.tierAfter?.id, c.payload.member.tierId])).toEqual([
        [null, base.id, base.id],
      ]);
      expect((await read.rewardLogs(m.id)).map((l) => [l.rewardId, l.linkedSchemaSlug, l.linkedSchemaRecordId])).toEqual([
        [welcome.id, 'tier', base.id],
      ]);
    }

    // A second token for the same shopper, and an entry that stays within the tier, change nothing of it.
    await accepted(own.api.post('/enduser/token', { externalId: tokened }));
    await accepted(own.api.post('/schema/point_entry/record', { ownedById: byKey.id, points: 10, reason: 'earned' }));
    for (const m of made) {
      expect((await read.byExternalId(m.externalId)).tierId).toBe(base.id);
      expect(await read.tierChanges(m.id)).toHaveLength(1);
      expect(await read.rewardLogs(m.id)).toHaveLength(1);
    }
  });

  it("is entered once when the new member's first logs and tokens race", async () => {
    const { own, make } = await pointsAccount();
    const read = readerOf(own);
    const { welcome, base } = await welcomeTier(make);
    const streaks = await Promise.all([1, 2, 3, 4].map(() => make('streak', { name: `S${++seq}`, status: 'live' })));
    const externalId = `racing-${++seq}`;
    const answers = await Promise.all([
      ...streaks.flatMap((streak) =>
        [1, 2].map(() =>
          own.api.post('/schema/streak_log/record', {
            streakId: streak.id,
            ownedBy: { externalId },
            activityId: 'visit',
            activityAt: new Date(NOW.getTime() - DAY).toISOString(),
            uniqueIdentifier: `r-${++seq}`,
          }),
        ),
      ),
      ...[1, 2, 3, 4].map(() => own.api.post('/enduser/token', { externalId })),
    ]);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const m = await read.byExternalId(externalId);
    expect(m.tierId).toBe(base.id);
    expect(await read.tierChanges(m.id)).toHaveLength(1);
    expect((await read.rewardLogs(m.id)).map((l) => l.rewardId)).toEqual([welcome.id]);
  });

  it('is none while points are not live or no live tier has threshold 0, until the first entry or the daily pass', async () => {
    const { own, make } = await pointsAccount();
    const read = readerOf(own);
    const setting = (await accepted(own.api.get('/schema/points_setting/record')))[0];
    const base = await make('tier', { name: 'Member', status: 'draft', pointsThreshold: 0 });
    await make('tier', { name: 'Gold', status: 'live', pointsThreshold: 100 });
    // No live tier of threshold 0: a window of 0 reaches none.
    expect((await make('account_user', { externalId: `none-${++seq}` })).tierId).toBeNull();

    await accepted(own.api.patch(`/schema/tier/record/${base.id}`, { status: 'live' }));
    await accepted(own.api.patch(`/schema/points_setting/record/${setting.id}`, { status: 'draft' }));
    const whileOff = await make('account_user', { externalId: `off-${++seq}` });
    expect(whileOff.tierId).toBeNull();
    expect(await read.tierChanges(whileOff.id)).toEqual([]);

    // Points on again: the daily pass places the member made while they were off.
    await accepted(own.api.patch(`/schema/points_setting/record/${setting.id}`, { status: 'live' }));
    expect((await make('account_user', { externalId: `on-${++seq}` })).tierId).toBe(base.id);
    // Today's pass, not NOW's: a pass marks every live account passed for its day, and the property below passes later days.
    await runPointsDaily(app.running.services.records, new Date());
    expect((await read.byExternalId(whileOff.externalId)).tierId).toBe(base.id);
    expect(await read.tierChanges(whileOff.id)).toHaveLength(1);
  });
});

describe('racing redemptions', () => {
  it('lets exactly three of 50 concurrent redemptions through when the balance covers three', async () => {
    const r = await codeReward(100);
    const m = await member();
    await accepted(give(m, 350, 'earned'));
    const answers = await Promise.all(Array.from({ length: 50 }, () => redeem(r.id, m)));
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(3);
    expect(answers.filter((a) => a.status === 409).every((a) => a.body.error.code === 'insufficient_points')).toBe(true);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(47);
    expect(ok.map((a) => a.body.data.pointsBalance).sort((a, b) => a - b)).toEqual([50, 150, 250]);
    expect((await memberOf(m)).pointsBalance).toBe(50);
    const logs = await rewardLogsOf(m);
    expect(logs).toHaveLength(3);
    expect(new Set(logs.map((l) => l.couponCode)).size).toBe(3);
    expect((await entriesOf(m)).filter((e) => e.reason === 'redeemed')).toHaveLength(3);
  });

  it('makes one redemption of 20 racing with one uniqueIdentifier, each other answer naming its reward log', async () => {
    const r = await codeReward(100);
    const m = await member();
    await accepted(give(m, 1000, 'earned'));
    const key = `race-${++seq}`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        acct.api.post(`/schema/reward/record/${r.id}/action/redeem`, { ownedById: m, uniqueIdentifier: key }),
      ),
    );
    const ok = answers.filter((a) => a.status === 200);
    expect(ok).toHaveLength(1);
    const made = ok[0]!.body.data.rewardLog.id;
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a.status, JSON.stringify(a.body)).toBe(409);
      expect(a.body.error).toMatchObject({ code: 'duplicate_unique_identifier', details: [{ existingRecordId: made }] });
    }
    expect(await rewardLogsOf(m)).toHaveLength(1);
    expect((await memberOf(m)).pointsBalance).toBe(900);
  });
});

type Op =
  | { op: 'earn'; m: number }
  | { op: 'give'; m: number; n: number }
  | { op: 'adjust'; m: number; n: number }
  | { op: 'redeem'; m: number }
  | { op: 'reverse'; m: number; pick: number }
  | { op: 'take'; m: number; pick: number; n: number | null }
  | { op: 'pass' };

const member3 = fc.nat(2);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constant('earn' as const), m: member3 }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('give' as const), m: member3, n: fc.integer({ min: 1, max: 60 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('adjust' as const), m: member3, n: fc.integer({ min: -80, max: 80 }).filter((n) => n !== 0) }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('redeem' as const), m: member3 }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('reverse' as const), m: member3, pick: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({ op: fc.constant('take' as const), m: member3, pick: fc.nat(), n: fc.option(fc.integer({ min: 1, max: 40 })) }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('pass' as const) }) },
);

/** The daily pass's days: each a new one, far enough apart that a warning of one has expired by the next but one. */
let passDay = 0;
const passAt = () => runPointsDaily(app.running.services.records, new Date(Date.now() + 40 * DAY + ++passDay * 15 * DAY));

describe('balances', () => {
  it('equal the sum of the entries and go below 0 only through reversed entries, whatever runs and races', async () => {
    const r = await pointsReward(40);
    const challenge = await create('challenge', {
      name: `C${++seq}`,
      status: 'live',
      aggregationPeriod: 'daily',
      completionTargetValue: 1,
    });
    await milestone('challenge', challenge.id, r.id);
    const cost = await codeReward(50);
    // Tiers with multipliers and entry rewards (a code, and points that may lift the member further); expiry after a
    // month; a lifetime window, as the pass's days run on past any window.
    const silver = await create('tier', {
      name: 'Silver',
      status: 'live',
      pointsThreshold: 60,
      earnMultiplier: 1.5,
      entryRewardId: cost.id,
    });
    const gold = await create('tier', {
      name: 'Gold',
      status: 'live',
      pointsThreshold: 150,
      earnMultiplier: 2,
      entryRewardId: (await pointsReward(25)).id,
    });
    const tiers = [gold, silver];
    const setting = (await accepted(acct.api.get('/schema/points_setting/record')))[0];
    await accepted(acct.api.patch(`/schema/points_setting/record/${setting.id}`, { expiryMonthsOfInactivity: 1, tierWindowMonths: 0 }));
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(opArb, { minLength: 1, maxLength: 4 }), { minLength: 3, maxLength: 8 }), async (batches) => {
        const members = [await member(), await member(), await member()];
        const days = [0, 0, 0];
        const earnedLogs: string[][] = [[], [], []];
        const earnedEntries: string[][] = [[], [], []];
        let reversals = [0, 0, 0];
        const run = async (o: Op): Promise<void> => {
          if (o.op === 'pass') {
            await passAt();
            return;
          }
          const m = members[o.m]!;
          if (o.op === 'earn') {
            // Each earn in a later window of its own: a daily challenge completed anew achieves the milestone again.
            const day = ++days[o.m]!;
            const log = await create('challenge_log', {
              challengeId: challenge.id,
              ownedById: m,
              activityId: 'a',
              activityAt: new Date(NOW.getTime() - (200 - day) * DAY).toISOString(),
              uniqueIdentifier: `p-${++seq}`,
            });
            if (log.achievedMilestoneRewardLog) earnedLogs[o.m]!.push(log.id);
            return;
          }
          if (o.op === 'take') {
            const ids = earnedEntries[o.m]!;
            if (!ids.length) return;
            const res = await acct.api.post(
              `/schema/point_entry/record/${ids[o.pick % ids.length]}/action/reverse`,
              o.n ? { points: o.n } : {},
            );
            if (res.status !== 200) expect([res.status, res.body.error.code]).toEqual([409, 'not_reversible']);
            return;
          }
          if (o.op === 'reverse') {
            const logs = earnedLogs[o.m]!;
            if (!logs.length) return;
            const [id] = logs.splice(o.pick % logs.length, 1);
            const res = await accepted(reverse('challenge', id!));
            reversals[o.m]! += res.revokedRewardLogs.length;
            return;
          }
          const res = o.op === 'redeem' ? await redeem(cost.id, m) : await give(m, o.n, o.op === 'give' ? 'earned' : 'adjusted');
          if (res.status !== 200) {
            expect(res.status, JSON.stringify(res.body)).toBe(409);
            expect(res.body.error.code).toBe('insufficient_points');
          } else if (o.op === 'give') earnedEntries[o.m]!.push(res.body.data.id);
        };
        for (const batch of batches) await Promise.all(batch.map(run));
        // On entries tiers only rise: never below the rule; the pass (here alone) settles them on it.
        const rule = (window: number) => tiers.find((t) => t.pointsThreshold <= window)?.id ?? null;
        const threshold = (id: string | null) => tiers.find((t) => t.id === id)?.pointsThreshold ?? -1;
        for (const m of members) {
          const shown = await memberOf(m);
          expect(threshold(shown.tierId)).toBeGreaterThanOrEqual(threshold(rule(shown.pointsEarnedInTierWindow)));
        }
        await passAt();
        for (const [i, m] of members.entries()) {
          const entries = await entriesOf(m);
          const sum = (filter: (e: any) => boolean) => entries.filter(filter).reduce((s, e) => s + e.points, 0);
          const shown = await memberOf(m);
          expect(shown.pointsBalance).toBe(sum(() => true));
          expect(shown.pointsEarnedInTierWindow).toBe(sum((e) => e.reason === 'earned' || e.reason === 'reversed'));
          expect(entries.filter((e) => e.reason === 'reversed' && e.linkedSchemaSlug === 'reward_log')).toHaveLength(reversals[i]!);
          expect(shown.tierId).toBe(rule(shown.pointsEarnedInTierWindow));
          // Each change once: every tier (none included) is entered as often as it is left, but for the first and the last.
          const changes = (await eventsOf(m)).filter((e) => e.eventCode === 'tier_changed');
          const flow = new Map<string | null, number>();
          for (const c of changes) {
            const [before, after] = [c.payload.tierBefore?.id ?? null, c.payload.tierAfter?.id ?? null];
            expect(before).not.toBe(after);
            expect(c.payload.member.tierId).toBe(after);
            flow.set(after, (flow.get(after) ?? 0) + 1);
            flow.set(before, (flow.get(before) ?? 0) - 1);
          }
          if (shown.tierId) {
            flow.set(shown.tierId, (flow.get(shown.tierId) ?? 0) - 1);
            flow.set(null, (flow.get(null) ?? 0) + 1);
          }
          expect([...flow.values()].every((n) => n === 0)).toBe(true);
          // Each tier entered gave its entry reward, once.
          const entered = new Set(changes.map((c) => c.payload.tierAfter?.id).filter(Boolean));
          const tierLogs = (await rewardLogsOf(m)).filter((l) => l.linkedSchemaSlug === 'tier').map((l) => l.linkedSchemaRecordId);
          expect(tierLogs.sort()).toEqual([...entered].sort());
        }
        reversals = [0, 0, 0];
        const belowZero = await app.db.raw(
          `select a.* from test_balance_audit a
            where a.new_balance < 0 and a.new_balance < a.old_balance
              and not exists (select 1 from test_entry_audit e where e.txid = a.txid and e.reason = 'reversed')`,
        );
        expect(belowZero.rows).toEqual([]);
      }),
      // A failure found late would shrink past the test's time-out and be reported as a time-out alone
      // (once, in CI): stop shrinking in time to print the counterexample found so far.
      { numRuns: 15, interruptAfterTimeLimit: 90_000, markInterruptAsFailure: true },
    );
    // The runs did what they are about: tiers changed, entry rewards and expiries happened (downgrades: points-daily.test.ts).
    const count = async (table: string, where: Record<string, unknown>) =>
      Number(
        (
          await app
            .db(table)
            .where({ account_id: acct.accountId, ...where })
            .count({ n: '*' })
        )[0]!.n,
      );
    expect(await count('event_log', { event_code: 'tier_changed' })).toBeGreaterThan(0);
    expect(await count('event_log', { event_code: 'points_to_expire' })).toBeGreaterThan(0);
    expect(await count('point_entry', { reason: 'expired' })).toBeGreaterThan(0);
    expect(await count('reward_log', { linked_schema_slug: 'tier' })).toBeGreaterThan(0);
  }, 120_000);
});
