import { pool } from '../shopify.server';

const noStore = { 'cache-control': 'no-store' };

/** GET /healthz for the load balancer or platform: 200 while the process serves and its database answers, else 503. */
export const loader = async () => {
  try {
    await pool.query('select 1');
  } catch {
    return Response.json({ status: 'unavailable' }, { status: 503, headers: noStore });
  }
  return Response.json({ status: 'ok' }, { headers: noStore });
};
