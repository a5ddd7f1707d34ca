import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createDb } from '../src/db/knex.js';
import { DEFAULT_RETENTION_OPTIONS, runRetention } from '../src/retention/retention.js';
import {
  checkpoint,
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
  STREAK_LOG_PATH,
  streakLogRequests,
  type Summary,
  summarize,
} from './lib.js';

/**
 * bench:retention — streak-log ingestion (bench:ingest's load: the same route, bodies and service
 * process) against a database holding BENCH_RETENTION_ROWS stored logs and as many events, beside
 * the same load against an empty database, in alternating windows of one run; then again while the
 * retention job deletes the expired half of those events. Target: the full database ingests at
 * least 0.9× of the empty one.
 */
const ROWS = Number(process.env.BENCH_RETENTION_ROWS ?? 5_000_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const DURATION_SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 15);
const MEMBERS = 10_000;
const WARMUP_SECONDS = 3;
const ROUNDS = 3;
/** Seeded rows span this many days back, so with the default 90-day event retention half of the events have expired. */
const SPAN_DAYS = 180;
const EVENT_RETENTION_DAYS = 90;
const SEED_CHUNK = 500_000;
const RESULTS_FILE = fileURLToPath(new URL('./results/retention.json', import.meta.url));

type Side = 'empty' | 'full';

/** Bulk rows with generate_series, oldest first as a running system would have written them. */
async function seedHistory(pool: pg.Pool, accountId: string, streakId: string, payload: string): Promise<void> {
  const members = `(select array_agg(id) as ids from account_user where account_id = $1)`;
  // Row n of ROWS was written (ROWS - n) / ROWS of SPAN_DAYS ago.
  const at = `now() - ((${ROWS} - n)::double precision / ${ROWS}) * interval '${SPAN_DAYS} days'`;
  for (let from = 1; from <= ROWS; from += SEED_CHUNK) {
    const to = Math.min(ROWS, from + SEED_CHUNK - 1);
    await pool.query(
      `insert into streak_log (account_id, streak_id, owned_by_id, activity_id, activity_at, unique_identifier, status, is_aggregated, period_key, created_at, updated_at)
       select $1, $2, m.ids[1 + n % cardinality(m.ids)], 'visit', t.at, 'seed-' || n, 'live', true, to_char(t.at at time zone 'UTC', 'YYYY-MM-DD'), t.at, t.at
         from ${members} m, generate_series($3::int, $4::int) n, lateral (select ${at} as at) t`,
      [accountId, streakId, from, to],
    );
    await pool.query(
      `insert into event_log (account_id, event_code, owned_by_id, linked_schema_slug, linked_schema_record_id, payload, created_at, updated_at, dispatched_at)
       select $1, 'streak_progress_in_progress', m.ids[1 + n % cardinality(m.ids)], 'streak_progress', gen_random_uuid(), $2::jsonb, t.at, t.at, t.at
         from ${members} m, generate_series($3::int, $4::int) n, lateral (select ${at} as at) t`,
      [accountId, payload, from, to],
    );
    console.log(`seeded ${to.toLocaleString('en')} of ${ROWS.toLocaleString('en')} logs and events`);
  }
}

async function sizes(pool: pg.Pool): Promise<Record<string, number>> {
  const result = await pool.query(
    `select relname as name, pg_total_relation_size(oid)::float8 as bytes from pg_class where relname in ('streak_log', 'event_log')`,
  );
  return Object.fromEntries(result.rows.map((r: { name: string; bytes: number }) => [r.name, r.bytes]));
}

const mb = (bytes: number | undefined) => (bytes === undefined ? '-' : `${(bytes / 2 ** 20).toFixed(0)} MB`);

