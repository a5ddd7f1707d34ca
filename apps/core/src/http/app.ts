import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import Koa, { type Context, type Next } from 'koa';
import { PoolTimeoutError } from '../db/pool.js';
import { ApiError, payloadTooLarge, rateLimited, unauthenticated, unavailable } from '../errors.js';
import { requestSpans } from '../observability/trace.js';
import type { Services } from '../services.js';
import { bodyLimitOf } from './body.js';
import { checkUrl } from './limits.js';
import { API_PREFIX } from './prefix.js';
import { analyticsRoutes } from './routes/analytics.js';
import { docsRoutes } from './routes/docs.js';
import { enduserRoutes } from './routes/enduser.js';
import { filesRoutes } from './routes/files.js';
import { healthRoutes } from './routes/health.js';
import { platformRoutes } from './routes/platform.js';
import { recordRoutes } from './routes/records.js';
import { standingsRoutes } from './routes/standings.js';
import { unsubscribeRoutes } from './routes/unsubscribe.js';
import { widgetRoutes } from './routes/widget.js';
// ctx.state's types (a declaration merge), for every program that compiles this module.
import type {} from './state.js';

function errorBody(err: ApiError, requestId: string) {
  return { error: { status: err.status, code: err.code, message: err.message, details: err.details, requestId } };
}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  // The database renamed away or dropped, or the service's credentials refused: no new session.
  '3D000',
  // A database of its name without the service's tables (recreated, not yet migrated: /readyz says so).
  '42P01',
  '3F000',
  '28000',
  '28P01',
  '40001',
  '40P01',
]);

/** SQLSTATE classes of an outage: 08 connection exceptions, 53 insufficient resources (too many connections), 57P shutdowns. */
const UNAVAILABLE_CLASSES = /^(08|53)[0-9A-Z]{3}$|^57P0[1-5]$/;

/** The `code` of a thrown value (pg's SQLSTATE, Node's system error code), which may be anything. */
const codeOf = (err: unknown): unknown => (typeof err === 'object' && err !== null && 'code' in err ? err.code : undefined);

const constraintOf = (err: unknown): string | undefined =>
  typeof err === 'object' && err !== null && 'constraint' in err && typeof err.constraint === 'string' ? err.constraint : undefined;

/** The database is down or restarting, or the request lost a race it may retry: it did nothing, and the caller should retry. */
function isUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = codeOf(err);
  return (
    (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_CLASSES.test(code))) ||
    err instanceof PoolTimeoutError ||
    ('message' in err &&
      typeof err.message === 'string' &&
      // pg's words for a connection that went away, or (`timeout expired`) that could not be opened in time.
      /Connection terminated|connection is not open|Client was closed|not queryable|connection error|^timeout expired$/i.test(err.message))
  );
}

/**
 * Database errors mapped to the contract: a value the validators let through is 400, an outage
 * is 503 with Retry-After (retryable, like 429), never a 500.
 */
function translateDatabaseError(err: unknown): ApiError | undefined {
  if (isUnavailable(err)) return unavailable('The service is briefly unavailable; retry shortly.', 1);
  const code = codeOf(err);
  if (typeof code !== 'string' || code.length !== 5) return undefined;
  if (code === '23505') return new ApiError(409, 'conflict', 'A record with the same unique value already exists.');
  if (code.startsWith('22')) return new ApiError(400, 'invalid_input', 'A value is out of the range this field accepts.');
  // The account itself went (deleted by the platform while the request ran), its keys with it.
  if (code === '23503' && constraintOf(err)?.endsWith('_account_id_foreign')) return unauthenticated('This account no longer exists.');
  // Not-null, foreign-key and check violations: a value the field definitions should have refused.
  if (code === '23502' || code === '23503' || code === '23514')
    return new ApiError(400, 'invalid_input', 'A value is missing or not allowed here.');
  return undefined;
}

/** The route the router matched, which it records on the context; all of the service's routes are paths. */
function matchedRoute(ctx: Context): string | undefined {
  const route = '_matchedRoute' in ctx ? ctx._matchedRoute : undefined;
  return typeof route === 'string' ? route : undefined;
}

/** The path as logged: a path that is a credential (an unsubscribe link's token) shows as its route. */
function loggedPath(ctx: Context): string {
  const route = matchedRoute(ctx);
  return route?.includes(':token') ? route : ctx.path;
}

export interface AppOptions {
  /** Routes of a non-production role mounted beside the service's (the demo storefront of `serve --demo`). */
  extraRoutes?: (router: Router, s: Services) => void;
}

