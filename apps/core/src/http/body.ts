import { isUtf8 } from 'node:buffer';
import { parse as parseContentType } from 'content-type';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import { z } from 'zod';
import { ApiError, invalidInput, payloadTooLarge, unsupportedMediaType } from '../errors.js';
import { type TextFlaw, textFlaw } from '../formats.js';
import { issueDetails } from '../records/validate.js';

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
const LARGE_BODY_ROUTES = /\/action\/import_coupons$/;
const LARGE_BODY_BYTES = 4 * 1024 * 1024;

/** The most a request to `path` may send: 1 MB, 4 MB for coupon imports (413 beyond). */
export const bodyLimitOf = (path: string) => (LARGE_BODY_ROUTES.test(path) ? LARGE_BODY_BYTES : DEFAULT_MAX_BODY_BYTES);

export interface ReadBody {
  raw: Buffer | undefined;
  mediaType: string | undefined;
  /** Parsed JSON for application/json bodies. */
  json: unknown;
}

function hasBody(ctx: Context): boolean {
  const len = ctx.get('content-length');
  if (len !== '') return Number(len) > 0;
  return ctx.get('transfer-encoding') !== '';
}

/** The body's bytes, at most `maxBytes` (413 beyond, unread). */
async function receive(ctx: Context, maxBytes: number): Promise<Buffer> {
  try {
    return await getRawBody(ctx.req, { limit: maxBytes, length: ctx.get('content-length') || undefined });
  } catch (err) {
    // raw-body's errors say what went wrong in `type`.
    if (err instanceof Error && 'type' in err && err.type === 'entity.too.large')
      throw payloadTooLarge(`The body exceeds ${maxBytes} bytes.`);
    throw new ApiError(400, 'invalid_input', 'The request body could not be read.');
  }
}

/** What a request's body will hold in memory once received: its declared length, else its route's limit; 0 without one. */
export const heldBytesOf = (ctx: Context): number => (hasBody(ctx) ? Number(ctx.get('content-length')) || bodyLimitOf(ctx.path) : 0);

/**
 * Receives the request's body whole, up to what its path may send, before the request waits
 * for its account's turn (http/auth.ts): a client sending it slowly holds its own socket, never one
 * of the turns its account's other requests need. `readBody` then checks it as the route says.
 */
export async function receiveBody(ctx: Context): Promise<void> {
  if (hasBody(ctx) && !ctx.state.receivedBody) ctx.state.receivedBody = await receive(ctx, bodyLimitOf(ctx.path));
}

/** The media type a request declares, when it is one the route accepts (most bodiless requests declare none). */
function declaredType(declared: string, accepts: string[]): string | undefined {
  if (!declared) return undefined;
  try {
    const { type } = parseContentType(declared);
    return accepts.includes(type) ? type : undefined;
  } catch {
    return undefined;
  }
}

