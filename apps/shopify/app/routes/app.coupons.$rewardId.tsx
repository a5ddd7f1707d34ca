import type { ActionFunctionArgs } from '@remix-run/node';
import { authenticateShop } from '../admin/authenticate.server';
import { coreFailure } from '../core/failure';
import { ADMIN_MESSAGES, claimedLanguage } from '../i18n';

/** The file's text: UTF-8 unless a byte order mark says UTF-16 (what spreadsheets save as "Unicode text"). */
function textOf(bytes: Uint8Array): string {
  const encoding = bytes[0] === 0xff && bytes[1] === 0xfe ? 'utf-16le' : bytes[0] === 0xfe && bytes[1] === 0xff ? 'utf-16be' : 'utf-8';
  return new TextDecoder(encoding).decode(bytes);
}

/**
 * POST text/csv: imports the codes into the reward's pool through the core's import_coupons. A file
 * without a code is answered here, in the merchant's language (`?language=`).
 */
export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { api } = await authenticateShop(request);
  const words = ADMIN_MESSAGES[claimedLanguage(new URL(request.url).searchParams.get('language'), request)].rewards.coupons;
  const csv = textOf(new Uint8Array(await request.arrayBuffer()));
  if (!csv.split(/[\r\n,;\t]+/).some((cell) => cell.trim())) return Response.json({ error: words.empty, details: [] }, { status: 400 });
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