export function createApp(s: Services, options: AppOptions = {}): Koa {
  const app = new Koa({ proxy: s.config.trustProxy });

  app.use(requestSpans(matchedRoute));
  app.use(async (ctx: Context, next: Next) => {
    const given = ctx.get('x-request-id');
    const requestId = /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('x-request-id', requestId);
    const started = process.hrtime.bigint();
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw new ApiError(404, 'not_found', `No route ${ctx.method} ${ctx.path}.`);
    } catch (err) {
      let apiError = err instanceof ApiError ? err : translateDatabaseError(err);
      if (!apiError) {
        s.logger.error({ err, requestId, method: ctx.method, path: loggedPath(ctx) }, 'unhandled error');
        apiError = new ApiError(500, 'internal', 'An internal error occurred.');
      }
      ctx.status = apiError.status;
      ctx.set(apiError.headers);
      ctx.body = errorBody(apiError, requestId);
    } finally {
      // Every API response carries the rate-limit headers (CONTRACT §12) and draws on a bucket.
      // Answers given before a caller was known (unknown paths, oversized requests) count as a
      // guest's, and an empty bucket turns a refusal into 429 as it would any other request; an
      // outage's 503 stays what it is.
      if (ctx.path.startsWith(API_PREFIX) && !ctx.response.get('x-ratelimit-limit')) {
        const bucket = s.buckets.take(`ip:${ctx.ip}`, s.config.guestRateLimitPerSecond);
        ctx.set('x-ratelimit-limit', String(bucket.limit));
        ctx.set('x-ratelimit-remaining', String(bucket.remaining));
        if (!bucket.allowed && ctx.status < 500) {
          const refused = rateLimited(bucket.retryAfterSeconds);
          s.metrics.rateLimited.inc({ flow: 'guest' });
          ctx.status = refused.status;
          ctx.set(refused.headers);
          ctx.body = errorBody(refused, requestId);
        }
      }
      ctx.set('x-content-type-options', 'nosniff');
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = matchedRoute(ctx) ?? 'unmatched';
      s.metrics.httpDuration.observe({ method: ctx.method, route, status: String(ctx.status) }, seconds);
      // Checked first: the line's fields would be gathered on every request, logged or not.
      if (s.logger.isLevelEnabled('debug')) {
        s.logger.debug(
          { requestId, method: ctx.method, path: loggedPath(ctx), status: ctx.status, ms: Math.round(seconds * 1000) },
          'request',
        );
      }
    }
  });

  // The checks every request passes before routing, in one middleware (one step fewer each for
  // the chain to run): the URL's length, CORS, then a declared oversize body (413 may answer
  // first: refused before any work).
  app.use(async (ctx, next) => {
    checkUrl(ctx);
    // Storefronts call the API from their own origin with the guest or end-user headers. API keys
    // are not among the allowed headers: a browser never sends them cross-origin.
    if (ctx.get('origin') && ctx.path.startsWith(API_PREFIX)) {
      ctx.set('access-control-allow-origin', '*');
      ctx.set('access-control-expose-headers', 'x-request-id, x-ratelimit-limit, x-ratelimit-remaining, retry-after');
      if (ctx.method === 'OPTIONS') {
        ctx.set('access-control-allow-methods', 'GET, POST, PATCH, DELETE');
        ctx.set('access-control-allow-headers', 'content-type, x-account-id, x-enduser-access-token, x-request-id');
        ctx.set('access-control-max-age', '600');
        ctx.status = 204;
        return;
      }
    }
    const declared = ctx.get('content-length');
    if (declared) {
      const limit = bodyLimitOf(ctx.path);
      if (Number(declared) > limit) throw payloadTooLarge(`The body exceeds ${limit} bytes.`);
    }
    await next();
  });

  const root = new Router();
  healthRoutes(root, s);
  docsRoutes(root, s);
  filesRoutes(root, s);
  unsubscribeRoutes(root, s);
  widgetRoutes(root);
  options.extraRoutes?.(root, s);
  const api = new Router({ prefix: API_PREFIX });
  platformRoutes(api, s);
  enduserRoutes(api, s);
  analyticsRoutes(api, s);
  standingsRoutes(api, s);
  recordRoutes(api, s);
  // The API's router first: nearly every request is for it, and the other router's paths lie outside it.
  app.use(api.routes());
  app.use(root.routes());
  return app;
}
