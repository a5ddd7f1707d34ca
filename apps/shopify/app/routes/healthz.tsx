import { migrated, pool } from '../shopify.server';

const noStore = { 'cache-control': 'no-store' };

/**
 * GET /healthz for the load balancer or platform: 200 once the process's tables are migrated and
 * while its database answers, else 503.
 */
export const loader = async () => {
  try {
    await migrated;
    await pool.query('select 1');
  } catch {
    return Response.json({ status: 'unavailable' }, { status: 503, headers: noStore });
  }
  return Response.json({ status: 'ok' }, { headers: noStore });
};
