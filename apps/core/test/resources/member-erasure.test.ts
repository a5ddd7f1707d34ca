import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accepted, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

// Deleting a member is the GDPR erasure path (CONTRACT §6): nothing that names the member stays, and
// the erased logs' and reversals' uniqueIdentifiers are free again.
let app: TestApp;
let acct: TestAccount;
beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount({ timezone: 'UTC', defaultLanguageCode: 'en' });
});
afterAll(() => app.close());

const now = () => new Date().toISOString();
const make = (slug: string, body: Record<string, unknown>): Promise<any> => accepted(acct.api.post(`/schema/${slug}/record`, body));

/** Every row of any table whose member column holds `memberId`, as `table.column: count`. */
async function rowsNaming(memberId: string): Promise<Record<string, number>> {
  const { rows: columns } = await app.db.raw<{ rows: { table_name: string; column_name: string }[] }>(
    `select table_name, column_name from information_schema.columns
      where table_schema = current_schema() and column_name in ('owned_by_id', 'member_id') and data_type = 'uuid'`,
  );
  const found: Record<string, number> = {};
  for (const { table_name, column_name } of columns) {
    const { rows } = await app.db.raw<{ rows: { n: number }[] }>(`select count(*)::int as n from ?? where ?? = ?`, [
      table_name,
      column_name,
      memberId,
    ]);
    if (rows[0]!.n) found[`${table_name}.${column_name}`] = rows[0]!.n;
  }
  return found;
}

