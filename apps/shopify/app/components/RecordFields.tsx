import { Select, TextField } from '@shopify/polaris';
import { dayText } from '../admin/reward-draft';
import { format } from '../i18n';
import { useAdminLanguage, useMessages } from '../i18n/context';

/** A record's status in the core: only live records show to shoppers or send messages. */
type RecordStatus = 'live' | 'draft' | 'paused';
const STATUSES: readonly RecordStatus[] = ['live', 'draft', 'paused'];

interface FieldProps<V> {
  label: string;
  helpText?: string;
  value: V;
  onChange(value: V): void;
  error?: string | undefined;
}

/** A record's name, which only the merchant sees: the core takes 256 characters unless the record takes fewer. */
export function NameField({ maxLength = 256, ...field }: FieldProps<string> & { maxLength?: number }) {
  return <TextField {...field} autoComplete="off" maxLength={maxLength} />;
}

/** A record's status, its options in the admin's language. */
export function StatusSelect({ onChange, ...field }: FieldProps<RecordStatus>) {
  const { editors } = useMessages();
  return (
    <Select
      {...field}
      options={STATUSES.map((s) => ({ label: editors.status.options[s], value: s }))}
      onChange={(v) => onChange(v as RecordStatus)}
    />
  );
}

/** A reward's last day (YYYY-MM-DD), a day of the shop's: the help says the reward ends at its end. */
export function LastDayField({ value, onChange, error }: Omit<FieldProps<string>, 'label' | 'helpText'>) {
  const { rewards } = useMessages();
  const ends = dayText(value, useAdminLanguage());
  return (
    <TextField
      label={rewards.editor.date}
      type="date"
      value={value}
      onChange={onChange}
      error={error}
      helpText={ends ? format(rewards.editor.endsOn, { date: ends }) : undefined}
      autoComplete="off"
    />
  );
}
