import { memo } from 'react';
import { Badge, Banner, BlockStack, Card, EmptyState, IndexTable, InlineGrid, InlineStack, Text } from '@shopify/polaris';
import { format } from '../i18n';
import { useMessages } from '../i18n/context';
import type { CoreFailure } from '../lib/admin.server';
import type { ProgramHealthData } from '../lib/health.server';
import { ColumnChart } from './Charts';

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
 * The dashboard's program health: per live streak, challenge and mission, members active,
 * completions and rewards issued in the dashboard's range against the range before it, and each
 * program's members active per day. A bad range is left to the dashboard's own range form. Drawn
 * again only when the loader answers (memo: the dashboard re-renders on every navigation state).
 */
export const ProgramHealth = memo(function ProgramHealth({
  health,
  failure,
}: {
  health: ProgramHealthData | null;
  failure: CoreFailure | null;
}) {
  const { health: h } = useMessages();
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
                    from: health.from,
                    to: health.to,
                    previousFrom: health.previousFrom,
                    previousTo: health.previousTo,
                    timezone: health.timezone,
                  })}
                </Text>
              ) : null}
            </BlockStack>
          </div>
          {failure ? <Banner tone="critical" title={failure.message} /> : null}
          {health && health.programs.length ? (
            <>
              <IndexTable
                resourceName={{ singular: h.columns.program, plural: h.title }}
                itemCount={health.programs.length}
                selectable={false}
                headings={[
                  { title: h.columns.program },
                  { title: h.columns.active },
                  { title: h.columns.completions },
                  { title: h.columns.rewards },
                ]}
              >
                {health.programs.map((p, i) => (
                  <IndexTable.Row id={p.id} key={p.id} position={i}>
                    <IndexTable.Cell>
                      <BlockStack gap="100">
                        <Text as="span" fontWeight="semibold">
                          {p.name}
                        </Text>
                        <Text as="span" tone="subdued">
                          {`${h.kinds[p.kind] ?? p.kind} · ${h.periods[p.aggregationPeriod] ?? p.aggregationPeriod}`}
                        </Text>
                      </BlockStack>
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      <Trend program={p} figure="activeMembers" />
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      <Trend program={p} figure="completions" />
                    </IndexTable.Cell>
                    <IndexTable.Cell>
                      <Trend program={p} figure="rewardsIssued" />
                    </IndexTable.Cell>
                  </IndexTable.Row>
                ))}
              </IndexTable>
              <div style={{ padding: '0 var(--p-space-400) var(--p-space-400)' }}>
                <InlineGrid columns={{ xs: 1, md: 2 }} gap="400">
                  {health.programs.map((p) => (
                    // Below the fold with a live program each: laid out and painted once scrolled to.
                    <div key={p.id} style={{ contentVisibility: 'auto', containIntrinsicSize: 'auto 160px' }}>
                      <ColumnChart
                        title={format(h.activePerDay, { name: p.name })}
                        color={p.kind === 'streak' ? '#7c3aed' : p.kind === 'challenge' ? '#2563eb' : '#059669'}
                        points={p.days.map((d) => ({ label: d.date, value: d.activeMembers }))}
                      />
                    </div>
                  ))}
                </InlineGrid>
              </div>
            </>
          ) : health ? (
            <EmptyState heading={h.emptyTitle} action={{ content: h.create, url: '/app/r/streak/new' }} image="">
              <p>{h.emptyBody}</p>
            </EmptyState>
          ) : null}
        </BlockStack>
      </section>
    </Card>
  );
});
