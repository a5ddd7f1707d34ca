import type { Messages } from '../messages';
import { common } from './common';
import { dashboard } from './dashboard';
import { dataRequests } from './dataRequests';
import { editor } from './editor';
import { editors } from './editors';
import { health } from './health';
import { help } from './help';
import { login } from './login';
import { members } from './members';
import { notifications } from './notifications';
import { onboarding } from './onboarding';
import { records } from './records';
import { rewards } from './rewards';
import { tiers } from './tiers';
import { widget } from './widget';

export const ja: Messages = {
  language: 'ja',
  common,
  dashboard,
  members,
  health,
  editor,
  editors,
  help,
  onboarding,
  records,
  rewards,
  tiers,
  widget,
  notifications,
  dataRequests,
  login,
};
