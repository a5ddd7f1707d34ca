import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accepted, type Client, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

let app: TestApp;
let acct: TestAccount;
let other: TestAccount;
beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount({ timezone: 'Europe/Paris' });
  other = await app.createAccount();
});
afterAll(() => app.close());

let seq = 0;
const uid = () => `u-${++seq}`;

const member = (externalId: string, extra: Record<string, unknown> = {}, api: Client = acct.api) =>
  accepted<{ id: string }>(api.post('/schema/account_user/record', { externalId, ...extra })).then((m) => m.id);
const definition = (slug: string, body: Record<string, unknown> = {}, api: Client = acct.api) =>
  accepted<{ id: string }>(api.post(`/schema/${slug}/record`, { name: `${slug} ${++seq}`, ...body })).then((d) => d.id);
const board = (body: Record<string, unknown>, api: Client = acct.api) =>
  accepted(api.post('/schema/leaderboard/record', { name: `Board ${++seq}`, ...body }));
const challengeLog = (challengeId: string, ownedById: string, extra: Record<string, unknown> = {}) =>
  accepted(
    acct.api.post('/schema/challenge_log/record', {
      challengeId,
      ownedById,
      activityId: 'a',
      uniqueIdentifier: uid(),
      activityAt: new Date().toISOString(),
      ...extra,
    }),
  );
const standings = (id: string, query: Record<string, string> = {}, client: Client = acct.api) =>
  client.get(`/schema/leaderboard/record/${id}/standings`, query);

async function endUser(externalId: string, names: Record<string, string> = {}): Promise<{ client: Client; memberId: string }> {
  const minted = await accepted(acct.api.post('/enduser/token', { externalId, ...names }));
  return {
    client: app.anon.with({ 'x-enduser-access-token': minted.accessToken, 'x-account-id': acct.accountId }),
    memberId: minted.memberId,
  };
}

/** Logs `count` count-method logs for the member, one after the other. */
async function logTimes(challengeId: string, memberId: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await challengeLog(challengeId, memberId);
}

