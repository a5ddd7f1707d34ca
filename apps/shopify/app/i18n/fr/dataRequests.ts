import type { Messages } from '../messages';

export const dataRequests: Messages['dataRequests'] = {
  title: 'Demandes de données client',
  subtitle: 'Ce que le programme de fidélité détient sur un client qui a demandé ses données à Shopify. Transmettez-les-lui.',
  columns: { receivedAt: 'Reçue le', customer: 'Client', request: 'Demande' },
  customerLink: 'Ouvrir dans Shopify',
  download: 'Télécharger',
  downloadLabel: 'Télécharger la demande {id}',
  downloadFailed: 'L’export de la demande {id} n’a pas pu être téléchargé ({status}).',
  empty: 'Aucune demande de données pour l’instant',
  emptyHelp: 'Lorsqu’un client demande ses données, Shopify en informe l’application et l’export apparaît ici.',
  notFound: 'Cette demande de données n’existe pas.',
};
