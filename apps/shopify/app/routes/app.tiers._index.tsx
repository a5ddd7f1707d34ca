import type { LoaderFunctionArgs } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { Badge, Banner, BlockStack, Card, EmptyState, InlineStack, Layout, Page, Text } from '@shopify/polaris';
import { authenticateShop } from '../admin/authenticate.server';
import { pointsName, tierWords } from '../admin/tier-words';
import { membersPerTier, pointsContext, rewardNames } from '../admin/tiers.server';
import { HelpFooter } from '../components/HelpFooter';
import { EMPTY_STATE_IMAGE } from '../components/illustrations';
import { records } from '../core/records.server';
import { format, textFor } from '../i18n';
import { useAdminLanguage, useMessages } from '../i18n/context';
import { failureResponse } from '../core/failure';

/**
 * The VIP tiers as a ladder (CONTRACT §19): every tier, live or not, from the lowest threshold up,
 * each with what reaching it takes, what its members earn and the reward on reaching it, in words
 * and with the shop's name for points, and how many members it holds now.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { api } = await authenticateShop(request);
  const [listed, points, rewards] = await Promise.all([
    records(api, 'tier').list({ limit: 250, sortBy: [{ fieldSlug: 'pointsThreshold', order: 'ASC' }] }),
    pointsContext(api),
    rewardNames(api),
  ]);
  if (!listed.ok) throw failureResponse(listed.failure);
  const rewardName = new Map(rewards.map((r) => [r.id, r.name]));
  const members = await membersPerTier(
    api,
    listed.data.map((t) => t.id),
  );
  return {
    points,
    tiers: listed.data.map((t) => ({
      id: t.id,
      name: t.name ?? '',
      status: t.status ?? 'draft',
      threshold: t.pointsThreshold ?? 0,
      multiplier: t.earnMultiplier ?? 1,
      entryReward: t.entryRewardId ? (rewardName.get(t.entryRewardId) ?? null) : undefined,
      members: members.get(t.id) ?? 0,
    })),
  };
};

export default function TierLadder() {
  const { points, tiers } = useLoaderData<typeof loader>();
  const { tiers: m, editor, editors, common } = useMessages();
  const language = useAdminLanguage();
  const name = pointsName(m, points.currencyName);
  return (
    <Page
      title={m.list.title}
      backAction={{ content: common.back, url: '/app/points' }}
      primaryAction={{ content: m.list.new, url: '/app/tiers/new' }}
      actionGroups={[{ title: editors.frame.advanced, actions: [{ content: m.list.allRecords, url: '/app/r/tier' }] }]}
    >
      <Layout>
        {points.on ? null : (
          <Layout.Section>
            <Banner tone="warning" title={format(m.list.pointsOff, { points: name })}>
              <Link to="/app/points">{m.list.settings}</Link>
            </Banner>
          </Layout.Section>
        )}
        <Layout.Section>
          <Card>
            <BlockStack gap="200">
              <Text as="p">{format(m.list.intro, { points: name })}</Text>
              <Text as="p" tone="subdued">
                {points.windowMonths
                  ? format(m.list.window.months, { points: name, months: points.windowMonths })
                  : format(m.list.window.lifetime, { points: name })}{' '}
                <Link to="/app/points">{m.list.settings}</Link>
              </Text>
            </BlockStack>
          </Card>
        </Layout.Section>
        <Layout.Section>
          {tiers.length ? (
            <Card padding="0">
              <ol aria-label={m.list.title} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
                {tiers.map((t, i) => {
                  const words = tierWords(m, language, name, t);
                  return (
                    <li
                      key={t.id}
                      style={{
                        padding: 'var(--p-space-400)',
                        borderTop: i ? 'var(--p-border-width-025) solid var(--p-color-border)' : undefined,
                      }}
                    >
                      <BlockStack gap="100">
                        <InlineStack gap="200" blockAlign="center">
                          <Text as="span" tone="subdued">
                            {i + 1}.
                          </Text>
                          <Text as="h2" variant="headingMd">
                            <Link to={`/app/tiers/${t.id}`}>{t.name}</Link>
                          </Text>
                          <Badge tone={t.status === 'live' ? 'success' : undefined}>
                            {textFor(editor.status.badge, t.status) ?? t.status}
                          </Badge>
                        </InlineStack>
                        <Text as="p">
                          {words.from} · {words.earns}
                        </Text>
                        <Text as="p" data-members>
                          {format(t.members === 1 ? m.list.members.one : m.list.members.other, {
                            count: new Intl.NumberFormat(language).format(t.members),
                          })}
                        </Text>
                        <Text as="p" tone="subdued">
                          {t.entryReward === undefined
                            ? m.list.noEntryReward
                            : format(m.list.entryReward, { reward: t.entryReward ?? m.list.goneReward })}
                        </Text>
                      </BlockStack>
                    </li>
                  );
                })}
              </ol>
            </Card>
          ) : (
            <Card>
              <EmptyState
                heading={m.list.empty.heading}
                action={{ content: m.list.empty.action, url: '/app/tiers/new' }}
                image={EMPTY_STATE_IMAGE}
              >
                <p>{format(m.list.empty.body, { points: name })}</p>
              </EmptyState>
            </Card>
          )}
        </Layout.Section>
        <Layout.Section>
          <HelpFooter topic="points" />
        </Layout.Section>
      </Layout>
    </Page>
  );
}
