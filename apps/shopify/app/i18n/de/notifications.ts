import type { Messages } from '../index';

export const notifications: Messages['notifications'] = {
  title: 'Benachrichtigungen',
  groups: { rules: 'Regeln', templates: 'Vorlagen', integrations: 'Integrationen' },
};