/** Reads the request body, enforcing size, media type and JSON syntax in the contract's order. */
export async function readBody(ctx: Context, options: { accepts?: string[]; maxBytes?: number } = {}): Promise<ReadBody> {
  const accepts = options.accepts ?? ['application/json'];
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BODY_BYTES;
  const declared = ctx.get('content-type');
  // An empty body keeps the type it was declared with (an empty CSV file is a CSV file).
  if (!hasBody(ctx)) return { raw: undefined, mediaType: declaredType(declared, accepts), json: undefined };
  let mediaType: string;
  try {
    mediaType = parseContentType(declared).type;
  } catch {
    throw unsupportedMediaType(`A request body needs a content type of ${accepts.join(' or ')}.`);
  }
  if (!accepts.includes(mediaType))
    throw unsupportedMediaType(`Content type ${mediaType} is not accepted here; use ${accepts.join(' or ')}.`);
  // A compressed body would be read as its compressed bytes (RFC 9110 §8.4: 415 for a coding not understood).
  const coding = ctx.get('content-encoding').trim().toLowerCase();
  if (coding !== '' && coding !== 'identity')
    throw unsupportedMediaType(`Content-Encoding ${coding} is not accepted; send the body uncompressed.`);
  const raw = ctx.state.receivedBody ?? (await receive(ctx, maxBytes));
  if (raw.length > maxBytes) throw payloadTooLarge(`The body exceeds ${maxBytes} bytes.`);
  if (raw.length === 0) return { raw: undefined, mediaType, json: undefined };
  // Decoding would turn invalid bytes into U+FFFD and store them; text bodies must be UTF-8.
  if ((mediaType === 'application/json' || mediaType.startsWith('text/')) && !isUtf8(raw)) {
    throw invalidInput('The body is not valid UTF-8.', [{ code: 'invalid_encoding', message: 'The body must be encoded as UTF-8.' }]);
  }
  if (mediaType.startsWith('text/') && raw.includes(0)) throw unstorable('body', 'nul_character');
  if (mediaType !== 'application/json') return { raw, mediaType, json: undefined };
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch (err) {
    // JSON.parse throws a SyntaxError, whose message says where.
    throw invalidInput('The body is not valid JSON.', [
      { code: 'invalid_json', message: err instanceof Error ? err.message : String(err) },
    ]);
  }
  const found = unstorablePath(json, '', 0);
  if (found === TOO_DEEP)
    throw invalidInput(`The body is nested more than ${MAX_BODY_DEPTH} levels deep.`, [
      { code: 'too_deep', message: `Objects and arrays may nest at most ${MAX_BODY_DEPTH} levels.` },
    ]);
  if (found) throw unstorable(found.path || 'body', found.flaw);
  return { raw, mediaType, json };
}

const NO_BODY = z.strictObject({});

/** Where a request takes no body fields: a JSON body may be an empty object at most, each other field named (CONTRACT §2). */
export function refuseBodyFields(json: unknown, message: string): void {
  if (json === undefined) return;
  const parsed = NO_BODY.safeParse(json);
  if (!parsed.success) throw invalidInput(message, issueDetails('', parsed.error));
}

/**
 * The body of a request that takes none (a read, a delete), checked as any body is where the
 * contract's order puts it: another media type 415, JSON that does not parse 400, and no fields.
 */
export async function readNoBody(ctx: Context): Promise<void> {
  refuseBodyFields((await readBody(ctx)).json, 'This request takes no body.');
}

const FLAW_MESSAGES: Record<TextFlaw, string> = {
  nul_character: 'NUL (U+0000) is not allowed in a string.',
  lone_surrogate: 'A lone surrogate (an escape \\ud800 to \\udfff without its pair) is not a character.',
};

const unstorable = (field: string, flaw: TextFlaw) =>
  invalidInput(`"${field}" contains ${flaw === 'nul_character' ? 'a NUL character' : 'a lone surrogate'}, which is not allowed.`, [
    { field, code: flaw, message: FLAW_MESSAGES[flaw] },
  ]);

/**
 * How deep a body's objects and arrays may nest. No resource needs more than a few levels; a limit
 * keeps this walk, validation and serialization from running out of stack on a small body of
 * brackets (20 KB nest 10,000 levels).
 */
export const MAX_BODY_DEPTH = 64;
const TOO_DEEP = 'too_deep';

/**
 * The path (as validation errors name fields: `a.b[0]`) of the first string or key with a flaw, or
 * TOO_DEEP once the nesting passes MAX_BODY_DEPTH.
 */
function unstorablePath(value: unknown, path: string, depth: number): { path: string; flaw: TextFlaw } | typeof TOO_DEEP | undefined {
  if (typeof value === 'string') {
    const flaw = textFlaw(value);
    return flaw ? { path, flaw } : undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  if (depth >= MAX_BODY_DEPTH) return TOO_DEEP;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = unstorablePath(item, `${path}[${i}]`, depth + 1);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    const keyFlaw = textFlaw(key);
    if (keyFlaw) return { path: at, flaw: keyFlaw };
    const found = unstorablePath(item, at, depth + 1);
    if (found) return found;
  }
  return undefined;
}
