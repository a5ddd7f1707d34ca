import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '../app/i18n/bundles.server';
import { blankReward, checkDraft, coreBody, type DraftField, draftOf, refusalsOnFields, specOf, todayIn } from '../app/admin/reward-draft';
import { issuingSpecOf } from '../app/shopify/reward-issuing';

/**
 * The rewards editor's mapping of the core's refusals (CONTRACT §2: `details[]` with `field` and
 * `code`) onto its fields, for every code the core's record validation can send, in English and
 * German; and what a draft becomes for the core and for the app.
 */
const CORE_RECORDS = fileURLToPath(new URL('../../core/src/records/', import.meta.url));

/** Every detail code the core's record layer writes (literal codes and the zod issues it names). */
const coreCodes = [
  ...new Set(
    readdirSync(CORE_RECORDS)
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
      .flatMap((f) => [...readFileSync(CORE_RECORDS + f, 'utf8').matchAll(/code: '([a-z_]+)'|'(too_[a-z]+)'/g)].map((m) => m[1] ?? m[2]!)),
  ),
].sort();

/** The core's reward fields, each with the editor field it is shown on. */
const FIELDS: [string, DraftField][] = [
  ['name', 'name'],
  ['description', 'description'],
  ['eudTitle', 'title'],
  ['eudRedeemInstructionMessage', 'instructions'],
  ['discountType', 'kind'],
  ['discountValue', 'value'],
  ['rewardExpiryType', 'expiry'],
  ['rewardExpiryInDays', 'expiryDays'],
  ['rewardExpiryAt', 'expiryDate'],
  ['handleCoupon', 'codes'],
  ['handleCouponAutoGeneration', 'codes'],
  ['couponCodePrefix', 'prefix'],
  ['couponCodeLength', 'length'],
];

describe('the core’s refusals of a reward, on the editor’s fields', () => {
  it('the core’s record layer sends the codes this test covers', () => {
    expect(coreCodes).toEqual(
      expect.arrayContaining([
        'required',
        'too_long',
        'too_short',
        'too_large',
        'too_small',
        'invalid_type',
        'invalid_enum',
        'invalid_format',
        'invalid',
      ]),
    );
  });

  for (const language of ['en', 'de'] as const)
    it(`every code on every field is shown on that field in words (${language})`, () => {
      const words = ADMIN_MESSAGES[language].rewards.editor.checks;
      const values = new Set(Object.values(words));
      for (const code of coreCodes)
        for (const [field, shown] of FIELDS) {
          const { fields, form } = refusalsOnFields([{ field, code, message: 'Must be at most 16 characters.' }], words, language);
          expect(form, `${code} on ${field}`).toEqual([]);
          const text = fields[shown]!;
          // In the admin's words: one of the language's texts, filled in, never the core's English or a field name.
          expect(text, `${code} on ${field}`).toMatch(/\S/);
          expect(text).not.toMatch(/\b[a-z]+[A-Z]\w*|\b[a-z]+_[a-z]+/);
          expect(
            values.has(text) || Object.values(words).some((w) => w.includes('{') && text.startsWith(w.split('{')[0]!)),
            `${code}: ${text}`,
          ).toBe(true);
        }
    });

  it('the numbers the core names are kept, the rule on percentages and an empty name read as the merchant expects', () => {
    const en = ADMIN_MESSAGES.en.rewards.editor.checks;
    const de = ADMIN_MESSAGES.de.rewards.editor.checks;
    const on = (code: string, field: string, message: string, words = en) =>
      refusalsOnFields([{ field, code, message }], words, words === de ? 'de' : 'en').fields;
    expect(on('too_long', 'couponCodePrefix', 'Must be at most 16 characters.')).toEqual({ prefix: 'Use at most 16 characters.' });
    expect(on('too_small', 'rewardExpiryInDays', 'Must be greater than 0.')).toEqual({ expiryDays: 'Enter more than 0.' });
    expect(on('too_small', 'couponCodeLength', 'Must be at least 6.', de)).toEqual({ length: 'Gib mindestens 6 ein.' });
    expect(on('too_large', 'discountValue', 'A percentage discount is at most 100.', de)).toEqual({
      value: 'Ein Prozentsatz ist höchstens 100.',
    });
    expect(on('too_short', 'name', 'Must be at least 1 character.')).toEqual({ name: 'Fill this in.' });
    // A bound is written as the merchant writes numbers.
    expect(on('too_large', 'pointsCost', 'Must be at most 1000000000.')).toEqual({ pointsCost: 'Enter at most 1,000,000,000.' });
    expect(on('too_large', 'pointsCost', 'Must be at most 1000000000.', de)).toEqual({ pointsCost: 'Gib höchstens 1.000.000.000 ein.' });
    expect(on('invalid_format', 'couponCodePrefix', 'Letters, digits, _ and - only')).toEqual({
      prefix: 'Use letters, digits, _ and - only.',
    });
  });

  it('a detail naming no field of the form, or a refusal without details, goes to the page’s banner', () => {
    const en = ADMIN_MESSAGES.en.rewards.editor.checks;
    expect(refusalsOnFields([{ field: 'ownedBy', code: 'unknown_field', message: 'Unknown field "ownedBy".' }], en, 'en')).toEqual({
      fields: {},
      form: [en.unexpected],
    });
    expect(refusalsOnFields([{ code: null }], en, 'en').form).toEqual([en.unexpected]);
  });
});

