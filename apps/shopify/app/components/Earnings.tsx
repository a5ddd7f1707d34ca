import { Form, useNavigation } from '@remix-run/react';
import { Banner, BlockStack, Button, Card, InlineGrid, InlineStack, Text, TextField } from '@shopify/polaris';
import { useState } from 'react';
import type { Earnings, GroupFigures, HoldoutComparison } from '../insights/earnings.server';
import { RETENTION_MONTHS } from '../insights/settings';
import { MIN_GROUP } from '../insights/stats';
import { format } from '../i18n';
import { useAdminLanguage, useMessages, useMoneyText } from '../i18n/context';
import { ColumnChart } from './Charts';
import { FigureCard, FiguresSection } from './Figures';
import { RowsTable } from './RowsTable';
import { useDayRange, useZoneName } from './LocalDate';

/**
 * The dashboard's "What the program earns" (CONTRACT §18): the period's money beside the previous
 * period's, members against other customers, the program codes' revenue per day, and per definition
 * with a holdout the lift with its 95 % interval as a sentence; money and percentages in the
 * admin's language.
 */
export function EarningsSection({
  earnings,
  timezone,
  retentionMonths,
  retentionError,
  retentionSaved,
  exportQuery,
}: {
  earnings: Earnings;
  timezone: string;
  retentionMonths: number;
  retentionError: string | null;
  retentionSaved: boolean;
  exportQuery: string;
}) {
  const { dashboard } = useMessages();
  const days = useDayRange();
  const zoneName = useZoneName();
  const m = dashboard.earnings;
  const language = useAdminLanguage();
  const { current, previous } = earnings;
  const moneyText = useMoneyText();
  const money = (amount: number) => moneyText(amount, earnings.currency);
  const percent = (rate: number | null) =>
    rate === null ? '—' : new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 }).format(rate);
  const rate = (part: number, whole: number) => (whole ? part / whole : null);
  const tiles: [string, string, string, string][] = [
    [
      m.programRevenue,
      money(current.programRevenue),
      format(m.programOrders, { count: current.programOrders }),
      money(previous.programRevenue),
    ],
    [
      m.redemptionRate,
      percent(rate(current.codesUsed, current.codesIssued)),
      format(m.redemption, { used: current.codesUsed, issued: current.codesIssued }),
      percent(rate(previous.codesUsed, previous.codesIssued)),
    ],
    [m.discountGiven, money(current.discountGiven), m.discountHelp, money(previous.discountGiven)],
    [
      m.referredRevenue,
      money(current.referredRevenue),
      format(m.referredOrders, { count: current.referredOrders }),
      money(previous.referredRevenue),
    ],
  ];
  const groupRow = (id: string, label: string, now: GroupFigures, before: GroupFigures) => ({
    id,
    cells: [
      label,
      `${now.customers} (${before.customers})`,
      `${percent(rate(now.repeatCustomers, now.customers))} (${percent(rate(before.repeatCustomers, before.customers))})`,
      `${now.customers ? money(now.revenue / now.customers) : '—'} (${before.customers ? money(before.revenue / before.customers) : '—'})`,
    ],
  });
  return (
    <FiguresSection
      title={m.section}
      period={format(m.period, {
        range: days(current.from, current.to),
        timezone: zoneName(timezone),
        previous: days(previous.from, previous.to),
      })}
    >
      <InlineGrid columns={{ xs: 1, md: 2, lg: 4 }} gap="400">
        {tiles.map(([label, value, detail, before]) => (
          <FigureCard key={label} label={label} value={value}>
            <Text as="p">{detail}</Text>
            <Text as="p" tone="subdued">
              {format(m.previous, { value: before })}
            </Text>
          </FigureCard>
        ))}
      </InlineGrid>
      <Card>
        <BlockStack gap="200">
          <Text as="h3" variant="headingSm">
            {m.customers}
          </Text>
          <RowsTable
            name={{ singular: m.group, plural: m.customers }}
            headings={[m.group, m.ordering, m.repeatRate, m.revenuePerCustomer]}
            numeric={[1, 2, 3]}
            rows={[
              groupRow('members', m.members, current.members, previous.members),
              groupRow('others', m.others, current.others, previous.others),
            ]}
          />
          <Text as="p" tone="subdued">
            {`${m.membersHelp} ${format(m.inBrackets, { range: days(previous.from, previous.to) })}`}
          </Text>
        </BlockStack>
      </Card>
      <Card>
        <ColumnChart
          title={m.perDay}
          color="#059669"
          currency={earnings.currency}
          points={earnings.days.map((d) => ({ label: d.date, value: d.programRevenue }))}
        />
      </Card>
      <Card>
        <BlockStack gap="300">
          <Text as="h3" variant="headingSm">
            {m.holdouts}
          </Text>
          {earnings.holdouts.length ? (
            earnings.holdouts.map((h) => <Holdout key={`${h.kind}:${h.name}`} holdout={h} money={money} />)
          ) : (
            <Text as="p">{m.noHoldouts}</Text>
          )}
          {earnings.holdouts.length ? (
            <Text as="p" tone="subdued">
              {m.method}
            </Text>
          ) : null}
        </BlockStack>
      </Card>
      <Card>
        <BlockStack gap="300">
          <InlineStack gap="300">
            <Download path={`/app/earnings.csv?${exportQuery}`} label={m.exportFigures} />
            <Download path="/app/members.csv" label={m.exportMembers} />
          </InlineStack>
          <Retention months={retentionMonths} error={retentionError} saved={retentionSaved} />
        </BlockStack>
      </Card>
    </FiguresSection>
  );
}

