import { Page, Text } from '@shopify/polaris';

export default function Dashboard() {
  return (
    <Page title="Loyalty">
      <Text as="p">Dashboard</Text>
    </Page>
  );
}
