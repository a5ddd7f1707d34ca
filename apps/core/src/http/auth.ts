import type { Context, Next } from 'koa';
import type { Flow, Identity } from '../auth/authenticate.js';
import { ApiError, forbidden, methodNotAllowed, rateLimited, unauthenticated, unavailable } from '../errors.js';
import type { LanguageCode } from '../formats.js';
import type { RequestContext } from '../records/context.js';
import type { Services } from '../services.js';
import { heldBytesOf, receiveBody } from './body.js';
// ctx.state's types (a declaration merge), for every program that compiles this module.
import type {} from './state.js';

/**
 * Identifies the caller (401/400 on bad credentials), then charges its rate-limit bucket:
 * per API key, per member, or per client address for guests and failed attempts. A route that
 * keeps its own per-account turn (`ownTurn`) does not wait for its account's share of the pool:
 * its waiting requests would otherwise hold that share from the account's other requests.
 */
export function authenticate(s: Services, { ownTurn = false } = {}) {
  return async (ctx: Context, next: Next) => {
    let identity: Identity;
    try {
      identity = await s.auth.identify(ctx.headers);
    } catch (err) {
      if (err instanceof ApiError) charge(ctx, s, `ip:${ctx.ip}`, s.config.guestRateLimitPerSecond, 'guest');
      throw err;
    }
    ctx.state.identity = identity;
    // Each caller draws on its own rate bucket, and its bodies in flight are bounded: a merchant's
    // (all its keys together), a member's or an address's. One that would pass the bound waits,
    // unread, until it fits; a request whose client has gone leaves either line: nobody would read its answer.
    const { bucket, rate, holder } =
      identity.flow === 'apikey'
        ? { bucket: `key:${identity.apiKeyId}`, rate: s.config.rateLimitPerSecond, holder: `account:${identity.account!.id}` }
        : identity.flow === 'enduser'
          ? { bucket: `member:${identity.memberId}`, rate: s.config.endUserRateLimitPerSecond, holder: `member:${identity.memberId}` }
          : { bucket: `ip:${ctx.ip}`, rate: s.config.guestRateLimitPerSecond, holder: `ip:${ctx.ip}` };
    charge(ctx, s, bucket, rate, identity.flow);
    const bytes = heldBytesOf(ctx);
    const gone = clientGone(ctx);
    await s.bodies.take(holder, bytes, gone);
    try {
      // An account's requests beyond its share wait here, before they ask the pool for a connection,
      // and with their body received: a slow sender does not hold a turn while it sends.
      await receiveBody(ctx);
      if (identity.account && !ownTurn) await s.tenants.run(identity.account.id, next, gone);
      else await next();
    } finally {
      s.bodies.give(holder, bytes);
    }
  };
}

/** Aborts once the client has closed its connection before the answer was sent. */
function clientGone(ctx: Context): AbortSignal {
  const gone = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) gone.abort(unavailable('The client closed its connection before its turn.', 1));
  });
  return gone.signal;
}

/** The methods a route may offer, in the order an `Allow` header lists them; HEAD goes with GET, unlisted as in the OpenAPI document. */
const METHODS = ['GET', 'POST', 'PATCH', 'DELETE'];

/** The flows a method of the request's path accepts; undefined where the path does not offer it. */
export type FlowsOf = (ctx: Context, method: string) => readonly Flow[] | undefined;

/**
 * The one access check, after `authenticate`, in CONTRACT §2's order: a guest where the operation
 * needs credentials → 401, an operation not offered (no flows) → 405 with the methods that are,
 * credentials of a flow the operation does not accept → 403.
 */
export function allow(flowsOf: FlowsOf) {
  return async (ctx: Context, next: Next) => {
    const identity = ctx.state.identity;
    const flows = flowsOf(ctx, ctx.method);
    if (identity.flow === 'guest' && !flows?.includes('guest')) throw unauthenticated('This operation needs credentials.');
    if (!flows)
      throw methodNotAllowed(
        METHODS.filter((m) => flowsOf(ctx, m)),
        `${ctx.method} is not offered on ${ctx.path}.`,
      );
    if (!flows.includes(identity.flow)) throw forbidden(`These credentials may not ${ctx.method} ${ctx.path}.`);
    await next();
  };
}

/** The flows of a route that offers one method. */
export const only =
  (method: string, flows: readonly Flow[]): FlowsOf =>
  (_ctx, asked) =>
    asked === method || (method === 'GET' && asked === 'HEAD') ? flows : undefined;

/** Takes a token from the caller's bucket and announces what is left; an empty bucket answers 429. */
export function charge(ctx: Context, s: Services, key: string, rate: number, flow: string): void {
  const result = s.buckets.take(key, rate);
  ctx.set('x-ratelimit-limit', String(result.limit));
  ctx.set('x-ratelimit-remaining', String(result.remaining));
  if (!result.allowed) {
    s.metrics.rateLimited.inc({ flow });
    throw rateLimited(result.retryAfterSeconds);
  }
}

export function requestContext(ctx: Context, languageCode?: LanguageCode): RequestContext {
  const identity = ctx.state.identity;
  return {
    flow: identity.flow,
    account: identity.account,
    memberId: identity.memberId,
    apiKeyId: identity.apiKeyId,
    languageCode,
    requestId: ctx.state.requestId,
  };
}
