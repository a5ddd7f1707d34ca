import type { Messages } from '../messages';

export const dataRequests: Messages['dataRequests'] = {
  title: 'Solicitações de dados de clientes',
  subtitle: 'O que o programa de fidelidade guarda sobre um cliente que pediu os dados dele à Shopify. Envie isso ao cliente.',
  columns: { receivedAt: 'Recebida em', customer: 'Cliente', request: 'Solicitação' },
  customerLink: 'Abrir na Shopify',
  download: 'Baixar',
  downloadLabel: 'Baixar a solicitação {id}',
  downloadFailed: 'Não foi possível baixar a exportação da solicitação {id} ({status}).',
  empty: 'Nenhuma solicitação de dados ainda',
  emptyHelp: 'Quando um cliente pede os dados dele, a Shopify avisa o app e a exportação aparece aqui.',
  notFound: 'Essa solicitação de dados não existe.',
};
