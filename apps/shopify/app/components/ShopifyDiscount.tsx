import { useFetcher } from '@remix-run/react';
import { Banner, BlockStack, Button, Card, Checkbox, DataTable, Text } from '@shopify/polaris';
import { useEffect } from 'react';
import { useAdminLanguage, useMessages } from '../i18n/context';
import type { FailedDiscount } from '../loop/outbox.server';

/** What the card's route (app.rewards.$id.shopify-discount.tsx) answers. */
export interface ShopifyDiscountCard {
  enabled: boolean;
  failures: FailedDiscount[];
  /** What the last change did, in the admin's words. */
  message: string | null;
}

/**
 * The reward page's Shopify discount card: the "Issue as a Shopify discount" switch, and the reward
 * logs whose discount could not be created, each with its reason and a Retry button.
 */
export function ShopifyDiscount({ rewardId }: { rewardId: string }) {
  const fetcher = useFetcher<ShopifyDiscountCard>();
  const path = `/app/rewards/${rewardId}/shopify-discount`;
  useEffect(() => {
    if (fetcher.state === 'idle' && !fetcher.data) fetcher.load(path);
  }, [fetcher, path]);
  const data = fetcher.data;
  const m = useMessages().rewards.discount;
  const language = useAdminLanguage();
  const send = (body: { intent: 'toggle'; enabled: boolean } | { intent: 'retry'; rewardLogId: string }) =>
    fetcher.submit({ ...body, language }, { method: 'post', action: path, encType: 'application/json' });
  return (
    <Card>
      <section aria-label={m.title}>
        <BlockStack gap="400">
          <Text as="h2" variant="headingMd">
            {m.title}
          </Text>
          {data?.message ? <Banner tone="info" title={data.message} /> : null}
          <Checkbox
            label={m.toggle}
            helpText={m.help}
            checked={data?.enabled ?? false}
            disabled={!data || fetcher.state !== 'idle'}
            onChange={(enabled) => send({ intent: 'toggle', enabled })}
          />
          {data?.failures.length ? (
            <BlockStack gap="200">
              <Text as="h3" variant="headingSm">
                {m.failures}
              </Text>
              <DataTable
                columnContentTypes={['text', 'text', 'text', 'text']}
                headings={[m.columns.rewardLog, m.columns.customer, m.columns.reason, '']}
                rows={data.failures.map((f) => [
                  f.rewardLogId,
                  f.customerGid.replace('gid://shopify/Customer/', ''),
                  f.reason,
                  <Button
                    key={f.rewardLogId}
                    disabled={fetcher.state !== 'idle'}
                    onClick={() => send({ intent: 'retry', rewardLogId: f.rewardLogId })}
                  >
                    {m.retry}
                  </Button>,
                ])}
              />
            </BlockStack>
          ) : null}
        </BlockStack>
      </section>
    </Card>
  );
}
