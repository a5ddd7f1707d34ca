import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliArgs, until } from '../support/processes.js';

/**
 * `loyalty serve` on its embedded PostgreSQL, as the README's first command runs it (no
 * DATABASE_URL, no supervisor): it survives the death of its database and of itself. One data dir
 * serves the whole file, in order, so the cluster is initialised once.
 */

let dataDir: string;
let pidFile: string;
let service: Served | undefined;

interface Served {
  child: ChildProcess;
  /** The API base URL (with /api/v1.0). */
  url: string;
  headers: Record<string, string>;
  exited: Promise<number | null>;
}

/** `loyalty serve --demo` with DATABASE_URL removed: the embedded PostgreSQL in dataDir. */
function spawnServe(): { child: ChildProcess; stdout: () => string; stderr: () => string; exited: Promise<number | null> } {
  const { DATABASE_URL: _external, ...env } = process.env;
  const child = spawn(process.execPath, [...cliArgs(), 'serve', '--demo'], {
    env: { ...env, HOST: '127.0.0.1', PORT: '0', LOYALTY_DATA_DIR: dataDir, LOG_LEVEL: 'silent', LOYALTY_SCHEDULER_INTERVAL_MS: '500' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, stdout: () => stdout, stderr: () => stderr, exited };
}

async function serve(): Promise<Served> {
  const { child, stdout, stderr, exited } = spawnServe();
  let gone = false;
  void exited.then(() => (gone = true));
  await until(() => gone || /x-api-secret\s+\S+/.test(stdout()), 90_000, 'serve listening');
  if (gone) throw new Error(`serve exited before it was ready: ${stderr()}`);
  const out = stdout();
  return {
    child,
    url: /listening on (\S+)/.exec(out)![1]!,
    // The secret is printed to a terminal only; a pipe is told the file that holds it.
    headers: {
      'x-api-key': /x-api-key\s+(\S+)/.exec(out)![1]!,
      'x-api-secret': (JSON.parse(readFileSync(join(dataDir, 'demo.json'), 'utf8')) as { apiSecret: string }).apiSecret,
      'content-type': 'application/json',
    },
    exited,
  };
}

/** Every postmaster seen, so that afterAll can stop whatever a failed test left running. */
const seen = new Set<number>();

function postmaster(): { pid: number; port: number } {
  const lines = readFileSync(pidFile, 'utf8').split('\n');
  const pid = Number(lines[0]);
  // PostgreSQL writes the file in steps: read before its first line, it names no process (0 would be our own group).
  if (!Number.isInteger(pid) || pid <= 0) throw new Error('postmaster.pid names no process yet');
  seen.add(pid);
  return { pid, port: Number(lines[3]) };
}

/** The pid in postmaster.pid, or undefined while the restart has cleared the file and not yet written its pid. */
function restartedPid(): number | undefined {
  try {
    return postmaster().pid;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function ready(s: Served): Promise<boolean> {
  try {
    return (await fetch(new URL('/readyz', s.url))).status === 200;
  } catch {
    return false;
  }
}

const createStreak = (s: Served, name: string) =>
  fetch(`${s.url}/schema/streak/record`, { method: 'POST', headers: s.headers, body: JSON.stringify({ name }) });

async function streakNames(s: Served): Promise<string[]> {
  const res = await fetch(`${s.url}/schema/streak/record?limit=1000`, { headers: s.headers });
  return ((await res.json()) as { data: { name: string }[] }).data.map((r) => r.name);
}

/** Asks the embedded server directly (the test knows its password and finds its port in postmaster.pid). */
async function query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ host: '127.0.0.1', port: postmaster().port, user: 'postgres', password: 'postgres', database: 'loyalty' });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

async function stopService(signal: NodeJS.Signals): Promise<number | null> {
  const s = service!;
  service = undefined;
  s.child.kill(signal);
  return s.exited;
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'loyalty-embedded-'));
  // The embedded server may run as another user (when run as root); it must reach its folder.
  await chmod(dataDir, 0o755);
  pidFile = join(dataDir, 'pg', 'postmaster.pid');
});

afterAll(async () => {
  if (service) await stopService('SIGTERM');
  // Whatever a failed test left behind: never leave a server running (a pid still alive is
  // checked to be a postgres of this data dir, in case it was reused).
  if (existsSync(pidFile)) restartedPid();
  for (const pid of seen) {
    if (alive(pid) && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dataDir)) {
      process.kill(pid, 'SIGQUIT');
      await until(() => !alive(pid), 30_000, 'leftover postmaster gone');
    }
  }
  await rm(dataDir, { recursive: true, force: true });
});