async function main(): Promise<void> {
  const started = process.hrtime.bigint();
  const loadAtStart = loadavg()[0]!;
  const masterKey = randomBytes(32);
  const databases = { empty: await openBenchDatabase(), full: await openBenchDatabase() };
  console.log(`using ${databases.empty.description} and ${databases.full.description}`);
  const accounts = {
    empty: await seedStreakAccount(databases.empty.url, masterKey, MEMBERS),
    full: await seedStreakAccount(databases.full.url, masterKey, MEMBERS),
  };
  const pools = {
    empty: new pg.Pool({ connectionString: databases.empty.url, max: 2 }),
    full: new pg.Pool({ connectionString: databases.full.url, max: 2 }),
  };
  const env = (side: Side) => ({
    DATABASE_URL: databases[side].url,
    LOYALTY_MASTER_KEY: masterKey.toString('base64'),
    LOYALTY_RATE_LIMIT_PER_SECOND: String(1_000_000_000),
  });
  const services = { empty: await startServiceProcess(env('empty')), full: await startServiceProcess(env('full')) };
  const requests = { empty: streakLogRequests(accounts.empty), full: streakLogRequests(accounts.full) };
  const load = (side: Side, seconds: number) =>
    httpLoad({
      url: services[side].url,
      connections: CONNECTIONS,
      seconds,
      headers: requests[side].headers,
      method: 'POST',
      path: () => STREAK_LOG_PATH,
      body: requests[side].body,
    });

  /** Alternating windows, each round starting with the other side, while `going()` holds (at most ROUNDS rounds). */
  const alternate = async (going: () => boolean = () => true) => {
    const results = { empty: [] as LoadResult[], full: [] as LoadResult[] };
    const cpu = { empty: [] as (CpuTimes | undefined)[], full: [] as (CpuTimes | undefined)[] };
    for (let round = 0; round < ROUNDS && going(); round++) {
      for (const side of inTurn(['empty', 'full'] as const, round)) {
        const before = cpuTimes(services[side].pid);
        const result = await load(side, DURATION_SECONDS / ROUNDS);
        results[side].push(result);
        cpu[side].push(cpuPerRequest(before, cpuTimes(services[side].pid), result.latenciesMs.length));
      }
    }
    const postgresMs = (side: Side) =>
      cpu[side].every((c) => c) ? cpu[side].reduce((sum, c) => sum + c!.postgres, 0) / cpu[side].length : undefined;
    return {
      empty: summarize(combine(results.empty)),
      full: summarize(combine(results.full)),
      rounds: results.empty.length,
      postgresCpuMsPerLog: { empty: postgresMs('empty'), full: postgresMs('full') },
    };
  };

  try {
    // The events carry the payload the service writes: the log's response.
    const sample = await fetch(`${services.empty.url}${STREAK_LOG_PATH}`, {
      method: 'POST',
      headers: requests.empty.headers,
      body: requests.empty.body(),
    });
    if (sample.status !== 200) throw new Error(`sample log failed: ${sample.status} ${await sample.text()}`);
    const payload = JSON.stringify({ streakLog: (await sample.json()).data });

    const seedStarted = process.hrtime.bigint();
    await seedHistory(pools.full, accounts.full.accountId, accounts.full.streakId, payload);
    // As autovacuum leaves a table that stopped growing in bulk: visibility map set, statistics taken.
    await pools.full.query('vacuum (analyze) streak_log, event_log');
    const seedSeconds = elapsedSeconds(seedStarted);
    const sizeBefore = await sizes(pools.full);
    console.log(`seeded in ${seedSeconds.toFixed(0)} s: streak_log ${mb(sizeBefore.streak_log)}, event_log ${mb(sizeBefore.event_log)}`);

    for (const side of ['empty', 'full'] as const) await load(side, WARMUP_SECONDS);
    for (const pool of Object.values(pools)) {
      await pool.query('analyze');
      await checkpoint(pool);
    }
    for (const side of ['empty', 'full'] as const) await load(side, SETTLE_SECONDS);
    const steady = await alternate();

    // The retention job's runs back to back, as the job asks for the next run when one stops at its bound.
    const sweepDb = createDb(databases.full.url, 2);
    const deleted = { event_log: 0, webhook_log: 0, notification_log: 0 };
    let sweeping = true;
    const sweepStarted = process.hrtime.bigint();
    const sweep = (async () => {
      const days = { event_log: EVENT_RETENTION_DAYS, webhook_log: 30, notification_log: 90 };
      for (let complete = false; !complete;) {
        const run = await runRetention(sweepDb, days, new Date(), DEFAULT_RETENTION_OPTIONS);
        for (const [table, n] of Object.entries(run.deleted)) deleted[table as keyof typeof deleted] += n;
        complete = run.complete;
      }
      sweeping = false;
      return elapsedSeconds(sweepStarted);
    })();
    const duringSweep = await alternate(() => sweeping);
    const measuredWhileSweeping = sweeping;
    const sweepSeconds = await sweep;
    await sweepDb.destroy();
    const sizeAfter = await sizes(pools.full);
    const loadAtEnd = loadavg()[0]!;

    const row = (name: string, s: Summary) => [
      name,
      String(s.requests),
      s.requestsPerSecond.toFixed(0),
      s.p50Ms.toFixed(2),
      s.p95Ms.toFixed(2),
      s.p99Ms.toFixed(2),
    ];
    const ratio = (r: { empty: Summary; full: Summary }) => r.full.requestsPerSecond / r.empty.requestsPerSecond;
    console.log(
      `\n${ROWS.toLocaleString('en')} stored logs and ${ROWS.toLocaleString('en')} events against an empty database; ${MEMBERS} members each, ${CONNECTIONS} connections,` +
        ` ${DURATION_SECONDS} s per side in ${ROUNDS} alternating windows; ${availableParallelism()} CPUs, load average ${loadAtStart.toFixed(2)} → ${loadAtEnd.toFixed(2)}\n`,
    );
    console.log(
      formatTable(
        ['scenario', 'logs', 'logs/s', 'p50 ms', 'p95 ms', 'p99 ms'],
        [
          row('empty database', steady.empty),
          row(`${ROWS.toLocaleString('en')} logs + events`, steady.full),
          ['full / empty', '', `${ratio(steady).toFixed(2)}x`, '', '', ''],
          row('empty database (during sweep)', duringSweep.empty),
          row('full, retention sweep running', duringSweep.full),
          ['sweeping / empty, same windows', '', `${ratio(duringSweep).toFixed(2)}x`, '', '', ''],
          [
            'sweeping / empty before the sweep',
            '',
            `${(duringSweep.full.requestsPerSecond / steady.empty.requestsPerSecond).toFixed(2)}x`,
            '',
            '',
            '',
          ],
        ],
      ),
    );
    console.log(
      `\nretention sweep: ${deleted.event_log.toLocaleString('en')} expired events deleted in ${sweepSeconds.toFixed(1)} s (${(deleted.event_log / sweepSeconds).toFixed(0)}/s);` +
        ` ${duringSweep.rounds} of ${ROUNDS} window pairs ran while it did${measuredWhileSweeping ? '' : ' (the sweep ended during the last)'};` +
        ` event_log ${mb(sizeBefore.event_log)} → ${mb(sizeAfter.event_log)} (space is reused, not returned)`,
    );
    console.log(`ingestion full / empty: ${ratio(steady).toFixed(2)}x (target >= 0.9x)`);

    await mkdir(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true });
    await writeFile(
      RESULTS_FILE,
      `${JSON.stringify(
        {
          generatedAt: new Date().toISOString(),
          node: process.version,
          cpus: availableParallelism(),
          loadAverage: { start: loadAtStart, end: loadAtEnd },
          rows: ROWS,
          members: MEMBERS,
          spanDays: SPAN_DAYS,
          eventRetentionDays: EVENT_RETENTION_DAYS,
          connections: CONNECTIONS,
          durationSeconds: DURATION_SECONDS,
          rounds: ROUNDS,
          seedSeconds,
          sizes: { before: sizeBefore, after: sizeAfter },
          steady: { ...steady, ratio: ratio(steady) },
          sweep: {
            ...duringSweep,
            ratio: ratio(duringSweep),
            // The sweep loads the whole machine, the empty side's windows included: against the steady empty side too.
            ratioToSteadyEmpty: duringSweep.full.requestsPerSecond / steady.empty.requestsPerSecond,
            deleted,
            seconds: sweepSeconds,
            batchSize: DEFAULT_RETENTION_OPTIONS.batchSize,
            pauseMs: DEFAULT_RETENTION_OPTIONS.pauseMs,
          },
        },
        null,
        2,
      )}\n`,
    );
    console.log(`wrote ${RESULTS_FILE}`);
  } finally {
    for (const service of Object.values(services)) await service.stop();
    for (const pool of Object.values(pools)) {
      pool.on('error', () => {});
      await pool.end();
    }
    for (const database of Object.values(databases)) await database.close();
  }
  console.log(`total run time ${elapsedSeconds(started).toFixed(1)} s`);
}

await main();
