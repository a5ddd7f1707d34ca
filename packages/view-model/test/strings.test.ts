import { describe, expect, it } from 'vitest';
import { stringsFor } from '../src/i18n.js';

describe('stringsFor', () => {
  it('gives Chinese readers Chinese words: the held and revoked notes once carried Korean', () => {
    const hangul = /[\uac00-\ud7af]/;
    expect(Object.values(stringsFor('zh-CN')).filter((text) => hangul.test(text))).toEqual([]);
  });

  it('leaves no particle or article for the reader to choose: a merchant’s name for points takes any gender and final sound', () => {
    // Korean "이(가)", "을(를)": a placeholder particle shows as written.
    expect(Object.values(stringsFor('ko')).filter((text) => /\([\uac00-\ud7af]+\)/.test(text))).toEqual([]);
    // A gendered possessive or pronoun agreeing with {points} or {name} is wrong for half of the names a shop may pick.
    for (const lang of ['es', 'it', 'pt', 'fr'])
      expect(
        Object.values(stringsFor(lang)).filter((text) =>
          /\b(tus|tuoi|tue|seus|suas|os|as|los|las|i|le) \{(points|name|n)\}|\b(alguno|alguna|algum|alguma)\b/i.test(text),
        ),
        lang,
      ).toEqual([]);
  });
});
