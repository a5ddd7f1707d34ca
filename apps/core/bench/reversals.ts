import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { SecretBox } from '../src/auth/crypto.js';
import { createDb } from '../src/db/knex.js';
import { RecordService } from '../src/records/service.js';
import { Registry } from '../src/records/registry.js';
import { createResources } from '../src/resources/index.js';
import { loadConfig } from '../src/config.js';
import { confirmHeldRewards } from '../src/scheduler/confirm.js';
import {
  closedLoop,
  combine,
  elapsedSeconds,
  formatTable,
  inTurn,
  type LoadResult,
  openBenchDatabase,
  percentile,
  seedStreakAccount,
  startServiceProcess,
  STREAK_LOG_PATH,
  summarize,
} from './lib.js';

/**
 * bench:reversals — CONTRACT §17 under load, against the service binary:
 * - a reversal inside a year-long streak run (365 daily logs, each reversal re-deciding the run):
 *   latency, one at a time (target p95 <= 25 ms);
 * - log ingestion at concurrency 32 with reversals as 5 % of the requests against ingestion alone,
 *   in alternating windows of one run (target >= 0.9x);
 * - confirming 100,000 held reward logs due at once with two workers (target >= 2,000/s), each
 *   exactly once.
 */
const YEAR = 365;
const RUN_MEMBERS = 6;
const REVERSALS = 120;
const CONNECTIONS = 32;
const MEMBERS = 10_000;
const DURATION_SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 10);
const ROUNDS = 3;
const HELD = Number(process.env.BENCH_HELD_REWARDS ?? 100_000);
const DAY_MS = 86_400_000;
const RESULTS_FILE = fileURLToPath(new URL('./results/reversals.json', import.meta.url));

const database = await openBenchDatabase();
const masterKey = randomBytes(32);
const account = await seedStreakAccount(database.url, masterKey, MEMBERS);
// One account's load, as bench:ingest measures it: no rate limit in the way.
const service = await startServiceProcess({
  DATABASE_URL: database.url,
  LOYALTY_MASTER_KEY: masterKey.toString('base64'),
  LOYALTY_RATE_LIMIT_PER_SECOND: String(1e9),
});
const headers = { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret, 'content-type': 'application/json' };

