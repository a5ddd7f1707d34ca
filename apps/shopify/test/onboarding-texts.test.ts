import { describe, expect, it } from 'vitest';
import { isProgramTemplate, money, pointsPlan, programPlan, TEMPLATE_IDS } from '../app/admin/onboarding/program-templates';
import { STOREFRONT_TEXTS, WIDGET_LANGUAGES, widgetLanguage } from '../app/admin/onboarding/storefront-texts';
import { findEmbedBlock, parseThemeJson, themeEditorLink } from '../app/admin/onboarding/theme-embed.server';

describe('template texts', () => {
  it('exist for every widget language, and every title fits the core’s 48 characters', () => {
    expect(Object.keys(STOREFRONT_TEXTS).sort()).toEqual([...WIDGET_LANGUAGES].sort());
    for (const language of WIDGET_LANGUAGES) {
      for (const [id, currency] of TEMPLATE_IDS.filter(isProgramTemplate).flatMap((id) =>
        [null, 'EUR', 'CHF', 'BRL', 'KRW'].map((c) => [id, c] as const),
      )) {
        const plan = programPlan(id, STOREFRONT_TEXTS[language], language, currency);
        const titles = [
          plan.definition.eudTitle,
          ...plan.rewards.map((r) => r.title),
          ...plan.milestones.map((m) => m.title),
          ...((plan.definition.tasks as { eudTitle: string }[] | undefined) ?? []).map((t) => t.eudTitle),
          plan.leaderboard?.eudTitle,
        ].filter((t): t is string => typeof t === 'string');
        for (const title of titles) {
          expect(title.length, `${language} ${id} ${currency}: ${title}`).toBeLessThanOrEqual(48);
          expect(title, `${language} ${id}: a placeholder left`).not.toMatch(/[{}]/);
        }
        expect(String(plan.definition.eudDescription)).not.toMatch(/[{}]/);
      }
      // The widget template's texts, within the core's limits (tabs 48, buttons and the copied message 64).
      const { streaksTabTitle, challengesTabTitle, missionsTabTitle, rewardsTabTitle, signUpButtonText, logInButtonText, copiedMessage } =
        STOREFRONT_TEXTS[language].template;
      for (const tab of [streaksTabTitle, challengesTabTitle, missionsTabTitle, rewardsTabTitle])
        expect(tab.length).toBeLessThanOrEqual(48);
      for (const text of [signUpButtonText, logInButtonText, copiedMessage]) expect(text.length).toBeLessThanOrEqual(64);
      // Points and tiers, in the currencies with the longest symbols a shop may have.
      for (const currency of [null, 'EUR', 'CHF', 'BRL', 'KRW']) {
        const plan = pointsPlan(STOREFRONT_TEXTS[language], language, currency);
        const titles = [plan.name, plan.setting.eudCurrencyName, ...plan.rewards.map((r) => r.title), ...plan.tiers.map((t) => t.title)];
        for (const title of titles) {
          expect(title.trim(), `${language} points-tiers`).not.toBe('');
          expect(title.length, `${language} points-tiers ${currency}: ${title}`).toBeLessThanOrEqual(48);
        }
        for (const tier of plan.tiers) expect(tier.description.length, `${language} ${tier.title}`).toBeLessThanOrEqual(1000);
      }
    }
  });

  it('points and tiers: the rates, rewards with their costs and tiers it promises, in the shop’s currency', () => {
    const plan = pointsPlan(STOREFRONT_TEXTS.en, 'en', 'EUR');
    expect(plan.setting).toEqual({
      pointsPerCurrencyUnit: 1,
      pointsPerOrder: 0,
      pointsOnSignUp: 100,
      pointsOnBirthday: 100,
      pointsOnReferral: 500,
      pointsOnReferredOrder: 250,
      eudCurrencyName: 'points',
      eudCurrencyNameOne: 'point',
    });
    expect(plan.rewards.map((r) => [r.title, r.discountType, r.discountValue, r.pointsCost])).toEqual([
      ['€5 off your next order', 'fixed_amount', 5, 500],
      ['10% off your next order', 'percentage', 10, 1000],
    ]);
    expect(plan.tiers.map((t) => [t.title, t.pointsThreshold, t.earnMultiplier])).toEqual([
      ['Silver', 500, 1.2],
      ['Gold', 1500, 1.5],
    ]);
    // The core takes one decimal at most.
    for (const t of plan.tiers) expect(Math.round(t.earnMultiplier * 10) / 10).toBe(t.earnMultiplier);
    const de = pointsPlan(STOREFRONT_TEXTS.de, 'de', 'EUR');
    expect([de.setting.eudCurrencyName, de.rewards[0]!.title, de.tiers[0]!.title]).toEqual([
      'Punkte',
      '5\u00a0€ Rabatt auf deine nächste Bestellung',
      'Silber',
    ]);
    expect(pointsPlan(STOREFRONT_TEXTS.en, 'en', null).rewards[0]!.title).toBe('5 off your next order');
    expect([money(5, 'en', 'USD'), money(5, 'ja', 'JPY'), money(5, 'en', 'NOT-A-CODE')]).toEqual(['$5', '￥5', '5']);
  });

  it('the monthly spend challenge names its amounts in the shop’s currency, as shoppers of the language read it', () => {
    const plan = programPlan('monthly-spend', STOREFRONT_TEXTS.en, 'en', 'USD');
    expect(plan.definition.eudDescription).toBe('Reach $200 in orders this month and unlock rewards on the way.');
    expect(plan.milestones.map((m) => m.title)).toEqual(['Halfway: $100 spent', '$200 spent this month']);
    expect(plan.rewards.map((r) => [r.title, r.discountValue])).toEqual([
      ['$5 off your next order', 5],
      ['$15 off your next order', 15],
    ]);
    const de = programPlan('monthly-spend', STOREFRONT_TEXTS.de, 'de', 'EUR');
    expect([de.milestones[0]!.title, de.rewards[1]!.title]).toEqual([
      'Halbzeit: 100\u00a0€ ausgegeben',
      '15\u00a0€ Rabatt auf deine nächste Bestellung',
    ]);
    // Unknown, the currency goes unnamed rather than wrong.
    expect(programPlan('monthly-spend', STOREFRONT_TEXTS.en, 'en', null).rewards[0]!.title).toBe('5 off your next order');
  });

  it('the shop locale picks the widget language: exact tag, else its base language, else English', () => {
    expect(['de', 'de-CH', 'pt-BR', 'zh-CN', 'zh-cn', 'zh-TW', 'nl', 'ko', '', null].map(widgetLanguage)).toEqual([
      'de',
      'de',
      'pt',
      'zh-CN',
      'zh-CN',
      'en',
      'en',
      'ko',
      'en',
      'en',
    ]);
  });
});

