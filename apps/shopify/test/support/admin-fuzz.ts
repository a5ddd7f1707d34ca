import { getJwt, TEST_SHOP_NAME } from '@shopify/shopify-api/test-helpers';
import fc from 'fast-check';
import type pg from 'pg';
import { decode } from 'turbo-stream';
import { BROWSER } from './orders';
import { SHOPIFY } from './stack';

/**
 * What a merchant's browser can send the admin's routes, hostile: JSON bodies shaped like the
 * editors' own with fields absent, of another type, out of range or odd text; broken JSON; another
 * content type. And how those requests are sent (single fetch's `.data`, with the session token
 * App Bridge adds) and their answers read.
 */

/** JSON text put into a body as is: what JSON.stringify cannot make (1e999, duplicate keys, deep nesting). */
class Raw {
  constructor(readonly text: string) {}
}

/** JSON text of a value whose parts may be Raw; undefined members are left out, as absent fields. */
function toJson(value: unknown): string {
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
const deep = [new Raw(`${'['.repeat(DEPTH)}${']'.repeat(DEPTH)}`), new Raw(`${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`)];

/** Text a field should never take as it is: numbers in words, odd dates and ids, NUL, lone surrogates, markup. */
const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '-1e309',
  '1e-400',
  '0x10',
  '１２',
  '12,5',
  '-0',
  '-1',
  '0',
  '1.5',
  '0.0000001',
  '9'.repeat(400),
  `-${'9'.repeat(30)}`,
  '2026-02-30',
  '0000-13-45',
  '+275760-09-13T00:00:00Z',
  '-100000-01-01',
  '<script>alert(1)</script>',
  "'; drop table reward; --",
  '../../etc/passwd',
  '%00',
  '🎉'.repeat(300),
  '__proto__',
  'constructor',
  'new',
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-4fff-bfff-ffffffffffff',
  'streak:00000000-0000-0000-0000-000000000000',
  'gid://shopify/Collection/1',
];

const ODD_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  0.5,
  -2.5,
  1e21,
  -1e21,
  1e308,
  2 ** 53 + 2,
  -(2 ** 63),
  5e-324,
  [],
  {},
  [null],
  [[[]]],
  ...ODD_STRINGS,
];

/** Hostile values for a JSON field. */
export const oddJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...ODD_VALUES) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(100_000), '9'.repeat(5000)) },
  { weight: 1, arbitrary: fc.oneof(fc.maxSafeInteger(), fc.double()) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      new Raw('1e999'),
      new Raw('-1e999'),
      new Raw('100000000000000000000000000000001'),
      new Raw('{"__proto__":{"polluted":1}}'),
      new Raw('"\\ud800"'),
      new Raw('"\\u0000"'),
      ...deep,
    ),
  },
);

/** Hostile text for a query parameter or a form field. */
export const oddString: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...ODD_STRINGS.filter((s) => s.length < 2000)) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(3000), '18446744073709551616') },
);

/**
 * Objects shaped like `template` with up to three of its fields changed: left out, hostile, or, for
 * nested objects and arrays, shaped in turn; now and then with a field nobody asked for. So most
 * bodies get past a route's first checks and reach what comes after them.
 */
export function shaped(template: Record<string, unknown>): fc.Arbitrary<Record<string, unknown>> {
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
      ? fc.array(shaped(valid[0] as Record<string, unknown>), { maxLength: 3 })
      : Array.isArray(valid)
        ? fc.array(oddJson, { maxLength: 3 })
        : valid !== null && typeof valid === 'object'
          ? shaped(valid as Record<string, unknown>)
          : null;
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 3, arbitrary: oddJson },
    ...(near ? [{ weight: 4, arbitrary: near }] : []),
  );
}

/** Bodies that are no JSON object: empty, broken, another type, a byte order mark, form encoding. */
export const junk: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    '{',
    'null',
    '[]',
    '[{}]',
    '"save"',
    '1',
    '{"intent":}',
    '\u0000',
    '\ufeff{"intent":"save"}',
    'intent=save&draft=1',
    '\ud800',
    ...deep.map((d) => d.text),
  ),
  fc.string({ unit: 'binary', maxLength: 100 }),
);

