import type Router from '@koa/router';
import { pendingMigrations } from '../../db/migrate.js';
import type { Services } from '../../services.js';

export function healthRoutes(router: Router, s: Services): void {
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });

  router.get('/readyz', async (ctx) => {
    try {
      await s.db.raw('select 1');
      const pending = await pendingMigrations(s.db);
      ctx.status = pending === 0 ? 200 : 503;
      ctx.body = pending === 0 ? { status: 'ready' } : { status: 'migrations_pending', pending };
    } catch {
      ctx.status = 503;
      ctx.body = { status: 'database_unreachable' };
    }
  });

  router.get('/metrics', async (ctx) => {
    ctx.type = s.metrics.registry.contentType;
    ctx.body = await s.metrics.registry.metrics();
  });
}
