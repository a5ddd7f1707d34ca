import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildPendingStandings } from '../../src/engine/standings.js';
import { runSweeps } from '../../src/scheduler/sweeps.js';
import { accepted, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

// Holdouts and why a log did not count (CONTRACT §18), through the HTTP API.
let app: TestApp;
let acct: TestAccount;
const NOW = new Date('2027-03-10T12:00:00Z');
beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount({ timezone: 'UTC', defaultLanguageCode: 'en' });
});
beforeEach(() => at(NOW));
afterAll(() => app.close());
const at = (time: string | Date) => {
  const now = new Date(time);
  app.running.services.records.now = () => now;
};

let seq = 0;
const create = (slug: string, body: Record<string, unknown>): Promise<any> => accepted(acct.api.post(`/schema/${slug}/record`, body));
const update = (slug: string, id: string, body: Record<string, unknown>): Promise<any> =>
  accepted(acct.api.patch(`/schema/${slug}/record/${id}`, body));
const log = (kind: string, body: Record<string, unknown>): Promise<any> =>
  create(`${kind}_log`, { activityId: 'visit', activityAt: NOW.toISOString(), uniqueIdentifier: `h-${++seq}`, ...body });
const member = async (externalId = `hold-${++seq}`) => (await create('account_user', { externalId })).id as string;

/**
 * The group as the contract defines it, computed here with WebCrypto rather than the service's
 * node:crypto path: the first four bytes of SHA-256 of `<definition id>:<externalId>`, big-endian,
 * over 2^32.
 */
