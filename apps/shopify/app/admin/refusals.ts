/**
 * The core's refusals of an editor's save in the merchant's words, on the fields they concern: each
 * detail's `code` (CONTRACT §2, and docs/api.md for the template checks) picks a sentence of
 * i18n `editors.refusals`, the editor's label for the detail's field fills it in, and the bounds and
 * positions the core names (at most 256, line 2, column 1) are carried over.
 */
import { type CoreFailure, isOutage } from '../core/failure';
import { format, type Messages } from '../i18n';
import { numberIn } from './numbers';

export type RefusalCode = keyof Messages['editors']['refusals'];

/** The editor's words for a failed save: a banner message and one message per form field. */
export interface Refusal {
  message: string;
  fieldErrors: Record<string, string>;
}

/** What a core detail carries beyond field, code and message (the template checks add where). */
type Detail = NonNullable<CoreFailure['details']>[number] & { line?: unknown; column?: unknown };

const isCode = (words: Messages['editors']['refusals'], code: string): code is RefusalCode => Object.hasOwn(words, code);

/** The numbers a core message names, as `language` writes them: "Must be at most 1000 characters." → max 1,000. */
function bounds(message: string, language: string): Record<string, string> {
  const number = numberIn(message, language);
  const position = /Line (\d+), column (\d+)/i.exec(message);
  return { max: number, min: number, line: position?.[1] ?? '', column: position?.[2] ?? '' };
}

/**
 * `fieldOf` names the form field a core field (`tasks[0].name` arrives as `tasks.0.name`) is shown
 * on, or undefined when the form has none for it; `labels` the form's label of each form field.
 */
export function refusalInWords(
  failure: CoreFailure,
  words: Messages['editors']['refusals'],
  language: string,
  labels: Record<string, string>,
  fieldOf: (coreField: string) => string | undefined = (f) => f,
  /** A form's own sentence for a field's wrong value (`invalid`, `invalid_format`), e.g. what a colour looks like. */
  ownWords: Record<string, string> = {},
): Refusal {
  const fieldErrors: Record<string, string> = {};
  const unplaced: string[] = [];
  for (const detail of (failure.details ?? []) as Detail[]) {
    const coreField = detail.field?.replace(/\[(\d+)\]/g, '.$1');
    const field = coreField === undefined ? undefined : fieldOf(coreField);
    const label = (field && labels[field]) ?? '';
    const values = {
      label,
      ...bounds(detail.message, language),
      ...(typeof detail.line === 'number' ? { line: detail.line } : {}),
      ...(typeof detail.column === 'number' ? { column: detail.column } : {}),
    };
    const own = field && (detail.code === 'invalid' || detail.code === 'invalid_format') ? ownWords[field] : undefined;
    // "Expected int.": a number with a fraction where only whole ones go, said as such.
    const code = detail.code === 'invalid_type' && /\bint\b/.test(detail.message) ? 'whole' : detail.code;
    const text = format(own ?? words[isCode(words, code) ? code : 'unknown'], values);
    if (field && label) fieldErrors[field] ??= text;
    else unplaced.push(text);
  }
  const general = isOutage(failure.status)
    ? words.outage
    : failure.code === 'conflict' && !failure.details?.length
      ? words.conflict
      : Object.keys(fieldErrors).length
        ? words.fields
        : words.general;
  return { message: unplaced.length ? unplaced.join(' ') : general, fieldErrors };
}
