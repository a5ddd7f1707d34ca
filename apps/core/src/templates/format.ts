/** The expiry as a long date in the member's language and time zone; empty without expiry. */
export function formatValidTill(expiry: unknown, locale: string, timeZone: string): string {
  if (!(expiry instanceof Date)) return '';
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone }).format(expiry);
}
