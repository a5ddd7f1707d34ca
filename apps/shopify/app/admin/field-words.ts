import { format } from '../i18n/index';
import type { Messages } from '../i18n/messages';
import { numberIn } from './numbers';

/** The words of a refusal shown under its field, so without the field's name ("Enter at most 5."). */
export type FieldWords = Messages['rewards']['editor']['checks'];

/** A detail of the core's refusal (CONTRACT §2): the field, the code, and the message whose bound it names. */
export interface CoreDetail {
  field?: string | null;
  code?: string | null;
  message?: string | null;
}

/** What a field holds, for the refusals that read differently by it. */
export interface FieldKind {
  /** A number: a value of the wrong kind is "Enter a number". */
  number?: boolean;
  /** A percentage: its bound is said as such. */
  percentage?: boolean;
  /** A code prefix: its wrong format names the characters it takes. */
  prefix?: boolean;
}

/** One detail of the core's refusal in the merchant's words, with the bound the core names. */
export function detailWords(d: CoreDetail, words: FieldWords, language: string, kind: FieldKind = {}): string {
  const message = d.message ?? '';
  const bound = () => numberIn(message, language);
  switch (d.code) {
    case 'required':
      return words.required;
    case 'too_long':
      return format(words.tooLong, { max: bound() });
    case 'too_short':
      // An empty text is "at least 1 character" to the core; to the merchant it is missing.
      return bound() === '1' ? words.required : format(words.tooShort, { min: bound() });
    case 'too_large':
      return kind.percentage && /percentage/i.test(message) ? words.percentage : format(words.tooLarge, { max: bound() });
    case 'too_small':
      return /greater than/.test(message) ? format(words.greaterThan, { min: bound() }) : format(words.tooSmall, { min: bound() });
    case 'invalid_type':
      // "Expected int.": a number with a fraction where only whole ones go.
      if (/\bint\b/.test(message)) return words.whole;
      return kind.number ? words.number : words.invalid;
    case 'invalid_enum':
      return words.choice;
    default:
      if (kind.prefix && (d.code === 'invalid' || d.code === 'invalid_format')) return words.prefix;
      // A rule between fields that names a bound (`unreachable`: "Must be at most 7, the completionTargetValue of the streak").
      if (/\bat most -?\d/i.test(message)) return format(words.tooLarge, { max: bound() });
      if (/\bat least -?\d/i.test(message)) return format(words.tooSmall, { min: bound() });
      // Any other code (a control character, a read-only or unknown use of a field) on a field of the form.
      return words.invalid;
  }
}
