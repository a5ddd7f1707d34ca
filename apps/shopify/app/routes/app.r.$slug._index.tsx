import type { LoaderFunctionArgs, SerializeFrom } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { memo } from 'react';
import { Badge, Box, Card, EmptyState, Page, Text } from '@shopify/polaris';
import { authenticateShop } from '../admin/authenticate.server';
import { editorUrl, helpTopicOf, resource } from '../admin/resources';
import { HelpFooter } from '../components/HelpFooter';
import { records } from '../core/records.server';
import { outbox } from '../loop/outbox.server';
import { shopCurrency } from '../shopify/admin-api.server';
import { format, textFor } from '../i18n';
import { FailureBanner } from '../components/FailureBanner';
import { useAdminLanguage, useMessages } from '../i18n/context';
import { LocalDate } from '../components/LocalDate';
import { RowsTable } from '../components/RowsTable';
import { EMPTY_STATE_IMAGE } from '../components/illustrations';

/** Any resource's records, newest first, each linking to its page. */
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const info = resource(params.slug);
  const { api, admin, session } = await authenticateShop(request);
  const [result, rewards] = await Promise.all([
    records(api, info.slug).list({ limit: 100, fetchTotalCount: true }),
    // Rewards say what each gives: their kind where the app issues them (free shipping, a free product, store credit) and the shop's currency.
    info.slug === 'reward'
      ? Promise.all([outbox.issuingSpecs(session.shop), shopCurrency(admin).catch(() => null)]).then(([specs, currency]) => ({
          kinds: Object.fromEntries([...specs].map(([id, spec]) => [id, spec.kind])),
          products: Object.fromEntries([...specs].flatMap(([id, spec]) => (spec.variant ? [[id, spec.variant.title]] : []))),
          currency,
        }))
      : null,
  ]);
  // Any resource's records, as the generic list reads them: by field name.
  const rows: (Record<string, unknown> & { id: string })[] = result.ok ? result.data : [];
  return {
    info,
    rows,
    total: result.ok ? (result.total ?? 0) : 0,
    failure: result.ok ? null : result.failure,
    rewards,
  };
};

const title = (row: Record<string, unknown>) => String(row.name ?? row.templateName ?? row.endpointUrl ?? row.id);

export default function ResourceList() {
  const { info, rows, total, failure, rewards } = useLoaderData<typeof loader>();
  const { records: m } = useMessages();
  const names = m.resources[info.slug];
  const { newUrl } = linksOf(info);
  return (
    <Page
      title={names.title}
      primaryAction={{ content: names.new, url: newUrl }}
      backAction={info.section === 'notifications' ? { url: '/app/notifications' } : undefined}
    >
      {failure ? <FailureBanner failure={failure} /> : null}
      <Records info={info} rows={rows} total={total} rewards={rewards} />
      <HelpFooter topic={helpTopicOf(info)} />
    </Page>
  );
}

type ListData = SerializeFrom<typeof loader>;

/** Where a record opens, and where a new one is made: its editor where it has one, else the generic page. */
function linksOf(info: ListData['info']) {
  return {
    open: (id: string) => editorUrl(info.slug, id) ?? `/app/r/${info.slug}/${id}`,
    newUrl: editorUrl(info.slug, 'new') ?? `/app/r/${info.slug}/new`,
  };
}

/** The table, drawn again only when the loader answers (memo: the page re-renders on every navigation state). */
const Records = memo(function Records({ info, rows, total, rewards }: Pick<ListData, 'info' | 'rows' | 'total' | 'rewards'>) {
  const { editor, records: m } = useMessages();
  const rewardColumns = useRewardColumns(rewards);
  const names = m.resources[info.slug];
  const { open, newUrl } = linksOf(info);
  // A record's status in the merchant's words where the admin has them (draft, live, paused).
  const statusLabel = (status: unknown) => textFor(editor.status.badge, String(status)) ?? String(status);
  return (
    <Card padding="0">
      {rows.length ? (
        <>
          <RowsTable
            name={{ singular: names.singular, plural: names.plural }}
            headings={[m.list.columns.name, ...rewardColumns.headings, m.list.columns.status, m.list.columns.updated]}
            rows={rows.map((row) => ({
              id: row.id,
              cells: [
                <Link to={open(row.id)}>{title(row)}</Link>,
                ...rewardColumns.cells(row),
                row.status ? <Badge tone={row.status === 'live' ? 'success' : undefined}>{statusLabel(row.status)}</Badge> : '',
                <LocalDate value={row.updatedAt} />,
              ],
            }))}
          />
          <Box padding="400">
            <Text as="p" tone="subdued">
              {format(m.list.count, { shown: rows.length, total })}
            </Text>
          </Box>
        </>
      ) : (
        <EmptyState
          heading={format(m.list.empty, { plural: names.plural })}
          action={{ content: names.new, url: newUrl }}
          image={EMPTY_STATE_IMAGE}
        >
          <p>{m.list.emptyHelp}</p>
        </EmptyState>
      )}
    </Card>
  );
});

/** The rewards list's columns beside the name: what a reward gives and what redeeming it costs, in the admin's language; none for other lists. */
function useRewardColumns(rewards: ListData['rewards']) {
  const { rewards: r } = useMessages();
  const language = useAdminLanguage();
  if (!rewards) return { headings: [], cells: () => [] };
  const number = new Intl.NumberFormat(language, { maximumFractionDigits: 2 });
  const money = (value: number) =>
    rewards.currency
      ? new Intl.NumberFormat(language, { style: 'currency', currency: rewards.currency }).format(value)
      : number.format(value);
  const gives = (row: Record<string, unknown> & { id: string }) => {
    if (row.rewardKind === 'points') return format(r.list.pointsGiven, { points: number.format(Number(row.pointsValue ?? 0)) });
    const kind = rewards.kinds[row.id] ?? (row.discountType === 'fixed_amount' ? 'fixed_amount' : 'percentage');
    const value = Number(row.discountValue ?? 0);
    return format(r.editor.summaryValue[kind], {
      value: kind === 'free_product' ? (rewards.products[row.id] ?? '') : kind === 'percentage' ? number.format(value) : money(value),
    });
  };
  return {
    headings: [r.list.gives, r.list.cost],
    cells: (row: Record<string, unknown> & { id: string }) => [
      gives(row),
      typeof row.pointsCost === 'number' ? format(r.list.points, { points: number.format(row.pointsCost) }) : r.list.notRedeemable,
    ],
  };
}
