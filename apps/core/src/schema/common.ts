import { z } from 'zod';
import { field } from '../records/fields.js';

// A name only of spaces would show the merchant a blank line in every list that names the record.
export const name = () => field.string({ max: 256, min: 1, required: true, pattern: /\S/, patternMessage: 'Must not be blank' });
export const description = () => field.string({ max: 1024, required: false });
export const requiredDescription = () => field.string({ max: 1024, required: true });
export const eudTitle = () => field.string({ max: 48, localisable: true, public: true });
export const eudText = () => field.string({ max: 1024, localisable: true, public: true });
export const eudIcon = () => field.image({ public: true });

export const jsonObject = z.record(z.string(), z.unknown());
/** A joined record, read-only (null when there is none). */
export const anyObject = jsonObject.nullable();
