import '@shopify/shopify-app-remix/adapters/node';
import { InvalidShopError } from '@shopify/shopify-api';
import { ApiVersion, AppDistribution, shopifyApp } from '@shopify/shopify-app-remix/server';
import { boundedBody, errorAnswer, jsonOf, MAX_JSON_DEPTH, nesting } from './http.server';
import { config } from './config.server';
import { objectOf } from './json';
import { ensureProvisioned, type ProvisionDeps } from './shopify/install.server';
import { sessionStorage, shops } from './storage/stores.server';

/**
 * The Shopify app's configuration, as in Shopify's template: loading it opens no connection and
 * starts nothing. The app's tables are migrated by the `migrate` command, and the Flow and discount
 * worker is a process of its own (app/commands/).
 */

/** What provisioning a shop needs (on install, and by the first admin page that gets there first). */
export const provisioning: ProvisionDeps = {
  coreUrl: config.coreUrl,
  corePublicUrl: config.corePublicUrl,
  platformToken: config.platformToken,
  eventsUrl: config.eventsUrl,
  shops,
};

const shopify = shopifyApp({
  apiKey: config.apiKey,
  apiSecretKey: config.apiSecret,
  apiVersion: ApiVersion.October25,
  scopes: config.scopes,
  appUrl: config.appUrl,
  authPathPrefix: '/auth',
  sessionStorage,
  distribution: AppDistribution.AppStore,
  future: { unstable_newEmbeddedAuthStrategy: true },
  hooks: {
    afterAuth: async ({ session, admin }) => {
      await ensureProvisioned(provisioning, session.shop, admin);
    },
  },
});

export default shopify;
export const addDocumentResponseHeaders = shopify.addDocumentResponseHeaders;
export const authenticate = shopify.authenticate;

/** Shopify's own requests (webhooks, Flow actions) carry kilobytes; past this one is refused unread (413), before its signature is checked. */
const MAX_SIGNED_BODY_BYTES = 5 * 1024 * 1024;

/**
 * The library refuses with no body (a bad signature 401; an empty body, a missing header, or for
 * Flow a bad signature or a shop it has no session for, 400): the same status, with the error body.
 */
function withErrorBody(refusal: Response): Response {
  if (refusal.body) return refusal;
  return refusal.status === 401
    ? errorAnswer(401, 'bad_signature', 'The request is not signed with the app’s secret.')
    : errorAnswer(
        refusal.status,
        'bad_request',
        'The request is not a signed Shopify request with a body, for a shop the app is installed in.',
      );
}

/**
 * Runs the library's check on the body read within bounds. A signed request whose body it cannot
 * read (`malformed`, asked only once it failed), nests past MAX_JSON_DEPTH, or whose shop
 * domain header is no shop's is 400 once the signature checked out, which Shopify does not retry.
 * Any other failure (the database) stays an error, retried.
 */
async function signed<T>(request: Request, check: (r: Request) => Promise<T>, malformed: (json: unknown) => boolean): Promise<T> {
  const body = await boundedBody(request, MAX_SIGNED_BODY_BYTES);
  if (!body) throw errorAnswer(413, 'body_too_large', `The body is over ${MAX_SIGNED_BODY_BYTES} bytes.`);
  let checked: T;
  try {
    checked = await check(new Request(request, { body: new Uint8Array(body) }));
  } catch (err) {
    // Signed, but naming no shop domain the library takes: as unreadable as a malformed body.
    if (err instanceof InvalidShopError) throw errorAnswer(400, 'invalid_shop', 'The shop domain header names no shop.');
    if (err instanceof Response) throw withErrorBody(err);
    if (!malformed(jsonOf(body))) throw err;
    throw errorAnswer(400, 'invalid_body', 'The body is not the JSON this route takes.');
  }
  if (nesting(body) > MAX_JSON_DEPTH) throw errorAnswer(400, 'invalid_body', `The body nests deeper than ${MAX_JSON_DEPTH} levels.`);
  return checked;
}

/**
 * `authenticate.public.appProxy`, its bad signature answered with the app's error body (the
 * library's 400 has none), and a signed request whose `shop` names no shop answered 400 as well.
 */
export async function authenticateProxy(request: Request) {
  try {
    return await authenticate.public.appProxy(request);
  } catch (err) {
    if (err instanceof InvalidShopError) throw errorAnswer(400, 'invalid_shop', 'The request names no shop.');
    if (err instanceof Response && err.status === 400)
      throw errorAnswer(400, 'bad_signature', 'The request does not carry a valid signature of the app proxy.');
    throw err;
  }
}

/** `authenticate.webhook` and `.flow` on a body read within bounds, a malformed signed one answered 400. */
export const authenticateSigned = {
  webhook: (request: Request) => signed(request, authenticate.webhook, (json) => json === undefined),
  flow: (request: Request) => signed(request, authenticate.flow, (json) => typeof objectOf(json).shopify_domain !== 'string'),
};
/**
 * A refusal the library throws for an extension's session token (missing, expired, forged; or one
 * for another app or without an expiry, refused here) has an
 * empty body and no CORS headers, so the extension's `fetch` saw a network failure rather than a
 * 401 it can act on: its 401 is the app's error body, kept by no cache, and its refusals get the
 * headers its answers get.
 */
function readableRefusal<A extends unknown[], T extends { sessionToken: { aud?: unknown; exp?: unknown } }>(
  check: (request: Request, ...rest: A) => Promise<T>,
) {
  return async (request: Request, ...rest: A): Promise<T> => {
    try {
      const context = await check(request, ...rest);
      if (!forThisApp(context.sessionToken)) throw new Response(null, { status: 401 });
      return context;
    } catch (err) {
      if (!(err instanceof Response)) throw err;
      const refused =
        err.status === 401 ? errorAnswer(401, 'unauthenticated', 'The session token is missing, expired or not signed by Shopify.') : err;
      if (!request.headers.get('origin')) throw refused;
      const headers = new Headers(refused.headers);
      headers.set('Access-Control-Allow-Origin', '*');
      headers.set('Access-Control-Allow-Headers', 'Authorization, Content-Type');
      throw new Response(refused.body, { status: refused.status, statusText: refused.statusText, headers });
    }
  };
}

/**
 * Shopify signs an extension's session token for one app (`aud`, its client id) and always with an
 * expiry; the library checks the signature and the times a token gives, not that these are there.
 */
function forThisApp({ aud, exp }: { aud?: unknown; exp?: unknown }): boolean {
  return typeof exp === 'number' && (Array.isArray(aud) ? aud : [aud]).includes(config.apiKey);
}

/** `authenticate.public` for the extensions' session tokens, their refusals readable across origins. */
export const authenticateExtension = {
  customerAccount: readableRefusal(authenticate.public.customerAccount),
  checkout: readableRefusal(authenticate.public.checkout),
  pos: readableRefusal(authenticate.public.pos),
};
export const unauthenticated = shopify.unauthenticated;
export const login = shopify.login;
