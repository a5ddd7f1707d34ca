import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { createRequestHandler, type ServerBuild } from '@remix-run/node';

const BUILD = fileURLToPath(new URL('../../build/', import.meta.url));
const TYPES: Record<string, string> = { '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.woff2': 'font/woff2' };

function toRequest(req: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  return new Request(new URL(req.url ?? '/', origin), {
    method: req.method,
    headers,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit);
}

/** Serves the production build (`remix vite:build`) on a local port: static assets, then Remix. */
export async function serveBuild(): Promise<{ url: string; close(): Promise<void> }> {
  const build = (await import(/* @vite-ignore */ join(BUILD, 'server/index.js'))) as ServerBuild;
  const handle = createRequestHandler(build, 'production');
  let origin = '';
  const server: Server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent((req.url ?? '/').split('?')[0]!));
    const file = join(BUILD, 'client', path);
    if (path.startsWith('/assets/') && file.startsWith(join(BUILD, 'client')) && existsSync(file) && statSync(file).isFile()) {
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      createReadStream(file).pipe(res);
      return;
    }
    try {
      const response = await handle(toRequest(req, origin));
      const headers: Record<string, string[]> = {};
      response.headers.forEach((value, key) => (headers[key] ??= []).push(value));
      res.writeHead(response.status, headers);
      if (response.body) Readable.fromWeb(response.body as never).pipe(res);
      else res.end();
    } catch (err) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(err));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }).then(() => (build.entry.module as { closeConnections?: () => Promise<void> }).closeConnections?.()),
  };
}
