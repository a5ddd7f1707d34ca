import type { Messages } from '../messages';

export const dataRequests: Messages['dataRequests'] = {
  title: 'Solicitudes de datos de clientes',
  subtitle: 'Lo que el programa de fidelidad guarda sobre un cliente que solicitó sus datos a Shopify. Envíaselo.',
  columns: { receivedAt: 'Recibida el', customer: 'Cliente', request: 'Solicitud' },
  customerLink: 'Abrir en Shopify',
  download: 'Descargar',
  downloadLabel: 'Descargar la solicitud {id}',
  downloadFailed: 'No se pudo descargar la exportación de la solicitud {id} ({status}).',
  empty: 'Aún no hay solicitudes de datos',
  emptyHelp: 'Cuando un cliente solicita sus datos, Shopify avisa a la aplicación y la exportación aparece aquí.',
  notFound: 'No existe esa solicitud de datos.',
};
