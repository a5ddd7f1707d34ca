import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type Db } from '../../src/db/knex.js';
import { queryRows } from '../../src/records/direct.js';
import { createTestDatabase } from '../support/harness.js';

// Values around what the fast path must get right: no fraction, 1 to 6 digits (truncated to
// milliseconds as Date truncates them), small years; and forms it must leave to pg's parser.
const VALUES = [
  '2026-11-25 22:11:55+00',
  '2026-11-25 22:11:55.1+00',
  '2026-11-25 22:11:55.12+00',
  '2026-11-25 22:11:55.123+00',
  '2026-11-25 22:11:55.1239+00',
  '2026-11-25 23:59:59.999999+00',
  '2024-02-29 00:00:00.000001+00',
  '0999-01-01 00:00:00.5+00',
  '12026-01-01 00:00:00+00',
  '12026-01-01 00:00:00.5+00',
  '0044-03-15 12:00:00+00 BC',
];

describe('records read path timestamps', () => {
  let database: { url: string; drop(): Promise<void> };
  let db: Db;

  beforeAll(async () => {
    database = await createTestDatabase({ empty: true });
    db = createDb(database.url, 2);
  });

  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  const sql = `select v::timestamptz as at from unnest($1::text[]) with ordinality as t(v, n) order by n`;
  const shown = (v: unknown) => (v instanceof Date ? v.toISOString() : v);

  async function compare(on: Db): Promise<void> {
    const asDates = (await queryRows(on, sql, [VALUES])).map((r) => shown(r.at));
    const asIso = (await queryRows(on, sql, [VALUES], { isoTimestamps: true })).map((r) => shown(r.at));
    expect(asIso).toEqual(asDates);
    // Each is the API's form: the Date's toISOString (±YYYYYY years included).
    for (const v of asIso) expect(v).toMatch(/^([+-]\d{6}|\d{4})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  }

  it('read as ISO strings equal the Dates pg would have made, in a UTC session', async () => {
    await db.transaction(async (trx) => {
      await trx.raw(`set local timezone to 'UTC'`);
      await compare(trx);
      // Taken from the text (no Date made) where the year has four digits.
      const rows = await queryRows(trx, sql, [VALUES], { isoTimestamps: true });
      expect(rows.map((r) => typeof r.at)).toEqual(VALUES.map((v) => (/^\d{4}-.*\+00$/.test(v) ? 'string' : 'object')));
      expect(rows[3]!.at).toBe('2026-11-25T22:11:55.123Z');
    });
  });

  it('read text arrays as pg reads them, the empty ones included', async () => {
    const arrays = ['{}', '{a}', '{"",b}', '{NULL,"x,y","q\\"r"}', '{{a,b},{c,d}}'];
    const arraySql = `select v::text[] as a from unnest($1::text[]) with ordinality as t(v, n) order by n`;
    const rows = await queryRows(db, arraySql, [arrays]);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const byPg = await client.query<{ a: unknown }>(arraySql, [arrays]).finally(() => client.end());
    expect(rows.map((r) => r.a)).toEqual(byPg.rows.map((r) => r.a));
    expect(rows[0]!.a).toEqual([]);
    // Each empty array is a value of its own: a caller may change it.
    const [x, y] = await queryRows(db, `select '{}'::text[] as a union all select '{}'::text[]`, []);
    expect(x!.a).not.toBe(y!.a);
  });

  it('fall back to pg parsing in a session of another time zone', async () => {
    await db.transaction(async (trx) => {
      await trx.raw(`set local timezone to 'Asia/Kolkata'`);
      await compare(trx);
      const [row] = await queryRows(trx, sql, [VALUES.slice(3, 4)], { isoTimestamps: true });
      expect(shown(row!.at)).toBe('2026-11-25T22:11:55.123Z');
    });
  });
});
