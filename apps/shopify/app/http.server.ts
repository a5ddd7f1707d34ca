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
