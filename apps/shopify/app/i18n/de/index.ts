import type { Messages } from '../index';
import { common } from './common';
import { dashboard } from './dashboard';
import { editor } from './editor';
import { health } from './health';
import { members } from './members';
import { onboarding } from './onboarding';

export const de: Messages = { common, dashboard, members, health, editor, onboarding };
