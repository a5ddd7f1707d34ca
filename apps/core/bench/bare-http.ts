import { spawn } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Router from '@koa/router';
import Koa from 'koa';
import pg from 'pg';
// The service binary's V8 settings, so that the comparison is between code and not between flags.
import '../src/v8-flags.js';

/**
 * The fair limit for an API benchmark: a bare `node:http` server in a process of its own that runs
 * a benchmark's SQL through `pg` and answers JSON, with nothing else on the path (no framework, no
 * auth, no validation, no logging). The service's figure over this one's, under the same load
 * generator and pool size, is what any Node service here could still gain.
 *
 * A benchmark writes its route table in a module of its own (exporting `routes`) and starts the
 * server with `startBareHttpProcess`; the child process imports that module.
 *
 * With `framework: 'koa'` the same routes are served by Koa and @koa/router instead, and nothing
 * else: the service's framework alone, so a benchmark can tell what the framework costs from what
 * the service's own work on each request (authentication, rate limits, validation, metrics) does.
 */

/** How the routes are served: node:http and a loop over the table, or Koa with @koa/router. */
export type BareFramework = 'node' | 'koa';

export interface BareRequest<Context = unknown> {
  method: string;
  /** The path without the query string. */
  path: string;
  /** The `:name` segments of the route's path. */
  params: Record<string, string>;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body; undefined when the request has none. */
  body: unknown;
  /** Whatever the benchmark passed to `startBareHttpProcess` (ids of its seeded data, say). */
  context: Context;
}

export interface BareReply {
  status?: number;
  body: unknown;
}

export interface BareRoute<Context = unknown> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Literal segments and `:name` parameters, e.g. `/api/v1.0/schema/account_user/record/:id`. */
  path: string;
  /** Runs the SQL; its answer is sent as JSON, with status 200 unless it says otherwise. */
  handle(pool: pg.Pool, request: BareRequest<Context>): Promise<BareReply>;
}

interface CompiledRoute<Context> {
  route: BareRoute<Context>;
  segments: string[];
}

function compile<Context>(routes: readonly BareRoute<Context>[]): CompiledRoute<Context>[] {
  return routes.map((route) => ({ route, segments: route.path.split('/') }));
}

function match<Context>(
  compiled: readonly CompiledRoute<Context>[],
  method: string,
  path: string,
): { route: BareRoute<Context>; params: Record<string, string> } | undefined {
  const parts = path.split('/');
  for (const { route, segments } of compiled) {
    if (route.method !== method || segments.length !== parts.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < segments.length && ok; i++) {
      const segment = segments[i]!;
      if (segment.startsWith(':')) params[segment.slice(1)] = decodeURIComponent(parts[i]!);
      else ok = segment === parts[i];
    }
    if (ok) return { route, params };
  }
  return undefined;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (chunks.length === 0) return undefined;
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** The routes on node:http alone: a loop over the table, the body read and the answer sent by hand. */
function nodeHandler<Context>(routes: readonly BareRoute<Context>[], pool: pg.Pool, context: Context) {
  const compiled = compile(routes);
  return (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const found = match(compiled, req.method ?? 'GET', path);
    if (!found) return send(res, 404, { error: 'not_found' });
    readBody(req)
      .then((body) =>
        found.route.handle(pool, {
          method: req.method ?? 'GET',
          path,
          params: found.params,
          query: new URLSearchParams(q === -1 ? '' : url.slice(q + 1)),
          headers: req.headers,
          body,
          context,
        }),
      )
      .then(
        (reply) => send(res, reply.status ?? 200, reply.body),
        // The benchmark voids a run on any non-2xx, so a failing query cannot pass unnoticed.
        (err: unknown) => send(res, 500, { error: (err as Error).message }),
      );
  };
}

/** The routes as one Koa application: each route one @koa/router layer, its answer Koa's JSON body. */
function koaHandler<Context>(routes: readonly BareRoute<Context>[], pool: pg.Pool, context: Context) {
  const router = new Router();
  for (const route of routes) {
    router.register(route.path, [route.method], async (ctx) => {
      const reply = await route.handle(pool, {
        method: ctx.method,
        path: ctx.path,
        params: ctx.params as Record<string, string>,
        query: new URLSearchParams(ctx.querystring),
        headers: ctx.headers,
        body: await readBody(ctx.req),
        context,
      });
      ctx.status = reply.status ?? 200;
      ctx.body = reply.body;
    });
  }
  // Koa answers a thrown error with 500 itself: the benchmark voids a run on any non-2xx.
  return new Koa().use(router.routes()).callback();
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export interface BareServer {
  url: string;
  close(): Promise<void>;
}

/** Serves `routes` in this process; `startBareHttpProcess` is the way a benchmark should use it. */
export async function serveBareHttp<Context>(options: {
  routes: readonly BareRoute<Context>[];
  databaseUrl: string;
  poolSize: number;
  context: Context;
  framework?: BareFramework;
  port?: number;
}): Promise<BareServer> {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize });
  const handler =
    options.framework === 'koa' ? koaHandler(options.routes, pool, options.context) : nodeHandler(options.routes, pool, options.context);
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await pool.end();
    },
  };
}

export interface BareProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * Starts the bare server in a child process of its own, as the service runs in its own.
 * `routesModule` is the URL of a module exporting `routes: BareRoute<Context>[]`; `context` must
 * survive JSON.
 */
export async function startBareHttpProcess<Context>(options: {
  routesModule: URL;
  databaseUrl: string;
  poolSize: number;
  context: Context;
  framework?: BareFramework;
}): Promise<BareProcess> {
  const nodeOptions = process.env.BENCH_BARE_NODE_OPTIONS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...nodeOptions, '--import', 'tsx', fileURLToPath(import.meta.url)], {
    env: {
      ...process.env,
      BARE_HTTP_ROUTES: options.routesModule.href,
      BARE_HTTP_DATABASE_URL: options.databaseUrl,
      BARE_HTTP_POOL_SIZE: String(options.poolSize),
      BARE_HTTP_CONTEXT: JSON.stringify(options.context),
      BARE_HTTP_FRAMEWORK: options.framework ?? 'node',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(out);
      if (found) resolve(found[1]!);
    });
    void exited.then((code) => reject(new Error(`bare HTTP server exited with ${code} before it was ready`)));
  });
  return {
    url,
    pid: child.pid!,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

// The child process: serve the routes it was given until told to stop.
if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const env = (name: string) => {
    const value = process.env[name];
    if (!value) throw new Error(`${name} is not set`);
    return value;
  };
  const { routes } = (await import(env('BARE_HTTP_ROUTES'))) as { routes: BareRoute[] };
  const server = await serveBareHttp({
    routes,
    databaseUrl: env('BARE_HTTP_DATABASE_URL'),
    poolSize: Number(env('BARE_HTTP_POOL_SIZE')),
    context: JSON.parse(env('BARE_HTTP_CONTEXT')) as unknown,
    framework: env('BARE_HTTP_FRAMEWORK') as BareFramework,
  });
  process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
  console.log(`bare HTTP server listening on ${server.url}`);
}