const CONTENT_TYPES = [
  'application/json',
  'application/json',
  'application/json; charset=utf-8',
  'text/plain;charset=UTF-8',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=zz',
  undefined,
];

export interface Body {
  text: string;
  contentType: string | undefined;
}

/** A body as the admin's fetch sends it: mostly shaped like the template, else junk; any content type. */
export function bodies(template: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<Body> {
  return fc.record({
    text: fc.oneof({ weight: 8, arbitrary: template.map(toJson) }, { weight: 2, arbitrary: junk }),
    contentType: fc.constantFrom(...CONTENT_TYPES),
  });
}

/** A form as a Remix `<Form>` or `fetcher.submit` sends it (urlencoded), its values hostile; now and then another body. */
export function forms(template: Record<string, string>, stable: string[] = []): fc.Arbitrary<Body> {
  const fields = Object.fromEntries(
    Object.entries(template).map(([key, valid]) => [
      key,
      fc.oneof(
        { weight: stable.includes(key) ? 12 : 4, arbitrary: fc.constant(valid) },
        { weight: 1, arbitrary: fc.constant(undefined) },
        { weight: 4, arbitrary: oddString },
      ),
    ]),
  );
  const form = fc.record(fields).map((values) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(values)) if (v !== undefined) params.append(k, v);
    return { text: params.toString(), contentType: 'application/x-www-form-urlencoded' as string | undefined };
  });
  return fc.oneof({ weight: 8, arbitrary: form }, { weight: 2, arbitrary: bodies(fc.constant(template)) });
}

export const describeBody = (body: Body) => `${body.contentType ?? '(no content-type)'} ${body.text.slice(0, 400)}`;

/** A request the embedded admin's page sends: App Bridge's session token, a browser's user agent. */
export async function adminFetch(origin: string, path: string, body?: Body): Promise<Response> {
  const { token } = await getJwt(TEST_SHOP_NAME, SHOPIFY.apiKey, SHOPIFY.apiSecretKey);
  return fetch(new URL(path, origin), {
    method: body ? 'POST' : 'GET',
    headers: {
      authorization: `Bearer ${token}`,
      'user-agent': BROWSER,
      ...(body?.contentType ? { 'content-type': body.contentType } : {}),
    },
    body: body ? Buffer.from(body.text, 'utf8') : undefined,
    redirect: 'manual',
  });
}

/**
 * A single fetch answer (`.data`, turbo-stream) as a value; Remix's own types (redirects, errors)
 * as `{ $type, values }`. A plain JSON answer (a Response.json an action returned as is) as JSON.
 */
export async function answerOf(res: Response): Promise<{ status: number; value: unknown; text: string }> {
  const text = await res.text();
  if (!(res.headers.get('content-type') ?? '').includes('text/x-script')) {
    let value: unknown = text;
    try {
      value = JSON.parse(text);
    } catch {
      // Not JSON: the text itself.
    }
    return { status: res.status, value, text };
  }
  const stream = new Response(text).body!;
  const { value, done } = await decode(stream, { plugins: [($type, ...values) => ({ value: { $type, values } })] });
  await done;
  return { status: res.status, value, text };
}

/**
 * What a refusal must leave as it was: every row of the core's records and of the app's own tables,
 * as a digest per table (a row's content: a write put back moves only its `updated_at`), but for the
 * tables that only log who asked (which change as the app reads).
 */
export async function snapshot(pool: pg.Pool, leaveOut: RegExp): Promise<Record<string, string>> {
  const { rows: tables } = await pool.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
  );
  const kept = tables.map((t) => t.name).filter((name) => !leaveOut.test(name));
  if (!kept.length) return {};
  const { rows } = await pool.query<{ name: string; digest: string }>(
    kept
      .map(
        (name) => `select '${name}' as name, count(*) || ':' || coalesce(md5(string_agg(r, ',' order by r)), '') as digest
          from (select (to_jsonb(t) - 'updated_at')::text as r from "${name}" t) rows`,
      )
      .join(' union all '),
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.digest]));
}
