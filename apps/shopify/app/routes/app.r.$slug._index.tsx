import type { LoaderFunctionArgs } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { Badge, Banner, Card, DataTable, EmptyState, Page } from '@shopify/polaris';
import { records } from '../lib/records.server';
import { resource } from '../lib/resources';
import { authenticateShop } from '../shopify.server';

/** Any resource's records, newest first, each linking to its page. */
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const info = resource(params.slug);
  const { api } = await authenticateShop(request);
  const result = await records(api, info.slug).list({ limit: 100, fetchTotalCount: true });
  return {
    info,
    rows: result.ok ? result.data : [],
    total: result.ok ? (result.total ?? 0) : 0,
    failure: result.ok ? null : result.failure,
  };
};

const title = (row: Record<string, unknown>) => String(row.name ?? row.templateName ?? row.endpointUrl ?? row.id);

export default function ResourceList() {
  const { info, rows, total, failure } = useLoaderData<typeof loader>();
  const newUrl = `/app/r/${info.slug}/new`;
  return (
    <Page
      title={info.title}
      primaryAction={{ content: `New ${info.singular}`, url: newUrl }}
      backAction={info.section === 'notifications' ? { url: '/app/notifications' } : undefined}
    >
      {failure ? <Banner tone="critical" title={failure.message} /> : null}
      <Card padding="0">
        {rows.length ? (
          <DataTable
            columnContentTypes={['text', 'text', 'text']}
            headings={['Name', 'Status', 'Updated']}
            rows={rows.map((row) => [
              <Link key={row.id} to={`/app/r/${info.slug}/${row.id}`}>
                {title(row)}
              </Link>,
              row.status ? <Badge tone={row.status === 'live' ? 'success' : undefined}>{String(row.status)}</Badge> : '',
              String(row.updatedAt ?? '')
                .slice(0, 16)
                .replace('T', ' '),
            ])}
            footerContent={`${rows.length} of ${total}`}
          />
        ) : (
          <EmptyState heading={`No ${info.title.toLowerCase()} yet`} action={{ content: `New ${info.singular}`, url: newUrl }} image="">
            <p>Create the first one.</p>
          </EmptyState>
        )}
      </Card>
    </Page>
  );
}
