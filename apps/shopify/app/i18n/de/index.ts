import type { Messages } from '../messages';
import { common } from './common';
import { dashboard } from './dashboard';
import { dataRequests } from './dataRequests';
import { editor } from './editor';
import { health } from './health';
import { login } from './login';
import { members } from './members';
import { notifications } from './notifications';
import { onboarding } from './onboarding';
import { records } from './records';
import { rewards } from './rewards';
import { widget } from './widget';

export const de: Messages = {
  common,
  dashboard,
  members,
  health,
  editor,
  onboarding,
  records,
  rewards,
  widget,
  notifications,
  dataRequests,
  login,
};
