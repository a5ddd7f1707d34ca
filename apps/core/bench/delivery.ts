import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SecretBox } from '../src/auth/crypto.js';
import { createDb } from '../src/db/knex.js';
import { EVENTS_CHANNEL } from '../src/events/wakeup.js';
import { migrateLatest } from '../src/db/migrate.js';
import { provisionAccount } from '../src/tenancy.js';
import {
  closedLoop,
  combine,
  cpuPerRequest,
  cpuTimes,
  elapsedSeconds,
  formatTable,
  type LoadResult,
  openBenchDatabase,
  percentile,
  startServiceProcess,
} from './lib.js';
import { formatProfile, type ProfileSummary, summarizeProfileDir } from './profile.js';

/**
 * bench:delivery — backlogs of 10,000 events through the outbox to a local receiver by real
 * worker processes: deliveries/s draining a backlog committed while they run (after a warm-up
 * drain, ROUNDS drains alternating with windows of the baseline), and event-to-delivery latency
 * under a steady stream of logs. Baseline: the same signed-size POSTs sent straight to the receiver, no database.
 */
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const STREAM_SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const STREAM_RATE = 100;
/**
 * Drains and direct-POST windows alternate, ROUNDS of each, so that a slower spell of the machine
 * falls on both sides: one drain of 10,000 events lasts a few seconds, and alone it moved the
 * ratio by ±0.15 between runs.
 */
const ROUNDS = Number(process.env.BENCH_DELIVERY_ROUNDS ?? 3);
const DIRECT_SECONDS = 4;
/** `BENCH_CPU_PROF=0` skips profiling one fresh worker draining a backlog of PROFILE_EVENTS after the measurements. */
const PROFILE = process.env.BENCH_CPU_PROF !== '0';
const PROFILE_EVENTS = Math.min(EVENTS, 5000);
/** Microseconds of the monotonic clock, the clock of a CPU profile's timestamps. */
const nowUs = () => Number(process.hrtime.bigint() / 1000n);
const RESULTS_FILE = fileURLToPath(new URL('./results/delivery.json', import.meta.url));

function summary(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { count: sorted.length, p50Ms: percentile(sorted, 50), p95Ms: percentile(sorted, 95), p99Ms: percentile(sorted, 99) };
}

