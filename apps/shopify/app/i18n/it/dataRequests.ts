import type { Messages } from '../messages';

export const dataRequests: Messages['dataRequests'] = {
  title: 'Richieste di dati dei clienti',
  subtitle: 'Ciò che il programma fedeltà conserva su un cliente che ha chiesto a Shopify i propri dati. Invialo al cliente.',
  columns: { receivedAt: 'Ricevuta il', customer: 'Cliente', request: 'Richiesta' },
  customerLink: 'Apri in Shopify',
  download: 'Scarica',
  downloadLabel: 'Scarica la richiesta {id}',
  downloadFailed: 'Non è stato possibile scaricare l’esportazione della richiesta {id} ({status}).',
  empty: 'Ancora nessuna richiesta di dati',
  emptyHelp: 'Quando un cliente chiede i propri dati, Shopify lo comunica all’app e l’esportazione compare qui.',
  notFound: 'Questa richiesta di dati non esiste.',
};
