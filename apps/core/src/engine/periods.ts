import { DateTime, IANAZone } from 'luxon';

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
const bounds = new Map<string, { start: number; end: number }>();
const BOUNDS_MAX = 10_000;

function computeKey(at: Date, period: Period, zone: string): string {
  const dt = DateTime.fromJSDate(at, { zone });
  if (period === 'daily') return dt.toFormat('yyyy-MM-dd');
  if (period === 'weekly') return `${String(dt.weekYear).padStart(4, '0')}-W${String(dt.weekNumber).padStart(2, '0')}`;
  return dt.toFormat('yyyy-MM');
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A date's UTC midnight in any year, as a time: Date.UTC takes years 0–99 for 1900–1999. */
export function utcDate(year: number, monthIndex: number, day: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, monthIndex, day);
  return d.getTime();
}

/** A period's first calendar day, as that date's UTC midnight (a date number, not an instant). */
function firstDay(key: string, period: Period): number {
  if (period === 'weekly') {
    // ISO week 1 is the week that holds January 4th.
    const [weekYear, week] = key.split('-W').map(Number) as [number, number];
    const jan4 = utcDate(weekYear, 0, 4);
    return jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * DAY_MS + (week - 1) * 7 * DAY_MS;
  }
  const [year, month, day = 1] = key.split('-').map(Number) as [number, number, number?];
  return utcDate(year, month - 1, day);
}

function nextFirstDay(day: number, period: Period): number {
  if (period === 'daily') return day + DAY_MS;
  if (period === 'weekly') return day + 7 * DAY_MS;
  const d = new Date(day);
  return utcDate(d.getUTCFullYear(), d.getUTCMonth() + 1, 1);
}

/** The local date at an instant, as a date number. */
function localDay(t: number, zone: IANAZone): number {
  const local = t + zone.offset(t) * 60_000;
  return local - (((local % DAY_MS) + DAY_MS) % DAY_MS);
}

/**
 * The first instant whose local date is `day` or later: midnight, or where the zone skipped
 * midnight its first hour, or where midnight came twice (Havana falls back from 01:00 to 00:00)
 * the first one, or where the zone skipped the whole day (Apia, 2011-12-30) the next day's start.
 * Local dates never go back, only local times, so that instant is where the local date crosses
 * `day`: midnight at the offset there is tried first, and where it is not the crossing, the
 * crossing is searched for (offsets run from -12 to +14 hours, so the local date 16 hours before
 * the date's UTC midnight is earlier and 13 hours after it is not). Placing midnight from an offset
 * alone, as luxon does from the zone's offset today, put Apia's day after its 2011 DST start an hour
 * late.
 */
function startOfDay(day: number, zone: IANAZone): number {
  const crossesAt = (t: number) => localDay(t, zone) >= day && localDay(t - 1, zone) < day;
  const midnight = day - zone.offset(day - zone.offset(day) * 60_000) * 60_000;
  if (crossesAt(midnight)) return midnight;
  let before = day - 16 * HOUR_MS;
  let from = day + 13 * HOUR_MS;
  while (from - before > 1) {
    const mid = Math.floor((before + from) / 2);
    if (localDay(mid, zone) >= day) from = mid;
    else before = mid;
  }
  return from;
}

/**
 * The instants a period covers: [start, end), each the first instant of its first local day.
 * Days across DST changes last 23 or 25 hours.
 */
export function periodBounds(key: string, period: Period, zone: string): { start: Date; end: Date } {
  const slot = `${period}|${zone}|${key}`;
  let found = bounds.get(slot);
  if (!found) {
    const day = firstDay(key, period);
    const tz = IANAZone.create(zone);
    found = { start: startOfDay(day, tz), end: startOfDay(nextFirstDay(day, period), tz) };
    if (bounds.size >= BOUNDS_MAX) bounds.clear();
    bounds.set(slot, found);
  }
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
