import { BlockStack, Text } from '@shopify/polaris';
import { useAdminLanguage, useMessages, usePercentText } from '../i18n/context';
import { usePeriodText } from './LocalDate';

export interface Point {
  /** A day's key (`2026-11-21`) or another period key, shown in the admin's language; any other text as it is. */
  label: string;
  value: number;
}

/**
 * A plain SVG column chart: enough for daily counts or amounts, no charting dependency. A period of
 * zeros says so in words: an empty chart reads as one that failed to load. With `currency` the
 * values are money, written with their currency and cents.
 */
export function ColumnChart({
  title,
  points,
  color = '#7c3aed',
  currency = null,
}: {
  title: string;
  points: Point[];
  color?: string;
  currency?: string | null;
}) {
  const width = 640;
  const height = 120;
  const max = Math.max(1, ...points.map((p) => p.value));
  const slot = width / Math.max(points.length, 1);
  const bar = Math.max(2, slot * 0.7);
  const period = usePeriodText();
  const none = useMessages().dashboard.noneInPeriod;
  const language = useAdminLanguage();
  // The label over a bar is short enough for its column ("24.9K"); its tooltip has the whole number.
  const money = currency ? { style: 'currency' as const, currency } : { maximumFractionDigits: 2 };
  const short = new Intl.NumberFormat(language, { ...money, notation: 'compact', maximumFractionDigits: 1 });
  const whole = new Intl.NumberFormat(language, money);
  return (
    <BlockStack gap="200">
      <Text as="h3" variant="headingSm">
        {title}
      </Text>
      {points.every((p) => p.value === 0) ? (
        <Text as="p" tone="subdued">
          {none}
        </Text>
      ) : (
        <svg viewBox={`0 0 ${width} ${height + 24}`} width="100%" role="img" aria-label={title}>
          <line x1="0" y1={height} x2={width} y2={height} stroke="#d1d5db" />
          {points.map((p, i) => {
            const h = (p.value / max) * (height - 16);
            return (
              <g key={p.label}>
                <rect x={i * slot + (slot - bar) / 2} y={height - h} width={bar} height={h} fill={color} rx="2">
                  <title>{`${period(p.label)}: ${whole.format(p.value)}`}</title>
                </rect>
                {points.length <= 31 && p.value > 0 ? (
                  <text x={i * slot + slot / 2} y={height - h - 4} fontSize="10" textAnchor="middle" fill="#374151">
                    {short.format(p.value)}
                  </text>
                ) : null}
              </g>
            );
          })}
          {[0, points.length - 1]
            .filter((i, k, a) => points[i] && a.indexOf(i) === k)
            .map((i) => (
              <text key={i} x={i * slot + slot / 2} y={height + 16} fontSize="11" textAnchor={i === 0 ? 'start' : 'end'} fill="#6b7280">
                {period(points[i]!.label)}
              </text>
            ))}
        </svg>
      )}
    </BlockStack>
  );
}

/** Horizontal bars of rates between 0 and 1, labelled with their counts. */
export function RateBars({ title, rows }: { title: string; rows: { label: string; rate: number | null; detail: string }[] }) {
  const percent = usePercentText();
  return (
    <BlockStack gap="200">
      <Text as="h3" variant="headingSm">
        {title}
      </Text>
      <svg viewBox={`0 0 640 ${rows.length * 36}`} width="100%" role="img" aria-label={title}>
        {rows.map((r, i) => (
          <g key={r.label} transform={`translate(0 ${i * 36})`}>
            <text x="0" y="20" fontSize="13" fill="#111827">
              {r.label}
            </text>
            <rect x="110" y="6" width="400" height="18" fill="#f3f4f6" rx="3" />
            <rect x="110" y="6" width={400 * (r.rate ?? 0)} height="18" fill="#059669" rx="3" />
            <text x="520" y="20" fontSize="12" fill="#374151">
              {percent(r.rate)} {r.detail}
            </text>
          </g>
        ))}
      </svg>
    </BlockStack>
  );
}
