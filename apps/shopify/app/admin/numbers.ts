/** A form's number as the core takes it: the number typed, or the text as typed so the core's refusal names the field. */
export const numberOr = (text: string): number | string => (text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text);
