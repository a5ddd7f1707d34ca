import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { Worker } from 'node:worker_threads';
import { Agent } from 'undici';
import {
  formatTable,
  openBenchDatabase,
  percentile,
  seedStreakAccount,
  startServiceProcess,
  STREAK_LOG_PATH,
  streakLogRequests,
} from './lib.js';

/**
 * One account's burst beside another's steady traffic, through the service binary: the quiet
 * account's latency alone and beside each burst (its ratio to alone, measured in the same run), what
 * the burst's requests were answered, and the service's peak memory. The bursts: 200 coupon imports
 * of 2.5 MB in flight at once (the largest bodies the API takes), and 400 logs in flight at once;
 * its client waits out each 429 as Retry-After says.
 *
 * Run: `cd apps/core && DATABASE_URL=… pnpm bench:burst` (BENCH_DURATION_SECONDS per phase, 20).
 */

const SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 20);
const IMPORT = Buffer.from(Array.from({ length: 10_000 }, (_, i) => `C${String(i).padStart(6, '0')}${'x'.repeat(248)}`).join('\n'));

const database = await openBenchDatabase();
const masterKey = randomBytes(32);
const quiet = await seedStreakAccount(database.url, masterKey, 1_000);
const loud = await seedStreakAccount(database.url, masterKey, 1_000);
const service = await startServiceProcess({
  DATABASE_URL: database.url,
  LOYALTY_MASTER_KEY: masterKey.toString('base64'),
  LOYALTY_DB_POOL_MAX: '10',
});
// Many connections at once, as many clients would open.
const dispatcher = new Agent({ connections: null, headersTimeout: 0, bodyTimeout: 0 });

async function json(path: string, account: { apiKey: string; apiSecret: string }, body: unknown): Promise<{ data: { id: string } }> {
  const res = await fetch(`${service.url}/api/v1.0${path}`, {
    method: 'POST',
    headers: { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as { data: { id: string } };
}

const reward = await json('/schema/reward/record', loud, {
  name: 'Imported',
  description: 'Codes imported in a burst',
  discountType: 'percentage',
  discountValue: 10,
  rewardExpiryType: 'no_expiry',
  handleCoupon: true,
  status: 'live',
});

/** The service's resident memory in MB, from its metrics. */
async function rssMb(): Promise<number> {
  const text = await (await fetch(`${service.url}/metrics`)).text();
  return Math.round(Number(/^process_resident_memory_bytes (\S+)/m.exec(text)?.[1]) / 1e6);
}

interface QuietResult {
  latencies: number[];
  /** The quiet client's own largest event-loop delay: what of `latencies` could be its own. */
  clientDelayMs: number;
}

/** The quiet account's logs for `seconds` (bench/burst-quiet.ts, on its own thread). */
function quietTraffic(seconds: number): Promise<QuietResult> {
  // Node 20 gives a worker none of the parent's module hooks: tsx's own API loads the TypeScript.
  const entry = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(new URL('./burst-quiet.ts', import.meta.url).href)}, ${JSON.stringify(import.meta.url)}))`;
  const worker = new Worker(entry, { eval: true, workerData: { url: service.url, account: quiet, seconds } });
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

interface Burst {
  name: string;
  connections: number;
  send(signal: AbortSignal): Promise<Response>;
}

const loudHeaders = { 'x-api-key': loud.apiKey, 'x-api-secret': loud.apiSecret };
const loudLogs = streakLogRequests(loud);
const bursts: Burst[] = [
  {
    name: '200 coupon imports of 2.5 MB in flight',
    connections: 200,
    send: (signal) =>
      fetch(`${service.url}/api/v1.0/schema/reward/record/${reward.data.id}/action/import_coupons`, {
        method: 'POST',
        headers: { ...loudHeaders, 'content-type': 'text/csv' },
        body: IMPORT,
        signal,
        dispatcher,
      } as RequestInit),
  },
  {
    name: '400 logs in flight',
    connections: 400,
    send: (signal) =>
      fetch(`${service.url}${STREAK_LOG_PATH}`, {
        method: 'POST',
        headers: loudLogs.headers,
        body: loudLogs.body(),
        signal,
        dispatcher,
      } as RequestInit),
  },
];

/**
 * Runs `burst` for `seconds`, each refusal waited out as its Retry-After says (a merchant's backend
 * retrying), then abandons what is still in flight, as clients that time out do.
 */
async function runBurst(burst: Burst, seconds: number): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {};
  const stop = new AbortController();
  setMaxListeners(Infinity, stop.signal);
  const loop = async () => {
    while (!stop.signal.aborted) {
      // One signal per request: fetch keeps its listener on the signal it is given past the answer.
      const request = new AbortController();
      const abort = () => request.abort();
      stop.signal.addEventListener('abort', abort);
      try {
        const res = await burst.send(request.signal);
        await res.arrayBuffer();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        const retryAfter = Number(res.headers.get('retry-after') ?? 0);
        if (retryAfter) await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
      } catch {
        if (!stop.signal.aborted) statuses.error = (statuses.error ?? 0) + 1;
      } finally {
        stop.signal.removeEventListener('abort', abort);
      }
    }
  };
  const loops = Array.from({ length: burst.connections }, loop);
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  stop.abort();
  await Promise.all(loops);
  return statuses;
}

/** Samples the service's memory until stopped; resolves to the peak. */
function watchMemory(): { stop(): Promise<number> } {
  let peak = 0;
  let running = true;
  const loop = (async () => {
    while (running) {
      peak = Math.max(peak, await rssMb());
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return peak;
    },
  };
}

const rows: string[][] = [];
const row = (name: string, { latencies, clientDelayMs }: QuietResult, alone: number[] | null, answered: string, peak: number) =>
  rows.push([
    name,
    String(latencies.length),
    percentile(latencies, 50).toFixed(1),
    percentile(latencies, 99).toFixed(1),
    latencies.at(-1)!.toFixed(0),
    alone ? `${(percentile(latencies, 99) / percentile(alone, 99)).toFixed(2)}×` : '1.00×',
    answered,
    String(peak),
    clientDelayMs.toFixed(0),
  ]);

try {
  await quietTraffic(2);
  const memory = watchMemory();
  const alone = await quietTraffic(SECONDS);
  row('alone', alone, null, '—', await memory.stop());
  for (const burst of bursts) {
    const watched = watchMemory();
    const [quietResult, statuses] = await Promise.all([quietTraffic(SECONDS), runBurst(burst, SECONDS)]);
    const answered = Object.entries(statuses)
      .map(([status, n]) => `${n} × ${status}`)
      .join(', ');
    row(`beside ${burst.name}`, quietResult, alone.latencies, answered, await watched.stop());
    // What was left in line drains before the next phase.
    await new Promise((resolve) => setTimeout(resolve, 3000));
  }
  console.log(`bench:burst, ${SECONDS} s a phase, the quiet account's logs (ms)`);
  console.log(
    formatTable(
      [
        'quiet account',
        'logs',
        'p50',
        'p99',
        'max',
        'p99 / alone',
        "the burst's answers",
        'peak RSS MB',
        "quiet client's loop delay max ms",
      ],
      rows,
    ),
  );
} finally {
  await dispatcher.close();
  await service.stop();
  await database.close();
}
