import type { Messages } from '../messages';

export const notifications: Messages['notifications'] = {
  title: '알림',
  groups: { rules: '규칙', templates: '템플릿', integrations: '연동' },
};
