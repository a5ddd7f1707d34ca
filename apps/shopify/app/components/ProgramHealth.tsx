import { memo, useState } from 'react';
import { Badge, Banner, BlockStack, Card, EmptyState, InlineStack, Select, Text } from '@shopify/polaris';
import { format, textFor } from '../i18n';
import { useMessages } from '../i18n/context';
import type { CoreFailure } from '../core/failure';
import type { ProgramHealthData } from '../admin/program-health.server';
import { ColumnChart } from './Charts';
import { useDayRange, useZoneName } from './LocalDate';
import { EMPTY_STATE_IMAGE } from './illustrations';
import { editorUrl } from '../admin/resources';
import { RowsTable } from './RowsTable';

type Figure = 'activeMembers' | 'completions' | 'rewardsIssued';
type Program = ProgramHealthData['programs'][number];

/** One figure of a program: this period's value, its change against the previous period, and that value. */
function Trend({ program, figure }: { program: Program; figure: Figure }) {
  const { health: h } = useMessages();
  const now = program.current[figure];
  const before = program.previous[figure];
  const percent = before ? Math.round((Math.abs(now - before) / before) * 100) : 0;
  const [tone, label] =
    now === before
      ? [undefined, h.same]
      : before === 0
        ? (['success', h.new] as const)
        : now > before
          ? (['success', format(h.up, { percent })] as const)
          : (['critical', format(h.down, { percent })] as const);
  return (
    <BlockStack gap="100">
      <InlineStack gap="200" blockAlign="center">
        <Text as="span" variant="headingMd" numeric>
          {now}
        </Text>
        <Badge tone={tone}>{label}</Badge>
      </InlineStack>
      <Text as="span" tone="subdued">
        {format(h.previous, { value: before })}
      </Text>
    </BlockStack>
  );
}

/**
 * One program's members active per day, the merchant choosing which: a chart for each of forty
 * programs was most of the dashboard's page, and slowed its first paint. It starts on the program
 * with the most members active.
 */
function DailyChart({ programs }: { programs: Program[] }) {
  const { health: h } = useMessages();
  const [chosen, choose] = useState<string | null>(null);
  const busiest = programs.reduce((best, p) => (p.current.activeMembers > best.current.activeMembers ? p : best));
  const shown = programs.find((p) => p.id === chosen) ?? busiest;
  return (
    <div style={{ padding: '0 var(--p-space-400) var(--p-space-400)' }}>
      <BlockStack gap="300">
        {programs.length > 1 ? (
          <Select label={h.chartOf} options={programs.map((p) => ({ label: p.name, value: p.id }))} value={shown.id} onChange={choose} />
        ) : null}
        <ColumnChart
          title={format(h.activePerDay, { name: shown.name })}
          color={shown.kind === 'streak' ? '#7c3aed' : shown.kind === 'challenge' ? '#2563eb' : '#059669'}
          points={shown.days.map((d) => ({ label: d.date, value: d.activeMembers }))}
        />
      </BlockStack>
    </div>
  );
}

/**
 * The dashboard's program health: per live streak, challenge and mission, members active,
 * completions and rewards issued in the dashboard's range against the range before it, and the
 * members active per day of one of them. A bad range is left to the dashboard's own range form.
 * Drawn again only when the loader answers (memo: the dashboard re-renders on every navigation state).
 */
export const ProgramHealth = memo(function ProgramHealth({
  health,
  failure,
}: {
  health: ProgramHealthData | null;
  failure: CoreFailure | null;
}) {
  const { health: h } = useMessages();
  const days = useDayRange();
  const zoneName = useZoneName();
  if (failure?.status === 400) return null;
  return (
    <Card padding="0">
      <section aria-label={h.title}>
        <BlockStack gap="300">
          <div style={{ padding: 'var(--p-space-400) var(--p-space-400) 0' }}>
            <BlockStack gap="100">
              <Text as="h2" variant="headingMd">
                {h.title}
              </Text>
              {health ? (
                <Text as="p" tone="subdued">
                  {format(h.period, {
                    range: days(health.from, health.to),
                    previous: days(health.previousFrom, health.previousTo),
                    timezone: zoneName(health.timezone),
                  })}
                </Text>
              ) : null}
            </BlockStack>
          </div>
          {failure ? <Banner tone="critical" title={failure.message} /> : null}
          {health && health.programs.length ? (
            <>
              <RowsTable
                name={{ singular: h.columns.program, plural: h.title }}
                headings={[h.columns.program, h.columns.active, h.columns.completions, h.columns.rewards]}
                rows={health.programs.map((p) => ({
                  id: p.id,
                  cells: [
                    <BlockStack gap="100">
                      <Text as="span" fontWeight="semibold">
                        {p.name}
                      </Text>
                      <Text as="span" tone="subdued">
                        {`${textFor(h.kinds, p.kind) ?? p.kind} · ${textFor(h.periods, p.aggregationPeriod) ?? p.aggregationPeriod}`}
                      </Text>
                    </BlockStack>,
                    <Trend program={p} figure="activeMembers" />,
                    <Trend program={p} figure="completions" />,
                    <Trend program={p} figure="rewardsIssued" />,
                  ],
                }))}
              />
              <DailyChart programs={health.programs} />
            </>
          ) : health ? (
            <EmptyState heading={h.emptyTitle} action={{ content: h.create, url: editorUrl('streak', 'new')! }} image={EMPTY_STATE_IMAGE}>
              <p>{h.emptyBody}</p>
            </EmptyState>
          ) : null}
        </BlockStack>
      </section>
    </Card>
  );
});
