import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { birthdaysAround, birthdayTooNear, birthdayYear, runBirthdays } from '../../src/scheduler/birthdays.js';
import { accepted, type Client, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

/*
 * Birthday points (points_setting.pointsOnBirthday, an addition to CONTRACT §19): a member's
 * birthday (MM-DD), set by the shop or once by the member, earns the rate once a year on that day
 * in their time zone, or within a week after when the pass could not run that day.
 */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

let seq = 0;
const eq = (fieldSlug: string, fieldValue: unknown) => ({ operator: 'and', conditions: [{ fieldSlug, operator: 'equals', fieldValue }] });
const pass = (at: Date, budgetMs = 30_000) => runBirthdays(app.running.services.records, at, budgetMs);

async function program(setting: Record<string, unknown>, timezone = 'UTC'): Promise<TestAccount> {
  const a = await app.createAccount({ timezone, defaultLanguageCode: 'en' });
  const s = (await accepted(a.api.get('/schema/points_setting/record')))[0];
  await accepted(a.api.patch(`/schema/points_setting/record/${s.id}`, { status: 'live', ...setting }));
  return a;
}
const member = async (a: TestAccount, fields: Record<string, unknown> = {}) =>
  (await accepted(a.api.post('/schema/account_user/record', { externalId: `bd-${++seq}`, ...fields }))).id as string;
const entriesOf = async (a: TestAccount, id: string) =>
  (await accepted(a.api.get('/schema/point_entry/record', { filters: eq('ownedById', id), limit: '100' }))) as any[];
const balanceOf = async (a: TestAccount, id: string) => (await accepted(a.api.get(`/schema/account_user/record/${id}`))).pointsBalance;

describe('the day a member celebrates', () => {
  it('is their birthday in their time zone, or up to a week after; 02-29 on 02-28 in other years; across the new year', () => {
    const at = (iso: string) => new Date(iso);
    // 2026-12-05 02:00 UTC: still the 4th in New York, already the 5th in Tokyo.
    const now = at('2026-12-05T02:00:00Z');
    expect(birthdayYear('12-05', now, 'Asia/Tokyo')).toBe(2026);
    expect(birthdayYear('12-05', now, 'America/New_York')).toBeNull();
    expect(birthdayYear('12-04', now, 'America/New_York')).toBe(2026);
    expect(birthdayYear('11-28', now, 'Asia/Tokyo')).toBe(2026);
    expect(birthdayYear('11-27', now, 'Asia/Tokyo')).toBeNull();
    expect(birthdayYear('12-06', now, 'Pacific/Kiritimati')).toBeNull();
    // Last year's birthday, a few days before the new year.
    expect(birthdayYear('12-30', at('2027-01-02T12:00:00Z'), 'UTC')).toBe(2026);
    expect(birthdayYear('02-29', at('2027-02-28T12:00:00Z'), 'UTC')).toBe(2027);
    expect(birthdayYear('02-29', at('2028-02-28T12:00:00Z'), 'UTC')).toBeNull();
    expect(birthdayYear('02-29', at('2028-02-29T12:00:00Z'), 'UTC')).toBe(2028);
    // Entered by the member at `now`: too near from a week back to less than 30 days ahead, in their zone, across the new year.
    expect(birthdayTooNear('12-05', now, 'Asia/Tokyo')).toBe(2026);
    expect(birthdayTooNear('11-28', now, 'Asia/Tokyo')).toBe(2026);
    expect(birthdayTooNear('11-27', now, 'Asia/Tokyo')).toBeNull();
    expect(birthdayTooNear('01-02', now, 'America/New_York')).toBe(2027); // 29 days after the 4th there
    expect(birthdayTooNear('01-03', now, 'America/New_York')).toBeNull();
    expect(birthdayTooNear('01-03', now, 'Asia/Tokyo')).toBe(2027); // 29 days after the 5th there
    expect(birthdayTooNear('01-04', now, 'Asia/Tokyo')).toBeNull();
    expect(birthdayTooNear('02-29', at('2027-02-01T12:00:00Z'), 'UTC')).toBe(2027); // the 28th in 2027
    // What the index is asked for: every birthday some zone may be at, 02-29 beside 02-28.
    expect(birthdaysAround(at('2027-03-03T00:00:00Z'))).toEqual([
      '02-23',
      '02-24',
      '02-25',
      '02-26',
      '02-27',
      '02-28',
      '02-29',
      '03-01',
      '03-02',
      '03-03',
      '03-04',
    ]);
  });
});

describe('birthday points', () => {
  it('gives the rate once a year, times the member’s tier, with points_earned; not to a member whose day is not come or long past', async () => {
    const a = await program({ pointsOnBirthday: 100 });
    const gold = await accepted(
      a.api.post('/schema/tier/record', { name: 'Gold', status: 'live', pointsThreshold: 0, earnMultiplier: 1.5 }),
    );
    const now = new Date('2026-12-05T12:00:00Z');
    const today = await member(a, { birthday: '12-05' });
    const kiritimati = await member(a, { birthday: '12-06', timezone: 'Pacific/Kiritimati' }); // already the 6th there
    const late = await member(a, { birthday: '11-29' });
    const tooLate = await member(a, { birthday: '11-27' });
    const tomorrow = await member(a, { birthday: '12-06' });
    const paused = await member(a, { birthday: '12-05', status: 'paused' });
    const none = await member(a);
    // A sweep whose budget is spent leaves the work to the next one.
    expect(await pass(now, -1)).toEqual({ given: 0, complete: false });
    expect(await entriesOf(a, today)).toEqual([]);
    expect(await pass(now)).toEqual({ given: 3, complete: true });
    for (const id of [today, kiritimati, late]) {
      expect(await entriesOf(a, id)).toEqual([
        expect.objectContaining({ points: 150, reason: 'earned', linkedSchemaSlug: 'birthday', linkedSchemaRecordId: '2026' }),
      ]);
    }
    for (const id of [tooLate, tomorrow, paused, none]) expect(await entriesOf(a, id)).toEqual([]);
    const events = (await accepted(
      a.api.get('/schema/event_log/record', { filters: eq('eventCode', 'points_earned'), limit: '100' }),
    )) as any[];
    expect(events.map((e) => e.ownedById).sort()).toEqual([today, kiritimati, late].sort());
    expect(events[0].payload.member).toMatchObject({ tierId: gold.id });
    // Again the same day, the next, and once the shop moves the birthday within the year: nothing more.
    expect(await pass(now)).toEqual({ given: 0, complete: true });
    await accepted(a.api.patch(`/schema/account_user/record/${today}`, { birthday: '12-06' }));
    expect(await pass(new Date('2026-12-06T12:00:00Z'))).toEqual({ given: 1, complete: true }); // tomorrow's, only
    expect(await entriesOf(a, tomorrow)).toHaveLength(1);
    expect(await balanceOf(a, today)).toBe(150);
    // The next year, again: the 6th's two, Kiritimati's (a day ago there) and the 29th's (a week ago).
    expect(await pass(new Date('2027-12-06T12:00:00Z'))).toMatchObject({ given: 4 });
    expect(await balanceOf(a, today)).toBe(300);
  });

  it('gives nothing while the rate is 0 or points are off, and only the account’s own members', async () => {
    const off = await program({ pointsOnBirthday: 0 });
    const a = await member(off, { birthday: '12-05' });
    const draft = await program({ pointsOnBirthday: 50 });
    const s = (await accepted(draft.api.get('/schema/points_setting/record')))[0];
    await accepted(draft.api.patch(`/schema/points_setting/record/${s.id}`, { status: 'draft' }));
    const b = await member(draft, { birthday: '12-05' });
    await pass(new Date('2026-12-05T12:00:00Z'));
    expect(await entriesOf(off, a)).toEqual([]);
    expect(await entriesOf(draft, b)).toEqual([]);
  });

  it('racing passes (two workers) give each member once', async () => {
    const a = await program({ pointsOnBirthday: 10 });
    // Made 100 at a time: 1,200 connections opened at once saw one reset (ECONNRESET) on a slow host. The race is the passes'.
    const ids: string[] = [];
    for (let batch = 0; batch < 12; batch++)
      ids.push(...(await Promise.all(Array.from({ length: 100 }, () => member(a, { birthday: '07-14' })))));
    const now = new Date('2026-07-14T09:00:00Z');
    const [one, two, three] = await Promise.all([pass(now), pass(now), pass(now)]);
    expect(one!.given + two!.given + three!.given).toBe(1200);
    const counts = await app.db('point_entry').where({ linked_schema_slug: 'birthday' }).whereIn('owned_by_id', ids).count({ n: '*' });
    expect(Number(counts[0]!.n)).toBe(1200);
    expect(await pass(now)).toEqual({ given: 0, complete: true });
  }, 120_000);
});

describe('the birthday field', () => {
  async function endUser(a: TestAccount, externalId: string): Promise<{ client: Client; memberId: string }> {
    const token = await accepted(a.api.post('/enduser/token', { externalId }));
    return {
      client: app.anon.with({ 'x-enduser-access-token': token.accessToken, 'x-account-id': a.accountId }),
      memberId: token.memberId,
    };
  }

  it('takes MM-DD of a day some year has from the shop, which may change or clear it', async () => {
    const a = await program({});
    const id = await member(a, { birthday: '02-29' });
    for (const bad of ['02-30', '04-31', '13-01', '00-10', '1-01', '2000-01-01', 101, '']) {
      const res = await a.api.patch(`/schema/account_user/record/${id}`, { birthday: bad });
      expect(res.status, String(bad)).toBe(400);
      expect(res.body.error.details[0]).toMatchObject({ field: 'birthday' });
    }
    expect((await accepted(a.api.get(`/schema/account_user/record/${id}`))).birthday).toBe('02-29');
    await accepted(a.api.patch(`/schema/account_user/record/${id}`, { birthday: '12-31' }));
    expect((await accepted(a.api.patch(`/schema/account_user/record/${id}`, { birthday: null }))).birthday).toBeNull();
  });

  it('a birthday the member enters is given from the first one at least 30 days ahead; the shop’s at once', async () => {
    const a = await program({ pointsOnBirthday: 70 });
    const now = new Date();
    const day = (days: number) => new Date(now.getTime() + days * 86_400_000);
    const mmdd = (at: Date) => at.toISOString().slice(5, 10);
    const entered = async (externalId: string, birthday: string) => {
      const self = await endUser(a, externalId);
      expect((await self.client.request('PATCH', '/schema/account_user/me', { body: { birthday } })).status).toBe(200);
      return self.memberId;
    };
    const today = await entered('bd-today', mmdd(now));
    const weekAgo = await entered('bd-week-ago', mmdd(day(-5)));
    const soon = await entered('bd-soon', mmdd(day(29)));
    const later = await entered('bd-later', mmdd(day(32)));
    const shops = await member(a, { birthday: mmdd(now) });
    // Today's date entered today, or last week's, earns nothing now; the shop's own entry does.
    expect(await pass(now)).toMatchObject({ given: 1 });
    expect(await entriesOf(a, shops)).toHaveLength(1);
    for (const id of [today, weekAgo]) expect(await entriesOf(a, id)).toEqual([]);
    expect(await pass(day(29))).toMatchObject({ given: 0 });
    expect(await entriesOf(a, soon)).toEqual([]);
    expect(await pass(day(32))).toMatchObject({ given: 1 });
    expect(await entriesOf(a, later)).toEqual([expect.objectContaining({ points: 70, linkedSchemaSlug: 'birthday' })]);
    // A year on, each birthday is given as any other (last week's, late).
    expect(await pass(day(365))).toMatchObject({ given: 3 });
    for (const id of [today, weekAgo]) expect(await entriesOf(a, id)).toHaveLength(1);
    expect(await entriesOf(a, shops)).toHaveLength(2);
    expect(await pass(day(365 + 29))).toMatchObject({ given: 1 });
    expect(await entriesOf(a, soon)).toHaveLength(1);
  });

  it('a member sets their own once (PATCH /schema/account_user/me); racing settings keep one; only the shop changes it after', async () => {
    const a = await program({});
    const { client, memberId } = await endUser(a, 'bd-self');
    const me = await client.request('PATCH', '/schema/account_user/me', { body: { birthday: '03-14' } });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ id: memberId, birthday: '03-14' });
    expect((await client.request('PATCH', '/schema/account_user/me', { body: { birthday: '03-14' } })).status).toBe(200);
    const again = await client.request('PATCH', '/schema/account_user/me', { body: { birthday: '03-15' } });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({
      code: 'birthday_already_set',
      details: [{ field: 'birthday', code: 'birthday_already_set' }],
    });
    for (const body of [{ birthday: '02-30' }, { birthday: '03-15', firstName: 'Eve' }, { firstName: 'Eve' }, {}, []]) {
      const res = await client.request('PATCH', '/schema/account_user/me', { body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('invalid_input');
    }
    expect((await accepted(a.api.get(`/schema/account_user/record/${memberId}`))).birthday).toBe('03-14');
    // The shop's key is no end user; a guest has no own record.
    expect((await a.api.request('PATCH', '/schema/account_user/me', { body: { birthday: '01-01' } })).status).toBe(403);
    expect((await app.anon.request('PATCH', '/schema/account_user/me', { body: { birthday: '01-01' } })).status).toBe(401);
    expect((await client.request('DELETE', '/schema/account_user/me')).status).toBe(405);

    // Hostile bodies: a clear 4xx in the error body, and the birthday as it was.
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const hostile: { raw: string; headers?: Record<string, string> }[] = [
      { raw: deep },
      { raw: JSON.stringify({ birthday: deep }) },
      { raw: JSON.stringify({ birthday: '0'.repeat(2_000_000) }) },
      { raw: '{"birthday": "03-14"' },
      { raw: '{"birthday": "\ud800-14"}' },
      { raw: JSON.stringify({ birthday: ['03-14'] }) },
      { raw: JSON.stringify({ birthday: { month: 3 } }) },
      { raw: JSON.stringify({ birthday: null }) },
      { raw: '{"birthday": "03-14", "__proto__": {"birthday": "01-01"}}' },
      { raw: 'birthday=03-14', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
    ];
    for (const { raw, headers } of hostile) {
      const res = await client.request('PATCH', '/schema/account_user/me', {
        raw,
        headers: { 'content-type': 'application/json', ...headers },
      });
      expect(res.status, raw.slice(0, 60)).toBeGreaterThanOrEqual(400);
      expect(res.status, raw.slice(0, 60)).toBeLessThan(500);
      expect(res.body.error.code, raw.slice(0, 60)).toMatch(/^[a-z_]+$/);
    }
    expect((await accepted(a.api.get(`/schema/account_user/record/${memberId}`))).birthday).toBe('03-14');

    const racer = await endUser(a, 'bd-race');
    const answers = await Promise.all(
      ['05-01', '06-01', '07-01', '08-01', '09-01'].map((birthday) =>
        racer.client.request('PATCH', '/schema/account_user/me', { body: { birthday } }),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409]);
    const kept = answers.find((r) => r.status === 200)!.body.data.birthday;
    expect((await accepted(a.api.get(`/schema/account_user/record/${racer.memberId}`))).birthday).toBe(kept);
  });
});
