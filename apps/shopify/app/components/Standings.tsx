import { useNavigation, useSearchParams } from '@remix-run/react';
import { Banner, BlockStack, Card, InlineStack, Select, Text } from '@shopify/polaris';
import type { StandingsResult } from '../admin/standings.server';
import { format, textFor } from '../i18n';
import { useMessages, useNumberText } from '../i18n/context';
import { CustomerLink } from './CustomerLink';
import { usePeriodText } from './LocalDate';
import { RowsTable } from './RowsTable';

/** A leaderboard's top entries with each member's customer; a challenge board picks its window. */
export function Standings({ result }: { result: StandingsResult }) {
  const [, setSearchParams] = useSearchParams();
  const navigation = useNavigation();
  const messages = useMessages();
  const m = messages.records.standings;
  const period = usePeriodText();
  const number = useNumberText();
  // The window being loaded stays picked: the select follows the loader's data, which would show the
  // previous window until the navigation ends.
  const asked = navigation.location ? new URLSearchParams(navigation.location.search).get('periodKey') : null;
  const pending = asked && result.ok && result.view.windows.includes(asked) ? asked : null;
  if (!result.ok) {
    return (
      <Card>
        {'programGone' in result ? (
          <Banner tone="warning" title={m.programGone} />
        ) : (
          <Banner tone="critical" title={format(m.failed, { message: result.failure.message })} />
        )}
      </Card>
    );
  }
  const { view } = result;
  // The values' column says what they are ("Current run", "Points"), as the board's "Rank by" does.
  const valueHeading = (view.rankBy && textFor(messages.records.values, view.rankBy)) || m.columns.value;
  return (
    <Card>
      <section aria-label={m.title}>
        <BlockStack gap="400">
          <InlineStack align="space-between" blockAlign="center">
            <Text as="h2" variant="headingMd">
              {m.title}
            </Text>
            {view.periodKey ? (
              <Select
                label={m.window}
                labelInline
                options={view.windows.map((key, at) => ({
                  label: at === 0 ? format(m.current, { key: period(key) }) : period(key),
                  value: key,
                }))}
                value={pending ?? view.periodKey}
                onChange={(periodKey) => setSearchParams({ periodKey })}
              />
            ) : null}
          </InlineStack>
          {view.entries.length ? (
            <BlockStack gap="200">
              <RowsTable
                name={{ singular: m.columns.displayName, plural: m.title }}
                headings={[m.columns.rank, m.columns.displayName, m.columns.externalId, valueHeading]}
                numeric={[0, 3]}
                titleColumn={1}
                rows={view.entries.map((e) => ({
                  id: e.externalId,
                  cells: [
                    number(e.rank),
                    e.displayName,
                    <CustomerLink customerId={e.customerId} externalId={e.externalId} label={m.shopifyCustomer} />,
                    number(e.value),
                  ],
                }))}
              />
              <Text as="p" tone="subdued">
                {format(m.ranked, { count: number(view.rankedCount) })}
              </Text>
            </BlockStack>
          ) : (
            <Text as="p" tone="subdued">
              {m.empty}
            </Text>
          )}
        </BlockStack>
      </section>
    </Card>
  );
}
