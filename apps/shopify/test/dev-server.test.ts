import { spawn } from 'node:child_process';
import { get } from 'node:http';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXTENSION_ORIGIN } from './support/extensions';
import { BROWSER } from './support/orders';
import { endsGroupWithTests, freePort } from './support/serve';

/**
 * `pnpm dev:web` (`remix vite:dev`) as `shopify app dev` runs it: the app URL a tunnel's, every
 * request arriving under its host. The extensions' cross-origin requests must reach the app's routes
 * there as in production; Vite's own CORS answered their preflights without an allowed origin.
 */
const APP_DIR = fileURLToPath(new URL('../', import.meta.url));
const TUNNEL = 'loyalty-dev.example';

let url: string;
let output = '';
let stop: () => Promise<void>;

beforeAll(async () => {
  const [port, hmrPort] = [await freePort(), await freePort()];
  const child = spawn(`${APP_DIR}node_modules/.bin/remix`, ['vite:dev', '--port', String(port), '--strictPort', '--host', '127.0.0.1'], {
    cwd: APP_DIR,
    detached: true,
    env: {
      ...process.env,
      SHOPIFY_API_KEY: 'dev-key',
      SHOPIFY_API_SECRET: 'dev-secret',
      SHOPIFY_APP_URL: `https://${TUNNEL}`,
      FRONTEND_PORT: String(hmrPort),
      // Nothing here reaches the database or the core: the routes asked answer before either.
      DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none',
      LOYALTY_CORE_URL: 'http://127.0.0.1:1',
      LOYALTY_PLATFORM_TOKEN: 'dev',
      LOYALTY_SHOPIFY_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  endsGroupWithTests(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  stop = async () => {
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
    await exited;
  };
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      // Vite colours its banner where CI is set, the port in bold among it.
      output += stripVTControlCharacters(chunk.toString());
      if (output.includes(`:${port}/`)) resolve();
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    void exited.then(() => reject(new Error(`vite:dev exited before it listened:\n${output}`)));
  });
  url = `http://127.0.0.1:${port}`;
}, 60_000);

afterAll(async () => {
  await stop?.();
});

describe('the dev server', () => {
  it("answers requests under the tunnel's host, and keeps Vite's refusal of any other", async () => {
    // node:http, as fetch leaves out a Host header it is given.
    const under = (host: string) =>
      new Promise<number>((resolve, reject) => {
        get(`${url}/auth/login`, { headers: { host, 'user-agent': BROWSER } }, (res) => {
          res.resume();
          resolve(res.statusCode!);
        }).on('error', reject);
      });
    expect(await under(TUNNEL), output).toBe(200);
    expect(await under('elsewhere.example')).toBe(403);
  });

  it("lets an extension's preflight through to the route, which allows its origin as in production", async () => {
    const res = await fetch(`${url}/customer-account/token`, {
      method: 'OPTIONS',
      headers: {
        origin: EXTENSION_ORIGIN,
        'user-agent': BROWSER,
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(res.status, output).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')).toContain('Authorization');
  });
});
