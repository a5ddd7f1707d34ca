import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { type BareProcess, startBareHttpProcess } from './bare-http.js';
import { formatProfile, type ProfileSummary, summarizeProfileDir } from './profile.js';
import { baselineLog, type IngestContext, PATH } from './ingest-bare.js';
import {
  checkpoint,
  closedLoop,
  combine,
  cpuPerRequest,
  cpuTimes,
  type CpuTimes,
  elapsedSeconds,
  formatTable,
  httpLoad,
  inTurn,
  type LoadResult,
  openBenchDatabase,
  seedStreakAccount,
  SETTLE_SECONDS,
  startServiceProcess,
  streakLogRequests,
  type Summary,
  summarize,
} from './lib.js';
import {
  describeTail,
  mergeServiceTails,
  mergeWal,
  mergeWaits,
  readWal,
  sampleWaits,
  scrape,
  type ServiceTail,
  serviceTail,
  type WaitSamples,
  type WalUsage,
  walUsage,
} from './tail.js';

/**
 * bench:ingest — streak-log creation over HTTP (the full path: auth, validation, member, log,
 * progress, task progress, events, written together) against two baselines at the same
 * concurrency, in the same run: the same row writes with plain pg in one transaction per log, and
 * those writes behind a bare node:http server in its own process (the limit of any Node service
 * here), hit by the same load generator. While each side runs, its PostgreSQL backends' wait
 * events are sampled, and the service's pool waits and GC pauses are read from its /metrics.
 */
const MEMBERS = 10_000;
const CONCURRENCIES = (process.env.BENCH_CONCURRENCIES ?? '32,128').split(',').map(Number);
const DURATION_SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 15);
const WARMUP_SECONDS = 3;
const ROUNDS = 3;
const POOL_SIZE = 10;
const RESULTS_FILE = fileURLToPath(new URL('./results/ingest.json', import.meta.url));
/** Observability's cost: `BENCH_OBSERVABILITY=0` skips it. Prometheus's default interval is 15 s; this scrapes more often. */
const OBSERVABILITY = process.env.BENCH_OBSERVABILITY !== '0';
const SCRAPE_SECONDS = 5;
/** Processes per observability configuration (`BENCH_OBSERVABILITY_PROCESSES`), each measured in two windows. */
const OBSERVABILITY_PROCESSES = Number(process.env.BENCH_OBSERVABILITY_PROCESSES ?? 3);
const OBSERVABILITY_ROUNDS = 2;
/** `BENCH_LEADERBOARD=1` ranks the streak on a live leaderboard, so each log that moves a run keeps its standing too. */
const LEADERBOARD = process.env.BENCH_LEADERBOARD === '1';
/** `BENCH_CPU_PROF=0` skips profiling a fresh service process under load after the measured windows. */
const PROFILE = process.env.BENCH_CPU_PROF !== '0';
const PROFILE_SECONDS = 5;
const PROFILE_TOP = 12;
/** Microseconds of the monotonic clock, the clock of a CPU profile's timestamps. */
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

/** The mean of the windows' CPU per log; undefined without /proc. */
function meanCpu(windows: (CpuTimes | undefined)[]): CpuTimes | undefined {
  if (!windows.length || windows.some((w) => !w)) return undefined;
  const mean = (key: 'service' | 'postgres' | 'loadGenerator') => windows.reduce((sum, w) => sum + w![key], 0) / windows.length;
  return { service: mean('service'), postgres: mean('postgres'), loadGenerator: mean('loadGenerator') };
}

