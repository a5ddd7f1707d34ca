/** A form's number as the core takes it: the number typed, or the text as typed so the core's refusal names the field. */
export const numberOr = (text: string): number | string => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text);

/** The first number a core message names: "Must be at most 16 characters." → "16"; "" when it names none. */
export const numberIn = (message: string): string => /(-?\d+(?:\.\d+)?)/.exec(message)?.[1] ?? '';
