import type { Messages } from '../messages';

export const notifications: Messages['notifications'] = {
  title: 'Notifications',
  groups: { rules: 'Règles', templates: 'Modèles', integrations: 'Intégrations' },
};
