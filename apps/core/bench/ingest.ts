import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SecretBox } from '../src/auth/crypto.js';
import { createDb } from '../src/db/knex.js';
import { migrateLatest } from '../src/db/migrate.js';
import { periodKey } from '../src/engine/periods.js';
import { provisionAccount } from '../src/tenancy.js';
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
  type LoadResult,
  openBenchDatabase,
  startServiceProcess,
  type Summary,
  summarize,
} from './lib.js';

/**
 * bench:ingest — streak-log creation over HTTP (the full path: auth, validation, member, log,
 * progress, task progress, events, written together) against a baseline that performs the same
 * row writes with plain pg in one transaction per log, at the same concurrency, in the same run.
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
const PATH = '/api/v1.0/schema/streak_log/record';
/** `BENCH_LEADERBOARD=1` ranks the streak on a live leaderboard, so each log that moves a run keeps its standing too. */
const LEADERBOARD = process.env.BENCH_LEADERBOARD === '1';

interface Seeded {
  accountId: string;
  apiKey: string;
  apiSecret: string;
  streakId: string;
  memberIds: string[];
}

async function seed(url: string, box: SecretBox): Promise<Seeded> {
  const db = createDb(url, 2);
  try {
    await migrateLatest(db);
    const made = await provisionAccount(db, box, { organizationName: 'Bench', accountName: 'Ingest' });
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
    if (LEADERBOARD) {
      await db('leaderboard').insert({
        account_id: accountId,
        name: 'Top visitors',
        linked_schema_slug: 'streak',
        linked_schema_record_id: streak.id,
        rank_by: 'current_run',
      });
    }
    const members = await db.raw(
      `insert into account_user (account_id, external_id, first_name)
       select ?, 'member-' || n, 'Member ' || n from generate_series(1, ?) as n returning id`,
      [accountId, MEMBERS],
    );
    // Statistics as a running system has them; without, the planner guesses on empty tables.
    await db.raw('analyze');
    return {
      accountId,
      apiKey: made.apiKey.apiKey,
      apiSecret: made.apiKey.apiSecret,
      streakId: streak.id,
      memberIds: members.rows.map((r: { id: string }) => r.id),
    };
  } finally {
    await db.destroy();
  }
}

/** The rows one aggregated log writes, as plain SQL in one transaction (no HTTP, no reads). */
async function baselineLog(pool: pg.Pool, s: Seeded, memberId: string, payload: string): Promise<void> {
  const client = await pool.connect();
  try {
    const at = new Date();
    const day = periodKey(at, 'daily', 'UTC');
    await client.query('begin');
    const log = await client.query(
      `insert into streak_log (account_id, streak_id, owned_by_id, activity_id, activity_at, unique_identifier, status, period_key)
       values ($1, $2, $3, 'visit', $4, $5, 'live', $6) returning id`,
      [s.accountId, s.streakId, memberId, at, randomUUID(), day],
    );
    const progress = await client.query(
      `insert into streak_progress (account_id, streak_id, owned_by_id, unique_identifier, streak_started_at, current_period_key, streak_to_be_broken_at)
       values ($1, $2, $3, $6, $4, $5, $4)
       on conflict (account_id, unique_identifier) where streak_progress_status = 'in_progress'
       do update set current_progress_value = streak_progress.current_progress_value, updated_at = now() returning id`,
      [s.accountId, s.streakId, memberId, at, day, `${s.streakId}:${memberId}`],
    );
    const progressId = progress.rows[0].id as string;
    const task = await client.query(
      `update task_progress set current_progress_value = current_progress_value + 1, updated_at = now()
       where account_id = $1 and linked_schema_record_id = $2 and period_key = $3`,
      [s.accountId, progressId, day],
    );
    if (task.rowCount === 0) {
      await client.query(
        `insert into task_progress (account_id, owned_by_id, linked_schema_slug, linked_schema_record_id, period_key, current_progress_value, target_value)
         values ($1, $2, 'streak_progress', $3, $4, 1, 1)`,
        [s.accountId, memberId, progressId, day],
      );
    }
    await client.query(`update streak_log set is_aggregated = true where account_id = $1 and id = $2`, [s.accountId, log.rows[0].id]);
    await client.query(
      `insert into event_log (account_id, event_code, owned_by_id, linked_schema_slug, linked_schema_record_id, payload)
       values ($1, 'streak_progress_in_progress', $2, 'streak_progress', $3, $4)`,
      [s.accountId, memberId, progressId, payload],
    );
    await client.query('commit');
  } catch (err) {
    await client.query('rollback');
    throw err;
  } finally {
    client.release();
  }
}

