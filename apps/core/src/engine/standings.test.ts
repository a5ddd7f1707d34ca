import { describe, expect, it } from 'vitest';
import { anonymousName, DISPLAY_NAME_MAX, displayName } from './standings.js';

const key = Buffer.alloc(32, 7);
const board = '6f1c2d3e-0000-4000-8000-000000000001';
const memberId = '6f1c2d3e-0000-4000-8000-000000000002';
const named = (firstName: string | null, lastName: string | null = null) =>
  displayName('first_name_initial', key, board, { memberId, firstName, lastName });
const anonymous = anonymousName(key, board, memberId);

describe('a board shows a shopper-chosen name only as a short line of visible text', () => {
  it('shows the first name and the initial of the last', () => {
    expect(named('Marie', 'dupont')).toBe('Marie D.');
    expect(named('  Zoë ', null)).toBe('Zoë');
    expect(named('Jean-Luc', "O'Neil")).toBe('Jean-Luc O.');
    // Initials and a colon in plain text are no link.
    expect(named('J.R.', 'Smith')).toBe('J.R. S.');
    expect(named('Anne: the best', null)).toBe('Anne: the best');
  });

  it.each([
    ['an e-mail address', 'marie@example.com'],
    ['a link', 'https://shop.example'],
    ['a bare domain', 'bestdeals.shop'],
    ['a www host', 'www.deals'],
    ['a script link', 'javascript:alert(1)'],
    ['a data link', 'data:text/html,hi'],
    ['a mail link', 'mailto:a'],
    ['a short host with a path', 'x.y/z'],
    ['a phone number', '+33 6 12 34 56 78'],
    ['markup', '<b>Marie</b>'],
    ['nothing visible', '\u202e\u200b '],
  ])('shows the anonymous label for %s', (_what, firstName) => {
    expect(named(firstName, 'Dupont')).toBe(anonymous);
  });

  it(`cuts a long first name at ${DISPLAY_NAME_MAX} characters`, () => {
    const shown = named('A'.repeat(256), 'Bee');
    expect(shown).toBe(`${'A'.repeat(DISPLAY_NAME_MAX - 1)}… B.`);
    expect(Array.from(named('é'.repeat(40))).length).toBe(DISPLAY_NAME_MAX);
  });

  it('drops bidi overrides and control characters, keeping the letters', () => {
    expect(named('Ma\u202erie\u0007', '\u202dDupont')).toBe('Marie D.');
    expect(named('Marie', '\u2066\u2069')).toBe('Marie');
  });

  it('shows the anonymous label whatever the name when the board is anonymous', () => {
    expect(displayName('anonymous', key, board, { memberId, firstName: 'Marie', lastName: 'Dupont' })).toBe(anonymous);
  });

  it('says the anonymous label in the language the board is read in, with the same digits', () => {
    const digits = anonymous.replace(/^Member /, '');
    expect(anonymous).toMatch(/^Member \d{4}$/);
    expect(anonymousName(key, board, memberId, 'de')).toBe(`Mitglied ${digits}`);
    expect(anonymousName(key, board, memberId, 'ja')).toBe(`メンバー ${digits}`);
    expect(displayName('anonymous', key, board, { memberId, firstName: 'Marie', lastName: null }, 'fr')).toBe(`Membre ${digits}`);
  });
});