async function position(definitionId: string, externalId: string): Promise<number> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${definitionId}:${externalId}`));
  return new DataView(digest).getUint32(0, false) / 2 ** 32;
}

describe('holdouts', () => {
  it('holds out exactly the members the published function names: their later logs do not count, progress they had stays, and API-key reads say so', async () => {
    const streak = await create('streak', { name: 'Held', status: 'live', aggregationPeriod: 'daily', holdoutPercent: 0 });
    expect(streak.holdoutPercent).toBe(0);
    const externalIds = Array.from({ length: 80 }, (_, i) => `shopper-${i}`);
    const ids = new Map<string, string>();
    for (const externalId of externalIds) ids.set(externalId, await member(externalId));
    // Before the holdout everyone counts.
    for (const externalId of externalIds)
      expect((await log('streak', { streakId: streak.id, ownedById: ids.get(externalId) })).isAggregated).toBe(true);

    await update('streak', streak.id, { holdoutPercent: 30 });
    const expected = new Set<string>();
    for (const externalId of externalIds) if ((await position(streak.id, externalId)) < 0.3) expected.add(externalId);
    // About 30 % of 80 (a definition's random id draws the split: 10 or fewer came up in CI): a
    // function that held out everyone or no one fails here, and no split of this one does.
    expect(expected.size).toBeGreaterThan(0);
    expect(expected.size).toBeLessThan(80);

    at(new Date(NOW.getTime() + 86_400_000));
    for (const externalId of externalIds) {
      const answer = await log('streak', {
        streakId: streak.id,
        ownedById: ids.get(externalId),
        activityAt: new Date(NOW.getTime() + 86_400_000).toISOString(),
      });
      const held = expected.has(externalId);
      expect(answer.isAggregated, externalId).toBe(!held);
      expect(answer.notAggregatedReason, externalId).toBe(held ? 'holdout' : null);
      // The progress from before the holdout stays as it was; members in the program go on.
      expect(answer.streakProgress?.currentProgressValue ?? 1, externalId).toBe(held ? 1 : 2);
      const shown = await accepted(acct.api.get(`/schema/account_user/record/${ids.get(externalId)}`));
      expect(shown.heldOutOf, externalId).toEqual(held ? [streak.id] : []);
    }

    // Raising the percent only adds members.
    await update('streak', streak.id, { holdoutPercent: 50 });
    const listed: any[] = await accepted(acct.api.get('/schema/account_user/record', { limit: 500 }));
    const heldNow = new Set(listed.filter((m) => m.heldOutOf.includes(streak.id)).map((m) => m.externalId as string));
    for (const externalId of expected) expect(heldNow.has(externalId)).toBe(true);
    for (const externalId of externalIds) expect(heldNow.has(externalId)).toBe((await position(streak.id, externalId)) < 0.5);
  }, 120_000);

  it('hides the definition and its boards from a held-out end user (404, missing from lists, not named on their own record); others and guests still see them', async () => {
    const mission = await create('mission', {
      name: 'Hidden for some',
      status: 'live',
      aggregationPeriod: 'weekly',
      holdoutPercent: 50,
      tasks: [{ name: 'Visit', activityId: 'visit', targetValue: 1 }],
    });
    const shoppers: { externalId: string; held: boolean }[] = [];
    for (let i = 0; shoppers.filter((s) => s.held).length < 2 || shoppers.filter((s) => !s.held).length < 2; i++) {
      const externalId = `eu-${i}`;
      shoppers.push({ externalId, held: (await position(mission.id, externalId)) < 0.5 });
    }
    // Its board shows it and its members: hidden from them too.
    const board = await create('leaderboard', {
      name: 'Hidden board',
      linkedSchemaSlug: 'mission',
      linkedSchemaRecordId: mission.id,
      rankBy: 'completions',
    });
    for (const { externalId, held } of shoppers) {
      const token = (await accepted(acct.api.post('/enduser/token', { externalId }))).accessToken as string;
      const user = app.anon.with({ 'x-enduser-access-token': token, 'x-account-id': acct.accountId });
      const one = await user.get(`/schema/mission/record/${mission.id}`);
      expect(one.status, externalId).toBe(held ? 404 : 200);
      if (held) expect(one.body.error.code).toBe('not_found');
      expect((await user.get(`/schema/leaderboard/record/${board.id}`)).status, externalId).toBe(held ? 404 : 200);
      expect((await user.get(`/schema/leaderboard/record/${board.id}/standings`)).status, externalId).toBe(held ? 404 : 200);
      const boards: any[] = (await user.get('/schema/leaderboard/record')).body.data;
      expect(
        boards.some((b) => b.id === board.id),
        externalId,
      ).toBe(!held);
      const listed: any[] = (await user.get('/schema/mission/record')).body.data;
      expect(
        listed.some((m) => m.id === mission.id),
        externalId,
      ).toBe(!held);
      // Nor does the member's own record name it; an API key's read does.
      const me = (await user.get('/schema/account_user/me')).body.data;
      expect(me.externalId).toBe(externalId);
      expect(me).not.toHaveProperty('heldOutOf');
      expect(me).toHaveProperty('createdAt');
      expect(me).toHaveProperty('pointsBalance');
      expect((await user.get('/schema/account_user/me', { fields: '["pointsBalance"]' })).body.data).toEqual({
        id: me.id,
        pointsBalance: 0,
      });
      expect((await user.get('/schema/account_user/me', { fields: '["heldOutOf"]' })).status).toBe(400);
      // The document says as much: /me's fields are the record's less what only staff read (heldOutOf, referredById), and it takes every one of them.
      const doc = (await app.anon.get('/openapi.json')).body;
      const [fields] = doc.paths['/schema/account_user/me'].get.parameters;
      expect(fields.content['application/json'].schema.$ref).toBe('#/components/schemas/AccountUserOwnFields');
      const own: string[] = doc.components.schemas.AccountUserOwnFields.items.enum;
      expect(own).toEqual(
        doc.components.schemas.AccountUserFields.items.enum.filter((f: string) => f !== 'heldOutOf' && f !== 'referredById'),
      );
      expect(Object.keys((await user.get('/schema/account_user/me', { fields: JSON.stringify(own) })).body.data).sort()).toEqual(
        [...own].sort(),
      );
      const staff = (await acct.api.get(`/schema/account_user/record/${me.id}`)).body.data;
      expect(staff.heldOutOf.includes(mission.id), externalId).toBe(held);
    }
    const guest = app.anon.with({ 'x-account-id': acct.accountId });
    expect((await guest.get(`/schema/mission/record/${mission.id}`)).status).toBe(200);
    expect((await guest.get(`/schema/leaderboard/record/${board.id}/standings`)).status).toBe(200);
  });

  it.each(['in the request', 'in the background'])(
    'leaderboards do not rank held-out members: a new percent re-ranks the boards %s, and members come back when it drops',
    async (where) => {
      // Over more progress records than a request builds (LOYALTY_STANDINGS_INLINE_MAX) the builder re-ranks.
      const inlineMax = app.config.standingsInlineMax;
      if (where === 'in the background') app.config.standingsInlineMax = 10;
      try {
        await reranks(where === 'in the request');
      } finally {
        app.config.standingsInlineMax = inlineMax;
      }
    },
    120_000,
  );

  async function reranks(inline: boolean) {
    const challenge = await create('challenge', { name: 'Ranked', status: 'live', aggregationMethod: 'sum', completionTargetValue: 1000 });
    const board = await create('leaderboard', {
      name: 'Top spenders',
      linkedSchemaSlug: 'challenge',
      linkedSchemaRecordId: challenge.id,
      size: 100,
    });
    const externalIds = Array.from({ length: 24 }, (_, i) => `ranked-${inline ? 'now' : 'later'}-${i}`);
    const ids = new Map<string, string>();
    for (const [i, externalId] of externalIds.entries()) {
      ids.set(externalId, await member(externalId));
      await log('challenge', { challengeId: challenge.id, ownedById: ids.get(externalId), activityValue: 10 + i });
    }
    const ranked = async (): Promise<Record<string, number>> => {
      const res = await acct.api.get(`/schema/leaderboard/record/${board.id}/standings`, { limit: '100' });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return Object.fromEntries(res.body.data.entries.map((e: { ownedById: string; value: number }) => [e.ownedById, e.value]));
    };
    const everyone = Object.fromEntries(externalIds.map((x, i) => [ids.get(x)!, 10 + i]));
    expect(await ranked()).toEqual(everyone);

    await update('challenge', challenge.id, { holdoutPercent: 40 });
    if (!inline) {
      expect((await acct.api.get(`/schema/leaderboard/record/${board.id}/standings`)).status).toBe(503);
      await buildPendingStandings(app.db);
    }
    const held = new Set<string>();
    for (const externalId of externalIds) if ((await position(challenge.id, externalId)) < 0.4) held.add(ids.get(externalId)!);
    expect(held.size).toBeGreaterThan(2);
    const inProgram = Object.fromEntries(Object.entries(everyone).filter(([id]) => !held.has(id)));
    expect(await ranked()).toEqual(inProgram);
    // A held-out member's later log changes no standing; a member in the program's does.
    const [heldOne] = [...held];
    const [inOne] = Object.keys(inProgram);
    await log('challenge', { challengeId: challenge.id, ownedById: heldOne, activityValue: 500 });
    await log('challenge', { challengeId: challenge.id, ownedById: inOne, activityValue: 1 });
    expect(await ranked()).toEqual({ ...inProgram, [inOne!]: inProgram[inOne!]! + 1 });

    await update('challenge', challenge.id, { holdoutPercent: 0 });
    if (!inline) await buildPendingStandings(app.db);
    expect(await ranked()).toEqual({ ...everyone, [inOne!]: everyone[inOne!]! + 1 });
  }

  it('leaves the runs of members held out since they began as they were: the sweeps warn, break and fail none of them, and announce nothing', async () => {
    const streak = await create('streak', { name: 'Swept', status: 'live', aggregationPeriod: 'daily', toBeBrokenWarningHours: 12 });
    const challenge = await create('challenge', {
      name: 'Swept challenge',
      status: 'live',
      aggregationPeriod: 'daily',
      completionTargetValue: 5,
      toBeFailedWarningHours: 6,
    });
    const externalIds = Array.from({ length: 30 }, (_, i) => `swept-${i}`);
    const ids = new Map<string, string>();
    for (const externalId of externalIds) {
      ids.set(externalId, await member(externalId));
      await log('streak', { streakId: streak.id, ownedById: ids.get(externalId) });
      await log('challenge', { challengeId: challenge.id, ownedById: ids.get(externalId) });
    }
    await update('streak', streak.id, { holdoutPercent: 50 });
    await update('challenge', challenge.id, { holdoutPercent: 50 });
    const held = async (definitionId: string, externalId: string) => (await position(definitionId, externalId)) < 0.5;

    // The challenge's day ends at midnight (warned from 18:00); the streak's run breaks a day later (warned from noon).
    const sweep = (time: string) => runSweeps(app.running.services.records, new Date(time), 0);
    await sweep('2027-03-10T19:00:00Z');
    await sweep('2027-03-11T13:00:00Z');
    await sweep('2027-03-12T00:00:01Z');
    const statusOf = async (slug: string, definition: string, definitionId: string, ownedById: string) => {
      const filters = {
        operator: 'and',
        conditions: [
          { fieldSlug: `${definition}Id`, operator: 'equals', fieldValue: definitionId },
          { fieldSlug: 'ownedById', operator: 'equals', fieldValue: ownedById },
        ],
      };
      const [row] = await accepted(acct.api.get(`/schema/${slug}/record`, { filters: JSON.stringify(filters) }));
      return row[`${definition}ProgressStatus`] as string;
    };
    const seen = { streak: new Set<boolean>(), challenge: new Set<boolean>() };
    for (const externalId of externalIds) {
      const id = ids.get(externalId)!;
      const events: any[] = await accepted(
        acct.api.get('/schema/event_log/record', {
          filters: JSON.stringify({ operator: 'and', conditions: [{ fieldSlug: 'ownedById', operator: 'equals', fieldValue: id }] }),
          limit: 100,
        }),
      );
      const codes = events.map((e) => e.eventCode as string);
      const streakHeld = await held(streak.id, externalId);
      const challengeHeld = await held(challenge.id, externalId);
      seen.streak.add(streakHeld);
      seen.challenge.add(challengeHeld);
      expect(await statusOf('streak_progress', 'streak', streak.id, id), externalId).toBe(streakHeld ? 'in_progress' : 'broken');
      expect(codes.includes('streak_progress_to_be_broken'), externalId).toBe(!streakHeld);
      expect(codes.includes('streak_progress_broken'), externalId).toBe(!streakHeld);
      expect(await statusOf('challenge_progress', 'challenge', challenge.id, id), externalId).toBe(
        challengeHeld ? 'in_progress' : 'failed',
      );
      expect(codes.includes('challenge_progress_to_be_failed'), externalId).toBe(!challengeHeld);
      expect(codes.includes('challenge_progress_failed'), externalId).toBe(!challengeHeld);
    }
    // Both groups of both definitions were there (about half each of 30).
    expect([...seen.streak].sort()).toEqual([false, true]);
    expect([...seen.challenge].sort()).toEqual([false, true]);
  }, 120_000);

  it('refuses a percent outside 0..50 with the contract error, changing nothing', async () => {
    const challenge = await create('challenge', { name: 'C', status: 'live', completionTargetValue: 10 });
    for (const holdoutPercent of [-1, 51, 12.5, '10']) {
      const res = await acct.api.patch(`/schema/challenge/record/${challenge.id}`, { holdoutPercent });
      expect(res.status, JSON.stringify(holdoutPercent)).toBe(400);
      expect(res.body.error.details[0].field).toBe('holdoutPercent');
    }
    expect((await accepted(acct.api.get(`/schema/challenge/record/${challenge.id}`))).holdoutPercent).toBe(0);
  });
});

describe('notAggregatedReason', () => {
  it('names the first reason that applies, for each of them', async () => {
    const streak = await create('streak', { name: 'S', status: 'live', aggregationPeriod: 'daily', completionTargetValue: 2 });
    const paused = await create('streak', { name: 'P', status: 'paused', aggregationPeriod: 'daily' });
    const someone = await member();
    const reason = async (kind: string, body: Record<string, unknown>) => {
      const answer = await log(kind, { ownedById: someone, ...body });
      return answer.isAggregated ? null : answer.notAggregatedReason;
    };

    expect(await reason('streak', { streakId: streak.id, status: 'paused' })).toBe('log_not_live');
    // A paused log on a paused definition: the log's own status comes first.
    expect(await reason('streak', { streakId: paused.id, status: 'paused' })).toBe('log_not_live');
    expect(await reason('streak', { streakId: paused.id })).toBe('definition_not_live');
    const resting = await member();
    await update('account_user', resting, { status: 'paused' });
    expect(await reason('streak', { streakId: streak.id, ownedById: resting })).toBe('member_not_live');

    // Day 1 and day 2 complete the streak; a second log of day 2 is in the completed last period,
    // one of day 1 before it.
    expect(await reason('streak', { streakId: streak.id, activityAt: '2027-03-09T10:00:00Z' })).toBeNull();
    expect(await reason('streak', { streakId: streak.id, activityAt: '2027-03-10T10:00:00Z' })).toBeNull();
    expect(await reason('streak', { streakId: streak.id, activityAt: '2027-03-10T11:00:00Z' })).toBe('period_completed');
    expect(await reason('streak', { streakId: streak.id, activityAt: '2027-03-09T11:00:00Z' })).toBe('period_closed');

    const running = await create('streak', { name: 'R', status: 'live', aggregationPeriod: 'daily' });
    expect(await reason('streak', { streakId: running.id, activityAt: '2027-03-10T10:00:00Z' })).toBeNull();
    expect(await reason('streak', { streakId: running.id, activityAt: '2027-03-09T10:00:00Z' })).toBe('period_closed');

    const windowed = await create('challenge', {
      name: 'W',
      status: 'live',
      completionTargetValue: 5,
      startAt: '2027-03-10T00:00:00Z',
      endAt: '2027-03-20T00:00:00Z',
    });
    expect(await reason('challenge', { challengeId: windowed.id, activityAt: '2027-03-09T10:00:00Z' })).toBe('outside_window');
    expect(await reason('challenge', { challengeId: windowed.id })).toBeNull();

    const mission = await create('mission', {
      name: 'M',
      status: 'live',
      aggregationPeriod: 'weekly',
      tasks: [{ name: 'Visit', activityId: 'visit', targetValue: 1 }],
    });
    expect(await reason('mission', { missionId: mission.id, activityId: 'review' })).toBe('no_matching_task');
    expect(await reason('mission', { missionId: mission.id, activityAt: '2027-03-10T11:00:00Z' })).toBeNull();
    expect(await reason('mission', { missionId: mission.id })).toBe('mission_completed');

    // Stored with the log, and read back as such.
    const listed: any[] = await accepted(
      acct.api.get('/schema/streak_log/record', {
        filters: { operator: 'and', conditions: [{ fieldSlug: 'streakId', operator: 'equals', fieldValue: paused.id }] },
      }),
    );
    expect(listed.map((l) => l.notAggregatedReason).sort()).toEqual(['definition_not_live', 'log_not_live']);
  });
});
