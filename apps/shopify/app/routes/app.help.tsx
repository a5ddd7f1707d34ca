import { BlockStack, Card, Layout, Page, Text } from '@shopify/polaris';
import type { HelpTopic } from '../components/HelpFooter';
import { useMessages } from '../i18n/context';

/** The app's own help, in the admin's language: one section per topic, each the target of the pages' help links. */
export default function HelpPage() {
  const { help, common } = useMessages();
  const topics = Object.entries(help.topics) as [HelpTopic, { title: string; body: string }][];
  return (
    <Page title={help.title} backAction={{ content: common.back, url: '/app' }}>
      <Layout>
        {topics.map(([key, topic]) => (
          <Layout.Section key={key}>
            <Card>
              <section id={key} aria-labelledby={`${key}-title`}>
                <BlockStack gap="200">
                  <Text as="h2" variant="headingMd" id={`${key}-title`}>
                    {topic.title}
                  </Text>
                  <Text as="p">{topic.body}</Text>
                </BlockStack>
              </section>
            </Card>
          </Layout.Section>
        ))}
      </Layout>
    </Page>
  );
}
