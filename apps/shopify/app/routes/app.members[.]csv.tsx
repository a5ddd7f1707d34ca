import type { LoaderFunctionArgs } from '@remix-run/node';
import { authenticateShop } from '../admin/authenticate.server';
import { membersCsv } from '../insights/csv.server';
import { pool } from '../storage/pool.server';
import { getOnly } from '../http.server';

/** Every member with their progress, rewards and order totals as CSV, streamed a page at a time (CONTRACT §18). */
export const loader = async ({ request }: LoaderFunctionArgs) => {
  const { api, session } = await authenticateShop(request);
  const day = new Date().toISOString().slice(0, 10);
  return new Response(membersCsv(api, pool(), session.shop), {
    headers: {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="loyalty-members-${day}.csv"`,
      'cache-control': 'no-store',
    },
  });
};

export const action = getOnly;
