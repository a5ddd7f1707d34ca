import type { Messages } from '../messages';

export const notifications: Messages['notifications'] = {
  title: 'Notificaciones',
  groups: { rules: 'Reglas', templates: 'Plantillas', integrations: 'Integraciones' },
};
