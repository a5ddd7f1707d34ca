import { createContext, useContext, useEffect, useState } from 'react';
import { useAdminLanguage } from '../i18n/context';

/**
 * The time zone dates are read in below it: a member's page reads the member's own (a streak breaks
 * at the member's midnight); elsewhere none is given and the merchant's browser's applies.
 */
export const DateTimeZone = createContext<string | null>(null);

/**
 * A formatter of instants as the merchant reads them: in the admin's language (`Intl`) and the
 * time zone of `DateTimeZone`, else, once in the browser, the browser's (the server renders UTC,
 * which the first effect replaces). Anything that is not a date reads "—".
 */
export function useDateText(): (value: unknown, withTime?: boolean) => string {
  const language = useAdminLanguage();
  const given = useContext(DateTimeZone);
  const [browser, setBrowser] = useState('UTC');
  useEffect(() => setBrowser(Intl.DateTimeFormat().resolvedOptions().timeZone), []);
  const timeZone = given ?? browser;
  return (value, withTime = true) => {
    const date = typeof value === 'string' || value instanceof Date ? new Date(value) : null;
    if (!date || Number.isNaN(date.getTime())) return '—';
    return new Intl.DateTimeFormat(language, { dateStyle: 'medium', ...(withTime ? { timeStyle: 'short' } : {}), timeZone }).format(date);
  };
}

export function LocalDate({ value, withTime = true }: { value: unknown; withTime?: boolean }) {
  const text = useDateText()(value, withTime);
  if (text === '—') return <>—</>;
  return <time dateTime={new Date(value as string | Date).toISOString()}>{text}</time>;
}

/**
 * `formatRange` as every browser hydrates it: ICU versions join a range with thin spaces (Node's)
 * or plain ones (Chromium's), and a text that differs from the server's makes React throw the
 * server's page away and draw it again.
 */
const rangeText = (formatter: Intl.DateTimeFormat, a: Date, b: Date) => formatter.formatRange(a, b).replace(/[\u2009\u202f]/g, ' ');

/**
 * A range of calendar days (`YYYY-MM-DD`, in the account's time zone) in the admin's language, as
 * `Intl` joins two dates ("Oct 30 – Nov 28, 2026", "30.10.–28.11.2026").
 */
export function useDayRange(): (from: string, to: string) => string {
  const language = useAdminLanguage();
  const formatter = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' });
  return (from, to) => {
    const [a, b] = [new Date(`${from.slice(0, 10)}T00:00:00Z`), new Date(`${to.slice(0, 10)}T00:00:00Z`)];
    return Number.isNaN(a.getTime()) || Number.isNaN(b.getTime()) ? `${from} – ${to}` : rangeText(formatter, a, b);
  };
}

/**
 * A time zone as the admin's language names it ("Central European Time"); its id where the runtime
 * has no name for it but an offset ("GMT+00:00" for UTC), which says less than the id.
 */
export function useZoneName(): (zone: string) => string {
  const language = useAdminLanguage();
  return (zone) => {
    try {
      const parts = new Intl.DateTimeFormat(language, { timeZone: zone, timeZoneName: 'longGeneric' }).formatToParts(new Date());
      const name = parts.find((p) => p.type === 'timeZoneName')?.value;
      return name && !/^GMT[+-]/.test(name) ? name : zone;
    } catch {
      return zone;
    }
  };
}

/** Monday of ISO week `week` of `year`, at 00:00 UTC: week 1 is the week with 4 January in it. */
function isoWeekMonday(year: number, week: number): Date {
  const jan4 = Date.UTC(year, 0, 4);
  const weekday = (new Date(jan4).getUTCDay() + 6) % 7;
  return new Date(jan4 + ((week - 1) * 7 - weekday) * 86_400_000);
}

/**
 * A period key of the core (CONTRACT §8: a day `2026-11-21`, an ISO week `2026-W47`, a month
 * `2026-11`) in the admin's language: the day, the week's Monday to Sunday, the month and year.
 * What is none of those reads as it is.
 */
export function usePeriodText(): (key: string) => string {
  const language = useAdminLanguage();
  const day = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' });
  const month = new Intl.DateTimeFormat(language, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  return (key) => {
    const d = /^(\d{4})-(\d{2})-(\d{2})$/.exec(key);
    if (d) return day.format(new Date(Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]))));
    const w = /^(\d{4})-W(\d{2})$/.exec(key);
    if (w) {
      const monday = isoWeekMonday(Number(w[1]), Number(w[2]));
      return rangeText(day, monday, new Date(monday.getTime() + 6 * 86_400_000));
    }
    const m = /^(\d{4})-(\d{2})$/.exec(key);
    if (m) return month.format(new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1)));
    return key;
  };
}
