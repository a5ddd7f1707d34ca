import type { LoaderFunctionArgs, SerializeFrom } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { memo } from 'react';
import { Badge, Banner, Card, DataTable, EmptyState, Page } from '@shopify/polaris';
import { authenticateShop } from '../admin/authenticate.server';
import { DEFINITION_SLUGS, resource } from '../admin/resources';
import { records } from '../core/records.server';
import { format, textFor } from '../i18n';
import { useMessages } from '../i18n/context';

/** Any resource's records, newest first, each linking to its page. */
export const loader = async ({ request, params }: LoaderFunctionArgs) => {
  const info = resource(params.slug);
  const { api } = await authenticateShop(request);
  const result = await records(api, info.slug).list({ limit: 100, fetchTotalCount: true });
  // Any resource's records, as the generic list reads them: by field name.
  const rows: (Record<string, unknown> & { id: string })[] = result.ok ? result.data : [];
  return {
    info,
    rows,
    total: result.ok ? (result.total ?? 0) : 0,
    failure: result.ok ? null : result.failure,
  };
};

const title = (row: Record<string, unknown>) => String(row.name ?? row.templateName ?? row.endpointUrl ?? row.id);

export default function ResourceList() {
  const { info, rows, total, failure } = useLoaderData<typeof loader>();
  const { editor, records: m } = useMessages();
  const names = m.resources[info.slug];
  const { editor: ownEditor, newUrl } = programOf(info);
  return (
    <Page
      title={names.title}
      primaryAction={{ content: names.new, url: newUrl }}
      secondaryActions={ownEditor ? [{ content: editor.allFields, url: `/app/r/${info.slug}/new` }] : []}
      backAction={info.section === 'notifications' ? { url: '/app/notifications' } : undefined}
    >
      {failure ? <Banner tone="critical" title={failure.message} /> : null}
      <Records info={info} rows={rows} total={total} />
    </Page>
  );
}

type ListData = SerializeFrom<typeof loader>;

/**
 * Streaks, challenges and missions are made in the program editor, rewards in the rewards editor;
 * this page stays their complete view. `editUrl` is where a record's name leads.
 */
function programOf(info: ListData['info']) {
  const program = DEFINITION_SLUGS.includes(info.slug);
  const reward = info.slug === 'reward';
  return {
    program,
    newUrl: program ? `/app/programs/${info.slug}/new` : reward ? '/app/rewards/new' : `/app/r/${info.slug}/new`,
    editUrl: (id: string) => (reward ? `/app/rewards/${id}` : `/app/r/${info.slug}/${id}`),
    editor: program || reward,
  };
}

/** The table, drawn again only when the loader answers (memo: the page re-renders on every navigation state). */
const Records = memo(function Records({ info, rows, total }: Pick<ListData, 'info' | 'rows' | 'total'>) {
  const { editor, records: m } = useMessages();
  const names = m.resources[info.slug];
  const { program, newUrl, editUrl } = programOf(info);
  // A record's status in the merchant's words where the admin has them (draft, live, paused).
  const statusLabel = (status: unknown) => textFor(editor.status.badge, String(status)) ?? String(status);
  return (
    <Card padding="0">
      {rows.length ? (
        <DataTable
          columnContentTypes={program ? ['text', 'text', 'text', 'text'] : ['text', 'text', 'text']}
          headings={[m.list.columns.name, m.list.columns.status, m.list.columns.updated, ...(program ? [''] : [])]}
          rows={rows.map((row) => [
            <Link key={row.id} to={editUrl(row.id)}>
              {title(row)}
            </Link>,
            row.status ? <Badge tone={row.status === 'live' ? 'success' : undefined}>{statusLabel(row.status)}</Badge> : '',
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
          footerContent={format(m.list.count, { shown: rows.length, total })}
        />
      ) : (
        <EmptyState heading={format(m.list.empty, { plural: names.plural })} action={{ content: names.new, url: newUrl }} image="">
          <p>{m.list.emptyHelp}</p>
        </EmptyState>
      )}
    </Card>
  );
});
