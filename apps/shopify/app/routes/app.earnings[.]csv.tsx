import type { LoaderFunctionArgs } from '@remix-run/node';
import { authenticateShop } from '../admin/authenticate.server';
import { coreFailure } from '../core/failure';
import { figuresCsv } from '../insights/csv.server';
import { currentEarnings } from '../insights/earnings.server';
import { pool } from '../storage/pool.server';
import { getOnly } from '../http.server';

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The dashboard's "What the program earns" figures and its points as CSV (CONTRACT §18, §19), for the range the query
 * names (`from`, `to`; the core's default range without them) in the account's timezone.
 */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { api, session, account } = await authenticateShop(request);
  const url = new URL(request.url);
  const from = url.searchParams.get('from') || undefined;
  const to = url.searchParams.get('to') || undefined;
  for (const [name, value] of [
    ['from', from],
    ['to', to],
  ] as const)
    if (value !== undefined && !DATE.test(value))
      return new Response(`${name} must be a date written YYYY-MM-DD\n`, { status: 400, headers: { 'content-type': 'text/plain' } });
  // The core's summary settles the range (its default, its checks) and names the account's timezone.
  const { data, error, response } = await api.GET('/analytics/summary', {
    params: { query: { ...(from ? { from } : {}), ...(to ? { to } : {}) } },
  });
  if (!data) {
    const failure = coreFailure(response.status, error);
    return new Response(`${failure.message}\n`, { status: response.status < 500 ? 400 : 502, headers: { 'content-type': 'text/plain' } });
  }
  const range = { from: data.data.from, to: data.data.to, timezone: data.data.timezone };
  const earnings = await currentEarnings(pool(), api, session.shop, range, account.currencyCode);
  return new Response(figuresCsv(earnings, data.data.points), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="program-earnings-${range.from}-${range.to}.csv"`,
      'cache-control': 'no-store',
    },
  });
};

export const action = getOnly;