async function main(): Promise<void> {
  const started = process.hrtime.bigint();
  const loadAtStart = loadavg()[0]!;
  const database = await openBenchDatabase();
  console.log(`using ${database.description}`);

  // The receiver records, per event, the time from its createdAt to arrival.
  const latencies: number[] = [];
  const seen = new Set<string>();
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const arrived = Date.now();
      const envelope = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; events: { createdAt: string }[] };
      if (!seen.has(envelope.id)) {
        seen.add(envelope.id);
        for (const e of envelope.events) latencies.push(arrived - Date.parse(e.createdAt));
      }
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const masterKey = randomBytes(32);
  const db = createDb(database.url, 4);
  const pool = new pg.Pool({ connectionString: database.url, max: 4 });
  const env = {
    DATABASE_URL: database.url,
    LOYALTY_MASTER_KEY: masterKey.toString('base64'),
    LOYALTY_WEBHOOK_ALLOW_PRIVATE: 'true',
    LOYALTY_RATE_LIMIT_PER_SECOND: String(1e9),
  };
  const services: { stop(): Promise<void> }[] = [];
  try {
    await migrateLatest(db);
    const made = await provisionAccount(db, new SecretBox(masterKey), { organizationName: 'Bench', accountName: 'Delivery' });
    const accountId = made.account.id as string;
    const api = await startServiceProcess(env);
    services.push(api);
    const headers = { 'x-api-key': made.apiKey.apiKey, 'x-api-secret': made.apiKey.apiSecret, 'content-type': 'application/json' };
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${api.url}/api/v1.0${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return (await res.json()).data;
    };
    await post('/schema/webhook/record', {
      name: 'bench',
      endpointUrl: receiverUrl,
      eventCodes: ['streak_progress_non_milestone_completed'],
      status: 'live',
    });
    const streak = await post('/schema/streak/record', { name: 'Daily' });
    const sample = await post('/schema/streak_log/record', {
      streakId: streak.id,
      ownedBy: { externalId: 'sample' },
      activityId: 'visit',
      activityAt: new Date().toISOString(),
      uniqueIdentifier: randomUUID(),
    });

    // Backlog: EVENTS events committed at once with the outbox's wake-up, as a burst of logs would
    // leave them, to workers already running: the drain is timed from the commit, not from process start.
    const backlog = (events: number) =>
      pool.query(
        `with burst as (
           insert into event_log (account_id, event_code, owned_by_id, linked_schema_slug, linked_schema_record_id, payload)
           select $1, 'streak_progress_non_milestone_completed', $2, 'streak_progress', $3, $4 from generate_series(1, $5)
         )
         select pg_notify($6, '')`,
        [accountId, sample.ownedById, sample.streakProgress.id, JSON.stringify({ streakLog: sample }), events, EVENTS_CHANNEL],
      );
    /** Commits a backlog of `events` and waits until the receiver has had every one. */
    const drain = async (events: number) => {
      const target = seen.size + events;
      await backlog(events);
      while (seen.size < target) await new Promise((r) => setTimeout(r, 20));
    };
    // Baseline: the same POSTs, sized like a delivery, straight to the receiver at 32 in flight.
    const body = JSON.stringify({
      id: randomUUID(),
      accountId,
      createdAt: new Date().toISOString(),
      events: [{ createdAt: new Date().toISOString(), payload: { streakLog: sample } }],
    });
    const directWindow = (seconds = DIRECT_SECONDS) =>
      closedLoop(
        { connections: 32, seconds },
        () =>
          new Promise<void>((resolve, reject) => {
            const req = request(
              receiverUrl,
              { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }, agent: false },
              (res) => {
                res.resume();
                res.on('end', () => resolve());
              },
            );
            req.on('error', reject);
            req.end(body.replace(/"id":"[^"]+"/, `"id":"${randomUUID()}"`));
          }),
      );

    const workers = [];
    for (let i = 0; i < WORKERS; i++) workers.push(await startServiceProcess(env, ['worker']));
    services.push(...workers);
    // The sample log's own event, delivered: the workers are up and listening.
    while (seen.size < 1) await new Promise((r) => setTimeout(r, 5));
    // Warm-up, not counted: the first drain of fresh workers ran at about two thirds of the later ones'
    // pace (their code not yet compiled), and the direct client's first window likewise.
    await drain(EVENTS);
    await directWindow(1);
    const drainSeconds: number[] = [];
    const directs: LoadResult[] = [];
    // CPU per delivery while draining, each round's: the workers together, and PostgreSQL.
    const cpu: { workers: number; postgres: number }[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const backlogStart = process.hrtime.bigint();
      const cpuBefore = workers.map((w) => cpuTimes(w.pid));
      await drain(EVENTS);
      drainSeconds.push(elapsedSeconds(backlogStart));
      const perWorker = workers.map((w, i) => cpuPerRequest(cpuBefore[i], cpuTimes(w.pid), EVENTS));
      if (perWorker.every((c) => c)) cpu.push({ workers: perWorker.reduce((t, c) => t + c!.service, 0), postgres: perWorker[0]!.postgres });
      directs.push(await directWindow());
    }
    const totalSeconds = drainSeconds.reduce((t, x) => t + x, 0);
    const drained = {
      deliveries: ROUNDS * EVENTS,
      seconds: totalSeconds,
      perSecond: (ROUNDS * EVENTS) / totalSeconds,
      rounds: drainSeconds.map((x) => EVENTS / x),
    };
    const direct = combine(directs);
    const baselinePerSecond = direct.latenciesMs.length / direct.seconds;
    const baselineRounds = directs.map((d) => d.latenciesMs.length / d.seconds);
    const mean = (of: (c: { workers: number; postgres: number }) => number) => cpu.reduce((t, c) => t + of(c), 0) / cpu.length;
    const cpuMsPerDelivery = cpu.length === ROUNDS ? { workers: mean((c) => c.workers), postgres: mean((c) => c.postgres) } : undefined;
    latencies.length = 0;

    // Steady stream: logs through the API at a fixed rate; latency from each event's createdAt.
    const streamStart = seen.size;
    const members = Array.from({ length: 1000 }, (_, i) => `stream-${i}`);
    for (let tick = 0; tick < STREAM_SECONDS * STREAM_RATE; tick++) {
      const at = new Date().toISOString();
      void post('/schema/streak_log/record', {
        streakId: streak.id,
        ownedBy: { externalId: members[tick % members.length] },
        activityId: 'visit',
        activityAt: at,
        uniqueIdentifier: randomUUID(),
      });
      await new Promise((r) => setTimeout(r, 1000 / STREAM_RATE));
    }
    const expected = streamStart + STREAM_SECONDS * STREAM_RATE;
    const deadline = Date.now() + 30_000;
    while (seen.size < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const stream = summary(latencies);

    let profile: ProfileSummary | undefined;
    if (PROFILE) {
      // After the measurements, so the profiler's overhead is in no figure above: one fresh worker drains a backlog alone.
      for (const w of workers) await w.stop();
      const dir = await mkdtemp(join(tmpdir(), 'loyalty-delivery-profile-'));
      const nodeOptions = process.env.BENCH_SERVICE_NODE_OPTIONS ?? '';
      // startServiceProcess puts BENCH_SERVICE_NODE_OPTIONS before the binary's path, where the profiler's flags go.
      process.env.BENCH_SERVICE_NODE_OPTIONS = `${nodeOptions} --cpu-prof --cpu-prof-dir=${dir}`.trim();
      const profiled = await startServiceProcess(env, ['worker']);
      process.env.BENCH_SERVICE_NODE_OPTIONS = nodeOptions;
      let window: [number, number];
      try {
        const from = nowUs();
        await drain(PROFILE_EVENTS);
        window = [from, nowUs()];
      } finally {
        await profiled.stop(); // the profile is written as the process exits
      }
      profile = await summarizeProfileDir(dir, 12, [window]);
      await rm(dir, { recursive: true, force: true });
    }
    const loadAtEnd = loadavg()[0]!;
    console.log(
      `\n${WORKERS} worker processes; ${availableParallelism()} CPUs, load average ${loadAtStart.toFixed(2)} → ${loadAtEnd.toFixed(2)}\n`,
    );
    console.log(
      formatTable(
        ['scenario', 'deliveries', 'per s', 'p50 ms', 'p95 ms', 'p99 ms'],
        [
          [`backlog of ${EVENTS}, ${ROUNDS} rounds`, String(drained.deliveries), drained.perSecond.toFixed(0), '', '', ''],
          ['direct POSTs (baseline)', String(direct.latenciesMs.length), baselinePerSecond.toFixed(0), '', '', ''],
          ['backlog / baseline', '', `${(drained.perSecond / baselinePerSecond).toFixed(2)}x`, '', '', ''],
          [
            `stream ${STREAM_RATE} logs/s, event → delivery`,
            String(stream.count),
            '',
            stream.p50Ms.toFixed(1),
            stream.p95Ms.toFixed(1),
            stream.p99Ms.toFixed(1),
          ],
        ],
      ),
    );
    console.log(
      `\nper round, backlog / direct POSTs: ${drained.rounds.map((r, i) => `${r.toFixed(0)} / ${baselineRounds[i]!.toFixed(0)}`).join(', ')}`,
    );
    if (cpuMsPerDelivery)
      console.log(
        `\nCPU ms per delivery draining the backlog: workers ${cpuMsPerDelivery.workers.toFixed(2)}, PostgreSQL ${cpuMsPerDelivery.postgres.toFixed(2)}`,
      );
    if (profile) console.log(`\nOne fresh worker's CPU profile draining ${PROFILE_EVENTS} events alone:\n\n${formatProfile(profile)}`);
    await mkdir(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true });
    await writeFile(
      RESULTS_FILE,
      `${JSON.stringify({ generatedAt: new Date().toISOString(), cpus: availableParallelism(), loadAverage: { start: loadAtStart, end: loadAtEnd }, workers: WORKERS, events: EVENTS, rounds: ROUNDS, drained, baselinePerSecond, baselineRounds, stream: { ratePerSecond: STREAM_RATE, seconds: STREAM_SECONDS, ...stream }, ...(cpuMsPerDelivery ? { cpuMsPerDelivery } : {}), ...(profile ? { profile, profileEvents: PROFILE_EVENTS } : {}) }, null, 2)}\n`,
    );
    console.log(`\nwrote ${RESULTS_FILE}`);
  } finally {
    for (const s of services.reverse()) await s.stop();
    receiver.close();
    pool.on('error', () => {});
    await pool.end();
    await db.destroy();
    await database.close();
  }
  console.log(`total run time ${elapsedSeconds(started).toFixed(1)} s`);
}

await main();
