import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type Router from '@koa/router';
import type { Context } from 'koa';

const require = createRequire(import.meta.url);
/** The widget's build output, found through the workspace dependency (built before the core). */
const WIDGET_DIST = join(dirname(require.resolve('@loyalty/widget/package.json')), 'dist');

const JS = 'application/javascript; charset=utf-8';
/** Hashed names never change content: cached for a year. */
const HASHED = /^app-[\w-]+\.js$/;

async function send(ctx: Context, file: string, cacheControl: string): Promise<void> {
  // The build writes a gzipped copy of each file beside it.
  const gzip = ctx.acceptsEncodings('gzip', 'identity') === 'gzip';
  let body: Buffer;
  try {
    body = await readFile(join(WIDGET_DIST, gzip ? `${file}.gz` : file));
  } catch {
    // Not built, or no such asset: the app's 404.
    return;
  }
  if (gzip) ctx.set('content-encoding', 'gzip');
  ctx.vary('accept-encoding');
  ctx.type = JS;
  ctx.set('cache-control', cacheControl);
  // Storefronts load the app cross-origin with import(), which needs CORS on module scripts.
  ctx.set('access-control-allow-origin', '*');
  ctx.set('x-content-type-options', 'nosniff');
  ctx.body = body;
}

/**
 * The storefront widget (CONTRACT §13), without auth: the loader under a stable name, cached
 * briefly so a new release reaches shoppers within minutes, and the app it loads under its
 * content hash, cached for good.
 */
export function widgetRoutes(router: Router): void {
  router.get('/widget/loader.js', (ctx) => send(ctx, 'loader.js', 'public, max-age=300'));
  router.get('/widget/:file', async (ctx) => {
    const file = ctx.params.file!;
    if (HASHED.test(file)) await send(ctx, file, 'public, max-age=31536000, immutable');
  });
}
