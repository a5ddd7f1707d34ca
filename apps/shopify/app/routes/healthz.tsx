import { getOnly, noStore } from '../http.server';
import { pendingMigrations } from '../storage/migrate.server';
import { pool } from '../storage/pool.server';

/**
 * GET /healthz for the load balancer or platform: 200 while the app's database answers with every
 * migration of this build applied (the `migrate` command runs before the server), else 503.
 */
export const loader = async () => {
  try {
    if ((await pendingMigrations(pool())).length) throw new Error('migrations pending');
  } catch {
    return Response.json({ status: 'unavailable' }, { status: 503, headers: noStore });
  }
  return Response.json({ status: 'ok' }, { headers: noStore });
};

export const action = getOnly;
