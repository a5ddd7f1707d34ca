/** The bounds of a shop's retention of order facts (CONTRACT §18), in months; the default is 24. */
export const RETENTION_MONTHS = { min: 1, max: 120, default: 24 } as const;

/** A typed retention, or null when it is not a whole number of months within the bounds. */
export function parseRetentionMonths(value: unknown): number | null {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!/^\d{1,3}$/.test(text)) return null;
  const months = Number(text);
  return months >= RETENTION_MONTHS.min && months <= RETENTION_MONTHS.max ? months : null;
}
