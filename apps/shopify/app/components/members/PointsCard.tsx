import { Link, useFetcher } from '@remix-run/react';
import { BlockStack, Button, Card, InlineError, InlineGrid, Text, TextField } from '@shopify/polaris';
import { useEffect, useState } from 'react';
import type { PointRow, PointSource } from '../../admin/members.server';
import { format } from '../../i18n';
import { networkName } from '@loyalty/view-model';
import { useAdminLanguage, useMessages } from '../../i18n/context';
import { useDateText } from '../LocalDate';
import { type RowAnswer, Section, useNoteText, useToastFor } from './MemberCards';

/** A new key for each adjustment typed: a form sent twice is one adjustment (the core answers the second as a replay). */
const newKey = () => crypto.randomUUID();

/** Adds points to or takes points from the member's balance, with a note (CONTRACT §19 `adjusted`). */
function AdjustPoints({ memberId }: { memberId: string }) {
  const { members: m } = useMessages();
  const fetcher = useFetcher<RowAnswer>();
  const [points, setPoints] = useState('');
  const [note, setNote] = useState('');
  const [key, setKey] = useState(newKey);
  const error = useToastFor(fetcher.data);
  // A refusal goes on the field it is about, so a screen reader reads it with that field.
  const refused = fetcher.data?.intent === 'adjust' && !fetcher.data.ok ? fetcher.data.reason : null;
  const onPoints = (refused === 'zero' || refused === 'tooLarge' || refused === 'insufficient') && error ? error : undefined;
  const onNote = refused === 'note' && error ? error : undefined;
  useEffect(() => {
    if (fetcher.data?.intent === 'adjust' && fetcher.data.ok) {
      setPoints('');
      setNote('');
      setKey(newKey());
    }
  }, [fetcher.data]);
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="intent" value="adjust" />
      <input type="hidden" name="memberId" value={memberId} />
      <input type="hidden" name="key" value={key} />
      <BlockStack gap="200">
        <InlineGrid columns={{ xs: 1, md: 2 }} gap="300">
          <TextField
            id="adjust-points"
            label={m.points.amount}
            name="points"
            type="number"
            autoComplete="off"
            value={points}
            onChange={setPoints}
            helpText={m.points.amountHelp}
            error={onPoints}
          />
          <TextField
            id="adjust-note"
            label={m.points.note}
            name="note"
            autoComplete="off"
            value={note}
            onChange={setNote}
            helpText={m.points.noteHelp}
            error={onNote}
          />
        </InlineGrid>
        {error && !onPoints && !onNote ? <InlineError fieldID="adjust-points" message={error} /> : null}
        <div>
          <Button submit loading={fetcher.state !== 'idle'}>
            {m.points.adjust}
          </Button>
        </div>
      </BlockStack>
    </fetcher.Form>
  );
}

export function PointsCard({
  memberId,
  balance,
  expiresAt,
  tier,
  followed,
  rows,
}: {
  memberId: string;
  balance: number;
  /** The networks the member followed the shop on for points. */
  followed: string[];
  expiresAt: string | null;
  tier: { id: string; name: string } | null;
  rows: PointRow[];
}) {
  const { members: m } = useMessages();
  const date = useDateText();
  const language = useAdminLanguage();
  const signed = new Intl.NumberFormat(language, { signDisplay: 'exceptZero' });
  const noteText = useNoteText();
  const sourceText = (from: PointSource | null) =>
    !from
      ? ''
      : from.kind === 'order'
        ? from.bonus
          ? format(m.points.from.orderBonus, { name: from.name, n: new Intl.NumberFormat(language).format(from.bonus) })
          : format(m.points.from.order, { name: from.name })
        : from.kind === 'reward'
          ? (from.title ?? m.points.from.reward)
          : from.kind === 'follow'
            ? format(m.points.from.follow, { network: networkName(from.network) })
            : m.points.from[from.kind];
  const c = m.points.columns;
  return (
    <BlockStack gap="400">
      <Card>
        <section aria-label={m.points.adjust}>
          <BlockStack gap="300">
            <Text as="h2" variant="headingMd">
              {m.points.title}
            </Text>
            <Text as="p" variant="headingLg">
              {`${m.points.balance}: ${new Intl.NumberFormat(language).format(balance)}`}
            </Text>
            {expiresAt ? <Text as="p">{format(m.points.expires, { date: date(expiresAt, false) })}</Text> : null}
            <Text as="p">
              {m.points.tier}: {tier ? <Link to={`/app/tiers/${tier.id}`}>{tier.name}</Link> : m.points.noTier}
            </Text>
            {followed.length ? (
              <Text as="p">{format(m.points.followed, { networks: new Intl.ListFormat(language).format(followed.map(networkName)) })}</Text>
            ) : null}
            <AdjustPoints memberId={memberId} />
          </BlockStack>
        </section>
      </Card>
      <Section
        title={m.points.history}
        empty={m.points.empty}
        headings={[c.date, c.reason, c.from, c.points, c.note]}
        rows={rows.map((row) => ({
          id: row.id,
          cells: [date(row.createdAt), m.points.reasons[row.reason], sourceText(row.from), signed.format(row.points), noteText(row.note)],
        }))}
      />
    </BlockStack>
  );
}
