import type { Messages } from '../messages';

export const notifications: Messages['notifications'] = {
  title: 'Benachrichtigungen',
  groups: { rules: 'Regeln', templates: 'Vorlagen', integrations: 'Integrationen' },
};
