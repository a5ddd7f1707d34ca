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
 * core's default stands in for it, and a range picked end first is read the right way round; the
 * merchant sees figures, never the core's words for a query it would refuse.
 */
export function dayRange(url: URL): DayRange {
  const [from, to] = (['from', 'to'] as const).map((name) => {
    const value = url.searchParams.get(name);
    return value && isDay(value) ? value : undefined;
  });
  return from && to && from > to ? { from: to, to: from } : { ...(from ? { from } : {}), ...(to ? { to } : {}) };
}
