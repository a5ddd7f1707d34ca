import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type Router from '@koa/router';
import { buildOpenApi } from '../../records/openapi.js';
import type { Registry } from '../../records/registry.js';
import type { Services } from '../../services.js';
import { deliverySchemas, deliveryWebhooks } from '../../webhooks/document.js';
import { API_PREFIX } from '../prefix.js';
import { analyticsPaths } from './analytics.js';
import { enduserPaths } from './enduser.js';
import { platformPaths } from './platform.js';
import { memberPaths } from './records.js';
import { standingsPaths } from './standings.js';

const require = createRequire(import.meta.url);
const SWAGGER_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};

const page = (specUrl: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Loyalty service API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js" data-spec="${specUrl}"></script>
</body>
</html>`;

const init = `const spec = document.currentScript.dataset.spec;
window.ui = SwaggerUIBundle({ url: spec, dom_id: '#reference', deepLinking: true });`;

/** The OpenAPI document: the resources' operations and every other route's entry. */
export function apiDocument(registry: Registry, serverUrl: string) {
  return buildOpenApi(
    registry,
    serverUrl,
    { ...memberPaths, ...enduserPaths, ...platformPaths, ...analyticsPaths, ...standingsPaths },
    { webhooks: deliveryWebhooks, schemas: deliverySchemas },
  );
}

/** The OpenAPI document and a reference page whose assets this service serves itself (works offline). */
export function docsRoutes(router: Router, s: Services): void {
  let cached: string | undefined;
  router.get(`${API_PREFIX}/openapi.json`, (ctx) => {
    cached ??= JSON.stringify(apiDocument(s.registry, `${s.config.publicUrl}${API_PREFIX}`));
    ctx.type = 'application/json';
    ctx.body = cached;
  });
  router.get('/docs', (ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.set('content-security-policy', "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:");
    ctx.body = page(`${API_PREFIX}/openapi.json`);
  });
  router.get('/docs/assets/init.js', (ctx) => {
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.body = init;
  });
  router.get('/docs/assets/:file', (ctx) => {
    const type = Object.hasOwn(ASSETS, ctx.params.file!) ? ASSETS[ctx.params.file!] : undefined;
    if (!type) return;
    ctx.type = type;
    ctx.set('cache-control', 'public, max-age=86400');
    ctx.body = createReadStream(join(SWAGGER_DIR, ctx.params.file!));
  });
}
