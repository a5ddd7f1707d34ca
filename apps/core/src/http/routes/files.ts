import type Router from '@koa/router';
import type { UploadRow } from '../../resources/upload.js';
import type { Services } from '../../services.js';
import { UUID } from '../../formats.js';

/** Uploaded images, served without auth at the URL the upload returned. */
export function filesRoutes(router: Router, s: Services): void {
  router.get('/files/:accountId/:id', async (ctx) => {
    const { accountId = '', id = '' } = ctx.params;
    if (!UUID.test(accountId) || !UUID.test(id)) return;
    const row = await s.db<UploadRow>('upload').where({ account_id: accountId, id }).first(['content_type', 'data']);
    if (!row) return;
    ctx.type = row.content_type;
    ctx.set('cache-control', 'public, max-age=31536000, immutable');
    ctx.set('x-content-type-options', 'nosniff');
    // An SVG opened directly must not run anything even if sanitising ever missed a case.
    ctx.set('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox");
    ctx.body = row.data;
  });
}
