import { SaveBar } from '@shopify/app-bridge-react';
import {
  Banner,
  BlockStack,
  Box,
  Button,
  Checkbox,
  ChoiceList,
  FormLayout,
  InlineGrid,
  InlineStack,
  Select,
  Text,
  TextField,
} from '@shopify/polaris';
import { useMemo, useState } from 'react';
import { format, type Messages, textFor } from '../i18n';
import { useMessages } from '../i18n/context';
import { type Choices, type FieldSpec, localize, referencedSlug, rowTexts, toBody, toInput } from '../admin/form-fields';
import { DateTimeField } from './program/DateTimeField';

export interface RecordFormProps {
  fields: FieldSpec[];
  record?: Record<string, unknown> | null;
  /** Errors by field: the core's details after a submit, or this form's own checks. */
  errors?: Record<string, string>;
  message?: string;
  mode: 'create' | 'update';
  submitting: boolean;
  submitLabel: string;
  /** Records the id fields pick from, by resource; without, ids are typed. */
  choices?: Choices;
  /** Called with the field texts once they pass the same checks the core applies. */
  onSubmit(inputs: Record<string, string>): void;
  /** The page's main form: its changes show App Bridge's contextual save bar under this id. */
  saveBarId?: string;
}

/** A choice field's options in the merchant's words; a value the admin has no words for yet shows as the core names it. */
const optionsOf = (field: FieldSpec, values: Messages['records']['values']) =>
  (field.options ?? []).map((value) => ({ label: textFor(values, value) ?? value, value }));

function initialInputs(fields: FieldSpec[], record: Record<string, unknown> | null | undefined): Record<string, string> {
  return Object.fromEntries(
    fields.map((f) => {
      const text = toInput(f, record ? record[f.name] : f.defaultValue);
      // A required choice shows its first option, so that is its value until another is picked.
      return [f.name, !text && f.kind === 'select' && f.required ? (f.options?.[0] ?? '') : text];
    }),
  );
}

/**
 * A Polaris form for one record, built from the core's schema and checked before it is sent, in the
 * admin's language.
 */
export function RecordForm({
  fields: schemaFields,
  record,
  errors = {},
  message,
  mode,
  submitting,
  submitLabel,
  choices,
  onSubmit,
  saveBarId,
}: RecordFormProps) {
  const messages = useMessages();
  const m = messages.records.form;
  const fields = useMemo(() => localize(schemaFields, messages), [schemaFields, messages]);
  const [inputs, setInputs] = useState(() => initialInputs(fields, record));
  // What was last sent (or loaded): the save bar shows while the inputs differ from it.
  const [sent, setSent] = useState(inputs);
  const dirty = saveBarId !== undefined && JSON.stringify(inputs) !== JSON.stringify(sent);
  const [local, setLocal] = useState<Record<string, string>>({});
  const shown = { ...errors, ...local };
  const set = (name: string) => (value: string) => {
    // A pick that follows this field (a rule's template follows its provider) no longer applies.
    const cleared = Object.fromEntries(fields.filter((f) => f.referencesBy?.field === name).map((f) => [f.name, '']));
    setInputs((prev) => ({ ...prev, ...(prev[name] === value ? {} : cleared), [name]: value }));
    setLocal(({ [name]: _gone, ...rest }) => rest);
  };
  const submit = () => {
    const { errors: found } = toBody(fields, inputs, mode, messages);
    setLocal(found);
    if (Object.keys(found).length) return;
    setSent(inputs);
    onSubmit(inputs);
  };
  const discard = () => {
    setInputs(sent);
    setLocal({});
  };
  const unplaced = Object.entries(errors).filter(([name]) => !fields.some((f) => f.name === name || name.startsWith(`${f.name}.`)));
  return (
    <BlockStack gap="400">
      {saveBarId ? (
        <SaveBar id={saveBarId} open={dirty} discardConfirmation>
          <button {...{ variant: 'primary' }} onClick={submit} disabled={submitting}>
            {submitLabel}
          </button>
          <button onClick={discard} disabled={submitting}>
            {messages.common.discard}
          </button>
        </SaveBar>
      ) : null}
      {message || unplaced.length ? (
        <Banner tone="critical" title={message ?? m.refused}>
          {unplaced.map(([name, text]) => (
            <p key={name}>
              {name}: {text}
            </p>
          ))}
        </Banner>
      ) : null}
      <FormLayout>
        {fields.map((f) => {
          const common = { label: `${f.label}${f.required ? ' *' : ''}`, error: shown[f.name], helpText: f.description };
          if (f.kind === 'rows') {
            return <RowsField key={f.name} field={f} value={inputs[f.name] ?? ''} errors={shown} words={m} onChange={set(f.name)} />;
          }
          if (f.kind === 'boolean') {
            return (
              <Checkbox key={f.name} {...common} checked={inputs[f.name] === 'true'} onChange={(checked) => set(f.name)(String(checked))} />
            );
          }
          if (choices && (f.references || f.referencesBy)) {
            return (
              <PickField
                key={f.name}
                field={f}
                common={common}
                slug={referencedSlug(f, inputs)}
                choices={choices}
                words={m}
                dependsOn={fields.find((x) => x.name === f.referencesBy?.field)?.label ?? f.referencesBy?.field ?? ''}
                value={inputs[f.name] ?? ''}
                onChange={set(f.name)}
              />
            );
          }
          if (f.kind === 'select') {
            const options = [...(f.required ? [] : [{ label: '—', value: '' }]), ...optionsOf(f, messages.records.values)];
            return <Select key={f.name} {...common} options={options} value={inputs[f.name] ?? ''} onChange={set(f.name)} />;
          }
          if (f.kind === 'datetime') {
            return <DateTimeField key={f.name} {...common} value={inputs[f.name] ?? ''} onChange={set(f.name)} />;
          }
          if (f.kind === 'list' && f.options) {
            // Several of a field's values (a webhook's events), each in the merchant's words.
            const picked = (inputs[f.name] ?? '').split('\n').filter(Boolean);
            return (
              <BlockStack key={f.name} gap="100">
                <ChoiceList
                  allowMultiple
                  title={common.label}
                  error={common.error}
                  choices={optionsOf(f, messages.records.values)}
                  selected={picked}
                  onChange={(values) => set(f.name)(values.join('\n'))}
                />
                {common.helpText ? (
                  <Text as="p" tone="subdued">
                    {common.helpText}
                  </Text>
                ) : null}
              </BlockStack>
            );
          }
          const multiline = f.kind === 'textarea' || f.kind === 'json' || f.kind === 'list' ? 4 : undefined;
          return (
            <TextField
              key={f.name}
              {...common}
              autoComplete="off"
              name={f.name}
              value={inputs[f.name] ?? ''}
              onChange={set(f.name)}
              multiline={multiline}
              monospaced={f.kind === 'json'}
              type={f.kind === 'number' ? 'number' : 'text'}
              placeholder={f.kind === 'list' ? m.onePerLine : undefined}
              maxLength={f.maxLength}
              showCharacterCount={f.maxLength !== undefined && f.maxLength <= 1024}
            />
          );
        })}
      </FormLayout>
      <InlineStack align="end">
        <Button variant="primary" onClick={submit} loading={submitting}>
          {submitLabel}
        </Button>
      </InlineStack>
    </BlockStack>
  );
}

