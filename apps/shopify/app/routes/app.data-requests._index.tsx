import type { LoaderFunctionArgs } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { Banner, Card, EmptyState, Link, Page } from '@shopify/polaris';
import { useState } from 'react';
import { format } from '../i18n';
import { useMessages } from '../i18n/context';
import { CustomerLink } from '../components/CustomerLink';
import { authenticate } from '../shopify.server';
import { shopifyCustomerId } from '../shopify/customer-ids.server';
import { shops } from '../storage/stores.server';
import { EMPTY_STATE_IMAGE } from '../components/illustrations';
import { LocalDate } from '../components/LocalDate';
import { RowsTable } from '../components/RowsTable';
import { HelpFooter } from '../components/HelpFooter';

/** The customers/data_request exports the app has kept, newest first, for the merchant to send on. */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticate.admin(request);
  const rows = await shops.listDataRequests(session.shop);
  return {
    rows: rows.map((r) => ({ ...r, receivedAt: r.receivedAt.toISOString(), customerId: shopifyCustomerId(r.customerExternalId) })),
  };
};

export default function DataRequests() {
  const { rows } = useLoaderData<typeof loader>();
  const [failure, setFailure] = useState<string | null>(null);
  const { dataRequests: m, common } = useMessages();

  // The file route needs the session token, which App Bridge only adds to fetch: a plain link
  // would land on the login page. So fetch the file and hand it to the browser as a download.
  const download = async (requestId: string) => {
    setFailure(null);
    const response = await fetch(`/app/data-requests/${encodeURIComponent(requestId)}`);
    if (!response.ok) return setFailure(format(m.downloadFailed, { id: requestId, status: response.status }));
    const href = URL.createObjectURL(await response.blob());
    const a = Object.assign(document.createElement('a'), { href, download: `data-request-${requestId}.json` });
    a.click();
    URL.revokeObjectURL(href);
  };

  return (
    <Page title={m.title} subtitle={m.subtitle}>
      {failure ? <Banner tone="critical" title={failure} onDismiss={() => setFailure(null)} /> : null}
      <Card padding="0">
        {rows.length ? (
          <RowsTable
            name={{ singular: m.columns.request, plural: m.title }}
            headings={[m.columns.receivedAt, m.columns.customer, m.columns.request, common.actions]}
            action
            rows={rows.map((r) => ({
              id: r.requestId,
              cells: [
                <LocalDate value={r.receivedAt} />,
                <CustomerLink customerId={r.customerId} externalId={r.customerExternalId} label={m.customerLink} />,
                r.requestId,
                <Link accessibilityLabel={format(m.downloadLabel, { id: r.requestId })} onClick={() => void download(r.requestId)}>
                  {m.download}
                </Link>,
              ],
            }))}
          />
        ) : (
          <EmptyState heading={m.empty} image={EMPTY_STATE_IMAGE}>
            <p>{m.emptyHelp}</p>
          </EmptyState>
        )}
      </Card>
      <HelpFooter topic="dataRequests" />
    </Page>
  );
}
