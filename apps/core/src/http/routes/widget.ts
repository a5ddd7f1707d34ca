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

/** The copies the build writes beside each file, by the coding that made them. */
const COPIES: Readonly<Record<string, string>> = { br: '.br', gzip: '.gz', identity: '' };

async function send(ctx: Context, file: string, cacheControl: string): Promise<void> {
  // The smallest copy the client takes: brotli (a tenth smaller than gzip, asked for by every
  // browser over https), else gzip, else the file itself; a copy missing (a build before brotli)
  // falls to the next. Asked one by one, as the client's own order ("gzip, deflate, br") would
  // pick gzip among equals.
  const codings = [...(['br', 'gzip'] as const).filter((c) => ctx.acceptsEncodings(c) === c), 'identity' as const];
  for (const coding of codings) {
    const body = await readFile(join(WIDGET_DIST, `${file}${COPIES[coding]}`)).catch(() => undefined);
    if (!body) continue;
    if (coding !== 'identity') ctx.set('content-encoding', coding);
    ctx.body = body;
    break;
  }
  // Not built, or no such asset: the app's 404.
  if (!ctx.body) return;
  ctx.vary('accept-encoding');
  ctx.type = JS;
  ctx.set('cache-control', cacheControl);
  // Storefronts load the app cross-origin with import(), which needs CORS on module scripts.
  ctx.set('access-control-allow-origin', '*');
  ctx.set('x-content-type-options', 'nosniff');
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