describe('deleting a member', () => {
  it('leaves no row naming them (logs, reversals, progress, freezes, points, tier rewards, standings, events) and frees their identifiers', async () => {
    const setting = (await accepted(acct.api.get('/schema/points_setting/record')))[0];
    await accepted(acct.api.patch(`/schema/points_setting/record/${setting.id}`, { status: 'live' }));
    const gift = await make('reward', {
      name: 'Gift',
      description: 'd',
      rewardKind: 'points',
      pointsValue: 5,
      rewardExpiryType: 'no_expiry',
    });
    await make('tier', { name: 'Silver', status: 'live', pointsThreshold: 10, entryRewardId: gift.id });
    const streak = await make('streak', { name: 'Daily', status: 'live', maxFreezes: 3 });
    const challenge = await make('challenge', { name: 'Spend', status: 'live', aggregationMethod: 'sum', completionTargetValue: 100 });
    await make('leaderboard', { name: 'Top spenders', status: 'live', linkedSchemaSlug: 'challenge', linkedSchemaRecordId: challenge.id });
    const mission = await make('mission', {
      name: 'Welcome',
      status: 'live',
      tasks: [{ name: 't', activityId: 'signup', targetValue: 1 }],
    });

    // The same history for two members; the second one stays.
    const history = async (externalId: string, suffix: string) => {
      const first = await make('streak_log', {
        streakId: streak.id,
        ownedBy: { externalId },
        activityId: 'visit',
        activityAt: now(),
        uniqueIdentifier: `s-${suffix}`,
      });
      const member: string = first.ownedById;
      const progress = first.streakProgress.id as string;
      await accepted(acct.api.post(`/schema/streak_progress/record/${progress}/action/grant_freezes`, { count: 1 }));
      const spent = await make('challenge_log', {
        challengeId: challenge.id,
        ownedById: member,
        activityId: 'order',
        activityValue: 40,
        activityAt: now(),
        uniqueIdentifier: `c-${suffix}`,
      });
      await accepted(acct.api.post(`/schema/challenge_log/record/${spent.id}/action/reverse`, { uniqueIdentifier: `r-${suffix}` }));
      await make('challenge_log', {
        challengeId: challenge.id,
        ownedById: member,
        activityId: 'order',
        activityValue: 30,
        activityAt: now(),
        uniqueIdentifier: `c2-${suffix}`,
      });
      await make('mission_log', {
        missionId: mission.id,
        ownedById: member,
        activityId: 'signup',
        activityAt: now(),
        uniqueIdentifier: `m-${suffix}`,
      });
      await make('point_entry', { ownedById: member, points: 20, reason: 'earned', note: 'welcome' });
      return member;
    };
    const gone = await history('erased', 'gone');
    const kept = await history('kept', 'kept');
    const before = await rowsNaming(gone);
    const keptBefore = await rowsNaming(kept);
    // The history reached every kind of row that names a member.
    for (const table of [
      'streak_log',
      'challenge_log',
      'mission_log',
      'log_reversal',
      'freeze_grant',
      'point_entry',
      'tier_entry_reward',
    ]) {
      expect(Object.keys(before), table).toContainEqual(expect.stringMatching(new RegExp(`^${table}\\.`)));
    }
    expect(Object.keys(before)).toContain('leaderboard_standing.member_id');

    expect((await acct.api.delete(`/schema/account_user/record/${gone}`)).status).toBe(204);
    expect(await rowsNaming(gone)).toEqual({});
    expect(await rowsNaming(kept)).toEqual(keptBefore);

    // Its logs' and reversals' identifiers are free again, for another member's log and reversal.
    const again = await make('challenge_log', {
      challengeId: challenge.id,
      ownedById: kept,
      activityId: 'order',
      activityValue: 10,
      activityAt: now(),
      uniqueIdentifier: 'c-gone',
    });
    const reversal = await acct.api.post(`/schema/challenge_log/record/${again.id}/action/reverse`, { uniqueIdentifier: 'r-gone' });
    expect(reversal.status).toBe(200);
  });

  it('takes the deliveries still to be made of their events with them; those made, and others’, stay', async () => {
    const streak = await make('streak', { name: 'Hooked', status: 'live' });
    const webhook = await make('webhook', {
      name: 'H',
      status: 'live',
      endpointUrl: 'https://hooks.example.com/x',
      eventCodes: ['streak_progress_in_progress'],
    });
    const log = (externalId: string) =>
      make('streak_log', {
        streakId: streak.id,
        ownedBy: { externalId },
        activityId: 'visit',
        activityAt: now(),
        uniqueIdentifier: `h-${externalId}`,
      });
    const gone: string = (await log('hooked-gone')).ownedById;
    const kept: string = (await log('hooked-kept')).ownedById;
    const eventsOf = async (member: string) =>
      (await app.db('event_log').where({ account_id: acct.accountId, owned_by_id: member }).select('id')).map((e) => e.id as string);
    const [goneEvent, goneOther] = await eventsOf(gone);
    const [keptEvent] = await eventsOf(kept);
    const delivery = (events: string[], status: string) => ({
      account_id: acct.accountId,
      webhook_id: webhook.id,
      event_log_ids: events,
      webhook_log_status: status,
    });
    const ids = await app
      .db('webhook_log')
      .insert([
        delivery([goneEvent!], 'pending'),
        delivery([goneOther ?? goneEvent!], 'errored'),
        delivery([goneEvent!], 'processed'),
        delivery([keptEvent!], 'pending'),
      ])
      .returning('webhook_log_status');
    expect(ids).toHaveLength(4);
    expect((await acct.api.delete(`/schema/account_user/record/${gone}`)).status).toBe(204);
    const left = await app
      .db('webhook_log')
      .where({ account_id: acct.accountId, webhook_id: webhook.id })
      .select('webhook_log_status', 'event_log_ids');
    expect(left.map((l) => l.webhook_log_status).sort()).toEqual(['pending', 'processed']);
    expect(left.find((l) => l.webhook_log_status === 'pending')!.event_log_ids).toEqual([keptEvent]);
  });

  it('leaves nothing behind when logs, inline members, grants and reversals race the deletion', async () => {
    const streak = await make('streak', { name: 'Racing', status: 'live', maxFreezes: 3 });
    const challenge = await make('challenge', { name: 'Racing', status: 'live', completionTargetValue: 1000 });
    for (let round = 0; round < 6; round++) {
      const externalId = `racer-${round}`;
      const first = await make('challenge_log', {
        challengeId: challenge.id,
        ownedBy: { externalId },
        activityId: 'visit',
        activityAt: now(),
        uniqueIdentifier: `race-${round}-first`,
      });
      const member = first.ownedById as string;
      const progress = await make('streak_log', {
        streakId: streak.id,
        ownedById: member,
        activityId: 'visit',
        activityAt: now(),
        uniqueIdentifier: `race-${round}-streak`,
      });
      const writes = Array.from({ length: 24 }, (_, i) => {
        if (i % 6 === 5) return acct.api.post(`/schema/challenge_log/record/${first.id}/action/reverse`, {});
        if (i % 6 === 4)
          return acct.api.post(`/schema/streak_progress/record/${progress.streakProgress.id}/action/grant_freezes`, { count: 1 });
        const body = { challengeId: challenge.id, activityId: 'visit', activityAt: now(), uniqueIdentifier: `race-${round}-${i}` };
        return acct.api.post('/schema/challenge_log/record', i % 2 ? { ...body, ownedById: member } : { ...body, ownedBy: { externalId } });
      });
      const deleted = new Promise((resolve) => setTimeout(resolve, 3 * round)).then(() =>
        acct.api.delete(`/schema/account_user/record/${member}`),
      );
      const answers = await Promise.all(writes);
      expect((await deleted).status).toBe(204);
      // Before the deletion, written and then erased; after it, a refusal (an unknown member, an erased log or
      // progress, a grant while erasing) or a log of the inline member created anew.
      for (const res of answers) expect([200, 400, 404, 409], JSON.stringify(res.body)).toContain(res.status);
      expect(answers.filter((r) => r.body.error?.code === 'duplicate_unique_identifier')).toEqual([]);
      expect(await rowsNaming(member)).toEqual({});
    }
  }, 60_000);
});