describe('settings_data.json', () => {
  it('parses past comments but leaves comment-like text inside strings alone', () => {
    const text = `\uFEFF/*\n * auto-generated { "current": 1 }\n */\n// a line comment\n{"current": {"logo_url": "https://cdn.example/a.png", "note": "a /* b */ c", "quote": "say \\"hi\\" // ok", "blocks": {}}}`;
    expect(parseThemeJson(text)).toEqual({
      current: { logo_url: 'https://cdn.example/a.png', note: 'a /* b */ c', quote: 'say "hi" // ok', blocks: {} },
    });
    expect(() => parseThemeJson('/* never closed { "current": {} }')).toThrow();
  });

  it('finds the app embed by its block handle, in current settings or in the preset current names', () => {
    const block = { type: 'shopify://apps/loyalty-app/blocks/loyalty-widget/1f0e', disabled: false, settings: {} };
    const other = { type: 'shopify://apps/other/blocks/loyalty-widget-v2/99', settings: {} };
    expect(findEmbedBlock({ current: { blocks: { a: other, b: block } } })).toBe(block);
    expect(findEmbedBlock({ current: 'Light', presets: { Light: { blocks: { b: block } } } })).toBe(block);
    expect(findEmbedBlock({ current: { blocks: { a: other } } })).toBeNull();
    expect(findEmbedBlock({ current: {} })).toBeNull();
    expect(findEmbedBlock(null)).toBeNull();
  });

  it('the theme editor deep link activates the app embed by api key and handle', () => {
    expect(themeEditorLink('shop-1.myshopify.com', 'abc123')).toBe(
      'https://shop-1.myshopify.com/admin/themes/current/editor?context=apps&activateAppId=abc123/loyalty-widget',
    );
  });
});
