import type { LoaderFunctionArgs } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { Badge, Banner, BlockStack, Box, Button, Card, InlineGrid, InlineStack, Layout, Page, Select, Text } from '@shopify/polaris';
import { useState } from 'react';
import { authenticateShop } from '../admin/authenticate.server';
import { config } from '../config.server';
import { records } from '../core/records.server';
import { liveWidgetIds } from '../shopify/widget-metafields.server';
import { useMessages } from '../i18n/context';
import { textFor } from '../i18n';
import { editorUrl } from '../admin/resources';
import { HelpFooter } from '../components/HelpFooter';
import { pageBlockLink, pointsBlockLink, themeEditorLink } from '../admin/onboarding/theme-embed.server';

const KINDS = [
  { slug: 'floating_widget', key: 'floatingWidgetId' },
  { slug: 'theme', key: 'themeId' },
  { slug: 'template', key: 'templateId' },
] as const;

/**
 * The floating widget, theme and template records (marking those the storefront shows: the oldest
 * live of each, which the app hands the theme embed), and a live preview of the real widget with them.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { api, account, session } = await authenticateShop(request);
  const [lists, onStore] = await Promise.all([
    Promise.all(KINDS.map((k) => records(api, k.slug).list({ limit: 100 }))),
    // Which records the app gives the storefront's embed; the page still lists the records without it.
    liveWidgetIds(api).catch(() => null),
  ]);
  return {
    accountId: account.accountId,
    baseUrl: config.corePublicUrl,
    // The preview gets what the theme embed gives the storefront: the shop's currency too.
    currency: account.currencyCode,
    pageLink: pageBlockLink(session.shop, config.apiKey),
    productLink: pointsBlockLink(session.shop, config.apiKey, 'product'),
    cartLink: pointsBlockLink(session.shop, config.apiKey, 'cart'),
    embedLink: themeEditorLink(session.shop, config.apiKey),
    lists: KINDS.map((k, i) => {
      const list = lists[i];
      return {
        ...k,
        onStore: onStore?.[k.key] ?? null,
        rows: list?.ok ? list.data.map((r) => ({ id: r.id, name: String(r.name ?? r.id), status: String(r.status ?? '') })) : [],
      };
    }),
  };
};

/** A document for the preview frame: the loader from the core, then init in guest mode. */
function previewDocument(baseUrl: string, config: Record<string, string>, note: string): string {
  const init = JSON.stringify({ baseUrl, ...config }).replace(/</g, '\\u003c');
  return `<!doctype html><html><head><meta charset="utf-8"><style>body{font-family:system-ui;margin:0;min-height:100vh;background:#f6f6f7}</style></head><body><p style="padding:16px;color:#6b7280">${escapeHtml(note)}</p><script>window.LoyaltyWidget={q:[],init:function(){this.q.push(arguments)}};LoyaltyWidget.init(${init});</script><script src="${baseUrl}/widget/loader.js" async></script></body></html>`;
}

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

export default function WidgetPage() {
  const { accountId, baseUrl, currency, lists, pageLink, productLink, cartLink, embedLink } = useLoaderData<typeof loader>();
  const { widget: m, records, editor, editors } = useMessages();
  const statusLabel = (status: string) => textFor(editor.status.badge, status) ?? status;
  const firstLive = (rows: { id: string; status: string }[]) => rows.find((r) => r.status === 'live')?.id ?? rows[0]?.id ?? '';
  const [choice, setChoice] = useState<Record<string, string>>(() => Object.fromEntries(lists.map((l) => [l.key, firstLive(l.rows)])));
  const [shown, setShown] = useState<Record<string, string> | null>(null);
  const complete = lists.every((l) => choice[l.key]);
  return (
    <Page title={m.title} primaryAction={{ content: editors.branding.title, url: '/app/widget/branding' }}>
      <Layout>
        <Layout.Section>
          <InlineGrid columns={{ xs: 1, md: 3 }} gap="400">
            {lists.map((l) => (
              <Card key={l.slug}>
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd">
                    {records.resources[l.slug].title}
                  </Text>
                  {l.rows.map((r) => (
                    <InlineStack key={r.id} gap="200" blockAlign="center">
                      <Link to={editorUrl(l.slug, r.id) ?? `/app/r/${l.slug}/${r.id}`}>{r.name}</Link>
                      {r.status ? <Badge tone={r.status === 'live' ? 'success' : undefined}>{statusLabel(r.status)}</Badge> : null}
                      {r.id === l.onStore ? <Badge tone="success">{m.onStore}</Badge> : null}
                    </InlineStack>
                  ))}
                  <Button url={`/app/r/${l.slug}/new`}>{m.new}</Button>
                </BlockStack>
              </Card>
            ))}
          </InlineGrid>
        </Layout.Section>
        <Layout.Section>
          <Card>
            <BlockStack gap="400">
              <Text as="h2" variant="headingMd">
                {m.preview}
              </Text>
              <Text as="p" tone="subdued">
                {m.previewHelp}
              </Text>
              <InlineGrid columns={{ xs: 1, md: 3 }} gap="400">
                {lists.map((l) => (
                  <Select
                    key={l.key}
                    label={records.resources[l.slug].title}
                    options={[
                      { label: '—', value: '' },
                      ...l.rows.map((r) => ({ label: `${r.name} (${statusLabel(r.status)})`, value: r.id })),
                    ]}
                    value={choice[l.key] ?? ''}
                    onChange={(v) => setChoice((c) => ({ ...c, [l.key]: v }))}
                  />
                ))}
              </InlineGrid>
              <Box>
                <Button
                  variant="primary"
                  disabled={!complete}
                  onClick={() => setShown({ accountId, ...choice, ...(currency ? { currency } : {}) })}
                >
                  {m.show}
                </Button>
              </Box>
              {!complete ? <Banner tone="info" title={m.incomplete} /> : null}
              {shown ? (
                <iframe
                  title={m.frameTitle}
                  data-testid="widget-preview"
                  srcDoc={previewDocument(baseUrl, shown, m.frameNote)}
                  style={{ width: '100%', height: 560, border: '1px solid #e1e3e5', borderRadius: 8 }}
                />
              ) : null}
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          <ThemeEditorCard heading={m.page} help={m.pageHelp} links={[{ url: pageLink, action: m.addPage }]} />
        </Layout.Section>
        <Layout.Section>
          <ThemeEditorCard
            heading={m.product}
            help={m.productHelp}
            links={[
              { url: productLink, action: m.addProduct },
              { url: cartLink, action: m.addCart },
            ]}
          />
        </Layout.Section>
        <Layout.Section>
          <ThemeEditorCard heading={m.reminder} help={m.reminderHelp} links={[{ url: embedLink, action: m.reminderSettings }]} />
        </Layout.Section>
        <Layout.Section>
          <HelpFooter topic="widget" />
        </Layout.Section>
      </Layout>
    </Page>
  );
}

/** What the theme does with the widget, and links that open the theme editor on it. */
function ThemeEditorCard({ heading, help, links }: { heading: string; help: string; links: { url: string; action: string }[] }) {
  return (
    <Card>
      <BlockStack gap="200">
        <Text as="h2" variant="headingMd">
          {heading}
        </Text>
        <Text as="p" tone="subdued">
          {help}
        </Text>
        <InlineStack gap="200">
          {links.map((link) => (
            <Button key={link.url} url={link.url} target="_blank">
              {link.action}
            </Button>
          ))}
        </InlineStack>
      </BlockStack>
    </Card>
  );
}
