import { describe, expect, it } from 'vitest';
import { type Messages } from '../app/i18n';
import { CORE_LANGUAGES } from '../app/core/languages';
import { ADMIN_LANGUAGES, adminLanguage } from '../app/i18n';
import { ADMIN_MESSAGES } from '../app/i18n/bundles.server';
import { coreApiWords, leaks } from './support/leaks';

/** Every text of a language by its path, e.g. `records.standings.title`. */
function leaves(node: unknown, path = ''): Map<string, string> {
  if (typeof node === 'string') return new Map([[path, node]]);
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(node as Record<string, unknown>))
    for (const [leaf, text] of leaves(value, path ? `${path}.${key}` : key)) found.set(leaf, text);
  return found;
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

const english = leaves(ADMIN_MESSAGES.en);

/** The texts a language left as in English: words only (placeholders aside), unless allowed. */
function untranslated(texts: Map<string, string>, allowed: Set<string>): string[] {
  return [...english]
    .filter(([path, text]) => /[a-z]{2}/i.test(text.replace(/\{\w+\}/g, '')) && texts.get(path) === text && !allowed.has(text.trim()))
    .map(([path, text]) => `${path}: ${text}`);
}

/** Each language folder beside English: its bundle, and the words it writes as English does (test/same-as-english). */
const bundles = import.meta.glob<Record<string, Messages>>('../app/i18n/*/index.ts', { eager: true });
const sameAsEnglish = import.meta.glob<Set<string>>('./same-as-english/*.ts', { eager: true, import: 'default' });
const LANGUAGES = Object.entries(bundles)
  .map(([path, module]) => ({ language: path.split('/').at(-2)!, messages: Object.values(module)[0]! }))
  .filter(({ language }) => language !== 'en')
  .map((bundle) => ({ ...bundle, sameAsEnglish: sameAsEnglish[`./same-as-english/${bundle.language}.ts`] ?? new Set<string>() }));
const SAME_IN_GERMAN = LANGUAGES.find((l) => l.language === 'de')!.sameAsEnglish;

describe('admin texts', () => {
  it('write no id, ISO date or word of the core’s API in any language, placeholders aside (as no-ids.browser.test.ts reads pages)', () => {
    const apiWords = coreApiWords();
    const found = Object.entries(ADMIN_MESSAGES).flatMap(([language, messages]) =>
      [...leaves(messages)].flatMap(([path, text]) =>
        leaks(text.replace(/\{\w+\}/g, ''), apiWords).map((line) => `${language} ${path}: ${line}`),
      ),
    );
    expect(found).toEqual([]);
  });

  it('the admin offers every language it has texts for, each named by its folder: those the core and the widget speak', () => {
    expect(ADMIN_LANGUAGES).toEqual(CORE_LANGUAGES);
    expect(Object.keys(ADMIN_MESSAGES).sort()).toEqual(['en', ...LANGUAGES.map((l) => l.language)].sort());
    for (const { language, messages } of LANGUAGES) expect(messages.language, language).toBe(language);
  });

  for (const { language, messages, sameAsEnglish } of LANGUAGES) {
    const texts = leaves(messages);

    it(`${language} has every English text and no other`, () => {
      expect([...texts.keys()].sort()).toEqual([...english.keys()].sort());
      for (const [path, text] of texts) expect(text.trim(), path).not.toBe('');
    });

    it(`${language} fills the same placeholders as English`, () => {
      const differing = [...english].filter(([path, text]) => placeholders(text).join() !== placeholders(texts.get(path) ?? '').join());
      expect(differing.map(([path]) => path)).toEqual([]);
    });

    it(`${language} leaves no text in English unless it reads the same in ${language}`, () => {
      expect(untranslated(texts, sameAsEnglish)).toEqual([]);
    });
  }

  it('the check names a text left in English, and not one German writes the same', () => {
    const texts = leaves({ ...ADMIN_MESSAGES.de, records: { ...ADMIN_MESSAGES.de.records, list: ADMIN_MESSAGES.en.records.list } });
    const found = untranslated(texts, SAME_IN_GERMAN).filter((line) => line.startsWith('records.list.'));
    expect(found).toEqual([
      'records.list.columns.updated: Updated',
      'records.list.count: {shown} of {total}',
      'records.list.empty: No {plural} yet',
      'records.list.emptyHelp: Create the first one.',
    ]);
  });

  it("speaks the shop's language from Shopify's locale, else the browser's, else English", () => {
    const language = (locale: string | null, acceptLanguage = '') =>
      adminLanguage(
        new Request(`https://app.example/app${locale === null ? '' : `?locale=${locale}`}`, {
          headers: { 'accept-language': acceptLanguage },
        }),
      );
    expect(['de', 'fr-CA', 'pt-BR', 'pt-PT', 'zh-CN', 'ja', 'ko', 'es-419', 'it'].map((locale) => language(locale))).toEqual([
      'de',
      'fr',
      'pt',
      'pt',
      'zh-CN',
      'ja',
      'ko',
      'es',
      'it',
    ]);
    // Traditional Chinese and Dutch have no admin of their own: the browser's next choice, else English.
    expect([language('zh-TW'), language('nl'), language('zh-TW', 'zh-TW, ja;q=0.8'), language(null, 'nl-BE, fr;q=0.7')]).toEqual([
      'en',
      'en',
      'ja',
      'fr',
    ]);
  });
});
