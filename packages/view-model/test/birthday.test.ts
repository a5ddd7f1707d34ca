import { describe, expect, it } from 'vitest';
import { birthdayOf, birthdayText, daysIn, monthNames } from '../src/birthday.js';

describe('birthdays', () => {
  it('offers each month’s days, 29 in February, and says a birthday as the shopper’s language writes it', () => {
    expect([1, 2, 4, 12].map(daysIn)).toEqual([31, 29, 30, 31]);
    // Before a month is picked, any day.
    expect(daysIn(0)).toBe(31);
    expect(monthNames('en')[0]).toBe('January');
    expect(monthNames('de')[2]).toBe('März');
    expect(monthNames('ja')[11]).toBe('12月');
    expect(birthdayOf(3, 4)).toBe('03-04');
    expect(birthdayText('03-14', 'en')).toBe('March 14');
    expect(birthdayText('03-14', 'de')).toBe('14. März');
    expect(birthdayText('02-29', 'fr')).toBe('29 février');
    // A language Intl cannot read is said in English, never an error on the storefront.
    expect(birthdayText('12-31', 'not a language!')).toBe('December 31');
  });
});
