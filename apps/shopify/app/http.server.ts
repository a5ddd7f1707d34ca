/** A request's body, or null past `max` bytes (declared or sent): read no further than that. */
export async function boundedBody(request: Request, max: number): Promise<Buffer | null> {
  if (Number(request.headers.get('content-length') ?? 0) > max) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body?.getReader();
  for (;;) {
    const next = await reader?.read();
    if (!next || next.done) break;
    size += next.value.byteLength;
    if (size > max) {
      await reader!.cancel();
      return null;
    }
    chunks.push(next.value);
  }
  return Buffer.concat(chunks);
}

/**
 * Deeper than any body the app's callers send (Shopify's payloads and the admin's drafts nest a few
 * levels): past it a body is refused, as reading it (JSON.stringify, structuredClone, PostgreSQL's
 * jsonb, an answer holding it) would run out of stack some thousands deep.
 */
export const MAX_JSON_DEPTH = 64;

/** How deep the body's arrays and objects nest, counted on its bytes (a recursive walk would itself run out of stack). */
export function nesting(body: Buffer): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (inString) {
      // A backslash escapes the byte after it; no byte of a multi-byte UTF-8 character is ASCII.
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** The body as JSON, or undefined when it is not JSON. */
export function jsonOf(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** An admin page's JSON body; null when it is none, or nests past MAX_JSON_DEPTH (each page's action then refuses it). */
export async function jsonBody(request: Request): Promise<unknown> {
  const body = Buffer.from(await request.arrayBuffer());
  return nesting(body) > MAX_JSON_DEPTH ? null : (jsonOf(body) ?? null);
}

/** The loader of a route only POSTed to (webhooks, Flow actions, the app proxy's visit): any other method is 405, saying which one it takes. */
export const postOnly = () => new Response(null, { status: 405, headers: { allow: 'POST' } });

/** Such a route's action: Remix hands it PUT, PATCH and DELETE too, which are 405 as a GET is. */
export const postAction =
  <A extends { request: Request }>(handle: (args: A) => Promise<Response>) =>
  (args: A): Promise<Response> =>
    args.request.method === 'POST' ? handle(args) : Promise.resolve(postOnly());

/**
 * The action of a route only read (the app proxy's token, the health check, the admin's downloads
 * and redirects): Remix would answer another method with a 405 of its own that names no allowed
 * method and says "Unexpected Server Error", and log it as an error.
 */
export const getOnly = () => errorAnswer(405, 'method_not_allowed', 'This address takes GET only.', { allow: 'GET' });

/**
 * The action of a route UI extensions read across origins (checkout, customer account, POS): Remix
 * gives their CORS preflight to the loader, where the library answers it, and every write to the
 * action, which is no way to ask for a token. Readable across origins, as the routes' other refusals.
 */
export const extensionGetOnly = () =>
  errorAnswer(405, 'method_not_allowed', 'This address takes GET only.', { allow: 'GET, OPTIONS', 'access-control-allow-origin': '*' });

export const noStore = { 'cache-control': 'no-store' };

/** A refusal in the app's JSON error body, which no cache keeps. */
export function errorAnswer(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  return Response.json({ error: { code, message } }, { status, headers: { ...noStore, ...headers } });
}

/**
 * A token bucket per key, in this process: `burst` requests at once, then `perSecond`. It bounds
 * what a route anyone may call (a guest through the app proxy) spends of a shop's core and Shopify
 * budgets, which the shop's orders and admin share.
 */
export class PerKeyLimit {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly perSecond: number,
    private readonly burst: number,
  ) {}

  /** Takes a request's token for `key`: 0 when it had one, else the seconds until one is free. */
  take(key: string, now = Date.now()): number {
    const bucket = this.buckets.get(key) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return (1 - bucket.tokens) / this.perSecond;
  }
}
