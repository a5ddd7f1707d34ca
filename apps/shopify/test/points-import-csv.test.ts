import { describe, expect, it } from 'vitest';
import { textOf } from '../app/admin/text-file';
import { matchTiers, MAX_ROWS, parseImport } from '../app/points-import/csv';

/** The balances file as other apps' exports and spreadsheets write it (app/points-import/csv.ts). */
describe('reading a balances file', () => {
  it('finds its columns by name in any order and case, with commas, semicolons or tabs', () => {
    for (const text of [
      'Email,Points\nada@example.com,120\n',
      'points;EMAIL\n120;ada@example.com\n',
      'Customer Email\tPoints Balance\r\nada@example.com\t120\r\n',
      // LoyaltyLion's export: the points to spend now, beside those pending and spent.
      'email,points_pending,points_approved,points_spent\nada@example.com,40,120,500\n',
      'profileIntegrationID,email,currentBalance\nx1,ada@example.com,120\n',
    ])
      expect(parseImport(text)).toEqual({
        ok: true,
        zero: 0,
        rows: [{ line: 2, email: 'ada@example.com', customerId: null, points: 120, note: null, tier: null, birthday: null }],
      });
  });

  it('takes quoted fields with separators, quotes and line breaks, and counts lines as the file has them', () => {
    const text =
      'email,points,note\n"ada@example.com","1,200","from ""Smile"", thanks"\n"bo@example.com",7,"two\nlines"\ncy@example.com,3,\n';
    expect(parseImport(text)).toEqual({
      ok: true,
      zero: 0,
      rows: [
        { line: 2, email: 'ada@example.com', customerId: null, points: 1200, note: 'from "Smile", thanks', tier: null, birthday: null },
        { line: 3, email: 'bo@example.com', customerId: null, points: 7, note: 'two\nlines', tier: null, birthday: null },
        { line: 5, email: 'cy@example.com', customerId: null, points: 3, note: null, tier: null, birthday: null },
      ],
    });
  });

  it('names a customer by numeric id or GID, the id winning over an e-mail beside it, and leaves 0-point rows out', () => {
    expect(parseImport('customer_id,email,points\n8101,ada@example.com,5\ngid://shopify/Customer/8102,,6\n,cy@example.com,0\n')).toEqual({
      ok: true,
      zero: 1,
      rows: [
        { line: 2, email: null, customerId: '8101', points: 5, note: null, tier: null, birthday: null },
        { line: 3, email: null, customerId: '8102', points: 6, note: null, tier: null, birthday: null },
      ],
    });
  });

  it('reads points as exports write thousands, and nothing else', () => {
    const points = (p: string) => {
      const parsed = parseImport(`email;points\nada@example.com;${p}\n`);
      return parsed.ok ? parsed.rows[0]!.points : null;
    };
    expect(['1200', '1 200', '1,200', '1.200', "1'200", '1\u202f200', '1,000,000'].map(points)).toEqual([
      1200, 1200, 1200, 1200, 1200, 1200, 1_000_000,
    ]);
    expect(['12.5', '1,20', '-3', '1e3', '0x10', '1,000,001', 'lots', ''].map(points)).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
  });

  it('refuses the whole file for any bad row, naming every one', () => {
    const parsed = parseImport(`email,points,note\nada@example.com,1\nbad,2\n,3\nada@example.com,4\nbo@example.com,5,${'n'.repeat(257)}\n`);
    expect(parsed).toEqual({
      ok: false,
      rows: [
        { line: 3, problem: 'bad_email', value: 'bad' },
        { line: 4, problem: 'no_customer', value: '' },
        { line: 5, problem: 'twice', value: '2' },
        { line: 6, problem: 'note_too_long', value: 'n'.repeat(80) },
      ],
    });
    expect(parseImport('customer_id,points\nabc,1\n')).toEqual({
      ok: false,
      rows: [{ line: 2, problem: 'bad_customer_id', value: 'abc' }],
    });
  });

  it('refuses a file without the columns it needs, without rows, or with more rows than one import takes', () => {
    expect(parseImport('')).toEqual({ ok: false, file: 'empty' });
    expect(parseImport('email,points\n\n')).toEqual({ ok: false, file: 'empty' });
    expect(parseImport('email,points\nada@example.com,0\n')).toEqual({ ok: false, file: 'empty' });
    expect(parseImport('email,amount\nada@example.com,5\n')).toEqual({ ok: false, file: 'no_points_column' });
    expect(parseImport('name,points\nAda,5\n')).toEqual({ ok: false, file: 'no_customer_column' });
    const many = ['email,points', ...Array.from({ length: MAX_ROWS + 1 }, (_, i) => `c${i}@example.com,1`)].join('\n');
    expect(parseImport(many)).toEqual({ ok: false, file: 'too_many' });
  });

  it('reads a VIP tier column as Smile.io and LoyaltyLion name it, keeps a 0-point row that brings a tier, and matches names to the shop’s tiers', () => {
    for (const header of ['VIP Tier', 'tier', 'vip_tier_name', 'VIP', 'Level'])
      expect(parseImport(`email,points,${header}\nada@example.com,120,Gold\n`)).toMatchObject({ ok: true, rows: [{ tier: 'Gold' }] });
    const parsed = parseImport('email,points,vip tier\nada@example.com,0, gold \nbo@example.com,5,\ncy@example.com,0,\n');
    expect(parsed).toEqual({
      ok: true,
      zero: 1,
      rows: [
        { line: 2, email: 'ada@example.com', customerId: null, points: 0, note: null, tier: 'gold', birthday: null },
        { line: 3, email: 'bo@example.com', customerId: null, points: 5, note: null, tier: null, birthday: null },
      ],
    });
    expect(parseImport(`email,points,tier\nada@example.com,1,${'x'.repeat(257)}\n`)).toEqual({
      ok: false,
      rows: [{ line: 2, problem: 'tier_too_long', value: 'x'.repeat(80) }],
    });
    const rows = parseImport('email,points,tier\nada@example.com,1,VIP  gold\nbo@example.com,1,Platinum\ncy@example.com,1,\n');
    if (!rows.ok) throw new Error('parsed');
    const tiers = [
      { id: 't-gold', name: 'VIP Gold', live: true },
      { id: 't-gold-draft', name: 'vip gold', live: false },
      { id: 't-silver', name: 'Silver', live: true },
    ];
    expect(matchTiers(rows.rows, tiers)).toEqual({ ok: false, rows: [{ line: 3, problem: 'unknown_tier', value: 'Platinum' }] });
    // A live tier before a draft of the same name; two live ones of a name: the merchant's to rename.
    const known = matchTiers(rows.rows.slice(0, 1), tiers);
    expect(known.ok && known.tierIds.get('vip gold')).toBe('t-gold');
    expect(matchTiers(rows.rows.slice(0, 1), [...tiers, { id: 't-gold-2', name: 'VIP GOLD', live: true }])).toEqual({
      ok: false,
      rows: [{ line: 2, problem: 'ambiguous_tier', value: 'VIP  gold' }],
    });
    const drafts = matchTiers(rows.rows.slice(0, 1), [{ id: 't-draft', name: 'VIP Gold', live: false }]);
    expect(drafts.ok && drafts.tierIds.get('vip gold')).toBe('t-draft');
  });

  it('reads a birthday column as exports name it, keeping month and day, and refuses a date whose order no file says', () => {
    for (const header of ['Birthday', 'birth_date', 'Date of birth', 'DOB', 'birthdate'])
      expect(parseImport(`email,points,${header}\nada@example.com,120,1990-03-14\n`)).toMatchObject({
        ok: true,
        rows: [{ birthday: '03-14' }],
      });
    const parsed = parseImport(
      [
        'email,points,birthday',
        'ada@example.com,0,1990-02-29',
        'bo@example.com,5,12-01',
        'cy@example.com,0,',
        'di@example.com,1,1985/7/4',
        'ed@example.com,1,1990-03-14T00:00:00Z',
        'fa@example.com,1,--11-30',
      ].join('\n'),
    );
    expect(parsed.ok && parsed.rows.map((r) => [r.email, r.points, r.birthday])).toEqual([
      // A row of 0 points still brings its birthday; one with neither is left out.
      ['ada@example.com', 0, '02-29'],
      ['bo@example.com', 5, '12-01'],
      ['di@example.com', 1, '07-04'],
      ['ed@example.com', 1, '03-14'],
      ['fa@example.com', 1, '11-30'],
    ]);
    expect(parsed.ok && parsed.zero).toBe(1);
    const wrong = ['03/14/1990', '14.03.1990', '1990-02-30', '1990-13-01', '04-31', 'March 14', '00-10'];
    expect(parseImport(['email,points,birthday', ...wrong.map((b, i) => `p${i}@example.com,1,${b}`)].join('\n'))).toEqual({
      ok: false,
      rows: wrong.map((value, i) => ({ line: i + 2, problem: 'bad_birthday', value })),
    });
  });

  it('reads a spreadsheet’s UTF-16 “Unicode text” and drops NUL', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('email\tpoints\r\nzoë@example.com\t9\r\n', 'utf16le')]);
    expect(parseImport(textOf(new Uint8Array(utf16)))).toMatchObject({ ok: true, rows: [{ email: 'zoë@example.com', points: 9 }] });
    expect(parseImport('email,points,note\nada@example.com,1,a\u0000b\n')).toMatchObject({ ok: true, rows: [{ note: 'ab' }] });
  });
});
