import { Banner, BlockStack, Box, List, Text } from '@shopify/polaris';
import type { MessagePreview as Preview } from '../admin/message-preview.server';
import { format } from '../i18n';
import { UnknownVariables } from './UnknownVariables';

/** A push, SMS or chat message as the core filled it in: the texts as the member's device would show them. */
export function MessagePreview({
  preview,
  words,
}: {
  preview: Preview;
  words: { failed: string; chatTemplate: string; chatValue: string; region: string; unknown: string };
}) {
  if (!preview.ok) return <Banner tone="warning" title={format(words.failed, { message: preview.message })} />;
  return (
    <section aria-label={words.region}>
      <BlockStack gap="200">
        <UnknownVariables variables={preview.unknownVariables} words={words} />
        <Box padding="300" background="bg-surface-secondary" borderRadius="300" borderWidth="025" borderColor="border">
          {preview.kind === 'push' ? (
            <BlockStack gap="100">
              <Text as="p" fontWeight="semibold">
                {preview.title}
              </Text>
              <Text as="p">{preview.body}</Text>
            </BlockStack>
          ) : preview.kind === 'sms' ? (
            <Text as="p">{preview.body}</Text>
          ) : (
            <BlockStack gap="100">
              <Text as="p" tone="subdued">
                {format(words.chatTemplate, { name: preview.templateName })}
              </Text>
              <List>
                {preview.bodyParameters.map((value, i) => (
                  <List.Item key={i}>{format(words.chatValue, { n: i + 1, value })}</List.Item>
                ))}
              </List>
            </BlockStack>
          )}
        </Box>
      </BlockStack>
    </section>
  );
}
