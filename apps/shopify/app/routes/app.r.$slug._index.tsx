import type { LoaderFunctionArgs } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { Badge, Banner, Card, DataTable, EmptyState, Page } from '@shopify/polaris';
import { useMessages } from '../i18n/context';
import { records } from '../lib/records.server';
import { DEFINITION_SLUGS, resource } from '../lib/resources';
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
  const { editor } = useMessages();
  // Streaks, challenges and missions are made in the program editor; this page stays their complete view.
  const program = DEFINITION_SLUGS.includes(info.slug);
  const newUrl = program ? `/app/programs/${info.slug}/new` : `/app/r/${info.slug}/new`;
  return (
    <Page
      title={info.title}
      primaryAction={{ content: `New ${info.singular}`, url: newUrl }}
      secondaryActions={program ? [{ content: editor.allFields, url: `/app/r/${info.slug}/new` }] : []}
      backAction={info.section === 'notifications' ? { url: '/app/notifications' } : undefined}
    >
      {failure ? <Banner tone="critical" title={failure.message} /> : null}
      <Card padding="0">
        {rows.length ? (
          <DataTable
            columnContentTypes={program ? ['text', 'text', 'text', 'text'] : ['text', 'text', 'text']}
            headings={program ? ['Name', 'Status', 'Updated', ''] : ['Name', 'Status', 'Updated']}
            rows={rows.map((row) => [
              <Link key={row.id} to={`/app/r/${info.slug}/${row.id}`}>
                {title(row)}
              </Link>,
              row.status ? <Badge tone={row.status === 'live' ? 'success' : undefined}>{String(row.status)}</Badge> : '',
              String(row.updatedAt ?? '')
                .slice(0, 16)
                .replace('T', ' '),
              ...(program
                ? [
                    <Link key={`edit-${row.id}`} to={`/app/programs/${info.slug}/${row.id}`}>
                      {editor.editProgram}
                    </Link>,
                  ]
                : []),
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
