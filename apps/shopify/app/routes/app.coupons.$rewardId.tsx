import type { ActionFunctionArgs } from '@remix-run/node';
import { authenticateShop } from '../admin/authenticate.server';
import { coreFailure } from '../core/failure';

/** POST text/csv: imports the codes into the reward's pool through the core's import_coupons. */
export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { api } = await authenticateShop(request);
  const csv = await request.text();
  const { data, error, response } = await api.POST('/schema/reward/record/{id}/action/import_coupons', {
    params: { path: { id: params.rewardId ?? '' } },
    body: csv,
    // The file goes as it came, not as JSON.
    bodySerializer: (body) => body,
    headers: { 'content-type': 'text/csv' },
  });
  if (!data) {
    const failure = coreFailure(response.status, error);
    const details = Object.entries(failure.fieldErrors).map(([field, message]) => `${field}: ${message}`);
    return Response.json({ error: failure.message, details }, { status: response.status });
  }
  const { imported, duplicates } = data.data;
  return Response.json({ imported, duplicates });
};
