import { BlockStack, Card, Layout, Text } from '@shopify/polaris';
import type { ReactNode } from 'react';

/** One of the dashboard's figures: what it is, the number large, and what explains it below. */
export function FigureCard({ label, value, children }: { label: string; value: ReactNode; children?: ReactNode }) {
  return (
    <Card>
      <BlockStack gap="100">
        <Text as="p" tone="subdued">
          {label}
        </Text>
        <Text as="p" variant="heading2xl">
          {value}
        </Text>
        {children}
      </BlockStack>
    </Card>
  );
}

/** A section of the dashboard, a landmark named by its heading, with the period it covers under it. */
export function FiguresSection({ title, period, children }: { title: string; period: string; children: ReactNode }) {
  return (
    <Layout.Section>
      <section aria-label={title}>
        <BlockStack gap="400">
          <BlockStack gap="100">
            <Text as="h2" variant="headingLg">
              {title}
            </Text>
            <Text as="p" tone="subdued">
              {period}
            </Text>
          </BlockStack>
          {children}
        </BlockStack>
      </section>
    </Layout.Section>
  );
}
