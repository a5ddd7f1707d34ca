import { PassThrough } from 'node:stream';
import { createReadableStreamFromReadable, type EntryContext } from '@remix-run/node';
import { RemixServer } from '@remix-run/react';
import { isbot } from 'isbot';
import { renderToPipeableStream } from 'react-dom/server';
import { addDocumentResponseHeaders } from './shopify.server';

// Single fetch: how long deferred data may stream; the render is aborted a second later.
export const streamTimeout = 5000;

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
