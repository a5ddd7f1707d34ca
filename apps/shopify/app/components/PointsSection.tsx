import { Card, InlineGrid, Text } from '@shopify/polaris';
import { format } from '../i18n';
import { useAdminLanguage, useMessages } from '../i18n/context';
import type { AnalyticsSummary } from '../insights/points';
import { ColumnChart } from './Charts';
import { FigureCard, FiguresSection } from './Figures';
import { useDayRange, useZoneName } from './LocalDate';

/**
 * The dashboard's points (CONTRACT §19) from the core's summary: what members earned and redeemed in
 * the range, what refunds took back, and what they hold now (the points the shop still owes), with
 * both per day. Shown once points are live, and after, while there are figures to show.
 */
export function PointsSection({ summary }: { summary: AnalyticsSummary }) {
  const { dashboard } = useMessages();
  const m = dashboard.points;
  const days = useDayRange();
  const zoneName = useZoneName();
  const language = useAdminLanguage();
  const { points } = summary;
  const shown = points.status === 'live' || [points.earned, points.redeemed, points.outstanding].some((n) => n !== 0);
  if (!shown) return null;
  const number = new Intl.NumberFormat(language);
  const signed = new Intl.NumberFormat(language, { signDisplay: 'exceptZero' });
  const share = points.earned
    ? new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 1 }).format(points.redeemed / points.earned)
    : '—';
  const tiles: [string, string, string][] = [
    [
      m.earned,
      number.format(points.earned),
      format(m.earnedDetail, { reversed: number.format(points.reversed), adjusted: signed.format(points.adjusted) }),
    ],
    [m.redeemed, number.format(points.redeemed), format(m.redeemedDetail, { share })],
    [
      m.held,
      number.format(points.outstanding),
      format(m.heldDetail, { members: number.format(points.membersWithPoints), expired: number.format(points.expired) }),
    ],
  ];
  return (
    <FiguresSection
      title={m.section}
      period={format(m.period, { range: days(summary.from, summary.to), timezone: zoneName(summary.timezone) })}
    >
      <InlineGrid columns={{ xs: 1, md: 3 }} gap="400">
        {tiles.map(([label, value, detail]) => (
          <FigureCard key={label} label={label} value={value}>
            <Text as="p">{detail}</Text>
          </FigureCard>
        ))}
      </InlineGrid>
      <Card>
        <ColumnChart title={m.earnedPerDay} color="#0d9488" points={summary.days.map((d) => ({ label: d.date, value: d.pointsEarned }))} />
      </Card>
      <Card>
        <ColumnChart
          title={m.redeemedPerDay}
          color="#be185d"
          points={summary.days.map((d) => ({ label: d.date, value: d.pointsRedeemed }))}
        />
      </Card>
    </FiguresSection>
  );
}
