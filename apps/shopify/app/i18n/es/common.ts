import type { Messages } from '../messages';

export const common: Messages['common'] = {
  nav: {
    dashboard: 'Panel',
    streaks: 'Rachas',
    challenges: 'Retos',
    missions: 'Misiones',
    leaderboards: 'Clasificaciones',
    rewards: 'Recompensas',
    members: 'Miembros',
    points: 'Puntos',
    tiers: 'Niveles VIP',
    widget: 'Widget',
    webhooks: 'Webhooks',
    notifications: 'Notificaciones',
    dataRequests: 'Solicitudes de datos',
  },
  save: 'Guardar',
  cancel: 'Cancelar',
  discard: 'Descartar',
  delete: 'Eliminar',
  create: 'Crear',
  saved: 'Guardado',
  created: 'Creado',
  deleted: 'Eliminado',
  confirmDelete: {
    title: '¿Eliminar {name}?',
    body: 'Esta acción no se puede deshacer.',
  },
  show: 'Mostrar',
  actions: 'Acciones',
  from: 'Desde',
  to: 'Hasta',
  unavailable: {
    title: 'El servicio de fidelidad no respondió',
    body: 'No se pudo cargar en este momento. Nada de lo que configuraste ha cambiado; vuelve a intentarlo en un minuto.',
    action: 'Volver a intentarlo',
  },
  back: 'Atrás',
  notFound: {
    title: 'No se encontró',
    body: 'Esta página no existe, o lo que mostraba se eliminó.',
    action: 'Ir al panel',
  },
  refused: {
    title: 'Esta página no puede hacer eso',
    body: 'La dirección se solicitó de una forma que no admite. Ábrela desde la navegación de la aplicación.',
  },
  failed: {
    title: 'Se produjo un error',
    body: 'No se pudo mostrar esta página. Vuelve a intentarlo en un minuto.',
  },
};
