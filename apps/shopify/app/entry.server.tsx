import { PassThrough } from 'node:stream';
import { createReadableStreamFromReadable, type EntryContext, type HandleErrorFunction } from '@remix-run/node';
import { isRouteErrorResponse, RemixServer } from '@remix-run/react';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import { errorAnswer } from './http.server';
import { addDocumentResponseHeaders } from './shopify.server';

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

/**
 * Logs as Remix does (the error an internal error response wraps), but not a refusal: a
 * cross-origin action, or Remix's own 4xx (no route for the address, a method the route does not take).
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (error instanceof Error && CROSS_ORIGIN_ACTION.test(error.message)) {
    crossOriginActions.add(request);
    return;
  }
  if (request.signal.aborted || (isRouteErrorResponse(error) && error.status < 500)) return;
  const wrapped = isRouteErrorResponse(error) && 'error' in error ? error.error : undefined;
  console.error(wrapped ?? error);
};

/**
 * What the server (scripts/serve.mjs) answers instead of Remix's answer to `request`: a
 * cross-origin action Remix refused is 403 with the app's error body. Vite's dev server answers
 * Remix's own 500.
 */
export function refusal(request: Request): Response | undefined {
  if (!crossOriginActions.has(request)) return undefined;
  return errorAnswer(403, 'cross_origin', 'Another origin may only read (GET) this address.');
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
        console.error(error);
      },
    });
    setTimeout(abort, streamTimeout + 1000);
  });
}
