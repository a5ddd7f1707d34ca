/** The customers/data_request exports page. */
export const dataRequests = {
  title: 'Customer data requests',
  subtitle: 'What the loyalty program holds about a customer who asked Shopify for their data. Send it to them.',
  columns: { receivedAt: 'Received at', customer: 'Customer', request: 'Request' },
  customerLink: 'Open in Shopify',
  download: 'Download',
  downloadLabel: 'Download request {id}',
  downloadFailed: 'The export of request {id} could not be downloaded ({status}).',
  empty: 'No data requests yet',
  emptyHelp: 'When a customer asks for their data, Shopify tells the app and the export appears here.',
  notFound: 'No such data request.',
};
