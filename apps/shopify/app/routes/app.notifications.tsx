import type { LoaderFunctionArgs } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { BlockStack, Card, InlineGrid, Page, Text } from '@shopify/polaris';
import { records } from '../lib/records.server';
import { RESOURCES } from '../lib/resources';
import { authenticateShop } from '../shopify.server';

const GROUPS = [
  { title: 'Rules', slugs: ['notification'] },
  {
    title: 'Templates',
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
  { title: 'Integrations', slugs: ['service_email', 'push_cloud_messaging', 'cloud_sms', 'cloud_chat'] },
];

/** Notification rules, templates and integrations, with how many of each the programme has. */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { api } = await authenticateShop(request);
  const slugs = GROUPS.flatMap((g) => g.slugs);
  const totals = await Promise.all(slugs.map((slug) => records(api, slug).list({ limit: 1, fetchTotalCount: true })));
  const counts = Object.fromEntries(slugs.map((slug, i) => [slug, totals[i]!.ok ? ((totals[i] as { total?: number }).total ?? 0) : null]));
  return { counts };
};

export default function Notifications() {
  const { counts } = useLoaderData<typeof loader>();
  return (
    <Page title="Notifications">
      <InlineGrid columns={3} gap="400">
        {GROUPS.map((g) => (
          <Card key={g.title}>
            <BlockStack gap="200">
              <Text as="h2" variant="headingMd">
                {g.title}
              </Text>
              {g.slugs.map((slug) => (
                <Link key={slug} to={`/app/r/${slug}`}>
                  {RESOURCES.find((r) => r.slug === slug)!.title} ({counts[slug] ?? '?'})
                </Link>
              ))}
            </BlockStack>
          </Card>
        ))}
      </InlineGrid>
    </Page>
  );
}
