import type { Messages } from '../messages';

export const notifications: Messages['notifications'] = {
  title: '通知',
  groups: { rules: 'ルール', templates: 'テンプレート', integrations: '連携' },
};
