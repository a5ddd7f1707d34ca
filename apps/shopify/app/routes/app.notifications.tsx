import type { LoaderFunctionArgs } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { BlockStack, Card, InlineGrid, Page, Text } from '@shopify/polaris';
import { authenticateShop } from '../admin/authenticate.server';
import type { ResourceSlug } from '../admin/resources';
import { records } from '../core/records.server';
import { useMessages } from '../i18n/context';
import { HelpFooter } from '../components/HelpFooter';

const GROUPS: { key: 'rules' | 'templates' | 'integrations'; slugs: ResourceSlug[] }[] = [
  { key: 'rules', slugs: ['notification'] },
  {
    key: 'templates',
    slugs: [
      'email_template',
      'email_theme',
      'email_header',
      'email_footer',
      'push_notification_template',
      'sms_template',
      'chat_message_template',
    ],
  },
  { key: 'integrations', slugs: ['service_email', 'push_cloud_messaging', 'cloud_sms', 'cloud_chat'] },
];

/** Notification rules, templates and integrations, with how many of each the programme has. */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { api } = await authenticateShop(request);
  const slugs = GROUPS.flatMap((g) => g.slugs);
  const totals = await Promise.all(slugs.map((slug) => records(api, slug).list({ limit: 1, fetchTotalCount: true })));
  const counts = Object.fromEntries(
    slugs.map((slug, i) => {
      const total = totals[i];
      return [slug, total?.ok ? (total.total ?? 0) : null];
    }),
  );
  return { counts };
};

export default function Notifications() {
  const { counts } = useLoaderData<typeof loader>();
  const { notifications: m, records } = useMessages();
  return (
    <Page title={m.title}>
      <InlineGrid columns={{ xs: 1, md: 3 }} gap="400">
        {GROUPS.map((g) => (
          <Card key={g.key}>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                {m.groups[g.key]}
              </Text>
              {g.slugs.map((slug) => (
                <Link key={slug} to={`/app/r/${slug}`}>
                  {records.resources[slug].title} ({counts[slug] ?? '?'})
                </Link>
              ))}
            </BlockStack>
          </Card>
        ))}
      </InlineGrid>
      <HelpFooter topic="notifications" />
    </Page>
  );
}
