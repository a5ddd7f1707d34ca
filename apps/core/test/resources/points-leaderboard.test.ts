import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPendingStandings } from '../../src/engine/standings.js';
import { accepted, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

/*
 * Leaderboards by points earned in a calendar month (`rankBy: points` over the points setting):
 * kept with every entry, built inline or in the background to the same standings, readable by
 * shoppers only while points are live, and exact under racing entries.
 */
let app: TestApp;
let acct: TestAccount;
let setting: { id: string };

beforeAll(async () => {
  app = await startTestApp({ LOYALTY_STANDINGS_INLINE_MAX: '1000' });
  acct = await app.createAccount({ timezone: 'Europe/Berlin' });
  [setting] = await accepted(acct.api.get('/schema/points_setting/record'));
  await accepted(acct.api.patch(`/schema/points_setting/record/${setting.id}`, { status: 'live', eudCurrencyName: 'Stars' }));
});
afterAll(() => app.close());

let seq = 0;
const create = (slug: string, body: Record<string, unknown>) => accepted(acct.api.post(`/schema/${slug}/record`, body));
const member = async (firstName: string) => (await create('account_user', { externalId: `pl-${++seq}`, firstName })).id as string;
const earn = (ownedById: string, points: number) => create('point_entry', { ownedById, points, reason: 'earned' });
const board = (extra: Record<string, unknown> = {}) =>
  create('leaderboard', { name: 'Top earners', linkedSchemaSlug: 'points_setting', linkedSchemaRecordId: setting.id, size: 50, ...extra });
const standings = (id: string, query: Record<string, string> = {}) => acct.api.get(`/schema/leaderboard/record/${id}/standings`, query);
const values = (rows: { ownedById: string; value: number }[]) => Object.fromEntries(rows.map((r) => [r.ownedById, r.value]));
/** The month an instant counts in for this account (Europe/Berlin). */
const monthOf = (iso: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin', year: 'numeric', month: '2-digit' }).format(new Date(iso));

describe('points leaderboards', () => {
  let month: string;
  let first: { id: string };
  const m: Record<string, string> = {};

  it('rank members by the points they earned this month; rankBy defaults to points', async () => {
    for (const name of ['Ada', 'Ben', 'Cy']) m[name] = await member(name);
    const entry = await earn(m.Ada!, 300);
    month = monthOf(entry.createdAt);
    await earn(m.Ben!, 200);
    await earn(m.Ben!, 300);
    await earn(m.Cy!, 100);
    first = await board();
    expect(first).toMatchObject({ rankBy: 'points', standingsReady: true });
    const read = await accepted(standings(first.id, { periodKey: month }));
    expect(read.periodKey).toBe(month);
    expect(read.entries.map((e: { displayName: string; value: number; rank: number }) => [e.rank, e.displayName, e.value])).toEqual([
      [1, 'Ben', 500],
      [2, 'Ada', 300],
      [3, 'Cy', 100],
    ]);
    // Without a periodKey: the month containing now, in the account's time zone.
    expect((await accepted(standings(first.id))).periodKey).toMatch(/^\d{4}-\d{2}$/);
  });

  it('take back reversed points; a redemption or an adjustment changes nothing', async () => {
    const [benEntry] = await accepted(
      acct.api.get('/schema/point_entry/record', {
        filters: {
          operator: 'and',
          conditions: [
            { fieldSlug: 'ownedById', operator: 'equals', fieldValue: m.Ben! },
            { fieldSlug: 'points', operator: 'equals', fieldValue: 300 },
          ],
        },
      }),
    );
    await accepted(acct.api.post(`/schema/point_entry/record/${benEntry.id}/action/reverse`, { points: 250 }));
    await create('point_entry', { ownedById: m.Cy!, points: 50, reason: 'adjusted', note: 'Goodwill' });
    const read = await accepted(standings(first.id, { periodKey: month }));
    expect(values(read.entries)).toEqual({ [m.Ada!]: 300, [m.Ben!]: 250, [m.Cy!]: 100 });
  });

  it('keep each month apart, a reversal before a month’s earnings included; a new board builds the same standings', async () => {
    // Next month (written as the clock would): a reversal first, then earnings.
    const next = new Date(`${month}-15T12:00:00Z`);
    next.setUTCMonth(next.getUTCMonth() + 1);
    const nextMonth = next.toISOString().slice(0, 7);
    const at = (minutes: number) => new Date(next.getTime() + minutes * 60_000);
    await app.db('point_entry').insert([
      { account_id: acct.accountId, owned_by_id: m.Ada, points: -40, reason: 'reversed', created_at: at(0), updated_at: at(0) },
      { account_id: acct.accountId, owned_by_id: m.Ada, points: 100, reason: 'earned', created_at: at(1), updated_at: at(1) },
      { account_id: acct.accountId, owned_by_id: m.Cy, points: 70, reason: 'earned', created_at: at(2), updated_at: at(2) },
    ]);
    const kept = await accepted(standings(first.id, { periodKey: nextMonth }));
    expect(values(kept.entries)).toEqual({ [m.Ada!]: 60, [m.Cy!]: 70 });
    expect(values((await accepted(standings(first.id, { periodKey: month }))).entries)).toEqual({
      [m.Ada!]: 300,
      [m.Ben!]: 250,
      [m.Cy!]: 100,
    });
    // Dropped with the only board and built again from the entries: the same standings.
    expect((await acct.api.delete(`/schema/leaderboard/record/${first.id}`)).status).toBe(204);
    expect(await app.db('leaderboard_standing').where({ account_id: acct.accountId, rank_by: 'points' })).toEqual([]);
    first = await board();
    expect((await accepted(standings(first.id, { periodKey: nextMonth }))).entries).toEqual(kept.entries);
    expect(values((await accepted(standings(first.id, { periodKey: nextMonth }))).entries)).toEqual({ [m.Ada!]: 60, [m.Cy!]: 70 });
    expect(values((await accepted(standings(first.id, { periodKey: month }))).entries)).toEqual({
      [m.Ada!]: 300,
      [m.Ben!]: 250,
      [m.Cy!]: 100,
    });
  });

  it('refuses a week or a day as the window, and any other account’s setting', async () => {
    for (const periodKey of ['2026-W47', '2026-11-21', 'soon']) {
      const res = await standings(first.id, { periodKey });
      expect(res.status, periodKey).toBe(400);
      expect(res.body.error.code).toBe('invalid_query');
    }
    const other = await app.createAccount();
    const [theirs] = await accepted(other.api.get('/schema/points_setting/record'));
    const res = await acct.api.post('/schema/leaderboard/record', {
      name: 'Theirs',
      linkedSchemaSlug: 'points_setting',
      linkedSchemaRecordId: theirs.id,
    });
    expect(res.status).toBe(400);
    const wrongRank = await acct.api.post('/schema/leaderboard/record', {
      name: 'Runs',
      linkedSchemaSlug: 'points_setting',
      linkedSchemaRecordId: setting.id,
      rankBy: 'current_run',
    });
    expect(wrongRank.status).toBe(400);
  });

  it('shows shoppers the board only while points are live', async () => {
    const guest = app.anon.with({ 'x-account-id': acct.accountId });
    expect((await guest.get(`/schema/leaderboard/record/${first.id}/standings`, { periodKey: month })).status).toBe(200);
    expect((await guest.get(`/schema/leaderboard/record/${first.id}`)).status).toBe(200);
    await accepted(acct.api.patch(`/schema/points_setting/record/${setting.id}`, { status: 'draft' }));
    expect((await guest.get(`/schema/leaderboard/record/${first.id}/standings`, { periodKey: month })).status).toBe(404);
    expect((await guest.get(`/schema/leaderboard/record/${first.id}`)).status).toBe(404);
    await accepted(acct.api.patch(`/schema/points_setting/record/${setting.id}`, { status: 'live' }));
  });

  it('an erased member leaves every month of it', async () => {
    expect((await acct.api.delete(`/schema/account_user/record/${m.Ada!}`)).status).toBe(204);
    const read = await accepted(standings(first.id, { periodKey: month }));
    expect(values(read.entries)).toEqual({ [m.Ben!]: 250, [m.Cy!]: 100 });
    expect(read.rankedCount).toBe(2);
    expect(await app.db('leaderboard_standing').where({ account_id: acct.accountId, member_id: m.Ada! })).toEqual([]);
  });

  it('racing entries of many members add up exactly; a board built in the background while they race agrees', async () => {
    const racers = await Promise.all(Array.from({ length: 12 }, (_, i) => member(`R${i}`)));
    const amounts = racers.flatMap((id, i) => Array.from({ length: 5 }, (_, k) => ({ id, points: 1 + ((i * 7 + k * 3) % 11) })));
    const expected: Record<string, number> = { [m.Ben!]: 250, [m.Cy!]: 100 };
    for (const a of amounts) expected[a.id] = (expected[a.id] ?? 0) + a.points;
    // Kept by the entries' own transactions...
    await Promise.all(amounts.map((a) => earn(a.id, a.points)));
    const read = await accepted(standings(first.id, { periodKey: month, limit: '50' }));
    expect(values(read.entries)).toEqual(expected);
    expect(read.rankedCount).toBe(Object.keys(expected).length);
    // ... and, the board dropped, built again in the background in small batches while more race in.
    expect((await acct.api.delete(`/schema/leaderboard/record/${first.id}`)).status).toBe(204);
    app.config.standingsInlineMax = 0;
    const background = await board({ name: 'Background' });
    expect(background.standingsReady).toBe(false);
    const more = racers.map((id) => ({ id, points: 2 }));
    for (const a of more) expected[a.id]! += a.points;
    await Promise.all([...more.map((a) => earn(a.id, a.points)), buildPendingStandings(app.db, 3)]);
    await buildPendingStandings(app.db, 3);
    const built = await accepted(standings(background.id, { periodKey: month, limit: '50' }));
    expect(values(built.entries)).toEqual(expected);
    expect(built.rankedCount).toBe(Object.keys(expected).length);
  });
});
