import { describe, expect, it } from 'vitest';
import { programPlan, TEMPLATE_IDS } from '../app/admin/onboarding/program-templates';
import { STOREFRONT_TEXTS, WIDGET_LANGUAGES, widgetLanguage } from '../app/admin/onboarding/storefront-texts';
import { findEmbedBlock, parseThemeJson, themeEditorLink } from '../app/admin/onboarding/theme-embed.server';

describe('template texts', () => {
  it('exist for every widget language, and every title fits the core’s 48 characters', () => {
    expect(Object.keys(STOREFRONT_TEXTS).sort()).toEqual([...WIDGET_LANGUAGES].sort());
    for (const language of WIDGET_LANGUAGES) {
      for (const id of TEMPLATE_IDS) {
        const plan = programPlan(id, STOREFRONT_TEXTS[language]);
        const titles = [
          plan.definition.eudTitle,
          ...plan.rewards.map((r) => r.title),
          ...plan.milestones.map((m) => m.title),
          ...((plan.definition.tasks as { eudTitle: string }[] | undefined) ?? []).map((t) => t.eudTitle),
          plan.leaderboard?.eudTitle,
        ].filter((t): t is string => typeof t === 'string');
        for (const title of titles) expect(title.length, `${language} ${id}: ${title}`).toBeLessThanOrEqual(48);
      }
    }
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
