import type { Messages } from '../index';
import { common } from './common';
import { dashboard } from './dashboard';

export const de: Messages = { common, dashboard };
