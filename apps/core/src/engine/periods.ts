import { DateTime } from 'luxon';

export type Period = 'daily' | 'weekly' | 'monthly';

/**
 * Calendar periods in a member's time zone (CONTRACT §8): a local day `2026-11-21`, an ISO week
 * from Monday `2026-W47`, a calendar month `2026-11`. Keys of one kind sort as strings.
 */
export function periodKey(at: Date, period: Period, zone: string): string {
  // Logs mostly fall in the period the previous one did: its bounds answer without a calendar.
  const slot = `${period}|${zone}`;
  const t = at.getTime();
  const last = lastPeriod.get(slot);
  if (last && t >= last.start && t < last.end) return last.key;
  const key = computeKey(at, period, zone);
  const { start, end } = periodBounds(key, period, zone);
  lastPeriod.set(slot, { key, start: start.getTime(), end: end.getTime() });
  return key;
}

/** The latest period computed per kind and zone (a few thousand zones at most). */
const lastPeriod = new Map<string, { key: string; start: number; end: number }>();
/** Bounds of periods by kind, zone and key: fixed once the zone rules are loaded. */
const bounds = new Map<string, { start: Date; end: Date }>();
const BOUNDS_MAX = 10_000;

function computeKey(at: Date, period: Period, zone: string): string {
  const dt = DateTime.fromJSDate(at, { zone });
  if (period === 'daily') return dt.toFormat('yyyy-MM-dd');
  if (period === 'weekly') return `${dt.weekYear}-W${String(dt.weekNumber).padStart(2, '0')}`;
  return dt.toFormat('yyyy-MM');
}

function startOf(key: string, period: Period, zone: string): DateTime {
  if (period === 'daily') return DateTime.fromFormat(key, 'yyyy-MM-dd', { zone });
  if (period === 'weekly') {
    const [weekYear, weekNumber] = key.split('-W').map(Number) as [number, number];
    return DateTime.fromObject({ weekYear, weekNumber, weekday: 1 }, { zone });
  }
  return DateTime.fromFormat(key, 'yyyy-MM', { zone });
}

const UNIT = { daily: 'day', weekly: 'week', monthly: 'month' } as const;

/** The instants a period covers: [start, end). Days across DST changes last 23 or 25 hours. */
export function periodBounds(key: string, period: Period, zone: string): { start: Date; end: Date } {
  const slot = `${period}|${zone}|${key}`;
  const known = bounds.get(slot);
  if (known) return { start: new Date(known.start), end: new Date(known.end) };
  const start = startOf(key, period, zone);
  // startOf again: where midnight does not exist (DST at 00:00), the period starts at 01:00 and
  // adding a day would carry that hour into the next period's start.
  const found = {
    start: start.toJSDate(),
    end: start
      .plus({ [UNIT[period]]: 1 })
      .startOf(UNIT[period])
      .toJSDate(),
  };
  if (bounds.size >= BOUNDS_MAX) bounds.clear();
  bounds.set(slot, found);
  return { start: new Date(found.start), end: new Date(found.end) };
}

/** Next keys by kind, zone and key: asked on every log, and computing one would evict periodKey's current period. */
const nextKeys = new Map<string, string>();

export function nextPeriodKey(key: string, period: Period, zone: string): string {
  const slot = `${period}|${zone}|${key}`;
  let next = nextKeys.get(slot);
  if (next === undefined) {
    const end = periodBounds(key, period, zone).end;
    next = computeKey(end, period, zone);
    if (nextKeys.size >= BOUNDS_MAX) nextKeys.clear();
    nextKeys.set(slot, next);
  }
  return next;
}

/** A mission window: 1 day, 7 days or 1 calendar month from the start, in the member's zone. */
export function windowEnd(start: Date, period: Period, zone: string): Date {
  const dt = DateTime.fromJSDate(start, { zone });
  return (period === 'daily' ? dt.plus({ days: 1 }) : period === 'weekly' ? dt.plus({ days: 7 }) : dt.plus({ months: 1 })).toJSDate();
}
