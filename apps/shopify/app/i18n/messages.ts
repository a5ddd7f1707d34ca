import type { en } from './en';

/**
 * The admin's texts, typed by English, the reference: another language's files are typed by it, so a
 * missing or extra text fails the typecheck. A module of its own, so that the language files need
 * not import the index that imports them.
 */
export type Messages = typeof en;