/** An OTLP/HTTP endpoint that takes every export and keeps nothing: what a collector costs the service is the export. */
async function startTraceSink(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

/** Scrapes /metrics every SCRAPE_SECONDS while `run` goes on, as Prometheus would. */
async function whileScraped<T>(url: string | undefined, run: () => Promise<T>): Promise<T> {
  if (!url) return run();
  const scrape = () => fetch(`${url}/metrics`).then((r) => r.text());
  await scrape();
  const timer = setInterval(() => void scrape(), SCRAPE_SECONDS * 1000);
  try {
    return await run();
  } finally {
    clearInterval(timer);
  }
}

/** The service's pool and the baselines' connections, told apart in pg_stat_activity. */
const SERVICE_APPLICATION = 'loyalty';
const BARE_APPLICATION = 'bench-bare-http';
const BASELINE_APPLICATION = 'bench-baseline';

type SideName = 'api' | 'bare' | 'baseline';

interface Side {
  name: SideName;
  /** The process whose CPU the side's work costs (the baseline's pg client is this process). */
  pid: number;
  application: string;
  load(seconds: number): Promise<LoadResult>;
  metricsUrl?: string;
}

interface SideResult {
  summary: Summary;
  cpuMsPerLog?: CpuTimes;
  tail: { waits: WaitSamples; service?: ServiceTail; wal?: WalUsage };
}

interface SideResults {
  api: SideResult;
  bare: SideResult;
  baseline: SideResult;
  /** Logs/s of the API over the pg baseline and over the bare HTTP server, and the bare server's over pg. */
  ratios: { apiToSql: number; apiToBare: number; bareToSql: number };
}

interface ObservabilitySide {
  summary: Summary;
  /** The mean of its processes' means. */
  serviceCpuMsPerLog?: number;
  processCpuMsPerLog?: number[];
}

function row(name: string, s: Summary): string[] {
  return [name, String(s.requests), s.requestsPerSecond.toFixed(0), s.p50Ms.toFixed(2), s.p95Ms.toFixed(2), s.p99Ms.toFixed(2)];
}

async function main(): Promise<void> {
  const started = process.hrtime.bigint();
  const loadAtStart = loadavg()[0]!;
  const database = await openBenchDatabase();
  console.log(`using ${database.description}`);
  const masterKey = randomBytes(32);
  const seeded = await seedStreakAccount(database.url, masterKey, MEMBERS, { leaderboard: LEADERBOARD });
  const huge = String(1_000_000_000);
  const serviceEnv = {
    DATABASE_URL: database.url,
    LOYALTY_MASTER_KEY: masterKey.toString('base64'),
    LOYALTY_RATE_LIMIT_PER_SECOND: huge,
  };
  const service = await startServiceProcess(serviceEnv);
  const pool = new pg.Pool({ connectionString: database.url, max: POOL_SIZE, application_name: BASELINE_APPLICATION });
  let bare: BareProcess | undefined;
  const { headers, body } = streakLogRequests(seeded);
  const member = () => seeded.memberIds[Math.floor(Math.random() * seeded.memberIds.length)]!;
  /**
   * The service's CPU per log with metrics and tracing off, with metrics on (the default, scraped),
   * and with tracing on as well (exporting to a local sink, at the default sampling) at the first
   * concurrency. Two fresh processes of one build differ by up to 10 % in CPU per log (and once by
   * 40 %), more than what is measured here, so each configuration runs in OBSERVABILITY_PROCESSES
   * processes, every process in alternating windows with all the others, and its figure is their
   * mean; the spread of its processes' means is printed beside it.
   */
  const observabilityCost = async (): Promise<Record<string, ObservabilitySide>> => {
    const sink = await startTraceSink();
    const env = { DATABASE_URL: database.url, LOYALTY_MASTER_KEY: masterKey.toString('base64'), LOYALTY_RATE_LIMIT_PER_SECOND: huge };
    const configurations = [
      { name: 'metrics and tracing off', env: { ...env, LOYALTY_METRICS_ENABLED: 'false' }, scraped: false },
      { name: 'metrics on', env, scraped: true },
      { name: 'metrics and tracing on', env: { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url }, scraped: true },
    ];
    // Fresh processes, warmed alike: a process that served longer has more of its code optimised.
    const sides: { configuration: string; process: Awaited<ReturnType<typeof startServiceProcess>>; scraped: boolean }[] = [];
    try {
      for (let n = 0; n < OBSERVABILITY_PROCESSES; n++) {
        for (const c of configurations)
          sides.push({ configuration: c.name, process: await startServiceProcess(c.env), scraped: c.scraped });
      }
      const connections = CONCURRENCIES[0]!;
      const load = (url: string, seconds: number) =>
        httpLoad({ url, connections, seconds, headers, method: 'POST', path: () => PATH, body });
      for (const side of sides) await load(side.process.url, 2 * WARMUP_SECONDS);
      await checkpoint(pool);
      for (const side of sides) await load(side.process.url, SETTLE_SECONDS);
      const windows = new Map(sides.map((side) => [side, { results: [] as LoadResult[], cpu: [] as (number | undefined)[] }]));
      for (let round = 0; round < OBSERVABILITY_ROUNDS; round++) {
        for (const side of inTurn(sides, round)) {
          const before = cpuTimes(side.process.pid);
          const result = await whileScraped(side.scraped ? side.process.url : undefined, () =>
            load(side.process.url, DURATION_SECONDS / ROUNDS),
          );
          const window = windows.get(side)!;
          window.results.push(result);
          window.cpu.push(cpuPerRequest(before, cpuTimes(side.process.pid), result.latenciesMs.length)?.service);
        }
      }
      const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;
      return Object.fromEntries(
        configurations.map(({ name }) => {
          const own = [...windows].filter(([side]) => side.configuration === name).map(([, w]) => w);
          const perProcess = own.every((w) => w.cpu.every((c) => c !== undefined)) ? own.map((w) => mean(w.cpu as number[])) : undefined;
          return [
            name,
            {
              summary: summarize(combine(own.flatMap((w) => w.results))),
              ...(perProcess ? { serviceCpuMsPerLog: mean(perProcess), processCpuMsPerLog: perProcess } : {}),
            },
          ];
        }),
      );
    } finally {
      for (const side of sides) await side.process.stop();
      await sink.close();
    }
  };
  try {
    // The baseline writes an event payload of the size the service writes: the log response.
    const sample = await fetch(`${service.url}${PATH}`, { method: 'POST', headers, body: body() });
    if (sample.status !== 200) throw new Error(`sample log failed: ${sample.status} ${await sample.text()}`);
    const payload = JSON.stringify({ streakLog: (await sample.json()).data });

    const context: IngestContext = { accountId: seeded.accountId, streakId: seeded.streakId, payload };
    const bareUrl = new URL(database.url);
    bareUrl.searchParams.set('application_name', BARE_APPLICATION);
    const bareServer = await startBareHttpProcess({
      routesModule: new URL('./ingest-bare.js', import.meta.url),
      databaseUrl: bareUrl.toString(),
      poolSize: POOL_SIZE,
      context,
    });
    bare = bareServer;

    const results: Record<string, SideResults> = {};
    for (const connections of CONCURRENCIES) {
      const http = (url: string) => (seconds: number) =>
        httpLoad({ url, connections, seconds, headers, method: 'POST', path: () => PATH, body });
      const sides: Side[] = [
        { name: 'api', pid: service.pid, application: SERVICE_APPLICATION, load: http(service.url), metricsUrl: service.url },
        { name: 'bare', pid: bareServer.pid, application: BARE_APPLICATION, load: http(bareServer.url) },
        {
          name: 'baseline',
          pid: process.pid,
          application: BASELINE_APPLICATION,
          load: (seconds) => closedLoop({ connections, seconds }, () => baselineLog(pool, context, member())),
        },
      ];
      for (const side of sides) await side.load(WARMUP_SECONDS);
      // Statistics of tables that were empty at seeding, as autovacuum would gather them on a
      // running system: the service's prepared statements are planned again with them.
      await pool.query('analyze');
      await checkpoint(pool);
      for (const side of sides) await side.load(SETTLE_SECONDS);
      // Alternating windows: every side sees the same machine, whatever else it does meanwhile.
      const windows = new Map(
        sides.map((side) => [
          side.name,
          {
            results: [] as LoadResult[],
            cpu: [] as (CpuTimes | undefined)[],
            waits: [] as WaitSamples[],
            service: [] as ServiceTail[],
            wal: [] as (WalUsage | undefined)[],
          },
        ]),
      );
      for (let round = 0; round < ROUNDS; round++) {
        for (const side of inTurn(sides, round)) {
          const window = windows.get(side.name)!;
          const scraped = side.metricsUrl ? await scrape(side.metricsUrl) : undefined;
          const sampler = sampleWaits(database.url, side.application);
          const walBefore = await readWal(pool);
          const before = cpuTimes(side.pid);
          const result = await side.load(DURATION_SECONDS / ROUNDS);
          const after = cpuTimes(side.pid);
          window.wal.push(walUsage(walBefore, await readWal(pool), result.latenciesMs.length));
          window.waits.push(await sampler.stop());
          if (scraped) window.service.push(serviceTail(scraped, await scrape(side.metricsUrl!)));
          window.results.push(result);
          window.cpu.push(cpuPerRequest(before, after, result.latenciesMs.length));
        }
      }
      const side = (name: SideName): SideResult => {
        const w = windows.get(name)!;
        const cpu = meanCpu(w.cpu);
        const wal = mergeWal(w.wal);
        return {
          summary: summarize(combine(w.results)),
          ...(cpu ? { cpuMsPerLog: cpu } : {}),
          tail: {
            waits: mergeWaits(w.waits),
            ...(w.service.length ? { service: mergeServiceTails(w.service) } : {}),
            ...(wal ? { wal } : {}),
          },
        };
      };
      const [api, bareSide, baseline] = [side('api'), side('bare'), side('baseline')];
      results[`c${connections}`] = {
        api,
        bare: bareSide,
        baseline,
        ratios: {
          apiToSql: api.summary.requestsPerSecond / baseline.summary.requestsPerSecond,
          apiToBare: api.summary.requestsPerSecond / bareSide.summary.requestsPerSecond,
          bareToSql: bareSide.summary.requestsPerSecond / baseline.summary.requestsPerSecond,
        },
      };
    }
    let profile: ProfileSummary | undefined;
    if (PROFILE) {
      // After the measured windows, so the profiler's overhead is in no figure above.
      const dir = await mkdtemp(join(tmpdir(), 'loyalty-ingest-profile-'));
      const nodeOptions = process.env.BENCH_SERVICE_NODE_OPTIONS ?? '';
      // startServiceProcess puts BENCH_SERVICE_NODE_OPTIONS before the binary's path, where the profiler's flags go.
      process.env.BENCH_SERVICE_NODE_OPTIONS = `${nodeOptions} --cpu-prof --cpu-prof-dir=${dir}`.trim();
      const profiled = await startServiceProcess(serviceEnv);
      process.env.BENCH_SERVICE_NODE_OPTIONS = nodeOptions;
      let window: [number, number];
      try {
        const connections = CONCURRENCIES[0]!;
        const run = (seconds: number) =>
          httpLoad({ url: profiled.url, connections, seconds, headers, method: 'POST', path: () => PATH, body });
        await run(WARMUP_SECONDS);
        const from = nowUs();
        await run(PROFILE_SECONDS);
        window = [from, nowUs()];
      } finally {
        await profiled.stop(); // the profile is written as the process exits
      }
      profile = await summarizeProfileDir(dir, PROFILE_TOP, [window]);
      await rm(dir, { recursive: true, force: true });
      console.log(
        `\nThe service's CPU profile, ${PROFILE_SECONDS} s at ${CONCURRENCIES[0]} connections in a fresh process:\n\n${formatProfile(profile)}`,
      );
    }
    let observability: Record<string, ObservabilitySide> | undefined;
    if (OBSERVABILITY) observability = await observabilityCost();
    const logs = await pool.query(`select count(*)::int as n, count(*) filter (where is_aggregated)::int as aggregated from streak_log`);
    const loadAtEnd = loadavg()[0]!;

    const rows: string[][] = [];
    for (const [key, r] of Object.entries(results)) {
      rows.push(row(`${key} API`, r.api.summary), row(`${key} bare HTTP`, r.bare.summary), row(`${key} baseline (pg)`, r.baseline.summary));
      const ratio = (name: string, value: number, p99: number) => [name, '', `${value.toFixed(2)}x`, '', '', `${p99.toFixed(2)}x`];
      rows.push(ratio(`${key} API / bare HTTP`, r.ratios.apiToBare, r.api.summary.p99Ms / r.bare.summary.p99Ms));
      rows.push(ratio(`${key} API / baseline (pg)`, r.ratios.apiToSql, r.api.summary.p99Ms / r.baseline.summary.p99Ms));
    }
    console.log(
      `\n${MEMBERS} members${LEADERBOARD ? ', streak ranked on a live leaderboard' : ''}, ${DURATION_SECONDS} s per side in ${ROUNDS} alternating windows after ${WARMUP_SECONDS} s warm-up, pool ${POOL_SIZE} each side;` +
        ` service and bare HTTP server each in its own process; ${availableParallelism()} CPUs, load average ${loadAtStart.toFixed(2)} → ${loadAtEnd.toFixed(2)}\n`,
    );
    console.log(formatTable(['scenario', 'logs', 'logs/s', 'p50 ms', 'p95 ms', 'p99 ms'], rows));
    for (const [key, r] of Object.entries(results)) {
      const cpu = (name: string, c: CpuTimes | undefined, process: string) =>
        c
          ? `${name}: ${process} ${c.service.toFixed(2)}, PostgreSQL ${c.postgres.toFixed(2)}, load generator ${c.loadGenerator.toFixed(2)}`
          : undefined;
      const line = [
        cpu('API', r.api.cpuMsPerLog, 'service'),
        cpu('bare HTTP', r.bare.cpuMsPerLog, 'server'),
        cpu('baseline', r.baseline.cpuMsPerLog, 'pg client (this process)'),
      ].filter(Boolean);
      if (line.length) console.log(`${key} CPU ms per log: ${line.join('; ')}`);
    }
    for (const [key, r] of Object.entries(results)) {
      const seconds = DURATION_SECONDS;
      console.log(`\n${key} tail, API (p99 ${r.api.summary.p99Ms.toFixed(1)} ms): ${describeTail({ ...r.api.tail, seconds })}`);
      console.log(`${key} tail, bare HTTP (p99 ${r.bare.summary.p99Ms.toFixed(1)} ms): ${describeTail({ ...r.bare.tail, seconds })}`);
      console.log(
        `${key} tail, baseline (p99 ${r.baseline.summary.p99Ms.toFixed(1)} ms): ${describeTail({ ...r.baseline.tail, seconds })}`,
      );
    }
    if (observability) {
      const off = observability['metrics and tracing off']!.serviceCpuMsPerLog;
      const metricsOn = observability['metrics on']!.serviceCpuMsPerLog;
      const change = (cpu: number | undefined, base: number | undefined) =>
        cpu && base ? `${(((cpu - base) / base) * 100).toFixed(1)} %` : '-';
      console.log(
        `\nObservability at ${CONCURRENCIES[0]} connections, ${OBSERVABILITY_PROCESSES} processes each (metrics scraped every ${SCRAPE_SECONDS} s; traces exported to a local OTLP sink at the default sampling):\n`,
      );
      console.log(
        formatTable(
          ['scenario', 'logs', 'logs/s', 'p50 ms', 'p99 ms', 'service CPU ms/log', 'its processes', 'vs off', 'vs metrics on'],
          Object.entries(observability).map(([name, side]) => [
            name,
            String(side.summary.requests),
            side.summary.requestsPerSecond.toFixed(0),
            side.summary.p50Ms.toFixed(2),
            side.summary.p99Ms.toFixed(2),
            side.serviceCpuMsPerLog?.toFixed(3) ?? '-',
            side.processCpuMsPerLog?.map((c) => c.toFixed(3)).join(' ') ?? '-',
            change(side.serviceCpuMsPerLog, off),
            change(side.serviceCpuMsPerLog, metricsOn),
          ]),
        ),
      );
    }
    console.log(`\n${logs.rows[0].n} logs stored, ${logs.rows[0].aggregated} aggregated`);
    await mkdir(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true });
    await writeFile(
      RESULTS_FILE,
      `${JSON.stringify({ generatedAt: new Date().toISOString(), node: process.version, cpus: availableParallelism(), loadAverage: { start: loadAtStart, end: loadAtEnd }, members: MEMBERS, leaderboard: LEADERBOARD, durationSeconds: DURATION_SECONDS, rounds: ROUNDS, poolSize: POOL_SIZE, results, ...(observability ? { observability } : {}), ...(profile ? { profile } : {}) }, null, 2)}\n`,
    );
    console.log(`wrote ${RESULTS_FILE}`);
  } finally {
    await bare?.stop();
    await service.stop();
    pool.on('error', () => {});
    await pool.end();
    await database.close();
  }
  console.log(`total run time ${elapsedSeconds(started).toFixed(1)} s`);
}

await main();
