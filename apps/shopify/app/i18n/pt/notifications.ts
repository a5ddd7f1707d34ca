import type { Messages } from '../messages';

export const notifications: Messages['notifications'] = {
  title: 'Notificações',
  groups: { rules: 'Regras', templates: 'Modelos', integrations: 'Integrações' },
};
