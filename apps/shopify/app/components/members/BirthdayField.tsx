import { useFetcher } from '@remix-run/react';
import { BlockStack, Button, InlineError, InlineStack, Select, Text } from '@shopify/polaris';
import { birthdayText, daysIn, monthNames } from '@loyalty/view-model';
import { useEffect, useState } from 'react';
import { useAdminLanguage, useMessages } from '../../i18n/context';
import { type RowAnswer, useToastFor } from './MemberCards';

/**
 * The member's birthday on their profile (birthday points), which the shop may change or clear
 * after the member gave it: month and day, no year, as the admin's language names months.
 */
export function BirthdayField({ memberId, birthday }: { memberId: string; birthday: string | null }) {
  const { members: m } = useMessages();
  const language = useAdminLanguage();
  const fetcher = useFetcher<RowAnswer>();
  const error = useToastFor(fetcher.data);
  const saved = fetcher.data?.intent === 'birthday' && fetcher.data.ok ? fetcher.data.birthday : birthday;
  const [editing, setEditing] = useState(false);
  const [month, setMonth] = useState(saved ? saved.slice(0, 2) : '');
  const [day, setDay] = useState(saved ? String(Number(saved.slice(3))) : '');
  const chooseMonth = (value: string) => {
    setMonth(value);
    if (Number(day) > daysIn(Number(value))) setDay(String(daysIn(Number(value))));
  };
  // Saved, the field shows what the core now holds; a refusal keeps the form open with its error.
  useEffect(() => {
    if (fetcher.data?.intent === 'birthday' && fetcher.data.ok) setEditing(false);
  }, [fetcher.data]);
  if (!editing)
    return (
      <BlockStack gap="100">
        <Text as="p" tone="subdued">
          {m.birthday.label}
        </Text>
        <InlineStack gap="200" blockAlign="center">
          <Text as="p">{saved ? birthdayText(saved, language) : m.birthday.none}</Text>
          <Button variant="plain" onClick={() => setEditing(true)}>
            {m.birthday.change}
          </Button>
        </InlineStack>
      </BlockStack>
    );
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="birthday" />
      <input type="hidden" name="memberId" value={memberId} />
      <BlockStack gap="200">
        <InlineStack gap="200" blockAlign="end" wrap>
          <Select
            label={m.birthday.month}
            name="month"
            value={month}
            onChange={chooseMonth}
            options={[
              { label: m.birthday.none, value: '' },
              ...monthNames(language).map((label, i) => ({ label, value: String(i + 1).padStart(2, '0') })),
            ]}
          />
          <Select
            label={m.birthday.day}
            name="day"
            value={day}
            onChange={setDay}
            disabled={!month}
            options={[
              { label: '', value: '' },
              ...Array.from({ length: daysIn(Number(month)) }, (_, i) => ({ label: String(i + 1), value: String(i + 1) })),
            ]}
          />
          <Button submit loading={fetcher.state !== 'idle'} disabled={Boolean(month) !== Boolean(day)}>
            {m.birthday.save}
          </Button>
        </InlineStack>
        {error ? <InlineError fieldID="birthday" message={error} /> : null}
      </BlockStack>
    </fetcher.Form>
  );
}
