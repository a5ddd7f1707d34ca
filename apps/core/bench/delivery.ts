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
import { migrateLatest } from '../src/db/migrate.js';
import { provisionAccount } from '../src/tenancy.js';
import { closedLoop, elapsedSeconds, formatTable, openBenchDatabase, percentile, startServiceProcess } from './lib.js';
import { formatProfile, type ProfileSummary, summarizeProfileDir } from './profile.js';

/**
 * bench:delivery — 10,000 events through the outbox to a local receiver by real worker
 * processes: deliveries/s draining a backlog, and event-to-delivery latency under a steady stream
 * of logs. Baseline: the same signed-size POSTs sent straight to the receiver, no database.
 */
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const STREAM_SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const STREAM_RATE = 100;
/** `BENCH_PROFILE=1` runs the first worker under `--cpu-prof` (which slows it) and prints and keeps its top frames. */
const PROFILE = process.env.BENCH_PROFILE === '1';
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

    // Backlog: EVENTS events written at once (as a burst of logs would), then the workers start.
    await pool.query(
      `insert into event_log (account_id, event_code, owned_by_id, linked_schema_slug, linked_schema_record_id, payload)
       select $1, 'streak_progress_non_milestone_completed', $2, 'streak_progress', $3, $4 from generate_series(2, $5)`,
      [accountId, sample.ownedById, sample.streakProgress.id, JSON.stringify({ streakLog: sample }), EVENTS],
    );
    const backlogStart = process.hrtime.bigint();
    const profileDir = PROFILE ? await mkdtemp(join(tmpdir(), 'delivery-profile-')) : undefined;
    const nodeOptions = process.env.BENCH_SERVICE_NODE_OPTIONS;
    const workers = [];
    for (let i = 0; i < WORKERS; i++) {
      // Node takes --cpu-prof on its command line only; the first worker alone is profiled.
      if (profileDir && i === 0) process.env.BENCH_SERVICE_NODE_OPTIONS = `${nodeOptions ?? ''} --cpu-prof --cpu-prof-dir=${profileDir}`;
      workers.push(await startServiceProcess(env, ['worker']));
      if (nodeOptions === undefined) delete process.env.BENCH_SERVICE_NODE_OPTIONS;
      else process.env.BENCH_SERVICE_NODE_OPTIONS = nodeOptions;
    }
    services.push(...workers);
    while (seen.size < EVENTS) await new Promise((r) => setTimeout(r, 20));
    const backlogSeconds = elapsedSeconds(backlogStart);
    const drained = { deliveries: seen.size, seconds: backlogSeconds, perSecond: seen.size / backlogSeconds };
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

    // Baseline: the same POSTs, sized like a delivery, straight to the receiver at 32 in flight.
    const body = JSON.stringify({
      id: randomUUID(),
      accountId,
      createdAt: new Date().toISOString(),
      events: [{ createdAt: new Date().toISOString(), payload: { streakLog: sample } }],
    });
    const direct = await closedLoop(
      { connections: 32, seconds: 5 },
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
    const baselinePerSecond = direct.latenciesMs.length / direct.seconds;
    let profile: ProfileSummary | undefined;
    if (profileDir) {
      // The profile is written when the worker exits.
      await workers[0]!.stop();
      profile = await summarizeProfileDir(profileDir, 12);
      await rm(profileDir, { recursive: true, force: true });
    }

    const loadAtEnd = loadavg()[0]!;
    console.log(
      `\n${WORKERS} worker processes; ${availableParallelism()} CPUs, load average ${loadAtStart.toFixed(2)} → ${loadAtEnd.toFixed(2)}\n`,
    );
    console.log(
      formatTable(
        ['scenario', 'deliveries', 'per s', 'p50 ms', 'p95 ms', 'p99 ms'],
        [
          [`backlog of ${EVENTS}`, String(drained.deliveries), drained.perSecond.toFixed(0), '', '', ''],
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
    if (profile) console.log(`\nThe first worker's CPU profile (backlog, stream and idle):\n\n${formatProfile(profile)}`);
    await mkdir(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true });
    await writeFile(
      RESULTS_FILE,
      `${JSON.stringify({ generatedAt: new Date().toISOString(), cpus: availableParallelism(), loadAverage: { start: loadAtStart, end: loadAtEnd }, workers: WORKERS, events: EVENTS, drained, baselinePerSecond, stream: { ratePerSecond: STREAM_RATE, seconds: STREAM_SECONDS, ...stream }, ...(profile ? { profile } : {}) }, null, 2)}\n`,
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
