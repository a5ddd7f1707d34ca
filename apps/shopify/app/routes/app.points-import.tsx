import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { authenticateShop } from '../admin/authenticate.server';
import { textOf } from '../admin/text-file';
import { boundedBody } from '../http.server';
import { claimedLanguage, format } from '../i18n';
import { ADMIN_MESSAGES } from '../i18n/bundles.server';
import type { AccountClient } from '../core/client.server';
import { failureResponse } from '../core/failure';
import { records } from '../core/records.server';
import { type ImportRow, matchTiers, MAX_ROWS, parseImport, type RowProblem } from '../points-import/csv';
import { importsOf, queueImport } from '../points-import/imports.server';
import { pool } from '../storage/pool.server';

const MAX_BYTES = 2 * 1024 * 1024;
/** The problems of a refused file shown at once; the rest are counted. */
const SHOWN = 20;

/**
 * POST text/csv (`?name=` the file's name, `?language=` the admin's): a file of balances from another
 * loyalty app (points-import/csv.ts), checked whole before anything is queued (its tier names against
 * the shop's tiers too), so a refused file imports nothing; a good one is queued for the worker role (points-import/imports.server.ts), and
 * the points page shows its progress, read from this route's loader. Refusals are in the merchant's language.
 */
export const action = async ({ request }: ActionFunctionArgs) => {
  const { api, session } = await authenticateShop(request);
  const url = new URL(request.url);
  const language = claimedLanguage(url.searchParams.get('language'), request);
  const words = ADMIN_MESSAGES[language].editors.points.import;
  const refuse = (status: number, details: string[]) => Response.json({ error: words.refused, details }, { status });
  const bytes = await boundedBody(request, MAX_BYTES);
  if (!bytes) return refuse(413, [format(words.tooLarge, { max: MAX_BYTES / 1024 / 1024 })]);
  const text = textOf(new Uint8Array(bytes));
  const parsed = parseImport(text);
  if (!parsed.ok && 'file' in parsed) return refuse(400, [format(words.file[parsed.file], { max: MAX_ROWS.toLocaleString(language) })]);
  const refuseRows = (problems: { line: number; problem: RowProblem; value: string }[]) => {
    const shown = problems.slice(0, SHOWN).map((r) => format(words.rows[r.problem], { line: r.line, value: r.value }));
    const more = problems.length - shown.length;
    return refuse(400, more ? [...shown, format(words.moreRows, { count: more })] : shown);
  };
  if (!parsed.ok) return refuseRows(parsed.rows);
  const matched = parsed.rows.some((r) => r.tier)
    ? await tiersOf(api, parsed.rows)
    : { ok: true as const, tierIds: new Map<string, string>() };
  if (matched === 'not_live') return refuse(409, [words.tiersNotLive]);
  if (!matched.ok) return refuseRows(matched.rows);
  const name = (url.searchParams.get('name') ?? '').replace(/[\u0000-\u001f]/g, '').slice(0, 200) || 'balances.csv';
  const queued = await queueImport(
    pool(),
    session.shop,
    { name, text, note: words.defaultNote, tierNote: words.tierNote },
    parsed.rows,
    matched.tierIds,
  );
  return Response.json({ ...queued, zero: parsed.zero });
};

/** The file's tier names matched to the shop's tiers; then, a tier placement being an `earned` entry, points must be on. */
async function tiersOf(api: AccountClient, rows: ImportRow[]): Promise<ReturnType<typeof matchTiers> | 'not_live'> {
  const [setting, tiers] = await Promise.all([
    records(api, 'points_setting').list({ limit: 1 }),
    records(api, 'tier').list({ limit: 1000 }),
  ]);
  if (!setting.ok) throw failureResponse(setting.failure);
  if (!tiers.ok) throw failureResponse(tiers.failure);
  const matched = matchTiers(
    rows,
    tiers.data.map((t) => ({ id: t.id, name: t.name ?? '', live: t.status === 'live' })),
  );
  return matched.ok && setting.data[0]?.status !== 'live' ? 'not_live' : matched;
}

/** The shop's latest imports with their progress: what the points page reads again while one runs. */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { session } = await authenticateShop(request);
  return { imports: await importsOf(pool(), session.shop) };
};