/** The mean of the windows' CPU per log; undefined without /proc. */
function meanCpu(windows: (CpuTimes | undefined)[]): CpuTimes | undefined {
  if (!windows.length || windows.some((w) => !w)) return undefined;
  const mean = (key: keyof CpuTimes) => windows.reduce((sum, w) => sum + w![key], 0) / windows.length;
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

interface ObservabilitySide {
  summary: Summary;
  serviceCpuMsPerLog?: number;
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
  const seeded = await seed(database.url, new SecretBox(masterKey));
  const huge = String(1_000_000_000);
  const service = await startServiceProcess({
    DATABASE_URL: database.url,
    LOYALTY_MASTER_KEY: masterKey.toString('base64'),
    LOYALTY_RATE_LIMIT_PER_SECOND: huge,
  });
  const pool = new pg.Pool({ connectionString: database.url, max: POOL_SIZE });
  const headers = { 'x-api-key': seeded.apiKey, 'x-api-secret': seeded.apiSecret, 'content-type': 'application/json' };
  const member = () => seeded.memberIds[Math.floor(Math.random() * seeded.memberIds.length)]!;
  const body = () =>
    JSON.stringify({
      streakId: seeded.streakId,
      ownedById: member(),
      activityId: 'visit',
      activityAt: new Date().toISOString(),
      uniqueIdentifier: randomUUID(),
    });
  /**
   * The service's CPU per log with metrics and tracing off, with metrics on (the default, scraped),
   * and with tracing on as well (exporting to a local sink), each in its own process and measured
   * in alternating windows at the first concurrency.
   */
  const observabilityCost = async (): Promise<Record<string, ObservabilitySide>> => {
    const sink = await startTraceSink();
    const env = { DATABASE_URL: database.url, LOYALTY_MASTER_KEY: masterKey.toString('base64'), LOYALTY_RATE_LIMIT_PER_SECOND: huge };
    // Three fresh processes, warmed alike: a process that served longer has more of its code optimised.
    const sides = [
      { name: 'metrics and tracing off', process: await startServiceProcess({ ...env, LOYALTY_METRICS_ENABLED: 'false' }), scraped: false },
      { name: 'metrics on', process: await startServiceProcess(env), scraped: true },
      {
        name: 'metrics and tracing on',
        process: await startServiceProcess({ ...env, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url }),
        scraped: true,
      },
    ];
    try {
      const connections = CONCURRENCIES[0]!;
      const load = (url: string, seconds: number) =>
        httpLoad({ url, connections, seconds, headers, method: 'POST', path: () => PATH, body });
      for (const side of sides) await load(side.process.url, 2 * WARMUP_SECONDS);
      await checkpoint(pool);
      const windows = new Map(sides.map((side) => [side.name, { results: [] as LoadResult[], cpu: [] as (number | undefined)[] }]));
      for (let round = 0; round < ROUNDS; round++) {
        // Each round starts with another side, so none always follows the same one.
        for (const side of [...sides.slice(round % sides.length), ...sides.slice(0, round % sides.length)]) {
          const before = cpuTimes(side.process.pid);
          const result = await whileScraped(side.scraped ? side.process.url : undefined, () =>
            load(side.process.url, DURATION_SECONDS / ROUNDS),
          );
          const window = windows.get(side.name)!;
          window.results.push(result);
          window.cpu.push(cpuPerRequest(before, cpuTimes(side.process.pid), result.latenciesMs.length)?.service);
        }
      }
      return Object.fromEntries(
        [...windows].map(([name, w]) => {
          const cpu = w.cpu.every((c) => c !== undefined) ? w.cpu.reduce((sum, c) => sum + c!, 0) / w.cpu.length : undefined;
          return [name, { summary: summarize(combine(w.results)), ...(cpu === undefined ? {} : { serviceCpuMsPerLog: cpu }) }];
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

    const results: Record<string, { api: Summary; baseline: Summary; cpuMsPerLog?: { api: CpuTimes; baseline: CpuTimes } }> = {};
    for (const connections of CONCURRENCIES) {
      const http = (seconds: number) =>
        httpLoad({ url: service.url, connections, seconds, headers, method: 'POST', path: () => PATH, body });
      const direct = (seconds: number) => closedLoop({ connections, seconds }, () => baselineLog(pool, seeded, member(), payload));
      await http(WARMUP_SECONDS);
      await direct(WARMUP_SECONDS);
      // Statistics of tables that were empty at seeding, as autovacuum would gather them on a
      // running system: the service's prepared statements are planned again with them.
      await pool.query('analyze');
      await checkpoint(pool);
      // Alternating windows: both sides see the same machine, whatever else it does meanwhile.
      const api: LoadResult[] = [];
      const baseline: LoadResult[] = [];
      const cpu = { api: [] as (CpuTimes | undefined)[], baseline: [] as (CpuTimes | undefined)[] };
      const measured = async (side: 'api' | 'baseline', into: LoadResult[], run: () => Promise<LoadResult>) => {
        const before = cpuTimes(service.pid);
        const result = await run();
        into.push(result);
        cpu[side].push(cpuPerRequest(before, cpuTimes(service.pid), result.latenciesMs.length));
      };
      for (let round = 0; round < ROUNDS; round++) {
        await measured('api', api, () => http(DURATION_SECONDS / ROUNDS));
        await measured('baseline', baseline, () => direct(DURATION_SECONDS / ROUNDS));
      }
      const cpuMsPerLog =
        meanCpu(cpu.api) && meanCpu(cpu.baseline) ? { api: meanCpu(cpu.api)!, baseline: meanCpu(cpu.baseline)! } : undefined;
      results[`c${connections}`] = {
        api: summarize(combine(api)),
        baseline: summarize(combine(baseline)),
        ...(cpuMsPerLog ? { cpuMsPerLog } : {}),
      };
    }
    let observability: Record<string, ObservabilitySide> | undefined;
    if (OBSERVABILITY) observability = await observabilityCost();
    const logs = await pool.query(`select count(*)::int as n, count(*) filter (where is_aggregated)::int as aggregated from streak_log`);
    const loadAtEnd = loadavg()[0]!;

    const rows: string[][] = [];
    for (const [key, { api, baseline }] of Object.entries(results)) {
      rows.push(row(`${key} API`, api), row(`${key} baseline (pg)`, baseline));
      rows.push([
        `${key} API / baseline`,
        '',
        `${(api.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)}x`,
        '',
        '',
        `${(api.p99Ms / baseline.p99Ms).toFixed(2)}x`,
      ]);
    }
    console.log(
      `\n${MEMBERS} members${LEADERBOARD ? ', streak ranked on a live leaderboard' : ''}, ${DURATION_SECONDS} s per side in ${ROUNDS} alternating windows after ${WARMUP_SECONDS} s warm-up, pool ${POOL_SIZE} each side;` +
        ` service in its own process; ${availableParallelism()} CPUs, load average ${loadAtStart.toFixed(2)} → ${loadAtEnd.toFixed(2)}\n`,
    );
    console.log(formatTable(['scenario', 'logs', 'logs/s', 'p50 ms', 'p95 ms', 'p99 ms'], rows));
    for (const [key, { cpuMsPerLog }] of Object.entries(results)) {
      if (!cpuMsPerLog) continue;
      const side = (c: CpuTimes) =>
        `service ${c.service.toFixed(2)}, PostgreSQL ${c.postgres.toFixed(2)}, load generator ${c.loadGenerator.toFixed(2)}`;
      console.log(`${key} CPU ms per log: API: ${side(cpuMsPerLog.api)}; baseline: ${side(cpuMsPerLog.baseline)}`);
    }
    if (observability) {
      const off = observability['metrics and tracing off']!.serviceCpuMsPerLog;
      console.log(
        `\nObservability at ${CONCURRENCIES[0]} connections (metrics scraped every ${SCRAPE_SECONDS} s; traces exported to a local OTLP sink):\n`,
      );
      console.log(
        formatTable(
          ['scenario', 'logs', 'logs/s', 'p50 ms', 'p99 ms', 'service CPU ms/log', 'vs off'],
          Object.entries(observability).map(([name, side]) => [
            name,
            String(side.summary.requests),
            side.summary.requestsPerSecond.toFixed(0),
            side.summary.p50Ms.toFixed(2),
            side.summary.p99Ms.toFixed(2),
            side.serviceCpuMsPerLog?.toFixed(3) ?? '-',
            off && side.serviceCpuMsPerLog ? `${(((side.serviceCpuMsPerLog - off) / off) * 100).toFixed(1)} %` : '-',
          ]),
        ),
      );
    }
    console.log(`\n${logs.rows[0].n} logs stored, ${logs.rows[0].aggregated} aggregated`);
    await mkdir(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true });
    await writeFile(
      RESULTS_FILE,
      `${JSON.stringify({ generatedAt: new Date().toISOString(), node: process.version, cpus: availableParallelism(), loadAverage: { start: loadAtStart, end: loadAtEnd }, members: MEMBERS, leaderboard: LEADERBOARD, durationSeconds: DURATION_SECONDS, rounds: ROUNDS, poolSize: POOL_SIZE, results, ...(observability ? { observability } : {}) }, null, 2)}\n`,
    );
    console.log(`wrote ${RESULTS_FILE}`);
  } finally {
    await service.stop();
    pool.on('error', () => {});
    await pool.end();
    await database.close();
  }
  console.log(`total run time ${elapsedSeconds(started).toFixed(1)} s`);
}

await main();
