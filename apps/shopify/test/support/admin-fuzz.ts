import { createHash } from 'node:crypto';
import { getJwt, TEST_SHOP_NAME } from '@shopify/shopify-api/test-helpers';
import fc from 'fast-check';
import type pg from 'pg';
import { decode } from 'turbo-stream';
import { BROWSER } from './orders';
import { type Body, bodies, oddString } from './hostile';
import { SHOPIFY } from './stack';

/**
 * The admin's side of its fuzz test: hostile forms as Remix sends them (the JSON bodies are
 * `hostile.ts`'s), how requests are sent (single fetch's `.data`, with the session token App Bridge
 * adds) and their answers read, and what a refusal must leave as it was.
 */

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
  let query = digests.get(pool);
  if (!query) digests.set(pool, (query = digestQuery(pool, leaveOut)));
  const config = await query;
  if (!config) return {};
  const { rows } = await pool.query<{ name: string; digest: string }>(config);
  return Object.fromEntries(rows.map((r) => [r.name, r.digest]));
}

/**
 * Each pool's digest of its tables, as a prepared statement: a fuzz run takes thousands, and
 * planning the union of every table cost more than reading them. The tables are those of the
 * migrations run before the test, so they are listed once, with the pool's first `leaveOut`.
 */
const digests = new WeakMap<pg.Pool, Promise<pg.QueryConfig | null>>();

async function digestQuery(pool: pg.Pool, leaveOut: RegExp): Promise<pg.QueryConfig | null> {
  const { rows: tables } = await pool.query<{ name: string }>(
    "select table_name as name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
  );
  const kept = tables.map((t) => t.name).filter((name) => !leaveOut.test(name));
  if (!kept.length) return null;
  const text = kept
    .map(
      (name) => `select '${name}' as name, count(*) || ':' || coalesce(md5(string_agg(r, ',' order by r)), '') as digest
          from (select (to_jsonb(t) - 'updated_at')::text as r from "${name}" t) rows`,
    )
    .join(' union all ');
  return { name: `snapshot-${createHash('sha1').update(text).digest('hex').slice(0, 16)}`, text };
}