describe('loyalty serve on its embedded PostgreSQL', () => {
  it('brings its database back after the postmaster is killed: ready again, writes succeed, workers run', async () => {
    service = await serve();
    expect((await createStreak(service, 'Before the crash')).status).toBe(200);
    const killed = postmaster();
    const killedAt = new Date();
    process.kill(killed.pid, 'SIGKILL');

    // Right after the kill, a pooled connection's orphaned backend can still answer /readyz for a
    // moment: ready counts once a new postmaster has written its pid file.
    await until(async () => restartedPid() !== killed.pid && (await ready(service!)), 60_000, 'ready again on a new postmaster');
    expect((await createStreak(service, 'After the crash')).status).toBe(200);
    // The server started again with the service's settings, not PostgreSQL's defaults.
    expect(await query<{ commit_delay: string }>('show commit_delay')).toEqual([{ commit_delay: '1000' }]);
    // The workers' job queue reconnected: a sweep requested after the crash has run. A sweep the
    // crash caught running stays active until its expiry (a minute) and pg-boss's next upkeep (half
    // a minute) end it, and only then does the next one start (test/scale/abandoned-jobs.test.ts).
    await until(
      async () =>
        (await query(`select 1 from pgboss.job where name = 'loyalty-sweep' and state = 'completed' and created_on > $1`, [killedAt]))
          .length > 0,
      120_000,
      'a sweep completed after the crash',
    );
  }, 240_000);

  it('starts again after the service itself was killed, stopping the PostgreSQL it left behind', async () => {
    const orphan = postmaster();
    await stopService('SIGKILL');
    // The embedded server outlives a killed service: it is a process of its own.
    expect(alive(orphan.pid)).toBe(true);

    service = await serve();
    expect(alive(orphan.pid)).toBe(false);
    expect(await ready(service)).toBe(true);
    expect(await streakNames(service)).toEqual(expect.arrayContaining(['Before the crash', 'After the crash']));
  }, 120_000);

  it('refuses a second service on the same data dir, naming the process that owns it, and leaves the first serving', async () => {
    const second = spawnServe();
    expect(await second.exited).toBe(1);
    expect(second.stderr()).toContain(`in use by process ${service!.child.pid}`);
    expect(await ready(service!)).toBe(true);
  }, 60_000);

  it('stops with its database on Ctrl-C (SIGINT)', async () => {
    const { pid } = postmaster();
    expect(await stopService('SIGINT')).toBe(0);
    expect(alive(pid)).toBe(false);
    expect(existsSync(pidFile)).toBe(false);
  }, 60_000);

  it('starts past a stale postmaster.pid, whether its process is gone or is another program, and stops on SIGTERM', async () => {
    const gone = spawnSync('true').pid!;
    // process.pid: a live process that is not a postgres of this data dir (a pid reused after a reboot).
    for (const stalePid of [gone, process.pid]) {
      writeFileSync(pidFile, `${stalePid}\n${join(dataDir, 'pg')}\n1700000000\n5432\n/tmp\n127.0.0.1\n  1234567   7654321\nready   \n`);
      service = await serve();
      expect(await streakNames(service)).toContain('Before the crash');
      const { pid } = postmaster();
      expect(await stopService('SIGTERM')).toBe(0);
      expect(alive(pid)).toBe(false);
    }
  }, 120_000);

  it('stops with its database on a SIGTERM that arrives during start-up, once its PostgreSQL is up', async () => {
    const starting = spawnServe();
    // The pid file names a live postmaster well before the API listens and the demo account exists.
    await until(() => restartedPid() !== undefined && alive(restartedPid()!), 60_000, 'postmaster started');
    const { pid } = postmaster();
    expect(starting.stdout()).not.toContain('listening');
    starting.child.kill('SIGTERM');
    expect(await starting.exited).toBe(0);
    expect(alive(pid)).toBe(false);
    expect(existsSync(pidFile)).toBe(false);
  }, 90_000);

  it('says why when its database cannot start, and leaves no server running', async () => {
    const conf = join(dataDir, 'pg', 'postgresql.conf');
    const original = readFileSync(conf, 'utf8');
    appendFileSync(conf, '\nnot_a_setting = 1\n');
    try {
      const failing = spawnServe();
      expect(await failing.exited).toBe(1);
      expect(failing.stderr()).toContain('not_a_setting');
      expect(existsSync(pidFile)).toBe(false);
    } finally {
      writeFileSync(conf, original);
    }
  }, 60_000);
});
