import type { ActionFunctionArgs, LoaderFunctionArgs, SerializeFrom } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { Button, Card, InlineGrid, InlineStack, Layout, Page, Text, TextField } from '@shopify/polaris';
import { memo, useState } from 'react';
import { ColumnChart, RateBars } from '../components/Charts';
import { EarningsSection } from '../components/Earnings';
import { FigureCard } from '../components/Figures';
import { HelpFooter } from '../components/HelpFooter';
import { useDayRange, useZoneName } from '../components/LocalDate';
import { OnboardingChecklist } from '../components/OnboardingChecklist';
import { PointsSection } from '../components/PointsSection';
import { ProgramHealth } from '../components/ProgramHealth';
import { authenticateShop } from '../admin/authenticate.server';
import { checklist } from '../admin/onboarding/checklist.server';
import { loadProgramHealth } from '../admin/program-health.server';
import { config } from '../config.server';
import type { AccountClient } from '../core/client.server';
import { coreFailure } from '../core/failure';
import { format } from '../i18n';
import { FailureBanner } from '../components/FailureBanner';
import { useMessages, usePercentText } from '../i18n/context';
import { currentEarnings } from '../insights/earnings.server';
import { orderRetentionMonths, setOrderRetentionMonths } from '../insights/retention.server';
import { dayRange } from '../insights/range';
import { parseRetentionMonths, RETENTION_MONTHS } from '../insights/settings';
import { pool } from '../storage/pool.server';
import { checklistMarks } from '../storage/stores.server';

/** The programme's numbers over the range the query asks for, from the core's analytics summary. */
async function analytics(api: AccountClient, url: URL) {
  const { from, to } = dayRange(url);
  const { data, error, response } = await api.GET('/analytics/summary', {
    params: { query: { ...(from ? { from } : {}), ...(to ? { to } : {}) } },
  });
  if (!data) return { summary: null, failure: coreFailure(response.status, error), from: from ?? '', to: to ?? '' };
  return { summary: data.data, failure: null, from: data.data.from, to: data.data.to };
}

/** What the program earns over the core's range (its dates and the account's timezone), and the retention setting. */
async function earnings(api: AccountClient, shop: string, range: { from: string; to: string; timezone: string }, currency: string | null) {
  const [figures, retentionMonths] = await Promise.all([
    currentEarnings(pool(), api, shop, range, currency),
    orderRetentionMonths(pool(), shop),
  ]);
  return { earnings: figures, retentionMonths };
}

/**
 * Dashboard: the first-run checklist (components/OnboardingChecklist.tsx) above the programme's
 * numbers. Each part is loaded on its own, side by side, and spread into the page's data.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { api, admin, session, account } = await authenticateShop(request);
  const [numbers, onboardingChecklist, health] = await Promise.all([
    analytics(api, new URL(request.url)).then(async (n) => ({
      ...n,
      ...(n.summary ? await earnings(api, session.shop, n.summary, account.currencyCode) : { earnings: null, retentionMonths: null }),
    })),
    checklist({ api, admin, shop: session.shop, apiKey: config.apiKey, accountId: account.accountId, marks: checklistMarks }),
    loadProgramHealth(api, request),
  ]);
  return { ...numbers, onboarding: onboardingChecklist, widgetBaseUrl: config.corePublicUrl, health, currency: account.currencyCode };
};

/** The retention of order figures; anything but a whole number of months in bounds is a 400 the form shows. */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { session } = await authenticateShop(request);
  // A body that is no form (JSON, another content type) has no months in it: refused as none would be.
  const form = await request.formData().catch(() => null);
  const months = parseRetentionMonths(form?.get('retentionMonths'));
  if (months === null) return Response.json({ retention: 'invalid' as const }, { status: 400 });
  await setOrderRetentionMonths(pool(), session.shop, months);
  return Response.json({ retention: 'saved' as const });
};

type Summary = NonNullable<SerializeFrom<typeof loader>['summary']>;

