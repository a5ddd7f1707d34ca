import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextPeriodKey, type Period, periodBounds, periodKey, windowEnd } from './periods.js';

const ZONES = [
  'UTC',
  'Europe/Paris',
  'America/New_York',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Pacific/Apia',
  'America/Sao_Paulo',
  'Asia/Tokyo',
  'America/Havana',
];
const PERIODS: Period[] = ['daily', 'weekly', 'monthly'];
const instant = fc.date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2060-12-31T00:00:00Z'), noInvalidDate: true });

/** An independent reckoning of period keys from Intl's local calendar date, as an oracle. */
function oracleKey(at: Date, period: Period, zone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  if (period === 'daily') return `${parts.year}-${parts.month}-${parts.day}`;
  if (period === 'monthly') return `${parts.year}-${parts.month}`;
  // ISO week: the week's Thursday decides its year; week 1 holds January 4th.
  const day = new Date(Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day)));
  const thursday = new Date(day.getTime() + (3 - ((day.getUTCDay() + 6) % 7)) * 86_400_000);
  const weekYear = thursday.getUTCFullYear();
  const week = 1 + Math.floor((thursday.getTime() - Date.UTC(weekYear, 0, 1)) / (7 * 86_400_000));
  return `${weekYear}-W${String(week).padStart(2, '0')}`;
}

describe('period keys', () => {
  it('agree with an independent calendar for runs of nearby instants, whatever was asked before', () => {
    // Nearby instants in order, as logs arrive: answers come from the remembered period and from
    // fresh reckoning, across midnights, DST changes and year ends.
    const steps = fc.array(fc.integer({ min: -3 * 3600_000, max: 12 * 3600_000 }), { minLength: 1, maxLength: 40 });
    fc.assert(
      fc.property(instant, steps, fc.constantFrom(...ZONES), fc.constantFrom(...PERIODS), (start, moves, zone, period) => {
        let t = start.getTime();
        for (const move of moves) {
          t += move;
          const at = new Date(t);
          expect(periodKey(at, period, zone)).toBe(oracleKey(at, period, zone));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('place every instant inside the bounds of its own period', () => {
    fc.assert(
      fc.property(instant, fc.constantFrom(...ZONES), fc.constantFrom(...PERIODS), (at, zone, period) => {
        const key = periodKey(at, period, zone);
        const { start, end } = periodBounds(key, period, zone);
        expect(start.getTime()).toBeLessThanOrEqual(at.getTime());
        expect(at.getTime()).toBeLessThan(end.getTime());
        expect(periodKey(start, period, zone)).toBe(key);
        expect(periodKey(new Date(end.getTime() - 1), period, zone)).toBe(key);
      }),
      { numRuns: 2000 },
    );
  });

  it('chain without gaps or overlaps, and sort as strings', () => {
    fc.assert(
      fc.property(instant, fc.constantFrom(...ZONES), fc.constantFrom(...PERIODS), (at, zone, period) => {
        const key = periodKey(at, period, zone);
        const next = nextPeriodKey(key, period, zone);
        expect(periodBounds(next, period, zone).start.getTime()).toBe(periodBounds(key, period, zone).end.getTime());
        expect(next > key).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('reckon the first century as any other (Date.UTC takes years 0-99 for 1900-1999)', () => {
    for (const text of ['0001-01-01T12:00:00Z', '0005-06-01T12:00:00Z', '0099-12-31T12:00:00Z'])
      for (const zone of ['UTC', 'Asia/Tokyo'])
        for (const period of PERIODS) {
          const at = new Date(text);
          const key = periodKey(at, period, zone);
          expect(key, `${text} ${period} ${zone}`).toMatch(/^\d{4}-/);
          const { start, end } = periodBounds(key, period, zone);
          expect(start.getTime()).toBeLessThanOrEqual(at.getTime());
          expect(end.getTime()).toBeGreaterThan(at.getTime());
          expect(periodKey(end, period, zone) > key).toBe(true);
        }
  });

  it('handle DST days, year ends and ISO week 53', () => {
    // Paris springs forward on 2026-03-29 (23 h) and falls back on 2026-10-25 (25 h).
    const spring = periodBounds('2026-03-29', 'daily', 'Europe/Paris');
    expect(spring.end.getTime() - spring.start.getTime()).toBe(23 * 3600_000);
    const autumn = periodBounds('2026-10-25', 'daily', 'Europe/Paris');
    expect(autumn.end.getTime() - autumn.start.getTime()).toBe(25 * 3600_000);
    // 2026 has 53 ISO weeks; 2027-01-01 (a Friday) still belongs to 2026-W53.
    expect(periodKey(new Date('2027-01-01T12:00:00Z'), 'weekly', 'UTC')).toBe('2026-W53');
    expect(nextPeriodKey('2026-W53', 'weekly', 'UTC')).toBe('2027-W01');
    expect(periodKey(new Date('2025-12-29T00:30:00Z'), 'weekly', 'UTC')).toBe('2026-W01');
    // 23:30 UTC on New Year's Eve is already next year in Tokyo and still this year in New York.
    const eve = new Date('2026-12-31T23:30:00Z');
    expect(periodKey(eve, 'monthly', 'Asia/Tokyo')).toBe('2027-01');
    expect(periodKey(eve, 'daily', 'America/New_York')).toBe('2026-12-31');
    expect(nextPeriodKey('2026-12', 'monthly', 'UTC')).toBe('2027-01');
    // Apia's day of its 2011 DST start lasted 23 h; its offset has since moved from -10 to +13, and a
    // midnight placed from today's offset had put the next day's start an hour late (fast-check found it).
    const apia = periodBounds('2011-09-24', 'daily', 'Pacific/Apia');
    expect(apia).toEqual({ start: new Date('2011-09-24T11:00:00Z'), end: new Date('2011-09-25T10:00:00Z') });
    expect(periodBounds(nextPeriodKey('2011-09-24', 'daily', 'Pacific/Apia'), 'daily', 'Pacific/Apia').start).toEqual(apia.end);
    // Apia skipped 2011-12-30 when it crossed the date line: the 29th is followed by the 31st.
    expect(nextPeriodKey('2011-12-29', 'daily', 'Pacific/Apia')).toBe('2011-12-31');
    expect(periodBounds('2011-12-31', 'daily', 'Pacific/Apia').start).toEqual(periodBounds('2011-12-29', 'daily', 'Pacific/Apia').end);
    // Havana fell back from 01:00 to 00:00 on 2026-11-01: November starts at the first of its two midnights.
    expect(periodBounds('2026-11', 'monthly', 'America/Havana').start).toEqual(new Date('2026-11-01T04:00:00Z'));
    expect(periodKey(new Date('2026-11-01T04:30:00Z'), 'monthly', 'America/Havana')).toBe('2026-11');
    // São Paulo skipped midnight on 2016-10-16: that day starts at 01:00, the next at 00:00.
    expect(periodBounds('2016-10-16', 'daily', 'America/Sao_Paulo')).toEqual({
      start: new Date('2016-10-16T03:00:00Z'),
      end: new Date('2016-10-17T02:00:00Z'),
    });
  });

  it('ends mission windows a calendar day, week or month later in the member zone', () => {
    const start = new Date('2026-03-28T12:00:00+01:00');
    expect(windowEnd(start, 'daily', 'Europe/Paris').toISOString()).toBe('2026-03-29T10:00:00.000Z');
    expect(windowEnd(new Date('2026-01-31T10:00:00Z'), 'monthly', 'UTC').toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(windowEnd(start, 'weekly', 'UTC').toISOString()).toBe('2026-04-04T11:00:00.000Z');
  });
});
