import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { endsWithTests } from '../../../core/test/support/children';

const APP_DIR = fileURLToPath(new URL('../../', import.meta.url));
const ROUTE_ADMIN_API = new URL('./admin-api-route.mjs', import.meta.url).href;

/** Kills the process group of `child` (spawned `detached`) when the tests end, however they end. */
export function endsGroupWithTests(child: ChildProcess): void {
  endsWithTests(child, () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // The group has ended.
    }
  });
}

/** A port nothing listens on now (another process may take it before the caller listens). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * The production build (`remix vite:build`, and the commands beside it) under the app's own `start`
 * script (the migrations, then the web server, scripts/serve.mjs, beside the worker role), run as the package manager runs
 * it: in the package, its binaries on PATH, in a process group of its own.
 * `env` adds to this process's environment (the app's configuration); the shop's Admin endpoints
 * are the stub at `adminStubOrigin`. `script` names another of the package's scripts to run instead
 * (`start:web`: the web role alone, on a database already migrated).
 */
export async function serveBuild(
  adminStubOrigin: string,
  env: Record<string, string> = {},
  script: 'start' | 'start:web' = 'start',
): Promise<Served> {
  const entry = `${APP_DIR}build/server/index.js`;
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`pnpm --filter @loyalty/shopify exec remix vite:build\` first`);
  const { scripts } = JSON.parse(readFileSync(`${APP_DIR}package.json`, 'utf8')) as { scripts: Record<typeof script, string> };
  // A port found free can be taken by another file's process before the app listens on it (a CI
  // run saw EADDRINUSE): the app is then started again on another.
  for (let attempt = 1; ; attempt++) {
    try {
      return await serveOn(await freePort(), scripts[script], adminStubOrigin, env);
    } catch (err) {
      if (!(err instanceof PortTaken) || attempt >= 5) throw err;
    }
  }
}

type Served = { url: string; output(): string; close(): Promise<void>; kill(): Promise<void> };

class PortTaken extends Error {}

async function serveOn(port: number, command: string, adminStubOrigin: string, env: Record<string, string>): Promise<Served> {
  const child = spawn('sh', ['-c', command], {
    cwd: APP_DIR,
    // Its own process group, so closing ends the server and not just the shell.
    detached: true,
    env: {
      ...process.env,
      ...env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_OPTIONS: `--import=${ROUTE_ADMIN_API}`,
      SHOPIFY_ADMIN_STUB_ORIGIN: adminStubOrigin,
      PATH: `${APP_DIR}node_modules/.bin:${process.env.PATH}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  endsGroupWithTests(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (process.env.DEBUG_PROCESSES) process.stderr.write(chunk);
      if (output.includes('[serve]')) resolve();
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    void exited.then(() =>
      reject(
        output.includes('EADDRINUSE')
          ? new PortTaken(`port ${port} was taken`)
          : new Error(`the app's start script exited before it listened:\n${output}`),
      ),
    );
  });
  await untilHealthy(`http://127.0.0.1:${port}/healthz`, () => output);
  return {
    url: `http://127.0.0.1:${port}`,
    /** What the process has written to stdout and stderr so far. */
    output: () => output,
    async close() {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
      await exited;
    },
    /** SIGKILL, as a crash: nothing in the process gets to finish. */
    async kill() {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
      await exited;
    },
  };
}

/** Listening is not ready: /healthz says when the database answers with every migration applied. */
async function untilHealthy(url: string, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const status = await fetch(url).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`the app did not become healthy (last status ${status}):\n${output()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
