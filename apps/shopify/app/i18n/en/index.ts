import { common } from './common';
import { dashboard } from './dashboard';

/** Every admin text in English: the reference every other language is checked against. */
export const en = { common, dashboard };