/** An id field as a choice among the records it may name; an id not among them still shows. */
function PickField({
  field,
  common,
  slug,
  choices,
  words,
  dependsOn,
  value,
  onChange,
}: {
  field: FieldSpec;
  common: { label: string; error?: string; helpText?: string };
  /** The label of the field whose value names the resource to pick from. */
  dependsOn: string;
  slug: string | undefined;
  choices: Choices;
  words: Messages['records']['form'];
  value: string;
  onChange(value: string): void;
}) {
  const listed = slug ? (choices[slug] ?? []) : [];
  const options = value && !listed.some((o) => o.value === value) ? [...listed, { label: value, value }] : listed;
  const resources = new Map(Object.entries(useMessages().records.resources));
  const placeholder = !slug
    ? format(words.chooseFirst, { field: dependsOn })
    : options.length
      ? words.choose
      : format(words.noRecords, { plural: resources.get(slug)?.plural ?? slug.replace(/_/g, ' ') });
  return (
    <Select
      {...common}
      name={field.name}
      options={field.required ? options : [{ label: '—', value: '' }, ...options]}
      placeholder={field.required ? placeholder : undefined}
      disabled={field.required && !options.length}
      value={value}
      onChange={onChange}
    />
  );
}

/** An array of objects (a mission's tasks): one row of inputs per item, with add and remove. */
function RowsField({
  field,
  value,
  errors,
  words,
  onChange,
}: {
  field: FieldSpec;
  value: string;
  errors: Record<string, string>;
  words: Messages['records']['form'];
  onChange(value: string): void;
}) {
  const { values } = useMessages().records;
  const items = value ? rowTexts(value) : [];
  const shownFields = field.itemFields!.filter((f) => f.name !== 'id');
  const update = (next: Record<string, string>[]) => onChange(next.length ? JSON.stringify(next) : '');
  const blank = () => Object.fromEntries(shownFields.map((f) => [f.name, toInput(f, f.defaultValue)]));
  return (
    <BlockStack gap="200">
      <Text as="p" fontWeight="medium">
        {field.label}
        {field.required ? ' *' : ''}
      </Text>
      {errors[field.name] ? (
        <Text as="p" tone="critical">
          {errors[field.name]}
        </Text>
      ) : null}
      {items.map((item, i) => (
        <Box key={i} padding="300" borderWidth="025" borderColor="border" borderRadius="200">
          <BlockStack gap="200">
            <InlineGrid columns={{ xs: 2, md: 4 }} gap="200">
              {shownFields.map((f) => {
                const error = errors[`${field.name}.${i}.${f.name}`];
                const change = (v: string) => update(items.map((it, k) => (k === i ? { ...it, [f.name]: v } : it)));
                const label = `${f.label}${f.required ? ' *' : ''}`;
                return f.kind === 'select' ? (
                  <Select
                    key={f.name}
                    label={label}
                    options={optionsOf(f, values)}
                    value={item[f.name] || f.options?.[0] || ''}
                    onChange={change}
                    error={error}
                  />
                ) : (
                  <TextField
                    key={f.name}
                    label={label}
                    autoComplete="off"
                    type={f.kind === 'number' ? 'number' : 'text'}
                    value={item[f.name] ?? ''}
                    onChange={change}
                    error={error}
                    maxLength={f.maxLength}
                  />
                );
              })}
            </InlineGrid>
            <InlineStack align="end">
              <Button variant="plain" tone="critical" onClick={() => update(items.filter((_, k) => k !== i))}>
                {words.remove}
              </Button>
            </InlineStack>
          </BlockStack>
        </Box>
      ))}
      {field.maxItems === undefined || items.length < field.maxItems ? (
        <InlineStack>
          <Button onClick={() => update([...items, blank()])}>{field.addLabel ?? format(words.add, { item: field.label })}</Button>
        </InlineStack>
      ) : null}
    </BlockStack>
  );
}
