import type { Messages } from '../messages';

export const dataRequests: Messages['dataRequests'] = {
  title: 'Datenanfragen von Kunden',
  subtitle: 'Was das Treueprogramm über einen Kunden speichert, der Shopify nach seinen Daten gefragt hat. Sende es ihm.',
  columns: { receivedAt: 'Eingegangen am', customer: 'Kunde', request: 'Anfrage' },
  customerLink: 'In Shopify öffnen',
  download: 'Herunterladen',
  downloadLabel: 'Anfrage {id} herunterladen',
  downloadFailed: 'Der Export der Anfrage {id} konnte nicht heruntergeladen werden ({status}).',
  empty: 'Noch keine Datenanfragen',
  emptyHelp: 'Wenn ein Kunde seine Daten anfordert, benachrichtigt Shopify die App und der Export erscheint hier.',
  notFound: 'Diese Datenanfrage gibt es nicht.',
};
