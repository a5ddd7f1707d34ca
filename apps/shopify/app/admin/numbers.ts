/** A form's number as the core takes it: the number typed, or the text as typed so the core's refusal names the field. */
export const numberOr = (text: string): number | string => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text);

/** The first number a core message names, as `language` writes it: "Must be at most 1000000 characters." → "1,000,000"; "" when it names none. */
export function numberIn(message: string, language: string): string {
  const found = /(-?\d+(?:\.\d+)?)/.exec(message)?.[1];
  return found === undefined ? '' : new Intl.NumberFormat(language).format(Number(found));
}
