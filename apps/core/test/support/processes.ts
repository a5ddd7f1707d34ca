import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { endsWithTests } from './children.js';
import type { TestApp } from './harness.js';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const CLI = join(SRC, 'cli.ts');
/** The compiled binary as deployed (`pnpm --filter @loyalty/core run build` makes it). */
export const BUILT_CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

let chosenCli: string | undefined;
const newestIn = (dir: string): number =>
  Math.max(
    ...readdirSync(dir, { withFileTypes: true }).map((e) =>
      e.isDirectory() ? newestIn(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs,
    ),
  );
/**
 * The binary a test runs: the compiled one when it was built after the last change to src/ (CI
 * builds it before the suite), else the source through tsx, which costs each process start twice
 * the CPU. A stale build never runs.
 */
const defaultCli = (): string => (chosenCli ??= existsSync(BUILT_CLI) && statSync(BUILT_CLI).mtimeMs > newestIn(SRC) ? BUILT_CLI : CLI);

/** Node's arguments that run the CLI (`cli`, or the one a test runs by default), before the CLI's own. */
export const cliArgs = (cli: string = defaultCli()): string[] => (cli === CLI ? ['--import', 'tsx', cli] : [cli]);

export interface ServiceProcess {
  child: ChildProcess;
  /** The API base URL (with /api/v1.0) for `serve`; empty for `worker`. */
  url: string;
  /** Where a `worker` serves /metrics and /healthz; empty for `serve`. */
  metricsUrl: string;
  exited: Promise<void>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * The real binary (`loyalty serve --no-workers` or `loyalty worker`) in a child process on the
 * test app's database and keys, so tests can run several and kill them.
 */
export function startProcess(app: TestApp, args: string[], env: Record<string, string> = {}): Promise<ServiceProcess> {
  return startProcessWith(
    {
      DATABASE_URL: app.config.databaseUrl!,
      LOYALTY_MASTER_KEY: app.config.masterKey!.toString('base64'),
      LOYALTY_PLATFORM_TOKEN: app.config.platformToken!,
      ...env,
    },
    args,
  );
}

/** The same, for a database the test runs itself (fault tests own their server); `cli` picks the source or the built binary. */
export async function startProcessWith(env: Record<string, string>, args: string[], cli: string = defaultCli()): Promise<ServiceProcess> {
  // E-mail goes to files of the process's own unless a test names a transport: the default, SMTP, has no server here.
  const dataDir = mkdtempSync(join(tmpdir(), 'loyalty-process-'));
  const child = spawn(process.execPath, [...cliArgs(cli), ...args], {
    env: {
      ...process.env,
      PORT: '0',
      LOYALTY_WORKER_METRICS_PORT: '0',
      LOG_LEVEL: process.env.DEBUG_PROCESSES ?? 'silent',
      LOYALTY_RATE_LIMIT_PER_SECOND: '100000',
      LOYALTY_EMAIL_TRANSPORT: 'file',
      LOYALTY_DATA_DIR: dataDir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  endsWithTests(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => rmSync(dataDir, { recursive: true, force: true }));
  let metricsUrl = '';
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (process.env.DEBUG_PROCESSES) process.stderr.write(chunk);
      const listening = /listening on (\S+)/.exec(out);
      if (listening) resolve(listening[1]!);
      else if (out.includes('workers running')) {
        metricsUrl = /metrics on (\S+)\/metrics/.exec(out)?.[1] ?? '';
        resolve('');
      }
    });
    void exited.then(() => reject(new Error(`${args.join(' ')} exited before it was ready`)));
  });
  return {
    child,
    url,
    metricsUrl,
    exited,
    async kill(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

export async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
