import type { Messages } from '../messages';

export const notifications: Messages['notifications'] = {
  title: '通知',
  groups: { rules: '规则', templates: '模板', integrations: '集成' },
};
