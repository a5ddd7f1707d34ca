import { Select, TextField } from '@shopify/polaris';
import { useMessages } from '../i18n/context';

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
