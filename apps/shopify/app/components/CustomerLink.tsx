import { Link, Text } from '@shopify/polaris';

/**
 * Who a member is outside the loyalty programme: a Shopify customer as a link to their page in the
 * Shopify admin (App Bridge opens `shopify:admin/…` in the admin around the app), anyone else by
 * the reference the merchant's own systems gave them.
 */
export function CustomerLink({ customerId, externalId, label }: { customerId: number | null; externalId: string; label: string }) {
  if (customerId === null) return <Text as="span">{externalId || '—'}</Text>;
  return (
    <Link url={`shopify:admin/customers/${customerId}`} target="_top">
      {label}
    </Link>
  );
}
