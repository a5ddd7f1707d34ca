import { common } from './common';
import { dashboard } from './dashboard';
import { editor } from './editor';
import { health } from './health';
import { members } from './members';
import { onboarding } from './onboarding';

/** Every admin text in English: the reference every other language is checked against. */
export const en = { common, dashboard, members, health, editor, onboarding };
