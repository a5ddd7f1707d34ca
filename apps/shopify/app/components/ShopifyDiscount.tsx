import { useFetcher } from '@remix-run/react';
import { Banner, BlockStack, Button, Card, Checkbox, DataTable, Text } from '@shopify/polaris';
import { useEffect } from 'react';
import type { loader } from '../routes/app.rewards.$id.shopify-discount';

/**
 * The reward page's Shopify discount card: the "Issue as a Shopify discount" switch, and the reward
 * logs whose discount could not be created, each with its reason and a Retry button.
 */
export function ShopifyDiscount({ rewardId }: { rewardId: string }) {
  const fetcher = useFetcher<typeof loader>();
  const path = `/app/rewards/${rewardId}/shopify-discount`;
  useEffect(() => {
    if (fetcher.state === 'idle' && !fetcher.data) fetcher.load(path);
  }, [fetcher, path]);
  const data = fetcher.data;
  const send = (body: Record<string, unknown>) =>
    fetcher.submit(body as never, { method: 'post', action: path, encType: 'application/json' });
  return (
    <Card>
      <section aria-label="Shopify discount">
        <BlockStack gap="400">
          <Text as="h2" variant="headingMd">
            Shopify discount
          </Text>
          {data?.message ? <Banner tone="info" title={data.message} /> : null}
          <Checkbox
            label="Issue as a Shopify discount"
            helpText="Each reward log gets its own code discount in Shopify: this reward's type and value, for that customer only, one use, ending at the reward's expiry. The loyalty service then hands out no code of its own."
            checked={data?.enabled ?? false}
            disabled={!data || fetcher.state !== 'idle'}
            onChange={(enabled) => send({ intent: 'toggle', enabled })}
          />
          {data?.failures.length ? (
            <BlockStack gap="200">
              <Text as="h3" variant="headingSm">
                Discounts that could not be issued
              </Text>
              <DataTable
                columnContentTypes={['text', 'text', 'text', 'text']}
                headings={['Reward log', 'Customer', 'Reason', '']}
                rows={data.failures.map((f) => [
                  f.rewardLogId,
                  f.customerGid.replace('gid://shopify/Customer/', ''),
                  f.reason,
                  <Button
                    key={f.rewardLogId}
                    disabled={fetcher.state !== 'idle'}
                    onClick={() => send({ intent: 'retry', rewardLogId: f.rewardLogId })}
                  >
                    Retry
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
