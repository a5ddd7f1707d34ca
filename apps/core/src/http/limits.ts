import { randomUUID } from 'node:crypto';
import { createServer, type RequestListener, type Server, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Context } from 'koa';
import { ApiError } from '../errors.js';

/** The longest request target (path and query) answered; a longer one is 414. */
export const MAX_URL_BYTES = 16 * 1024;
/**
 * What Node's parser reads of the request line and headers. Above the URL limit, so that a long URL
 * reaches the app and gets its 414 with the request id; beyond it the parser gives up (431).
 */
export const MAX_HEADER_BYTES = 64 * 1024;

/** 414 for a request target longer than MAX_URL_BYTES. */
export function checkUrl(ctx: Context): void {
  // Most URLs are far below the limit in characters, and a character is at most 3 bytes in UTF-8.
  if (ctx.originalUrl.length * 3 > MAX_URL_BYTES && Buffer.byteLength(ctx.originalUrl) > MAX_URL_BYTES) {
    throw new ApiError(
      414,
      'uri_too_long',
      `The request URL is longer than ${MAX_URL_BYTES} bytes; send fewer or shorter query parameters.`,
    );
  }
}

/** The rate-limit headers of a request refused before it was parsed, drawn on its address's guest bucket (CONTRACT §12). */
export type ChargeAddress = (address: string) => { limit: number; remaining: number };

/**
 * Answers what Node's parser refuses before the app sees a request (oversized head, malformed HTTP)
 * in the contract's error body and with the headers every answer carries, instead of Node's bare
 * status line.
 */
function answerClientError(charge: ChargeAddress, err: NodeJS.ErrnoException, socket: Duplex & { remoteAddress?: string }): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          'header_too_large',
          `The request line and headers exceed ${MAX_HEADER_BYTES} bytes (a URL may have at most ${MAX_URL_BYTES}).`,
        ]
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'request_timeout', 'The request was not received in time.']
        : [400, 'invalid_input', 'The request is not valid HTTP/1.1.'];
  const requestId = randomUUID();
  const body = JSON.stringify({ error: { status, code, message, details: [], requestId } });
  const bucket = charge(socket.remoteAddress ?? '');
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'content-type: application/json; charset=utf-8\r\n' +
      `content-length: ${Buffer.byteLength(body)}\r\n` +
      `x-request-id: ${requestId}\r\n` +
      `x-ratelimit-limit: ${bucket.limit}\r\n` +
      `x-ratelimit-remaining: ${bucket.remaining}\r\n` +
      'x-content-type-options: nosniff\r\n' +
      'connection: close\r\n\r\n' +
      body,
  );
}

/** The HTTP server of the API, with the head limits above. */
export function createHttpServer(listener: RequestListener, charge: ChargeAddress): Server {
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, listener);
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => answerClientError(charge, err, socket));
  return server;
}