describe('the leaderboard resource', () => {
  it('defaults rankBy by kind, size 10 and first_name_initial', async () => {
    const streakId = await definition('streak');
    const missionId = await definition('mission', { tasks: [{ name: 't', activityId: 'x', targetValue: 1 }] });
    const challengeId = await definition('challenge', { completionTargetValue: 100 });
    expect(await board({ linkedSchemaSlug: 'streak', linkedSchemaRecordId: streakId })).toMatchObject({
      rankBy: 'current_run',
      size: 10,
      displayName: 'first_name_initial',
      status: 'live',
    });
    expect((await board({ linkedSchemaSlug: 'challenge', linkedSchemaRecordId: challengeId })).rankBy).toBe('window_progress');
    expect((await board({ linkedSchemaSlug: 'mission', linkedSchemaRecordId: missionId })).rankBy).toBe('completions');
    expect((await board({ linkedSchemaSlug: 'streak', linkedSchemaRecordId: streakId, rankBy: 'longest_run', size: 100 })).size).toBe(100);
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const streakId = await definition('streak');
    const challengeId = await definition('challenge', { completionTargetValue: 5 });
    const foreignStreak = await definition('streak', {}, other.api);
    const before = (await acct.api.get('/schema/leaderboard/record', { fetchTotalCount: 'true' })).body.paging.total;
    const cases: [Record<string, unknown>, string][] = [
      [{ linkedSchemaSlug: 'streak', linkedSchemaRecordId: streakId, rankBy: 'window_progress' }, 'rankBy'],
      [{ linkedSchemaSlug: 'challenge', linkedSchemaRecordId: challengeId, rankBy: 'longest_run' }, 'rankBy'],
      [{ linkedSchemaSlug: 'streak', linkedSchemaRecordId: foreignStreak }, 'linkedSchemaRecordId'],
      [{ linkedSchemaSlug: 'streak', linkedSchemaRecordId: challengeId }, 'linkedSchemaRecordId'],
      [{ linkedSchemaSlug: 'streak', linkedSchemaRecordId: streakId, size: 0 }, 'size'],
      [{ linkedSchemaSlug: 'streak', linkedSchemaRecordId: streakId, size: 101 }, 'size'],
      [{ linkedSchemaSlug: 'streak', linkedSchemaRecordId: streakId, displayName: 'full' }, 'displayName'],
      [{ linkedSchemaSlug: 'streak', linkedSchemaRecordId: streakId, rankBy: null }, 'rankBy'],
      [{ linkedSchemaSlug: 'quest', linkedSchemaRecordId: streakId }, 'linkedSchemaSlug'],
      [{ linkedSchemaSlug: 'streak' }, 'linkedSchemaRecordId'],
    ];
    for (const [body, field] of cases) {
      const res = await acct.api.post('/schema/leaderboard/record', { name: 'Bad', ...body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('invalid_input');
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    // The other account's record is named like any unknown id: nothing tells that it exists.
    const foreign = await acct.api.post('/schema/leaderboard/record', {
      name: 'Bad',
      linkedSchemaSlug: 'streak',
      linkedSchemaRecordId: foreignStreak,
    });
    const unknown = await acct.api.post('/schema/leaderboard/record', {
      name: 'Bad',
      linkedSchemaSlug: 'streak',
      linkedSchemaRecordId: '00000000-0000-4000-8000-000000000000',
    });
    expect(foreign.body.error.message).toBe(unknown.body.error.message);
    expect((await acct.api.get('/schema/leaderboard/record', { fetchTotalCount: 'true' })).body.paging.total).toBe(before);

    const made = await board({ linkedSchemaSlug: 'streak', linkedSchemaRecordId: streakId });
    for (const patch of [
      { rankBy: 'completions' },
      { linkedSchemaRecordId: foreignStreak },
      { size: 101 },
      { rankBy: null },
      { linkedSchemaSlug: 'challenge' },
    ]) {
      const res = await acct.api.patch(`/schema/leaderboard/record/${made.id}`, patch);
      expect(res.status, JSON.stringify(patch)).toBe(400);
    }
    expect(await accepted(acct.api.get(`/schema/leaderboard/record/${made.id}`))).toMatchObject({
      rankBy: 'current_run',
      linkedSchemaRecordId: streakId,
      size: 10,
    });
  });

  it('end users and guests read live leaderboards, public fields only', async () => {
    const streakId = await definition('streak');
    const live = await board({
      linkedSchemaSlug: 'streak',
      linkedSchemaRecordId: streakId,
      description: 'secret',
      eudTitle: 'Top streaks',
    });
    const draft = await board({ linkedSchemaSlug: 'streak', linkedSchemaRecordId: streakId, status: 'draft' });
    const { client } = await endUser('reader');
    const guest = app.anon.with({ 'x-account-id': acct.accountId });
    for (const c of [client, guest]) {
      const got = await accepted(c.get(`/schema/leaderboard/record/${live.id}`));
      expect(got).toMatchObject({ id: live.id, eudTitle: 'Top streaks', rankBy: 'current_run', size: 10, linkedSchemaSlug: 'streak' });
      expect(got).not.toHaveProperty('name');
      expect(got).not.toHaveProperty('description');
      expect(got).not.toHaveProperty('status');
      expect((await c.get(`/schema/leaderboard/record/${draft.id}`)).status).toBe(404);
      const listed = await accepted<any[]>(c.get('/schema/leaderboard/record', { limit: '1000' }));
      expect(listed.map((b) => b.id)).toContain(live.id);
      expect(listed.map((b) => b.id)).not.toContain(draft.id);
      expect(
        (await c.post('/schema/leaderboard/record', { name: 'x', linkedSchemaSlug: 'streak', linkedSchemaRecordId: streakId })).status,
      ).toBe(c === guest ? 401 : 403);
    }
  });
});

describe('standings', () => {
  it('ranks higher values first, ties share a rank, whoever reached the value first first; live members only', async () => {
    const challengeId = await definition('challenge', { completionTargetValue: 100 });
    const lb = await board({ linkedSchemaSlug: 'challenge', linkedSchemaRecordId: challengeId });
    const ids: Record<string, string> = {};
    for (const n of ['ann', 'bob', 'cat', 'dan', 'eve', 'fay'])
      ids[n] = await member(`${n}-${challengeId}`, { firstName: n[0]!.toUpperCase() + n.slice(1), lastName: 'smith' });
    await logTimes(challengeId, ids.cat!, 2);
    await logTimes(challengeId, ids.bob!, 2); // reaches 2 after cat
    await logTimes(challengeId, ids.ann!, 3);
    await logTimes(challengeId, ids.dan!, 1);
    await logTimes(challengeId, ids.eve!, 5);
    await accepted(acct.api.patch(`/schema/account_user/record/${ids.eve}`, { status: 'paused' }));
    const data = await accepted(standings(lb.id));
    expect(data.rankedCount).toBe(4);
    expect(data.entries.map((e: any) => [e.rank, e.value, e.displayName, e.ownedById])).toEqual([
      [1, 3, 'Ann S.', ids.ann],
      [2, 2, 'Cat S.', ids.cat],
      [2, 2, 'Bob S.', ids.bob],
      [4, 1, 'Dan S.', ids.dan],
    ]);
    expect(data.entries[0]).toMatchObject({ isCaller: false, externalId: `ann-${challengeId}` });
    expect(data.caller).toBeNull();

    // fay's first log counts at once (read-your-writes), and eve counts again when live.
    await challengeLog(challengeId, ids.fay!, { activityValue: undefined });
    await accepted(acct.api.patch(`/schema/account_user/record/${ids.eve}`, { status: 'live' }));
    const after = await accepted(standings(lb.id, { limit: '3' }));
    expect(after.rankedCount).toBe(6);
    expect(after.entries.map((e: any) => [e.rank, e.value])).toEqual([
      [1, 5],
      [2, 3],
      [3, 2],
    ]);
  });

  it('gives an end user its own rank; guests and API keys get null; API-key fields only for API keys', async () => {
    const challengeId = await definition('challenge', { completionTargetValue: 100 });
    const lb = await board({ linkedSchemaSlug: 'challenge', linkedSchemaRecordId: challengeId, size: 2 });
    const top = await member(`top-${challengeId}`, { firstName: 'Marie', lastName: 'dupont' });
    await logTimes(challengeId, top, 4);
    const second = await member(`second-${challengeId}`, { firstName: 'Zoé', lastName: 'Ébert', email: 'zoe@example.com' });
    await logTimes(challengeId, second, 3);
    const me = await endUser(`me-${challengeId}`, { firstName: 'Jo', lastName: 'Lee' });
    await logTimes(challengeId, me.memberId, 3);
    const mine = await accepted(standings(lb.id, {}, me.client));
    expect(mine.caller).toEqual({ rank: 2, value: 3 });
    expect(mine.entries).toEqual([
      { rank: 1, value: 4, displayName: 'Marie D.', isCaller: false },
      { rank: 2, value: 3, displayName: 'Zoé É.', isCaller: false },
    ]);
    expect(mine.rankedCount).toBe(3);
    const guest = await accepted(standings(lb.id, {}, app.anon));
    expect(guest.caller).toBeNull();
    expect(guest.entries[0]).not.toHaveProperty('ownedById');
    expect(guest.entries[0]).not.toHaveProperty('externalId');
    const { client: unranked } = await endUser(`nobody-${challengeId}`);
    expect((await accepted(standings(lb.id, {}, unranked))).caller).toBeNull();
    await logTimes(challengeId, me.memberId, 2);
    const first = await accepted(standings(lb.id, { limit: '1' }, me.client));
    expect(first.caller).toEqual({ rank: 1, value: 5 });
    expect(first.entries).toEqual([{ rank: 1, value: 5, displayName: 'Jo L.', isCaller: true }]);
  });

  it('names members: first name and initial, else anonymous; anonymous is stable per leaderboard and reveals nothing', async () => {
    const challengeId = await definition('challenge', { completionTargetValue: 100 });
    const named = await board({ linkedSchemaSlug: 'challenge', linkedSchemaRecordId: challengeId });
    const anon1 = await board({ linkedSchemaSlug: 'challenge', linkedSchemaRecordId: challengeId, displayName: 'anonymous' });
    const anon2 = await board({ linkedSchemaSlug: 'challenge', linkedSchemaRecordId: challengeId, displayName: 'anonymous' });
    const plain = await member(`plain-${challengeId}`, { firstName: 'Madonna' });
    const mailOnly = await member(`mail-${challengeId}`, { email: 'secret.person@example.com', lastName: 'Hidden' });
    await logTimes(challengeId, plain, 2);
    await logTimes(challengeId, mailOnly, 1);
    const names = (await accepted(standings(named.id))).entries.map((e: any) => e.displayName);
    expect(names[0]).toBe('Madonna');
    expect(names[1]).toMatch(/^Member \d{4}$/);
    const a1 = (await accepted(standings(anon1.id))).entries.map((e: any) => e.displayName);
    const again = (await accepted(standings(anon1.id, {}, app.anon))).entries.map((e: any) => e.displayName);
    const a2 = (await accepted(standings(anon2.id))).entries.map((e: any) => e.displayName);
    expect(a1).toEqual(again);
    for (const n of [...a1, ...a2]) expect(n).toMatch(/^Member \d{4}$/);
    // Read in another language, the label is that language's, the digits the same.
    const inGerman = (await accepted(standings(anon1.id, { languageCode: 'de' }, app.anon))).entries.map((e: any) => e.displayName);
    expect(inGerman).toEqual(a1.map((n: string) => n.replace(/^Member/, 'Mitglied')));
    expect(a1).not.toEqual(a2);
    expect(names[1]).not.toBe(a1[1]);
    const text = JSON.stringify([names, a1, a2]);
    for (const secret of [plain, mailOnly, 'secret', 'example', 'Hidden', 'mail-']) expect(text).not.toContain(secret);
  });

  it('never shows shopper-typed contact details, markup, bidi overrides or long names to the public', async () => {
    const challengeId = await definition('challenge', { completionTargetValue: 100 });
    const lb = await board({ linkedSchemaSlug: 'challenge', linkedSchemaRecordId: challengeId });
    const typed = [
      { firstName: 'marie.dupont@example.com', lastName: 'Dupont' },
      { firstName: 'https://cheap.example/deal' },
      { firstName: '+1 (555) 010-9999' },
      { firstName: '<img src=x onerror=alert(1)>' },
      { firstName: 'N'.repeat(256), lastName: 'Long' },
      { firstName: 'Ma\u202erie\u200f', lastName: '\u202eMallory' },
    ];
    // Fewer logs for each later name, so the entries come in the order above.
    for (const [i, names] of typed.entries())
      await logTimes(challengeId, await member(`typed-${i}-${challengeId}`, names), typed.length - i);
    const { client } = await endUser(`typed-reader-${challengeId}`);
    for (const c of [acct.api, client, app.anon.with({ 'x-account-id': acct.accountId })]) {
      const shown = (await accepted(standings(lb.id, {}, c))).entries.map((e: { displayName: string }) => e.displayName);
      expect(shown.slice(0, 4)).toEqual(shown.slice(0, 4).map(() => expect.stringMatching(/^Member \d{4}$/)));
      expect(shown[4]).toBe(`${'N'.repeat(19)}… L.`);
      expect(shown[5]).toBe('Marie M.');
      // The phone number by its own digits: a generated "Member 5558" holds 555 too.
      expect(JSON.stringify(shown)).not.toMatch(/@|<|>|\u202e|010-9999/);
    }
  });

  it("defaults periodKey to the window containing now in the account's zone, and takes another", async () => {
    const challengeId = await definition('challenge', { completionTargetValue: 100, aggregationPeriod: 'monthly' });
    const lb = await board({ linkedSchemaSlug: 'challenge', linkedSchemaRecordId: challengeId });
    const m = await member(`period-${challengeId}`, { timezone: 'Europe/Paris' });
    await challengeLog(challengeId, m, { activityAt: '2026-01-15T12:00:00Z' });
    await challengeLog(challengeId, m);
    const now = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit' })
      .format(new Date())
      .slice(0, 7);
    const current = await accepted(standings(lb.id));
    expect(current.periodKey).toBe(now);
    expect(current.entries.map((e: any) => e.value)).toEqual([1]);
    const january = await accepted(standings(lb.id, { periodKey: '2026-01' }));
    expect(january).toMatchObject({ periodKey: '2026-01', rankedCount: 1 });
    expect((await accepted(standings(lb.id, { periodKey: '2025-02' }))).entries).toEqual([]);
    const streakBoard = await board({ linkedSchemaSlug: 'streak', linkedSchemaRecordId: await definition('streak') });
    expect((await accepted(standings(streakBoard.id))).periodKey).toBeNull();
  });

  it('answers 400 invalid_query for bad queries and 404 where the contract says', async () => {
    const challengeId = await definition('challenge', { completionTargetValue: 100 });
    const lb = await board({ linkedSchemaSlug: 'challenge', linkedSchemaRecordId: challengeId, size: 10 });
    const streakBoard = await board({ linkedSchemaSlug: 'streak', linkedSchemaRecordId: await definition('streak') });
    const missionBoard = await board({
      linkedSchemaSlug: 'mission',
      linkedSchemaRecordId: await definition('mission', { tasks: [{ name: 't', activityId: 'x', targetValue: 1 }] }),
    });
    const bad: [string, Record<string, string>][] = [
      [lb.id, { limit: '0' }],
      [lb.id, { limit: '11' }],
      [lb.id, { limit: 'x' }],
      [lb.id, { count: '0' }],
      [lb.id, { count: '11' }],
      [lb.id, { periodKey: '2026-W01' }],
      [lb.id, { periodKey: '2026-13-01' }],
      [lb.id, { periodKey: 'x'.repeat(40) }],
      // A character the database would refuse never reaches it.
      [lb.id, { periodKey: '2026-01-01\u0000' }],
      [streakBoard.id, { periodKey: '\u0000' }],
      [lb.id, { languageCode: 'xx' }],
      [streakBoard.id, { periodKey: '2026-01-01' }],
      [missionBoard.id, { periodKey: '2026-01-01' }],
    ];
    for (const [id, query] of bad) {
      const res = await standings(id, query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.error.code).toBe('invalid_query');
    }
    expect((await acct.api.get(`/schema/leaderboard/record/${lb.id}/standings?limit=1&limit=2`)).status).toBe(400);
    expect((await accepted(standings(lb.id, { limit: '10', languageCode: 'fr' }))).entries).toEqual([]);

    const { client } = await endUser('checker');
    const guest = app.anon.with({ 'x-account-id': acct.accountId });
    expect((await standings('not-a-uuid')).status).toBe(404);
    expect((await standings(lb.id, {}, other.api)).status).toBe(404);
    expect((await standings(lb.id, {}, app.anon.with({ 'x-account-id': other.accountId }))).status).toBe(404);
    expect((await acct.api.post(`/schema/leaderboard/record/${lb.id}/standings`)).status).toBe(405);
    expect((await standings(lb.id, {}, app.anon.with({ 'x-api-key': acct.apiKey, 'x-api-secret': 'wrong' }))).status).toBe(401);

    const paused = await board({ linkedSchemaSlug: 'challenge', linkedSchemaRecordId: challengeId, status: 'paused' });
    for (const c of [client, guest]) expect((await standings(paused.id, {}, c)).status).toBe(404);
    expect((await standings(paused.id)).status).toBe(200);

    const doomed = await definition('challenge', { completionTargetValue: 100 });
    const orphan = await board({ linkedSchemaSlug: 'challenge', linkedSchemaRecordId: doomed });
    expect((await acct.api.delete(`/schema/challenge/record/${doomed}`)).status).toBe(204);
    for (const c of [client, guest]) expect((await standings(orphan.id, {}, c)).status).toBe(404);
    expect((await standings(orphan.id, { periodKey: '2026-01-01' })).status).toBe(200);
  });

  it('hides a board from end users and guests while its definition is not live, and shows it again when it is', async () => {
    const { client } = await endUser('draft-reader');
    const guest = app.anon.with({ 'x-account-id': acct.accountId });
    for (const [slug, body] of [
      ['streak', {}],
      ['challenge', { completionTargetValue: 10 }],
      ['mission', { tasks: [{ name: 't', activityId: 'x', targetValue: 1 }] }],
    ] as const) {
      const definitionId = await definition(slug, body);
      const lb = await board({ linkedSchemaSlug: slug, linkedSchemaRecordId: definitionId });
      const seen = async (c: Client) => ({
        standings: (await standings(lb.id, {}, c)).status,
        get: (await c.get(`/schema/leaderboard/record/${lb.id}`)).status,
        listed: (await accepted<{ id: string }[]>(c.get('/schema/leaderboard/record', { limit: '1000' }))).some((b) => b.id === lb.id),
      });
      for (const status of ['draft', 'paused'] as const) {
        await accepted(acct.api.patch(`/schema/${slug}/record/${definitionId}`, { status }));
        for (const c of [client, guest]) expect(await seen(c), `${slug} ${status}`).toEqual({ standings: 404, get: 404, listed: false });
        expect((await standings(lb.id)).status).toBe(200);
        expect((await acct.api.get(`/schema/leaderboard/record/${lb.id}`)).status).toBe(200);
      }
      await accepted(acct.api.patch(`/schema/${slug}/record/${definitionId}`, { status: 'live' }));
      for (const c of [client, guest]) expect(await seen(c), `${slug} live again`).toEqual({ standings: 200, get: 200, listed: true });
    }
  });

  it('ranks streaks by current and longest run, missions by completions', async () => {
    const streakId = await definition('streak');
    const current = await board({ linkedSchemaSlug: 'streak', linkedSchemaRecordId: streakId });
    const longest = await board({ linkedSchemaSlug: 'streak', linkedSchemaRecordId: streakId, rankBy: 'longest_run' });
    const m = await member(`runner-${streakId}`, { timezone: 'UTC' });
    const day = (d: string) =>
      accepted(
        acct.api.post('/schema/streak_log/record', {
          streakId,
          ownedById: m,
          activityId: 'a',
          uniqueIdentifier: uid(),
          activityAt: `${d}T10:00:00Z`,
        }),
      );
    for (const d of ['2026-03-01', '2026-03-02', '2026-03-03']) await day(d);
    expect((await accepted(standings(current.id))).entries.map((e: any) => e.value)).toEqual([3]);
    await day('2026-03-10'); // breaks the run and starts another at 1
    expect((await accepted(standings(current.id))).entries.map((e: any) => e.value)).toEqual([1]);
    expect((await accepted(standings(longest.id))).entries.map((e: any) => e.value)).toEqual([3]);
    // Ranked another way, a leaderboard's standings are built again; the other board keeps its own.
    await accepted(acct.api.patch(`/schema/leaderboard/record/${current.id}`, { rankBy: 'longest_run' }));
    expect((await accepted(standings(current.id))).entries.map((e: any) => e.value)).toEqual([3]);
    expect((await acct.api.delete(`/schema/leaderboard/record/${longest.id}`)).status).toBe(204);
    expect((await accepted(standings(current.id))).entries.map((e: any) => e.value)).toEqual([3]);

    const missionId = await definition('mission', { isRepeatable: true, tasks: [{ name: 't', activityId: 'x', targetValue: 1 }] });
    const completions = await board({ linkedSchemaSlug: 'mission', linkedSchemaRecordId: missionId });
    for (let i = 0; i < 2; i++)
      await accepted(
        acct.api.post('/schema/mission_log/record', {
          missionId,
          ownedById: m,
          activityId: 'x',
          uniqueIdentifier: uid(),
          activityAt: new Date().toISOString(),
        }),
      );
    expect((await accepted(standings(completions.id))).entries.map((e: any) => e.value)).toEqual([2]);
  });

  it('builds standings from earlier progress when a leaderboard is created, and drops erased members', async () => {
    const challengeId = await definition('challenge', { completionTargetValue: 100 });
    const a = await member(`early-a-${challengeId}`, { firstName: 'Al', lastName: 'B' });
    const b = await member(`early-b-${challengeId}`, { firstName: 'Bo', lastName: 'C' });
    await logTimes(challengeId, a, 2);
    await logTimes(challengeId, b, 1);
    const lb = await board({ linkedSchemaSlug: 'challenge', linkedSchemaRecordId: challengeId });
    expect((await accepted(standings(lb.id))).entries.map((e: any) => [e.rank, e.value, e.ownedById])).toEqual([
      [1, 2, a],
      [2, 1, b],
    ]);
    expect((await acct.api.delete(`/schema/account_user/record/${a}`)).status).toBe(204);
    const left = await accepted(standings(lb.id));
    expect(left.entries.map((e: any) => [e.rank, e.ownedById])).toEqual([[1, b]]);
    expect(left.rankedCount).toBe(1);
    // The last leaderboard of a ranking gone, a new one starts again from the progress.
    expect((await acct.api.delete(`/schema/leaderboard/record/${lb.id}`)).status).toBe(204);
    await logTimes(challengeId, b, 2);
    const again = await board({ linkedSchemaSlug: 'challenge', linkedSchemaRecordId: challengeId });
    expect((await accepted(standings(again.id))).entries.map((e: any) => e.value)).toEqual([3]);
  });

  it('builds from earlier progress the standings its logs kept, for every way of ranking', async () => {
    const streakId = await definition('streak');
    const challengeId = await definition('challenge', { completionTargetValue: 100 });
    const missionId = await definition('mission', { isRepeatable: true, tasks: [{ name: 't', activityId: 'x', targetValue: 1 }] });
    const boards = [
      { linkedSchemaSlug: 'streak', linkedSchemaRecordId: streakId, rankBy: 'current_run' },
      { linkedSchemaSlug: 'streak', linkedSchemaRecordId: streakId, rankBy: 'longest_run' },
      { linkedSchemaSlug: 'challenge', linkedSchemaRecordId: challengeId },
      { linkedSchemaSlug: 'mission', linkedSchemaRecordId: missionId },
    ];
    const kept: { id: string }[] = [];
    for (const body of boards) kept.push(await board(body));
    // The members' days are UTC days, the board's default window the account's (Paris) day: the challenge board is asked for the logs' own.
    const at = new Date();
    const windowOf = (b: (typeof boards)[number]): Record<string, string> =>
      b.linkedSchemaSlug === 'challenge' ? { periodKey: at.toISOString().slice(0, 10) } : {};
    const log = (slug: string, body: Record<string, unknown>) =>
      accepted(acct.api.post(`/schema/${slug}_log/record`, { uniqueIdentifier: uid(), activityAt: at.toISOString(), ...body }));
    // Members in an order of their own, so that none is ranked where it was created.
    for (const [i, days] of [[3, 1], [1], [2, 2, 2], [5]].entries()) {
      const m = await member(`rebuilt-${streakId}-${i}`, { timezone: 'UTC' });
      let day = 1;
      for (const run of days) {
        for (let d = 0; d < run; d++, day++)
          await log('streak', { streakId, ownedById: m, activityId: 'a', activityAt: `2026-04-${String(day).padStart(2, '0')}T10:00:00Z` });
        day++; // a day without a log ends the run
      }
      for (let n = 0; n <= (i * 2) % 3; n++) await log('challenge', { challengeId, ownedById: m, activityId: 'a' });
      for (let n = 0; n < i % 3; n++) await log('mission', { missionId, ownedById: m, activityId: 'x' });
    }
    const read = async (id: string, query: Record<string, string>) =>
      (await accepted(standings(id, query))).entries.map((e: any) => [e.rank, e.value, e.ownedById, e.displayName]);
    const byLogs = await Promise.all(kept.map((b, i) => read(b.id, windowOf(boards[i]!))));
    expect(byLogs.map((entries) => entries.length)).toEqual([4, 4, 4, 2]);
    // The last board of each ranking gone, the next one is built from the progress alone.
    for (const b of kept) expect((await acct.api.delete(`/schema/leaderboard/record/${b.id}`)).status).toBe(204);
    const rebuilt: { id: string }[] = [];
    for (const body of boards) rebuilt.push(await board({ ...body, displayName: 'anonymous' }));
    const names = (entries: unknown[][]) => entries.map(([rank, value, ownedById]) => [rank, value, ownedById]);
    expect((await Promise.all(rebuilt.map((b, i) => read(b.id, windowOf(boards[i]!))))).map(names)).toEqual(byLogs.map(names));
  });

  it('keeps ranks exact under racing logs (against a brute-force ranking)', async () => {
    const challengeId = await definition('challenge', { completionTargetValue: 1000, aggregationMethod: 'sum' });
    const lb = await board({ linkedSchemaSlug: 'challenge', linkedSchemaRecordId: challengeId, size: 100 });
    const members = await Promise.all(Array.from({ length: 40 }, (_, i) => member(`race-${i}-${challengeId}`, { firstName: `R${i}` })));
    const values = [1, 2, 3, 1500, 1501, 2048, 4096.5];
    await Promise.all(
      Array.from({ length: 8 }, async (_, worker) => {
        for (let i = 0; i < 30; i++) {
          const m = members[(worker * 7 + i * 3) % members.length]!;
          await challengeLog(challengeId, m, { activityValue: values[(worker + i) % values.length] });
        }
      }),
    );
    const brute = await app.db.raw(
      `select p.owned_by_id, p.current_progress_value as value, rank() over (order by p.current_progress_value desc) as rank
         from challenge_progress p where p.account_id = ? and p.challenge_id = ? and p.current_progress_value > 0`,
      [acct.accountId, challengeId],
    );
    const expected = new Map<string, { value: number; rank: number }>(
      brute.rows.map((r: any) => [r.owned_by_id, { value: r.value, rank: Number(r.rank) }]),
    );
    const data = await accepted(standings(lb.id, { limit: '100' }));
    expect(data.rankedCount).toBe(expected.size);
    for (const e of data.entries) expect({ value: e.value, rank: e.rank }).toEqual(expected.get(e.ownedById));
    const counts = await app.db.raw(
      `select loyalty_rank_bucket(current_progress_value) as bucket, count(*)::int as n from challenge_progress
        where account_id = ? and challenge_id = ? and current_progress_value > 0 group by 1 order by 1`,
      [acct.accountId, challengeId],
    );
    const kept = await app.db.raw(
      `select bucket, sum(n)::int as n from leaderboard_count where account_id = ? and definition_id = ? group by 1 having sum(n) <> 0 order by 1`,
      [acct.accountId, challengeId],
    );
    expect(kept.rows).toEqual(counts.rows.map((r: any) => ({ bucket: r.bucket, n: r.n })));
    const coarseCounts = await app.db.raw(
      `select loyalty_rank_coarse(current_progress_value) as coarse, count(*)::int as n from challenge_progress
        where account_id = ? and challenge_id = ? and current_progress_value > 0 group by 1 order by 1`,
      [acct.accountId, challengeId],
    );
    const keptCoarse = await app.db.raw(
      `select coarse, sum(n)::int as n from leaderboard_count_coarse where account_id = ? and definition_id = ? group by 1 having sum(n) <> 0 order by 1`,
      [acct.accountId, challengeId],
    );
    expect(keptCoarse.rows).toEqual(coarseCounts.rows);
    // Values from 1 to past 4096 spread the members over several coarse buckets: every rank is exact.
    expect(new Set(coarseCounts.rows.map((r: any) => r.coarse)).size).toBeGreaterThan(2);
    for (const m of members) {
      const minted = await accepted(acct.api.post('/enduser/token', { externalId: `race-${members.indexOf(m)}-${challengeId}` }));
      const mine = await accepted(
        standings(lb.id, {}, app.anon.with({ 'x-enduser-access-token': minted.accessToken, 'x-account-id': acct.accountId })),
      );
      expect(mine.caller).toEqual(expected.get(m) ?? null);
    }
  });
});
