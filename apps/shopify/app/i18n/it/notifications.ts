import type { Messages } from '../messages';

export const notifications: Messages['notifications'] = {
  title: 'Notifiche',
  groups: { rules: 'Regole', templates: 'Modelli', integrations: 'Integrazioni' },
};