/** One definition's holdout comparison as a merchant reads it. */
function Holdout({ holdout, money }: { holdout: HoldoutComparison; money(amount: number): string }) {
  const { dashboard } = useMessages();
  const m = dashboard.earnings;
  const language = useAdminLanguage();
  const pct = (value: number, signed = false) =>
    new Intl.NumberFormat(language, {
      style: 'percent',
      maximumFractionDigits: 0,
      ...(signed ? { signDisplay: 'exceptZero' } : {}),
    }).format(value);
  const { lift, inGroup, outGroup } = holdout;
  const counts = { inCustomers: inGroup.n, outCustomers: outGroup.n };
  const held = pct(holdout.percent / 100);
  const title = `${dashboard.kinds[holdout.kind]}: ${holdout.name}`;
  if (!lift)
    return (
      <BlockStack gap="100">
        <Text as="h4" variant="headingSm">
          {title}
        </Text>
        <Text as="p">{format(m.notEnough, { min: MIN_GROUP, ...counts })}</Text>
      </BlockStack>
    );
  const up = lift.relative >= 0;
  // A range on one side of zero reads as amounts ("between 4 % and 20 %"); one across zero keeps its signs.
  const across = lift.relativeLow < 0 && lift.relativeHigh > 0;
  const [low, high] = up ? [lift.relativeLow, lift.relativeHigh] : [-lift.relativeHigh, -lift.relativeLow];
  return (
    <BlockStack gap="100">
      <Text as="h4" variant="headingSm">
        {title}
      </Text>
      <Banner tone={across ? 'info' : up ? 'success' : 'warning'}>
        <BlockStack gap="100">
          <Text as="p">
            {format(up ? m.more : m.less, {
              lift: pct(Math.abs(lift.relative)),
              low: pct(low, across),
              high: pct(high, across),
              percent: held,
            })}
          </Text>
          {across ? <Text as="p">{m.chance}</Text> : null}
        </BlockStack>
      </Banner>
      <Text as="p" tone="subdued">
        {format(m.groups, { ...counts, inMean: money(inGroup.mean), outMean: money(outGroup.mean) })}
      </Text>
    </BlockStack>
  );
}

/**
 * A CSV export: fetched with the admin's session token (App Bridge adds it to the app's own fetches;
 * a plain link would open without it) and saved under the name its Content-Disposition gives.
 */
function Download({ path, label }: { path: string; label: string }) {
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      const response = await fetch(path);
      if (!response.ok) return;
      const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'export.csv';
      const link = document.createElement('a');
      link.href = URL.createObjectURL(await response.blob());
      link.download = name;
      link.click();
      URL.revokeObjectURL(link.href);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button loading={busy} onClick={() => void save()}>
      {label}
    </Button>
  );
}

/** The shop's retention of order figures, saved by the dashboard's action. */
function Retention({ months, error, saved }: { months: number; error: string | null; saved: boolean }) {
  const { dashboard } = useMessages();
  const m = dashboard.earnings;
  const navigation = useNavigation();
  const [value, setValue] = useState(String(months));
  return (
    <Form method="post">
      <InlineStack gap="300" blockAlign="end">
        <TextField
          label={m.retention}
          name="retentionMonths"
          type="number"
          min={RETENTION_MONTHS.min}
          max={RETENTION_MONTHS.max}
          autoComplete="off"
          value={value}
          onChange={setValue}
          helpText={saved ? m.retentionSaved : m.retentionHelp}
          error={error ?? undefined}
        />
        <Button submit loading={navigation.state === 'submitting'}>
          {m.save}
        </Button>
      </InlineStack>
    </Form>
  );
}
