import { describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES } from '../app/i18n';

/** Every text of a language by its path, e.g. `records.standings.title`. */
function leaves(node: unknown, path = ''): Map<string, string> {
  if (typeof node === 'string') return new Map([[path, node]]);
  const found = new Map<string, string>();
  for (const [key, value] of Object.entries(node as Record<string, unknown>))
    for (const [leaf, text] of leaves(value, path ? `${path}.${key}` : key)) found.set(leaf, text);
  return found;
}

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

/**
 * Words German writes as English does (loanwords, product and protocol names, API values shown as
 * they are): a German text equal to its English one is only accepted when it is one of these.
 */
const SAME_IN_GERMAN = new Set([
  'Widget',
  'Branding',
  'Webhooks',
  'Webhook',
  'Challenges',
  'Challenge',
  'Name',
  'Status',
  'Live',
  'HTTP',
  'Mission',
  'Code',
  'Codes',
  'Integration',
  'Domain',
]);

/** Shopify Flow shows its actions and triggers by the names the app's extensions give them, in English. */
const NAMED_BY_FLOW = ['onboarding.steps.automate.actionNames.', 'onboarding.steps.automate.triggerNames.'];

const english = leaves(ADMIN_MESSAGES.en);

/** The texts a language left as in English: words only (placeholders aside), neither allowed nor Flow's names. */
function untranslated(texts: Map<string, string>, allowed: Set<string>): string[] {
  return [...english]
    .filter(
      ([path, text]) =>
        /[a-z]{2}/i.test(text.replace(/\{\w+\}/g, '')) &&
        texts.get(path) === text &&
        !allowed.has(text.trim()) &&
        !NAMED_BY_FLOW.some((prefix) => path.startsWith(prefix)),
    )
    .map(([path, text]) => `${path}: ${text}`);
}

describe('admin texts', () => {
  for (const [language, messages] of Object.entries(ADMIN_MESSAGES).filter(([code]) => code !== 'en')) {
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
      expect(untranslated(texts, language === 'de' ? SAME_IN_GERMAN : new Set())).toEqual([]);
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
});
