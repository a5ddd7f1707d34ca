import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliArgs } from '../support/processes.js';

/**
 * `serve --demo` as a newcomer runs it (embedded PostgreSQL, generated platform token), with every
 * request logged: the demo API secret and the platform token never reach the service's output
 * when it is kept (a pipe, as a service manager or a log file has it), and reach a terminal once.
 */

let dataDir: string;
const { DATABASE_URL: _external, ...baseEnv } = process.env;
const env = { ...baseEnv, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'debug', LOYALTY_DATA_DIR: '' };

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'loyalty-logs-'));
  // The embedded server may run as another user (when run as root); it must reach its folder.
  await chmod(dataDir, 0o755);
  env.LOYALTY_DATA_DIR = dataDir;
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

interface Served {
  child: ChildProcess;
  output: () => string;
  url: string;
  stop(): Promise<void>;
}

/** Starts a command whose output is collected; ready when the banner's last line is out. */
async function serve(command: string, args: string[], options: { detached?: boolean } = {}): Promise<Served> {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'], detached: options.detached });
  let out = '';
  child.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const listening = /listening on (http:\/\/\S+)/.exec(out);
      if (listening && out.includes('Try:')) {
        clearInterval(timer);
        resolve(listening[1]!);
      }
    }, 100);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error(`serve exited before it was ready:\n${out}`));
    });
  });
  return {
    child,
    output: () => out,
    url,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        if (options.detached) process.kill(-child.pid!, 'SIGTERM');
        else child.kill('SIGTERM');
      }
      await exited;
    },
  };
}

async function secrets(): Promise<{ apiKey: string; apiSecret: string; platformToken: string }> {
  const demo = JSON.parse(await readFile(join(dataDir, 'demo.json'), 'utf8')) as { apiKey: string; apiSecret: string };
  return {
    apiKey: demo.apiKey,
    apiSecret: demo.apiSecret,
    platformToken: (await readFile(join(dataDir, 'platform.token'), 'utf8')).trim(),
  };
}

/** Requests that carry both secrets in headers, queries and paths. */
async function useSecrets(url: string, s: Awaited<ReturnType<typeof secrets>>): Promise<void> {
  const apiKey = { 'x-api-key': s.apiKey, 'x-api-secret': s.apiSecret };
  expect((await fetch(`${url}/schema/streak/record`, { headers: apiKey })).status).toBe(200);
  expect(
    (
      await fetch(`${url}/schema/streak/record?${encodeURIComponent(s.apiSecret)}=${encodeURIComponent(s.platformToken)}`, {
        headers: apiKey,
      })
    ).status,
  ).toBe(400);
  expect(
    (await fetch(`${url}/schema/streak/record`, { headers: { 'x-api-key': s.apiKey, 'x-api-secret': `${s.apiSecret}x` } })).status,
  ).toBe(401);
  const created = await fetch(`${url}/platform/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${s.platformToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ organizationName: 'O', accountName: 'A' }),
  });
  expect(created.status).toBe(200);
  expect(
    (await fetch(`${url}/platform/accounts`, { method: 'POST', headers: { authorization: `Bearer ${s.platformToken}x` } })).status,
  ).toBe(401);
  expect(
    (
      await fetch(`${url}/enduser/token`, {
        method: 'POST',
        headers: { ...apiKey, 'content-type': 'application/json' },
        body: '{"externalId":"m"}',
      })
    ).status,
  ).toBe(200);
}

/** The pino lines of the output (the banner is plain text). */
const structured = (output: string) => output.split(/\r?\n/).filter((line) => line.startsWith('{'));

describe('secrets in the service output', () => {
  it('never appear when the output is kept; the banner names the files that hold them', async () => {
    const served = await serve(process.execPath, [...cliArgs(), 'serve', '--demo', '--no-workers']);
    try {
      const s = await secrets();
      await useSecrets(`${served.url}`, s);
    } finally {
      await served.stop();
    }
    const s = await secrets();
    const output = served.output();
    expect(structured(output).filter((line) => line.includes('"msg":"request"')).length).toBeGreaterThan(10);
    expect(output).not.toContain(s.apiSecret);
    expect(output).not.toContain(s.platformToken);
    expect(output).toContain(`Platform token: in ${join(dataDir, 'platform.token')}`);
    expect(output).toContain(`x-api-secret   in ${join(dataDir, 'demo.json')}`);
  }, 180_000);

  it('reach a terminal once each, in the banner, and never a log line', async () => {
    const command = [process.execPath, ...cliArgs(), 'serve', '--demo', '--no-workers'].map((a) => `'${a}'`).join(' ');
    // `script` gives the service a pseudo-terminal, as a newcomer's shell would.
    const served = await serve('script', ['-q', '-f', '-e', '-c', command, '/dev/null'], { detached: true });
    try {
      await useSecrets(served.url, await secrets());
    } finally {
      await served.stop();
    }
    const s = await secrets();
    const output = served.output();
    expect(output.split(s.apiSecret)).toHaveLength(2);
    expect(output.split(s.platformToken)).toHaveLength(2);
    expect(structured(output).filter((line) => line.includes('"msg":"request"')).length).toBeGreaterThan(10);
    expect(structured(output).filter((line) => line.includes(s.apiSecret) || line.includes(s.platformToken))).toEqual([]);
  }, 180_000);
});