describe('a draft for the core and for the app', () => {
  const texts = {
    instructionsStoreCredit: 'Credited.',
    instructionsFreeProduct: 'Add {product}, then the code.',
    titleFreeShipping: 'Free shipping',
    titleFreeProduct: 'Free {product}',
  };
  it('a Shopify discount: the core hands out no code; the app keeps kind, minimum, collections and combinations', () => {
    const d = {
      ...blankReward(),
      name: 'Hats',
      value: '10',
      minimum: 'subtotal' as const,
      minimumValue: '50',
      collections: ['gid://shopify/Collection/78'],
      combinesOrder: true,
    };
    expect(coreBody(d, texts, null)).toMatchObject({
      discountType: 'percentage',
      discountValue: 10,
      handleCoupon: false,
      handleCouponAutoGeneration: false,
    });
    expect(specOf(d, 'EUR', [{ id: 'gid://shopify/Collection/78', title: 'Hats' }])).toEqual({
      kind: 'percentage',
      minimum: { subtotal: 50 },
      collections: [{ id: 'gid://shopify/Collection/78', title: 'Hats' }],
      variant: null,
      combinesWith: { orderDiscounts: true, productDiscounts: false, shippingDiscounts: false },
      currencyCode: 'EUR',
    });
  });

  it('a free product: nothing off in the core, titled after the product; the app keeps its variant, and reads it back', () => {
    const d = {
      ...blankReward(),
      name: 'Tote',
      kind: 'free_product' as const,
      value: '99',
      variantId: 'gid://shopify/ProductVariant/501',
      variantTitle: 'Tote bag – Blue',
      collections: ['gid://shopify/Collection/78'],
      minimum: 'quantity' as const,
      minimumValue: '2',
    };
    const body = coreBody(d, texts, null);
    expect(body).toMatchObject({
      discountType: 'fixed_amount',
      discountValue: 0,
      handleCoupon: false,
      eudTitle: 'Free Tote bag – Blue',
      eudRedeemInstructionMessage: 'Add Tote bag – Blue, then the code.',
    });
    // Instructions of the merchant's own stay theirs; a saved reward left without them is not given them again.
    expect(coreBody({ ...d, instructions: 'Bring this to the shop.' }, texts, null).eudRedeemInstructionMessage).toBe(
      'Bring this to the shop.',
    );
    expect(coreBody({ ...d, id: 'r1' }, texts, null)).not.toHaveProperty('eudRedeemInstructionMessage');
    // A title of the merchant's own stays theirs; free shipping is titled too, and an amount off says its amount itself.
    expect(coreBody({ ...d, title: 'A bag on us' }, texts, null).eudTitle).toBe('A bag on us');
    expect(coreBody({ ...d, kind: 'free_shipping' }, texts, null).eudTitle).toBe('Free shipping');
    expect(coreBody({ ...d, kind: 'percentage' }, texts, null)).not.toHaveProperty('eudTitle');
    const spec = specOf(d, 'EUR', [{ id: 'gid://shopify/Collection/78', title: 'Hats' }])!;
    expect(spec).toMatchObject({
      kind: 'free_product',
      variant: { id: 'gid://shopify/ProductVariant/501', title: 'Tote bag – Blue' },
      minimum: { quantity: 2 },
      collections: [],
    });
    // Codes the core makes could not say which product is free: always a Shopify discount.
    expect(specOf({ ...d, codes: 'upload' }, 'EUR', [])).toMatchObject({ kind: 'free_product' });
    const read = draftOf({ id: 'r1', ...body }, true, issuingSpecOf(JSON.parse(JSON.stringify(spec))), null);
    expect(read).toMatchObject({
      kind: 'free_product',
      value: '',
      variantId: d.variantId,
      variantTitle: d.variantTitle,
      title: 'Free Tote bag – Blue',
    });
    // Another kind keeps no variant.
    expect(issuingSpecOf({ ...spec, kind: 'percentage' })?.variant).toBeNull();
  });

  it('uploaded and generated codes are the core’s: no settings in the app', () => {
    const upload = { ...blankReward(), name: 'Pool', value: '5', kind: 'fixed_amount' as const, codes: 'upload' as const };
    expect(coreBody(upload, texts, null)).toMatchObject({ handleCoupon: true, handleCouponAutoGeneration: false });
    expect(specOf(upload, 'EUR', [])).toBeNull();
    const generate = { ...upload, codes: 'generate' as const, prefix: 'GEN-', length: '8' };
    expect(coreBody(generate, texts, null)).toMatchObject({
      handleCouponAutoGeneration: true,
      couponCodePrefix: 'GEN-',
      couponCodeLength: 8,
    });
  });

  it('store credit: a fixed amount in the core, the store credit instruction by default, no discount settings', () => {
    const d = {
      ...blankReward(),
      name: 'Credit',
      value: '12.5',
      kind: 'store_credit' as const,
      minimum: 'subtotal' as const,
      minimumValue: '9',
      combinesOrder: true,
    };
    expect(coreBody(d, texts, null)).toMatchObject({
      discountType: 'fixed_amount',
      discountValue: 12.5,
      handleCoupon: false,
      eudRedeemInstructionMessage: 'Credited.',
    });
    expect(specOf(d, 'EUR', [])).toMatchObject({ kind: 'store_credit', minimum: null, combinesWith: { orderDiscounts: false } });
  });

  it('a last day ends at midnight where the shop is, and reads back as the same day', () => {
    const d = { ...blankReward(), name: 'Winter', value: '10', expiry: 'date' as const, expiryDate: '2027-01-31' };
    const cases = [
      ['America/New_York', '2027-02-01T04:59:59.000Z'],
      ['Europe/Paris', '2027-01-31T22:59:59.000Z'],
      ['Pacific/Auckland', '2027-01-31T10:59:59.000Z'],
      // A shop whose zone Shopify leaves out, or names one no one knows, lives in UTC.
      [null, '2027-01-31T23:59:59.000Z'],
      ['Mars/Olympus_Mons', '2027-01-31T23:59:59.000Z'],
    ] as const;
    for (const [zone, end] of cases) {
      const body = coreBody(d, texts, zone);
      expect(body.rewardExpiryAt, String(zone)).toBe(end);
      expect(draftOf({ id: 'r1', ...body }, false, null, zone).expiryDate, String(zone)).toBe('2027-01-31');
    }
    // A last day saved before, as the end of the UTC day, still reads as the day the merchant chose.
    const before = { id: 'r1', rewardExpiryType: 'absolute', rewardExpiryAt: '2027-01-31T23:59:59.000Z' };
    for (const zone of ['Europe/Paris', 'Pacific/Auckland', 'America/New_York'])
      expect(draftOf(before, false, null, zone).expiryDate).toBe('2027-01-31');
  });

  it('refuses a last day that has passed, a name of spaces and an amount off of nothing, in the merchant’s words, before the core is asked', () => {
    for (const language of ['en', 'de'] as const) {
      const words = ADMIN_MESSAGES[language].rewards.editor.checks;
      const d = { ...blankReward(), name: 'Winter', value: '10', expiry: 'date' as const };
      expect(checkDraft({ ...d, expiryDate: '2026-12-01' }, words, '2026-12-02')).toEqual({ expiryDate: words.past });
      expect(checkDraft({ ...d, expiryDate: '2026-12-02' }, words, '2026-12-02')).toEqual({});
      // No day yet is the core's to name (required).
      expect(checkDraft({ ...d, expiryDate: '' }, words, '2026-12-02')).toEqual({});
      for (const kind of ['percentage', 'fixed_amount', 'store_credit'] as const)
        for (const value of ['0', '-5'])
          expect(checkDraft({ ...d, kind, value, expiry: 'never' }, words, '2026-12-02'), kind).toEqual({ value: words.positive });
      // Free shipping and a free product take no amount off; an empty or unreadable amount is the core's to name.
      expect(checkDraft({ ...d, kind: 'free_shipping', value: '0', expiry: 'never' }, words, '2026-12-02')).toEqual({});
      const product = { ...d, kind: 'free_product' as const, value: '0', expiry: 'never' as const };
      expect(checkDraft({ ...product, variantId: 'gid://shopify/ProductVariant/1' }, words, '2026-12-02')).toEqual({});
      // A free product without its product is no reward.
      expect(checkDraft(product, words, '2026-12-02')).toEqual({ variantId: words.product });
      expect(checkDraft({ ...d, value: '', expiry: 'never' }, words, '2026-12-02')).toEqual({});
      expect(checkDraft({ ...d, name: '', expiry: 'never' }, words, '2026-12-02')).toEqual({});
      for (const name of ['   ', '\t\n'])
        expect(checkDraft({ ...d, name, expiry: 'never' }, words, '2026-12-02'), JSON.stringify(name)).toEqual({ name: words.required });
    }
    // Today where the shop is: Kiritimati (UTC+14) is always a day ahead of Pago Pago (UTC-11).
    expect(todayIn('Pacific/Kiritimati') > todayIn('Pacific/Pago_Pago')).toBe(true);
  });
});
