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
 * A range of calendar days (`YYYY-MM-DD`, in the account's time zone) in the admin's language, as
 * `Intl` joins two dates ("Oct 30 – Nov 28, 2026", "30.10.–28.11.2026").
 */
export function useDayRange(): (from: string, to: string) => string {
  const language = useAdminLanguage();
  const formatter = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' });
  return (from, to) => {
    const [a, b] = [new Date(`${from.slice(0, 10)}T00:00:00Z`), new Date(`${to.slice(0, 10)}T00:00:00Z`)];
    return Number.isNaN(a.getTime()) || Number.isNaN(b.getTime()) ? `${from} – ${to}` : formatter.formatRange(a, b);
  };
}