export default function Dashboard() {
  const {
    summary,
    failure,
    from,
    to,
    onboarding: checklistData,
    widgetBaseUrl,
    health,
    earnings,
    retentionMonths,
    currency,
  } = useLoaderData<typeof loader>();
  const saved = useActionData<{ retention: 'invalid' | 'saved' }>();
  const { dashboard: m } = useMessages();
  return (
    <Page title={m.title}>
      <Layout>
        <Layout.Section>
          <OnboardingChecklist data={checklistData} baseUrl={widgetBaseUrl} currency={currency} />
        </Layout.Section>
        <Layout.Section>
          <RangeForm from={from} to={to} fieldErrors={failure?.fieldErrors} />
        </Layout.Section>
        {failure ? (
          <Layout.Section>
            <FailureBanner failure={failure} />
          </Layout.Section>
        ) : null}
        {summary && earnings && retentionMonths !== null ? (
          <EarningsSection
            earnings={earnings}
            timezone={summary.timezone}
            retentionMonths={retentionMonths}
            retentionError={
              saved?.retention === 'invalid'
                ? format(m.earnings.retentionInvalid, { min: RETENTION_MONTHS.min, max: RETENTION_MONTHS.max })
                : null
            }
            retentionSaved={saved?.retention === 'saved'}
            exportQuery={new URLSearchParams({ from: summary.from, to: summary.to }).toString()}
          />
        ) : null}
        {summary ? <PointsSection summary={summary} /> : null}
        {summary ? <Numbers summary={summary} /> : null}
        <Layout.Section>
          <ProgramHealth health={health.health} failure={health.failure} />
        </Layout.Section>
      </Layout>
      <HelpFooter topic="earnings" />
    </Page>
  );
}

/** The range: typing a date and the Show's loading state re-render this form alone, not the charts. */
function RangeForm({ from, to, fieldErrors }: { from: string; to: string; fieldErrors: Record<string, string> | undefined }) {
  const navigation = useNavigation();
  const { common } = useMessages();
  const [range, setRange] = useState({ from, to });
  return (
    <Card>
      <Form method="get">
        <InlineStack gap="300" blockAlign="end">
          <TextField
            label={common.from}
            name="from"
            type="date"
            autoComplete="off"
            value={range.from}
            onChange={(v) => setRange((r) => ({ ...r, from: v }))}
            error={fieldErrors?.from}
          />
          <TextField
            label={common.to}
            name="to"
            type="date"
            autoComplete="off"
            value={range.to}
            onChange={(v) => setRange((r) => ({ ...r, to: v }))}
            error={fieldErrors?.to}
          />
          <Button submit loading={navigation.state === 'loading'}>
            {common.show}
          </Button>
        </InlineStack>
      </Form>
    </Card>
  );
}

/** The totals, charts and completion rates, drawn again only when the loader answers (memo: the page re-renders on every navigation state). */
const Numbers = memo(function Numbers({ summary }: { summary: Summary }) {
  const { dashboard: m } = useMessages();
  const days = useDayRange();
  const zoneName = useZoneName();
  const percent = usePercentText();
  return (
    <>
      <Layout.Section>
        <InlineGrid columns={{ xs: 1, md: 3 }} gap="400">
          <FigureCard label={m.membersActive} value={summary.totals.activeMembers} />
          <FigureCard label={m.logs} value={summary.totals.logs} />
          <FigureCard label={m.rewardsIssued} value={summary.totals.rewardsIssued} />
        </InlineGrid>
      </Layout.Section>
      <Layout.Section>
        <Card>
          <ColumnChart title={m.logsPerDay} points={summary.days.map((d) => ({ label: d.date, value: d.logs }))} />
        </Card>
      </Layout.Section>
      <Layout.Section>
        <Card>
          <ColumnChart
            title={m.membersActivePerDay}
            color="#2563eb"
            points={summary.days.map((d) => ({ label: d.date, value: d.activeMembers }))}
          />
        </Card>
      </Layout.Section>
      <Layout.Section>
        <Card>
          <ColumnChart
            title={m.rewardsIssuedPerDay}
            color="#d97706"
            points={summary.days.map((d) => ({ label: d.date, value: d.rewardsIssued }))}
          />
        </Card>
      </Layout.Section>
      <Layout.Section>
        <Card>
          <RateBars
            title={format(m.completionRates, { range: days(summary.from, summary.to), timezone: zoneName(summary.timezone) })}
            rows={(['streak', 'challenge', 'mission'] as const).map((kind) => {
              const c = summary.completion[kind];
              return {
                label: m.kinds[kind],
                rate: c.rate,
                detail: format(m.completedOf, { completed: c.completed, started: c.started }),
              };
            })}
          />
          <Text as="p" tone="subdued">
            {format(m.overall, {
              streak: percent(summary.completion.streak.rate),
              challenge: percent(summary.completion.challenge.rate),
              mission: percent(summary.completion.mission.rate),
            })}
          </Text>
        </Card>
      </Layout.Section>
    </>
  );
});
