import { TextField } from '@shopify/polaris';
import { useEffect, useState } from 'react';
import { format } from '../../i18n';
import { useMessages } from '../../i18n/context';
import { useZoneName } from '../LocalDate';

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO datetime as the `datetime-local` input shows it, in the browser's time zone. */
function toLocal(iso: string): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * A date and time in the merchant's browser time zone, held as an ISO datetime (what the core takes),
 * with that zone named under it. It renders after hydration, since the server does not know the zone.
 */
export function DateTimeField({
  label,
  helpText,
  value,
  error,
  onChange,
}: {
  label: string;
  helpText?: string;
  value: string;
  error?: string;
  onChange(iso: string): void;
}) {
  const { common } = useMessages();
  const zoneName = useZoneName();
  const [zone, setZone] = useState('');
  useEffect(() => setZone(Intl.DateTimeFormat().resolvedOptions().timeZone), []);
  const inZone = zone ? format(common.timeZone, { timezone: zoneName(zone) }) : null;
  return (
    <TextField
      label={label}
      helpText={
        helpText && inZone ? (
          <>
            {helpText}
            <br />
            {inZone}
          </>
        ) : (
          helpText || inZone
        )
      }
      type="datetime-local"
      autoComplete="off"
      value={zone ? toLocal(value) : ''}
      disabled={!zone}
      error={error}
      onChange={(local) => onChange(local ? new Date(local).toISOString() : '')}
    />
  );
}
