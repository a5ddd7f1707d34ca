/** The range a query asks for (`from`, `to`: YYYY-MM-DD), as the dashboard's date pickers send it. */
export interface DayRange {
  from?: string;
  to?: string;
}

/** A calendar day the core counts in (CONTRACT §18: from 1970-01-01 to 9999-12-31), written YYYY-MM-DD. */
function isDay(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m || value < '1970-01-01') return false;
  const day = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return day.toISOString().slice(0, 10) === value;
}

/**
 * The range of a dashboard address: a day that is none (mistyped, before 1970) is left out, so the
 * core's default stands in for it, a range picked end first is read the right way round, and one
 * longer than the core covers is cut to it; the merchant sees figures, never the core's words for a
 * query it would refuse.
 */
export function dayRange(url: URL, today = new Date().toISOString().slice(0, 10)): DayRange {
  const [given, until] = (['from', 'to'] as const).map((name) => {
    const value = url.searchParams.get(name);
    return value && isDay(value) ? value : undefined;
  });
  const [from, to] = given && until && given > until ? [until, given] : [given, until];
  // The core's ranges span at most MAX_DAYS: a longer one keeps its end; one from a day that long ago,
  // its start (a day's margin, as the account's today may be a day ahead of UTC's).
  if (from && to && plusDays(from, MAX_DAYS - 1) < to) return { from: plusDays(to, 1 - MAX_DAYS), to };
  if (from && !to && plusDays(from, MAX_DAYS - 2) < today) return { from, to: plusDays(from, MAX_DAYS - 1) };
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}

/** The days the core's analytics cover at most (CONTRACT §18). */
const MAX_DAYS = 366;

const plusDays = (day: string, days: number) => new Date(Date.parse(day) + days * 86_400_000).toISOString().slice(0, 10);
