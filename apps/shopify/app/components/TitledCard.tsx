import { BlockStack, Card, Text } from '@shopify/polaris';
import type { ReactNode } from 'react';

/**
 * A card headed by its title: one section of an admin page. A `region` is also a landmark named by
 * its title, for the sections a merchant (and a test) finds by name.
 */
export function TitledCard({ title, region, children }: { title: string; region?: boolean; children: ReactNode }) {
  const content = (
    <BlockStack gap="300">
      <Text as="h2" variant="headingMd">
        {title}
      </Text>
      {children}
    </BlockStack>
  );
  return <Card>{region ? <section aria-label={title}>{content}</section> : content}</Card>;
}
