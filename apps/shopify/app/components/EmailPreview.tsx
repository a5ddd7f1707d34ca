import { Banner, BlockStack, Box, Text } from '@shopify/polaris';
import type { EmailPreview as Preview } from '../admin/email-preview.server';
import { format } from '../i18n';
import { UnknownVariables } from './UnknownVariables';

/** An email as the core rendered it: its subject, and its HTML in a sandboxed frame (no scripts, no navigation). */
export function EmailPreview({
  preview,
  words,
}: {
  preview: Preview;
  words: { subject: string; failed: string; frame: string; unknown: string };
}) {
  if (!preview.ok) return <Banner tone="warning" title={format(words.failed, { message: preview.message })} />;
  return (
    <BlockStack gap="200">
      <UnknownVariables variables={preview.unknownVariables} words={words} />
      <Text as="p">
        <Text as="span" fontWeight="semibold">
          {words.subject}:
        </Text>{' '}
        <span data-testid="preview-subject">{preview.subject}</span>
      </Text>
      <Box borderWidth="025" borderColor="border" borderRadius="200" overflowX="hidden" overflowY="hidden">
        <iframe
          title={words.frame}
          data-testid="email-preview"
          sandbox=""
          srcDoc={preview.html}
          style={{ width: '100%', height: 480, border: 0 }}
        />
      </Box>
    </BlockStack>
  );
}