async function post(path: string, body: unknown): Promise<{ status: number; data: { id: string } }> {
  const res = await fetch(`${service.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const json = (await res.json()) as { data: { id: string } };
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return { status: res.status, data: json.data };
}
const log = (memberId: string, at: Date) =>
  post(STREAK_LOG_PATH, {
    streakId: account.streakId,
    ownedById: memberId,
    activityId: 'visit',
    activityAt: at.toISOString(),
    uniqueIdentifier: randomUUID(),
  });
const reverse = (logId: string) => post(`/api/v1.0/schema/streak_log/record/${logId}/action/reverse`, {});

try {
  // Year-long runs: one log a day for 365 days up to today, in order, for each of a few members.
  const started = Date.now();
  const runs: string[][] = [];
  for (const memberId of account.memberIds.slice(0, RUN_MEMBERS)) {
    const ids: string[] = [];
    for (let day = YEAR - 1; day >= 0; day--) ids.push((await log(memberId, new Date(started - day * DAY_MS - 60_000))).data.id);
    runs.push(ids);
  }
  const reversalMs: number[] = [];
  for (let i = 0; i < REVERSALS; i++) {
    const ids = runs[i % RUN_MEMBERS]!;
    // Inside the run, never the same log twice: each reversal re-decides the whole year.
    const id = ids.splice(1 + Math.floor(Math.random() * (ids.length - 2)), 1)[0]!;
    const t0 = process.hrtime.bigint();
    await reverse(id);
    reversalMs.push(elapsedSeconds(t0) * 1000);
  }
  reversalMs.sort((a, b) => a - b);
  const reversal = {
    n: reversalMs.length,
    p50Ms: percentile(reversalMs, 50),
    p95Ms: percentile(reversalMs, 95),
    p99Ms: percentile(reversalMs, 99),
  };

  // Ingestion with and without reversals in the mix, alternating windows.
  const recent: string[] = [];
  const ingestOnce = async () => {
    const memberId = account.memberIds[RUN_MEMBERS + Math.floor(Math.random() * (MEMBERS - RUN_MEMBERS))]!;
    const created = await log(memberId, new Date());
    if (recent.length < 50_000) recent.push(created.data.id);
  };
  const sides = {
    logs: () => ingestOnce(),
    'logs + 5 % reversals': async () => {
      if (Math.random() < 0.05 && recent.length) {
        const id = recent.splice(Math.floor(Math.random() * recent.length), 1)[0]!;
        return reverse(id);
      }
      return ingestOnce();
    },
  };
  const windows: Record<keyof typeof sides, LoadResult[]> = { logs: [], 'logs + 5 % reversals': [] };
  await closedLoop({ connections: CONNECTIONS, seconds: 3 }, sides.logs);
  for (let round = 0; round < ROUNDS; round++)
    for (const side of inTurn(Object.keys(sides) as (keyof typeof sides)[], round))
      windows[side].push(await closedLoop({ connections: CONNECTIONS, seconds: DURATION_SECONDS }, sides[side]));
  const plain = summarize(combine(windows.logs));
  const mixed = summarize(combine(windows['logs + 5 % reversals']));

  // Held rewards all due at once, confirmed by two workers (two record services, two pools).
  const db = createDb(database.url, 4);
  const [reward] = await db('reward')
    .insert({
      account_id: account.accountId,
      name: 'Held',
      description: 'd',
      discount_type: 'percentage',
      discount_value: 10,
      reward_expiry_type: 'no_expiry',
      handle_coupon: true,
      handle_coupon_auto_generation: true,
      coupon_code_length: 12,
    })
    .returning('id');
  await db.raw(
    `insert into reward_log (account_id, reward_id, linked_schema_slug, linked_schema_record_id, owned_by_id, reward_log_status, confirm_at)
     select ?, ?, 'streak', ?, (?::uuid[])[1 + n % ?], 'pending', now() - interval '1 minute' from generate_series(1, ?) as n`,
    [account.accountId, reward.id, account.streakId, account.memberIds, account.memberIds.length, HELD],
  );
  await db.raw('analyze reward_log');
  const config = loadConfig({ ...process.env, DATABASE_URL: database.url, LOYALTY_MASTER_KEY: masterKey.toString('base64') });
  const worker = () => {
    const workerDb = createDb(database.url, 4);
    return { db: workerDb, records: new RecordService(workerDb, new SecretBox(masterKey), new Registry(createResources(config))) };
  };
  const workers = [worker(), worker()];
  const t0 = process.hrtime.bigint();
  const confirmed = await Promise.all(workers.map((w) => confirmHeldRewards(w.records, new Date())));
  const confirmSeconds = elapsedSeconds(t0);
  const [{ issued, codes, events }] = (
    await db.raw(
      `select (select count(*) from reward_log where reward_log_status = 'issued' and reward_id = ?)::int as issued,
                         (select count(distinct coupon_code) from reward_log where reward_id = ?)::int as codes,
                         (select count(*) from event_log where event_code = 'reward_log_issued')::int as events`,
      [reward.id, reward.id],
    )
  ).rows;
  for (const w of workers) await w.db.destroy();
  await db.destroy();
  if (issued !== HELD || codes !== HELD || events !== HELD)
    throw new Error(`confirmed ${issued} with ${codes} codes and ${events} events of ${HELD}`);
  const confirmPerSecond = HELD / confirmSeconds;

  console.log(
    `bench:reversals on ${database.description}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    formatTable(
      ['reversal inside a 365-day run', 'n', 'p50 ms', 'p95 ms', 'p99 ms', 'target'],
      [
        [
          `one at a time`,
          String(reversal.n),
          reversal.p50Ms.toFixed(1),
          reversal.p95Ms.toFixed(1),
          reversal.p99Ms.toFixed(1),
          'p95 <= 25 ms',
        ],
      ],
    ),
  );
  console.log(
    formatTable(
      [`c${CONNECTIONS}, ${ROUNDS} x ${DURATION_SECONDS} s each`, 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'ratio'],
      [
        ['logs', plain.requestsPerSecond.toFixed(0), plain.p50Ms.toFixed(1), plain.p95Ms.toFixed(1), plain.p99Ms.toFixed(1), '1.00x'],
        [
          'logs + 5 % reversals',
          mixed.requestsPerSecond.toFixed(0),
          mixed.p50Ms.toFixed(1),
          mixed.p95Ms.toFixed(1),
          mixed.p99Ms.toFixed(1),
          `${(mixed.requestsPerSecond / plain.requestsPerSecond).toFixed(2)}x (target >= 0.90x)`,
        ],
      ],
    ),
  );
  console.log(
    `confirmed ${HELD} held reward logs with 2 workers (${confirmed.join(' + ')}) in ${confirmSeconds.toFixed(1)} s: ${confirmPerSecond.toFixed(0)}/s (target >= 2000/s), each once, each with its own code and event`,
  );
  await mkdir(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true });
  await writeFile(
    RESULTS_FILE,
    `${JSON.stringify({ at: new Date().toISOString(), database: database.description, reversal, ingestion: { plain, mixed, ratio: mixed.requestsPerSecond / plain.requestsPerSecond }, confirm: { rewardLogs: HELD, workers: 2, seconds: confirmSeconds, perSecond: confirmPerSecond } }, null, 2)}\n`,
  );
  console.log(`wrote ${RESULTS_FILE}`);
} finally {
  await service.stop();
  await database.close();
}
