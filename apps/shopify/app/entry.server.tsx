import { PassThrough } from 'node:stream';
import { createReadableStreamFromReadable, type EntryContext, type HandleErrorFunction } from '@remix-run/node';
import { isRouteErrorResponse, RemixServer } from '@remix-run/react';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import { errorAnswer } from './http.server';
import { addDocumentResponseHeaders } from './shopify.server';
import { isDatabaseOutage } from './storage/pool.server';

// Single fetch: how long deferred data may stream; the render is aborted a second later.
export const streamTimeout = 5000;

/**
 * Before any route runs, Remix refuses an action from another origin (its guard against
 * cross-site form posts: a document's POST, PUT, PATCH or DELETE, or a `.data` request other than
 * GET whose Origin is not the app's host) by throwing this, which it answers 500 (a document's with
 * no body) and would log with a stack trace. It is a refusal, not a failure: not logged, and
 * answered by `refusal` instead.
 */
const CROSS_ORIGIN_ACTION = /origin` header from a forwarded action request\. Aborting the action\.$/;
const crossOriginActions = new WeakSet<Request>();

/** What Remix puts in place of a failure's error outside development. */
const isSanitized = (error: unknown) => error instanceof Error && error.message === 'Unexpected Server Error';

/** Requests that failed because the app's database was out of reach: answered 503 by `finalAnswer`. */
const outages = new WeakSet<Request>();

/** Seconds a client is asked to wait before retrying a request the database's outage failed. */
const OUTAGE_RETRY_AFTER = '5';

/**
 * Logs as Remix does (the error an internal error response wraps), but not a refusal: a
 * cross-origin action, or Remix's own 4xx (no route for the address, a method the route does not
 * take). The database out of reach is the environment's state, not the code's failure: one line, no stack.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (error instanceof Error && CROSS_ORIGIN_ACTION.test(error.message)) {
    crossOriginActions.add(request);
    return;
  }
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return;
  const wrapped = isRouteErrorResponse(error) && 'error' in error ? error.error : undefined;
  const failure = wrapped ?? error;
  // A page's failure comes back as Remix's sanitized stand-in, here and in the render; its real error was told first.
  if (isSanitized(failure)) return;
  if (isDatabaseOutage(failure)) {
    outages.add(request);
    console.error(`[database] out of reach: ${failure instanceof Error ? failure.message : String(failure)}`);
    return;
  }
  console.error(failure);
};

/** Bodies the app renders itself (a page, single fetch's data), which its error boundaries word; Remix's bare failure is plain text. */
const RENDERED = /^text\/(html|x-script)/;

/**
 * What the server (scripts/serve.mjs) answers for `request` once Remix answered `response`: a
 * cross-origin action Remix refused is 403 with the app's error body; a failure because the app's
 * database was out of reach is 503 with Retry-After, as a retryable outage (Shopify retries a
 * webhook or a Flow action, a page says to try again), its page kept and a bare failure given the
 * app's error body. Anything else is Remix's answer. Vite's dev server answers Remix's own.
 */
export async function finalAnswer(request: Request, response: Response): Promise<Response> {
  if (crossOriginActions.has(request)) {
    await response.body?.cancel();
    return errorAnswer(403, 'cross_origin', 'Another origin may only read (GET) this address.');
  }
  if (!outages.has(request) || response.status !== 500) return response;
  if (RENDERED.test(response.headers.get('content-type') ?? '')) {
    const headers = new Headers(response.headers);
    headers.set('retry-after', OUTAGE_RETRY_AFTER);
    return new Response(response.body, { status: 503, headers });
  }
  await response.body?.cancel();
  return errorAnswer(503, 'unavailable', 'The app is briefly unavailable; nothing was done. Retry shortly.', {
    'retry-after': OUTAGE_RETRY_AFTER,
  });
}

/**
 * Single fetch's `.data` answers carry a route's data without the headers its loader's Response
 * set, its `no-store` among them: a shopper's token asked for at `/apps/loyalty/token.data` (one URL
 * for every shopper, behind the proxy) could be kept by a cache and given to another. Every data
 * answer is one session's: none is stored.
 */
export function handleDataRequest(response: Response): Response {
  response.headers.set('Cache-Control', 'no-store');
  return response;
}

/** Streams the document; Shopify's headers (frame ancestors, CSP) are added to every page. */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
) {
  addDocumentResponseHeaders(request, responseHeaders);
  // Crawlers get the whole document at once; browsers get it streamed.
  const readyEvent = isbot(request.headers.get('user-agent') ?? '') ? 'onAllReady' : 'onShellReady';
  return new Promise<Response>((resolve, reject) => {
    const { pipe, abort } = renderToPipeableStream(<RemixServer context={remixContext} url={request.url} />, {
      [readyEvent]: () => {
        const body = new PassThrough();
        responseHeaders.set('Content-Type', 'text/html');
        resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
        pipe(body);
      },
      onShellError: reject,
      onError: (error: unknown) => {
        responseStatusCode = 500;
        if (!isSanitized(error)) console.error(error);
      },
    });
    setTimeout(abort, streamTimeout + 1000);
  });
}
