import type { ActionFunctionArgs } from '@remix-run/node';
import { authenticateShop } from '../admin/authenticate.server';
import { numberIn } from '../admin/numbers';
import { refusalInWords } from '../admin/refusals';
import { coreFailure, isOutage } from '../core/failure';
import { claimedLanguage, format } from '../i18n';
import { ADMIN_MESSAGES } from '../i18n/bundles.server';
import { postOnly } from '../http.server';
import { textOf } from '../admin/text-file';

/** A first line naming the column instead of a code ("Code", "Coupon code", "Gutscheincode"), as spreadsheets write one. */
const HEADER = /^\s*"?\s*(coupon|discount|gutschein|rabatt)?[ _-]?codes?\s*"?\s*$/i;

/**
 * POST text/csv: imports the codes into the reward's pool through the core's import_coupons, which
 * takes no header row: one the file has is left out, and the lines the core names are counted in the
 * merchant's file. A file without a code is answered here, in the merchant's language (`?language=`).
 */
export const action = async ({ request, params }: ActionFunctionArgs) => {
  const { api } = await authenticateShop(request);
  const language = claimedLanguage(new URL(request.url).searchParams.get('language'), request);
  const messages = ADMIN_MESSAGES[language];
  const words = messages.rewards.coupons;
  const file = textOf(new Uint8Array(await request.arrayBuffer()));
  const [first = '', ...rest] = file.split(/\r?\n/);
  // The decoder has taken any byte order mark off.
  const headed = HEADER.test(first);
  const csv = headed ? rest.join('\n') : file;
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
    if (isOutage(failure.status))
      return Response.json({ error: messages.editors.refusals.outage, details: [] }, { status: response.status });
    // Each refused code by its line, in the merchant's words; nothing of the file was imported.
    const details = (failure.details ?? []).map((d) => {
      // "Got 12000 codes; the limit is 10000.": the limit, as the merchant writes numbers.
      if (d.code === 'too_many') {
        return format(words.tooMany, { max: numberIn(/limit is (\d+)/.exec(d.message)?.[1] ?? d.message, language) });
      }
      const line = /^line (\d+)$/.exec(d.field ?? '')?.[1];
      const label = line ? format(words.line, { line: Number(line) + (headed ? 1 : 0) }) : words.file;
      return (
        refusalInWords({ ...failure, details: [d] }, messages.editors.refusals, language, { code: label }, () => 'code').fieldErrors.code ??
        d.message
      );
    });
    return Response.json({ error: words.refused, details }, { status: response.status });
  }
  const { imported, duplicates } = data.data;
  return Response.json({ imported, duplicates });
};

// The import is only POSTed to (by the reward page's file picker).
export const loader = postOnly;
