import fc from 'fast-check';

/**
 * What a client can send the app, hostile: JSON values a field should never take, bodies that are
 * no JSON object, any content type; and two ways to shape a route's own body with them. Shared by
 * the fuzz tests of the public surfaces (`fuzz.test.ts`) and of the admin (`admin-fuzz.test.ts`).
 */

/** JSON text put into a body as is: what JSON.stringify cannot make (1e999, duplicate keys, deep nesting). */
export class Raw {
  constructor(readonly text: string) {}
}

/** JSON text of a value whose parts may be Raw; undefined members are left out, as absent fields. */
export function toJson(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (value !== null && typeof value === 'object')
    return `{${Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

const DEPTH = 20_000;
/** An array and an object nested 20,000 deep: past what a recursive reader's stack holds. */
export const DEEP = [new Raw(`${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`), new Raw(`${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`)];

/** Text a field should never take as it is: numbers in words, dates out of range, odd ids, NUL, lone surrogates, markup. */
export const ODD_STRINGS = [
  '',
  ' ',
  '\t\n',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udc00x',
  'x\ud83d',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e999',
  '1e3',
  '0x10',
  '１２',
  '12,5',
  '-0',
  '007',
  'null',
  'true',
  '[]',
  '{}',
  '9'.repeat(400),
  `-${'9'.repeat(30)}`,
  `0.${'0'.repeat(50)}1`,
  '0',
  '-1',
  '1.5',
  'gid://shopify/Customer/0',
  'gid://shopify/Customer/-1',
  'gid://shopify/Customer/99999999999999999999',
  'gid://shopify/Customer/999999999999999999999',
  'gid://shopify/Order/1',
  'gid://shopify/OrderIdentity/99999999999999999999',
  '2026-02-30T00:00:00Z',
  '-100000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00+23:59',
  '9999-12-31T23:59:59.999999999+23:59',
  '<script>alert(1)</script>',
  "'; drop table shops; --",
  '../../../etc/passwd',
  '%00',
  '🎉'.repeat(300),
  '\u202e\u200b',
  '__proto__',
  'constructor',
  'other-shop.myshopify.com',
  'https://other-shop.myshopify.com',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
  'x\udc00',
  '1e309',
  '-1e309',
  '1e-400',
  '0.0000001',
  '2026-02-30',
  '0000-13-45',
  '-100000-01-01',
  "'; drop table reward; --",
  '../../etc/passwd',
  'new',
  'not-a-uuid',
  'ffffffff-ffff-4fff-bfff-ffffffffffff',
  'streak:00000000-0000-0000-0000-000000000000',
  'gid://shopify/Collection/1',
];

export const ODD_VALUES: unknown[] = ([] = [
  ,
  null,
  true,
  false,
  0,
  -0,
  1,
  -1,
  0.5,
  -2.5,
  1e21,
  -1e21,
  1e308,
  -1e308,
  2 ** 53 + 2,
  2 ** 31,
  -(2 ** 63),
  5e-324,
  [],
  {},
  [null],
  [[[]]],
  ...ODD_STRINGS,
]);

/** Hostile values for a JSON field, as the body carries them. */
export const oddJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...ODD_VALUES) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(100_000), '9'.repeat(5000)) },
  { weight: 1, arbitrary: fc.oneof(fc.maxSafeInteger(), fc.double()) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      new Raw('1e999'),
      new Raw('-1e999'),
      new Raw('1e-999'),
      new Raw('1.0'),
      new Raw('100000000000000000000000000000001'),
      new Raw('{"__proto__":{"polluted":1}}'),
      new Raw('{"a":1,"a":"b"}'),
      new Raw('"\\ud800"'),
      new Raw('"\\u0000"'),
      ...DEEP,
    ),
  },
);

/** Hostile text for a query parameter, a form field or a claim: short enough for a URL or a header. */
export const oddString: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...ODD_STRINGS.filter((s) => s.length < 2000)) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(3000), '1'.repeat(21), '1'.repeat(20), '18446744073709551616') },
  { weight: 1, arbitrary: fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String) },
);

/**
 * Objects shaped like `template`, every field at once: as it is (mostly, for the fields named in
 * `stable`), absent, hostile, or, for nested objects, shaped in turn; and a few fields nobody asked for.
 */
export function shaped(template: Record<string, unknown>, stable: string[] = []): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.fromEntries(
    Object.entries(template).map(([key, valid]) => {
      const nested = valid !== null && typeof valid === 'object' && !Array.isArray(valid) && !(valid instanceof Raw);
      const keep = stable.includes(key) ? 20 : 6;
      return [
        key,
        fc.oneof(
          { weight: keep, arbitrary: nested ? shaped(valid as Record<string, unknown>) : fc.constant(valid) },
          { weight: 1, arbitrary: fc.constant(undefined) },
          { weight: 3, arbitrary: oddJson },
        ),
      ];
    }),
  );
  const extra = fc.dictionary(fc.string({ unit: 'binary', maxLength: 12 }), oddJson, { maxKeys: 2 });
  return fc.tuple(fc.record(fields), extra).map(([record, more]) => ({ ...more, ...record }));
}

/**
 * Objects like `template` with up to three of its fields changed: left out, hostile, or, for nested
 * objects and arrays, changed in turn; now and then with a field nobody asked for. So most bodies get
 * past a route's first checks and reach what comes after them.
 */
export function nearly(template: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
  const keys = Object.keys(template);
  if (!keys.length) return fc.dictionary(fc.string({ unit: 'binary', maxLength: 12 }), oddJson, { maxKeys: 2 });
  const change = fc.constantFrom(...keys).chain((key) => variant(template[key]).map((value) => [key, value] as const));
  const extra = fc.dictionary(fc.string({ unit: 'binary', maxLength: 12 }), oddJson, { maxKeys: 1 });
  return fc
    .tuple(fc.array(change, { maxLength: 3 }), fc.oneof({ weight: 6, arbitrary: fc.constant({}) }, { weight: 1, arbitrary: extra }))
    .map(([changes, more]) => ({ ...more, ...template, ...Object.fromEntries(changes) }));
}

/** Another value where `valid` was: absent, hostile, or near it (objects and arrays changed in turn). */
function variant(valid: unknown): fc.Arbitrary<unknown> {
  const near =
    Array.isArray(valid) && valid.length && valid[0] !== null && typeof valid[0] === 'object'
      ? fc.array(nearly(valid[0] as Record<string, unknown>), { maxLength: 3 })
      : Array.isArray(valid)
        ? fc.array(oddJson, { maxLength: 3 })
        : valid !== null && typeof valid === 'object'
          ? nearly(valid as Record<string, unknown>)
          : null;
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 3, arbitrary: oddJson },
    ...(near ? [{ weight: 4, arbitrary: near }] : []),
  );
}

/** Bodies that are no JSON object: empty, broken, another type, a byte order mark, form encoding, deep nesting. */
export const junk: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '{',
    '}',
    'null',
    '[]',
    '[{}]',
    '"x"',
    '1',
    '{"a":}',
    '\u0000',
    '\ufeff{}',
    '\ufeff{"intent":"save"}',
    '{"shopify_domain":"test-shop.myshopify.com"',
    'shopify_domain=test-shop.myshopify.com',
    'intent=save&draft=1',
    '\ud800',
    ...DEEP.map((d) => d.text),
  ),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

const CONTENT_TYPES = [
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'text/plain;charset=UTF-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=zz',
  undefined,
];

export interface Body {
  text: string;
  contentType: string | undefined;
}

/** A body as a client sends it: mostly shaped like the template, else junk; any content type. */
export function bodies(template: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<Body> {
  return fc.record({
    text: fc.oneof({ weight: 8, arbitrary: template.map(toJson) }, { weight: 2, arbitrary: junk }),
    contentType: fc.constantFrom(...CONTENT_TYPES),
  });
}
