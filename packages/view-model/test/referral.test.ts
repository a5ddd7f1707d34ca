import { describe, expect, it } from 'vitest';
import { stringsFor } from '../src/i18n.js';
import type { PointsSetting } from '../src/model.js';
import { REFERRAL_CODE, referralLink, referralOffer } from '../src/referral.js';

const t = stringsFor('en');
const STARS = { one: 'Star', other: 'Stars' };
const setting: PointsSetting = {
  id: 's',
  eudCurrencyName: 'Stars',
  pointsPerCurrencyUnit: 1,
  pointsPerOrder: 0,
  pointsOnSignUp: 0,
  pointsOnNewsletter: 0,
  pointsOnBirthday: 0,
  pointsOnReferral: 500,
  pointsOnReferredOrder: 250,
  expiryMonthsOfInactivity: 0,
};

describe('referrals', () => {
  it('links to the storefront with the member’s code, whichever way its address ends', () => {
    expect(referralLink('https://shop.example', 'K7M3QX9P')).toBe('https://shop.example/?loyalty_ref=K7M3QX9P');
    expect(referralLink('https://shop.example/', 'K7M3QX9P')).toBe('https://shop.example/?loyalty_ref=K7M3QX9P');
  });

  it('knows a code by the core’s alphabet: 8 characters, no 0, O, 1 or I, capitals only', () => {
    expect(['K7M3QX9P', '23456789', 'ABCDEFGH', 'ZZZZZZZZ'].filter((code) => REFERRAL_CODE.test(code))).toHaveLength(4);
    for (const code of ['K7M3QX9', 'K7M3QX9PP', 'k7m3qx9p', 'K7M3QX9O', 'K7M3QX91', 'K7M3QXI9', 'K7M3 X9P', '', 'K7M3QX9P\n'])
      expect(REFERRAL_CODE.test(code), JSON.stringify(code)).toBe(false);
  });

  it('says what the friend and the member get, the member’s times their tier, or the one that is on', () => {
    expect(referralOffer(setting, t, STARS, 'en')).toBe(
      'Give friends 250 Stars on their first order and get 500 Stars when they place it.',
    );
    // A Gold member (×1.5) gets 750, as the core credits it; the friend's tier is not known here.
    expect(referralOffer(setting, t, STARS, 'en', 1.5)).toBe(
      'Give friends 250 Stars on their first order and get 750 Stars when they place it.',
    );
    expect(referralOffer({ ...setting, pointsOnReferral: 0 }, t, STARS, 'en')).toBe('Give friends 250 Stars on their first order.');
    expect(referralOffer({ ...setting, pointsOnReferredOrder: 0 }, t, STARS, 'en')).toBe(
      'Get 500 Stars when a friend you refer places their first order.',
    );
    expect(referralOffer({ ...setting, pointsOnReferral: 0, pointsOnReferredOrder: 0 }, t, STARS, 'en')).toBeNull();
    // One point is said as one.
    expect(referralOffer({ ...setting, pointsOnReferral: 0, pointsOnReferredOrder: 1 }, t, STARS, 'en')).toBe(
      'Give friends 1 Star on their first order.',
    );
  });

  it('says the shop’s gift to the friend instead of their points, with the member’s as before', () => {
    const gift = '10% off your first order';
    expect(referralOffer(setting, t, STARS, 'en', 1.5, gift)).toBe(
      'Friends get “10% off your first order”, and you get 750 Stars when they place their first order.',
    );
    // Said even where the friend's points are off, and where the member gets none.
    expect(referralOffer({ ...setting, pointsOnReferredOrder: 0 }, t, STARS, 'en', 1, gift)).toBe(
      'Friends get “10% off your first order”, and you get 500 Stars when they place their first order.',
    );
    expect(referralOffer({ ...setting, pointsOnReferral: 0, pointsOnReferredOrder: 0 }, t, STARS, 'en', 1, gift)).toBe(
      'Friends you refer get “10% off your first order”.',
    );
    // No gift (none set, or none to be had): the points, as before.
    for (const none of [undefined, null, ''])
      expect(referralOffer(setting, t, STARS, 'en', 1, none)).toBe(
        'Give friends 250 Stars on their first order and get 500 Stars when they place it.',
      );
    // The title as the shop wrote it: nothing in it is taken for a placeholder.
    expect(referralOffer(setting, t, STARS, 'en', 1, '{gets} {gift}')).toBe(
      'Friends get “{gets} {gift}”, and you get 500 Stars when they place their first order.',
    );
  });

  it('says it in every language, with both amounts', () => {
    for (const lang of ['en', 'fr', 'es', 'de', 'it', 'pt', 'ja', 'ko', 'zh-CN']) {
      const words = stringsFor(lang);
      const both = referralOffer(setting, words, STARS, lang, 1.5);
      expect([both?.includes('250 Stars'), both?.includes('750 Stars')], lang).toEqual([true, true]);
      expect(referralOffer({ ...setting, pointsOnReferral: 0 }, words, STARS, lang), lang).toContain('250 Stars');
      expect(referralOffer({ ...setting, pointsOnReferredOrder: 0 }, words, STARS, lang), lang).toContain('500 Stars');
      const gift = referralOffer(setting, words, STARS, lang, 1.5, 'GIFT');
      expect([gift?.includes('GIFT'), gift?.includes('750 Stars'), gift?.includes('250')], lang).toEqual([true, true, false]);
      expect(referralOffer({ ...setting, pointsOnReferral: 0 }, words, STARS, lang, 1, 'GIFT'), lang).toMatch(/GIFT/);
    }
    expect(referralOffer(setting, stringsFor('de'), { one: 'Stern', other: 'Sterne' }, 'de')).toBe(
      'Schenke Freunden 250 Sterne auf ihre erste Bestellung und erhalte 500 Sterne, wenn sie bestellen.',
    );
    expect(referralOffer(setting, stringsFor('de'), { one: 'Stern', other: 'Sterne' }, 'de', 1, '10 % Rabatt')).toBe(
      'Freunde erhalten „10 % Rabatt“, und du erhältst 500 Sterne, wenn sie zum ersten Mal bestellen.',
    );
  });
});
