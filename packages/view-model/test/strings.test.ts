import { describe, expect, it } from 'vitest';
import { stringsFor } from '../src/i18n.js';

describe('stringsFor', () => {
  it('gives Chinese readers Chinese words: the held and revoked notes once carried Korean', () => {
    const hangul = /[\uac00-\ud7af]/;
    expect(Object.values(stringsFor('zh-CN')).filter((text) => hangul.test(text))).toEqual([]);
  });
});
