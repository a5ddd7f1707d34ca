import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { SecretBox } from '../src/auth/crypto.js';
import { startEmbeddedPostgres } from '../src/db/embedded.js';
import { createDb } from '../src/db/knex.js';
import { migrateLatest } from '../src/db/migrate.js';
import { provisionAccount } from '../src/tenancy.js';

/** Shared helpers for the benchmarks under bench/: a throwaway database, load loops, statistics, tables. */

export interface BenchDatabase {
  url: string;
  /** Where the data lives, for the report. */
  description: string;
  close(): Promise<void>;
}

/**
 * A database of the benchmark's own: a fresh `loyalty_bench_<random>` on the server of
 * DATABASE_URL (dropped on close), else an embedded server in a temp dir (removed on close).
 */
export async function openBenchDatabase(serverUrl = process.env.DATABASE_URL): Promise<BenchDatabase> {
  if (!serverUrl) {
    const dir = await mkdtemp(join(tmpdir(), 'loyalty-bench-'));
    try {
      // The server may run as another user (when run as root); it must reach its folder.
      await chmod(dir, 0o755);
      const embedded = await startEmbeddedPostgres(dir);
      return {
        url: embedded.url,
        description: `embedded PostgreSQL in ${dir}`,
        async close() {
          await embedded.stop();
          await rm(dir, { recursive: true, force: true });
        },
      };
    } catch (err) {
      await rm(dir, { recursive: true, force: true });
      throw err;
    }
  }
  const name = `loyalty_bench_${randomBytes(5).toString('hex')}`;
  // Identifiers cannot be bound as parameters; the name is ours and escaped anyway.
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${pg.escapeIdentifier(name)}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    description: `database ${name} on ${url.host}`,
    close: () => admin(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`),
  };
}

/**
 * Flushes what earlier writes left in memory (seeding, an earlier benchmark), as pgbench advises
 * before a run, so no side is measured during the checkpoint they would otherwise cause. Needs
 * superuser or pg_checkpoint; without, the run goes on and says so.
 */
export async function checkpoint(pool: pg.Pool): Promise<void> {
  try {
    await pool.query('checkpoint');
  } catch (err) {
    console.log(`no checkpoint before measuring (${(err as Error).message})`);
  }
}

/** The server's current WAL position, in bytes; read around a window for the WAL it wrote. */
export async function walPosition(pool: pg.Pool): Promise<bigint> {
  const { rows } = await pool.query<{ at: string }>(`select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::text as at`);
  return BigInt(rows[0]!.at);
}

/**
 * How long every side writes, unmeasured, after the checkpoint: the first write to a page after a
 * checkpoint puts the whole page in the WAL, and the side measured first would pay for the pages
 * all sides share.
 */
export const SETTLE_SECONDS = 1;

/**
 * The sides in the order of one round of alternating windows: each round starts with the next
 * side, so that none always comes first, or always follows the same side (whose garbage, dirty
 * pages and cooling caches it would inherit).
 */
export const inTurn = <T>(sides: readonly T[], round: number): T[] => {
  const first = round % sides.length;
  return [...sides.slice(first), ...sides.slice(0, first)];
};

export interface LoadOptions {
  connections: number;
  seconds: number;
}

/** Latencies of the calls that completed within the measured window. */
export interface LoadResult {
  latenciesMs: number[];
  seconds: number;
}

export interface HttpLoadOptions extends LoadOptions {
  url: string;
  headers: Record<string, string>;
  /** Called per request, so a scenario can rotate over ids. */
  path: () => string;
  method?: 'GET' | 'POST';
  /** Called per request: a fresh JSON body (POST). */
  body?: () => string;
}

/**
 * HTTP load with autocannon. Latencies are taken from its per-response timings rather than its
 * histogram, so p95 exists and percentiles are computed exactly as for the baseline.
 */
export function httpLoad(options: HttpLoadOptions): Promise<LoadResult> {
  const latenciesMs: number[] = [];
  return new Promise((ok, fail) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        duration: options.seconds,
        headers: options.headers,
        requests: [
          {
            method: options.method ?? 'GET',
            setupRequest: (request) => ({ ...request, path: options.path(), ...(options.body ? { body: options.body() } : {}) }),
          },
        ],
      },
      (err: unknown, result: autocannon.Result) => {
        if (err) return fail(err);
        // A 401 or 429 answers fast and would flatter the API: any of them voids the run.
        if (result.non2xx || result.errors) {
          return fail(new Error(`load on ${options.url} had ${result.non2xx} non-2xx responses and ${result.errors} errors`));
        }
        ok({ latenciesMs, seconds: result.duration });
      },
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => latenciesMs.push(responseTime));
  });
}

/**
 * Runs `work` from `connections` concurrent loops for `seconds`. Like autocannon, calls still in
 * flight at the deadline are not counted, so both sides measure the same window.
 */
export async function closedLoop(options: LoadOptions, work: () => Promise<unknown>): Promise<LoadResult> {
  const latenciesMs: number[] = [];
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(Math.round(options.seconds * 1e9));
  const loop = async () => {
    while (process.hrtime.bigint() < deadline) {
      const t0 = process.hrtime.bigint();
      await work();
      const t1 = process.hrtime.bigint();
      if (t1 <= deadline) latenciesMs.push(Number(t1 - t0) / 1e6);
    }
  };
  await Promise.all(Array.from({ length: options.connections }, loop));
  return { latenciesMs, seconds: options.seconds };
}

/** Nearest-rank percentile of ascending values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** The middle of `values`, in any order (nearest rank, as `percentile`). */
export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

export interface Summary {
  requests: number;
  requestsPerSecond: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

/** One result of several measured windows, as if they were one window of their summed length. */
export function combine(results: LoadResult[]): LoadResult {
  return { latenciesMs: results.flatMap((r) => r.latenciesMs), seconds: results.reduce((sum, r) => sum + r.seconds, 0) };
}

export function summarize(result: LoadResult): Summary {
  const sorted = [...result.latenciesMs].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    requestsPerSecond: sorted.length / result.seconds,
    p50Ms: percentile(sorted, 50),
    p95Ms: percentile(sorted, 95),
    p99Ms: percentile(sorted, 99),
  };
}

/** A plain-text table: the first column left-aligned, the others right-aligned. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    widths.map((w, i) => (i === 0 ? (cells[i] ?? '').padEnd(w) : (cells[i] ?? '').padStart(w))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** CPU milliseconds used so far, by the service process, PostgreSQL's server processes and this process. */
export interface CpuTimes {
  service: number;
  postgres: number;
  loadGenerator: number;
}

/** A reading of CPU times; PostgreSQL's per process, so a backend that exits between two readings takes its time out of neither. */
export interface CpuReading extends CpuTimes {
  postgresByPid: Map<number, number>;
}

/** Linux's clock tick for /proc times (USER_HZ), 100 on every architecture it runs on. */
const TICKS_PER_SECOND = 100;

/**
 * Reads CPU times from /proc, so a benchmark can say where a request's CPU goes; undefined where
 * /proc is missing. PostgreSQL is every process named `postgres`: the local or embedded server.
 */
export function cpuTimes(servicePid: number): CpuReading | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return undefined;
  }
  const times: CpuReading = { service: 0, postgres: 0, loadGenerator: 0, postgresByPid: new Map() };
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, the 14th and 15th fields of the line.
    const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
    if (Number(pid) === servicePid) times.service += ms;
    else if (Number(pid) === process.pid) times.loadGenerator += ms;
    else if (name === 'postgres') {
      times.postgres += ms;
      times.postgresByPid.set(Number(pid), ms);
    }
  }
  return times;
}

/** CPU per request between two readings. */
export function cpuPerRequest(before: CpuReading | undefined, after: CpuReading | undefined, requests: number): CpuTimes | undefined {
  if (!before || !after || !requests) return undefined;
  return {
    service: (after.service - before.service) / requests,
    postgres: postgresBetween(before, after) / requests,
    loadGenerator: (after.loadGenerator - before.loadGenerator) / requests,
  };
}

/**
 * PostgreSQL's CPU between two readings, over the processes alive at the second: a backend that
 * ended meanwhile (a closed connection) would otherwise take its whole life's time off the sum.
 */
function postgresBetween(before: CpuReading, after: CpuReading): number {
  let sum = 0;
  for (const [pid, ms] of after.postgresByPid) sum += ms - (before.postgresByPid.get(pid) ?? 0);
  return sum;
}

/** The mean of windows' CPU per request; undefined when any window could not be read. */
export function meanCpu(windows: (CpuTimes | undefined)[]): CpuTimes | undefined {
  if (!windows.length || windows.some((w) => !w)) return undefined;
  const mean = (key: keyof CpuTimes) => windows.reduce((sum, w) => sum + w![key], 0) / windows.length;
  return { service: mean('service'), postgres: mean('postgres'), loadGenerator: mean('loadGenerator') };
}

export const elapsedSeconds = (since: bigint): number => Number(process.hrtime.bigint() - since) / 1e9;

/**
 * Starts the real service binary (`loyalty serve --no-workers`, or `worker`) in a child process,
 * so the load generator and the service do not share one event loop.
 */
export async function startServiceProcess(
  env: Record<string, string>,
  args: string[] = ['serve', '--no-workers'],
): Promise<{ url: string; pid: number; stop(): Promise<void>; kill(signal: NodeJS.Signals): void; exited: Promise<number | null> }> {
  const { spawn } = await import('node:child_process');
  const { fileURLToPath } = await import('node:url');
  // The built binary, as production runs it; the bench scripts build first.
  const cli = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
  // E-mail, which no bench sends, goes to files: the default transport, SMTP, has no server here.
  const dataDir = await mkdtemp(join(tmpdir(), 'loyalty-bench-'));
  const child = spawn(process.execPath, [...(process.env.BENCH_SERVICE_NODE_OPTIONS?.split(' ').filter(Boolean) ?? []), cli, ...args], {
    env: {
      ...process.env,
      LOG_LEVEL: 'silent',
      PORT: '0',
      LOYALTY_WORKER_METRICS_PORT: '0',
      LOYALTY_EMAIL_TRANSPORT: 'file',
      LOYALTY_DATA_DIR: dataDir,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  void exited.then(() => rm(dataDir, { recursive: true, force: true }));
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/[^/\s]+)/.exec(out);
      if (match) resolve(match[1]!);
      else if (/workers running/.test(out)) resolve('');
    });
    void exited.then((code) => reject(new Error(`service exited with ${code} before it was ready`)));
  });
  return {
    url,
    pid: child.pid!,
    exited,
    kill: (signal) => child.kill(signal),
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The route a streak log is created on, and the account bench:ingest-style loads write to. */
export const STREAK_LOG_PATH = '/api/v1.0/schema/streak_log/record';

export interface StreakAccount {
  accountId: string;
  apiKey: string;
  apiSecret: string;
  streakId: string;
  memberIds: string[];
}

/**
 * Migrates a bench database and provisions what a streak-log load needs: one account with a live
 * API key, a daily count streak and `members` members (bench:ingest's shape); with `leaderboard`,
 * the streak ranked on a live leaderboard, so each log that moves a run keeps its standing too.
 */
export async function seedStreakAccount(
  url: string,
  masterKey: Buffer,
  members: number,
  options: { leaderboard?: boolean } = {},
): Promise<StreakAccount> {
  const db = createDb(url, 2);
  try {
    await migrateLatest(db);
    const made = await provisionAccount(db, new SecretBox(masterKey), { organizationName: 'Bench', accountName: 'Ingest' });
    const accountId = made.account.id as string;
    const [streak] = await db('streak')
      .insert({
        account_id: accountId,
        name: 'Daily',
        aggregation_period: 'daily',
        aggregation_method: 'count',
        aggregation_target_value: 1,
        to_be_broken_warning_hours: 4,
      })
      .returning('id');
    if (options.leaderboard) {
      await db('leaderboard').insert({
        account_id: accountId,
        name: 'Top visitors',
        linked_schema_slug: 'streak',
        linked_schema_record_id: streak.id,
        rank_by: 'current_run',
      });
    }
    const rows = await db.raw(
      `insert into account_user (account_id, external_id, first_name)
       select ?, 'member-' || n, 'Member ' || n from generate_series(1, ?) as n returning id`,
      [accountId, members],
    );
    await db.raw('analyze');
    return {
      accountId,
      apiKey: made.apiKey.apiKey,
      apiSecret: made.apiKey.apiSecret,
      streakId: streak.id,
      memberIds: rows.rows.map((r: { id: string }) => r.id),
    };
  } finally {
    await db.destroy();
  }
}

/** A streak-log load's headers and a fresh body per request: a random member, now, a new unique identifier. */
export function streakLogRequests(account: StreakAccount): { headers: Record<string, string>; body: () => string } {
  return {
    headers: { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret, 'content-type': 'application/json' },
    body: () =>
      JSON.stringify({
        streakId: account.streakId,
        ownedById: account.memberIds[Math.floor(Math.random() * account.memberIds.length)],
        activityId: 'visit',
        activityAt: new Date().toISOString(),
        uniqueIdentifier: randomUUID(),
      }),
  };
}
