import { useEffect, useState } from 'react';
import { useAdminLanguage } from '../i18n/context';

/**
 * A date as the merchant reads it: in the admin's language (`Intl`) and, once in the browser, the
 * browser's time zone (the server renders UTC, which the first effect replaces).
 */
export function LocalDate({ value, withTime = true }: { value: unknown; withTime?: boolean }) {
  const language = useAdminLanguage();
  const [timeZone, setTimeZone] = useState('UTC');
  useEffect(() => setTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone), []);
  const date = typeof value === 'string' || value instanceof Date ? new Date(value) : null;
  if (!date || Number.isNaN(date.getTime())) return <>—</>;
  const text = new Intl.DateTimeFormat(language, { dateStyle: 'medium', ...(withTime ? { timeStyle: 'short' } : {}), timeZone }).format(
    date,
  );
  return <time dateTime={date.toISOString()}>{text}</time>;
}
