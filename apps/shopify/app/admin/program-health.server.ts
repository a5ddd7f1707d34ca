import type { AccountClient } from '../core/client.server';
import { coreFailure } from '../core/failure';
import { dayRange } from '../insights/range';

/**
 * Program health for the dashboard (issue #18 part 4), from the core's `GET /analytics/programs`: the
 * dashboard's range (its `from` / `to` query, else the core's default of the last 30 days) against the
 * range of equal length before it.
 */
export async function loadProgramHealth(api: AccountClient, request: Request) {
  const { from, to } = dayRange(new URL(request.url));
  const { data, error, response } = await api.GET('/analytics/programs', {
    params: { query: { ...(from ? { from } : {}), ...(to ? { to } : {}) } },
  });
  if (!data) return { health: null, failure: coreFailure(response.status, error) };
  return { health: data.data, failure: null };
}

export type ProgramHealthData = NonNullable<Awaited<ReturnType<typeof loadProgramHealth>>['health']>;
