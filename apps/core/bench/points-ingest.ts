import { randomBytes, randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import {
  checkpoint,
  combine,
  cpuPerRequest,
  cpuTimes,
  type CpuTimes,
  formatTable,
  httpLoad,
  inTurn,
  type LoadResult,
  meanCpu,
  openBenchDatabase,
  seedStreakAccount,
  SETTLE_SECONDS,
  startServiceProcess,
  STREAK_LOG_PATH,
  type Summary,
  summarize,
  walPosition,
} from './lib.js';

/**
 * bench:points-ingest — issue 35's "earning a point entry adds <= 10 % to ingestion's cost". In
 * the core a log earns points when it reaches a milestone whose reward is of kind `points`
 * (CONTRACT §19): its reward log then also writes an `earned` entry, the member's balance, window
 * and tier, and `points_earned`. The baseline is the same log reaching the same milestone whose
 * reward issues a reward log and nothing else (a reward without a code): the difference between the
 * two is what earning the entry adds. Two more sides give the context: the log alone (no
 * milestone) and a milestone with a generated code. Every log is its member's first on its
 * streak, so each one reaches its milestone (day 1 of a daily streak). All four sides run against
 * the one service binary at c32, in alternating windows of one run (two full turns, each side
 * first twice); cost is measured as throughput and as CPU per log (service and PostgreSQL). A fifth
 * side, the baseline again on a streak of its own, is the A/A control: what the method reads where
 * there is no difference.
 */
// Enough for the quickest side's 45 s on the quickest host seen (a plain log 1,702/s used 85,134).
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 200_000);
// BENCH_CONNECTIONS=2 measures the entry with the server short of saturation (docs/performance.md).
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
// 45 s per side: with 15, runs of the same code read 11-19 % (windows of 1.5 s); with 45, 12.2-12.9 %.
const DURATION_SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 45);
const WARMUP_SECONDS = 2;
const POINTS = 10;
const TARGET_EXTRA = 0.1;
const RESULTS_FILE = fileURLToPath(new URL('./results/points-ingest.json', import.meta.url));

const loadAtStart = loadavg()[0]!;
const database = await openBenchDatabase();
console.log(`using ${database.description}`);
const masterKey = randomBytes(32);
const account = await seedStreakAccount(database.url, masterKey, MEMBERS);
const pool = new pg.Pool({ connectionString: database.url, max: 2 });

/** A daily streak like the seeded one, with a milestone on its first day that gives a new reward (or no milestone). */
async function streakWith(name: string, reward: Record<string, unknown> | null): Promise<{ streakId: string; rewardId?: string }> {
  const {
    rows: [streak],
  } = await pool.query<{ id: string }>(
    `insert into streak (account_id, name, aggregation_period, aggregation_method, aggregation_target_value, to_be_broken_warning_hours)
     values ($1, $2, 'daily', 'count', 1, 4) returning id`,
    [account.accountId, name],
  );
  if (!reward) return { streakId: streak!.id };
  const {
    rows: [made],
  } = await pool.query<{ id: string }>(
    `insert into reward (account_id, name, description, discount_type, discount_value, reward_expiry_type, handle_coupon,
                         handle_coupon_auto_generation, coupon_code_length, status, reward_kind, points_value)
     values ($1, $2, 'For the first day', 'percentage', 10, 'no_expiry', $3, $3, 12, 'live', $4, $5) returning id`,
    [account.accountId, `${name} reward`, reward.coded, reward.kind, reward.points ?? null],
  );
  await pool.query(
    `insert into milestone (account_id, linked_schema_slug, linked_schema_record_id, name, description, milestone_target_value, status, reward_id)
     values ($1, 'streak', $2, 'Day one', 'The first day', 1, 'live', $3)`,
    [account.accountId, streak!.id, made!.id],
  );
  return { streakId: streak!.id, rewardId: made!.id };
}

// Points live with two tiers, so an earned entry also applies a multiplier and decides a tier, as in a real program.
await pool.query(
  `insert into points_setting (account_id, status) values ($1, 'live') on conflict (account_id) do update set status = 'live'`,
  [account.accountId],
);
const {
  rows: [base],
} = await pool.query<{ id: string }>(
  `insert into tier (account_id, name, status, points_threshold, earn_multiplier) values ($1, 'Member', 'live', 0, 1), ($1, 'Gold', 'live', 1000, 1.5)
   returning id`,
  [account.accountId],
);
// Members who have earned before: in the first tier, with points in the window, as most earners in a running program are.
await pool.query(
  `update account_user set tier_id = $2, points_balance = 100, points_earned_in_tier_window = 100, points_window_oldest_at = now() - interval '30 days',
          last_point_entry_at = now() - interval '30 days' where account_id = $1`,
  [account.accountId, base!.id],
);
const sides = [
  { name: 'log, no milestone', ...(await streakWith('Plain', null)) },
  { name: 'milestone, reward without a code', ...(await streakWith('Reward log', { coded: false, kind: 'code' })) },
  { name: 'milestone, generated code', ...(await streakWith('Coded', { coded: true, kind: 'code' })) },
  { name: 'milestone, points reward', ...(await streakWith('Points', { coded: false, kind: 'points', points: POINTS })) },
  // The baseline again on a streak of its own: its ratio to the baseline is the method's own noise (an A/A control).
  { name: 'milestone, reward without a code, again', ...(await streakWith('Reward log again', { coded: false, kind: 'code' })) },
];
// BENCH_ONLY=<part of a side's name> runs that side alone, e.g. under BENCH_SERVICE_NODE_OPTIONS=--cpu-prof.
const only = process.env.BENCH_ONLY;
const measured = only ? sides.filter((s) => s.name.includes(only)) : sides;
const BASELINE = sides[1]!.name;
const POINTS_SIDE = sides[3]!.name;
const CONTROL = sides[4]!.name;
// Two full turns: each side starts a round twice and follows every other side.
const rounds = 2 * measured.length;
await pool.query('analyze');

const service = await startServiceProcess({
  DATABASE_URL: database.url,
  LOYALTY_MASTER_KEY: masterKey.toString('base64'),
  LOYALTY_RATE_LIMIT_PER_SECOND: String(1e9),
});
const headers = { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret, 'content-type': 'application/json' };

/** Each side takes members in turn, so every log is its member's first on that side's streak. */
const nextMember = new Map(sides.map((s) => [s.name, 0]));
function body(side: (typeof sides)[number]): () => string {
  return () => {
    const n = nextMember.get(side.name)!;
    if (n >= MEMBERS) throw new Error(`side "${side.name}" ran out of members; raise BENCH_MEMBERS`);
    nextMember.set(side.name, n + 1);
    return JSON.stringify({
      streakId: side.streakId,
      ownedById: account.memberIds[n],
      activityId: 'visit',
      activityAt: new Date().toISOString(),
      uniqueIdentifier: randomUUID(),
    });
  };
}

/** How one reading varies from turn to turn: each turn's reading, and the 95 % bootstrap interval of their mean. */
interface Spread {
  turns: number[];
  median: number;
  interval: [number, number];
}

/**
 * The turns' spread. The interval resamples the turns RESAMPLES times with a fixed seed (so a
 * rerun prints the same for the same turns): whether a reading misses its target by more than the
 * turns scatter.
 */
const RESAMPLES = 10_000;
function spread(turns: number[]): Spread {
  const sorted = [...turns].sort((a, b) => a - b);
  const middle = (sorted.length - 1) / 2;
  const median = (sorted[Math.floor(middle)]! + sorted[Math.ceil(middle)]!) / 2;
  let seed = 1;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const means = Array.from({ length: RESAMPLES }, () => {
    let sum = 0;
    for (let i = 0; i < turns.length; i++) sum += turns[Math.floor(random() * turns.length)]!;
    return sum / turns.length;
  }).sort((a, b) => a - b);
  return { turns, median, interval: [means[Math.floor(RESAMPLES * 0.025)]!, means[Math.ceil(RESAMPLES * 0.975) - 1]!] };
}

interface SideResult {
  summary: Summary;
  cpuMsPerLog?: CpuTimes;
  /** WAL the server wrote per log in the side's windows (with whatever else ran then: autovacuum, a checkpoint's page images). */
  walBytesPerLog: number;
}

try {
  const load = (side: (typeof sides)[number], seconds: number) =>
    httpLoad({
      url: service.url,
      connections: CONNECTIONS,
      seconds,
      headers,
      method: 'POST',
      path: () => STREAK_LOG_PATH,
      body: body(side),
    });
  for (const side of measured) await load(side, WARMUP_SECONDS);
  await pool.query('analyze');
  await checkpoint(pool);
  for (const side of measured) await load(side, SETTLE_SECONDS);
  const windows = new Map(
    measured.map((s) => [s.name, { results: [] as LoadResult[], cpu: [] as (CpuTimes | undefined)[], wal: 0n, logs: 0 }]),
  );
  for (let round = 0; round < rounds; round++) {
    for (const side of inTurn(measured, round)) {
      const w = windows.get(side.name)!;
      const walBefore = await walPosition(pool);
      const before = cpuTimes(service.pid);
      const result = await load(side, DURATION_SECONDS / rounds);
      w.cpu.push(cpuPerRequest(before, cpuTimes(service.pid), result.latenciesMs.length));
      w.wal += (await walPosition(pool)) - walBefore;
      w.logs += result.latenciesMs.length;
      w.results.push(result);
    }
  }
  const results = new Map<string, SideResult>();
  for (const side of measured) {
    const w = windows.get(side.name)!;
    const cpu = meanCpu(w.cpu);
    results.set(side.name, {
      summary: summarize(combine(w.results)),
      ...(cpu ? { cpuMsPerLog: cpu } : {}),
      walBytesPerLog: Number(w.wal) / Math.max(1, w.logs),
    });
  }

  // Every log of a milestone side reached its milestone and got its reward log; every points log its entry, at the tier's multiplier.
  const {
    rows: [counts],
  } = await pool.query<{ logs: number; rewardLogs: number; entries: number; wrongPoints: number; balanceMismatch: number }>(
    `select (select count(*) from streak_log where streak_id = $1)::int as logs,
            (select count(*) from reward_log where reward_id = $3)::int as "rewardLogs",
            (select count(*) from point_entry where reason = 'earned')::int as entries,
            (select count(*) from point_entry where reason = 'earned' and points <> $2)::int as "wrongPoints",
            (select count(*) from account_user u where points_balance <> 100 + coalesce((select sum(points) from point_entry e where e.owned_by_id = u.id), 0))::int as "balanceMismatch"`,
    [sides[3]!.streakId, POINTS, sides[3]!.rewardId],
  );
  const c = counts!;
  if (c.logs !== c.rewardLogs || c.rewardLogs !== c.entries || c.wrongPoints || c.balanceMismatch)
    throw new Error(`points side inconsistent: ${JSON.stringify(c)}`);

  console.log(
    `\nc${CONNECTIONS}, ${DURATION_SECONDS} s per side in ${rounds} alternating windows after ${WARMUP_SECONDS} s warm-up; every log its member's first;` +
      ` ${availableParallelism()} CPUs, load average ${loadAtStart.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}\n`,
  );
  console.log(
    formatTable(
      ['side', 'logs', 'per s', 'p50 ms', 'p95 ms', 'p99 ms', 'CPU ms each: service / PostgreSQL', 'WAL bytes each'],
      measured.map(({ name }) => {
        const r = results.get(name)!;
        return [
          name,
          String(r.summary.requests),
          r.summary.requestsPerSecond.toFixed(0),
          r.summary.p50Ms.toFixed(2),
          r.summary.p95Ms.toFixed(2),
          r.summary.p99Ms.toFixed(2),
          r.cpuMsPerLog ? `${r.cpuMsPerLog.service.toFixed(2)} / ${r.cpuMsPerLog.postgres.toFixed(2)}` : '',
          r.walBytesPerLog.toFixed(0),
        ];
      }),
    ),
  );
  if (!only) {
    const base = results.get(BASELINE)!;
    const points = results.get(POINTS_SIDE)!;
    const throughputExtra = base.summary.requestsPerSecond / points.summary.requestsPerSecond - 1;
    const controlExtra = base.summary.requestsPerSecond / results.get(CONTROL)!.summary.requestsPerSecond - 1;
    // A turn's reading: the two sides' windows of one round, which are equally long, so their logs' ratio.
    const turnsAgainst = (side: string) =>
      windows.get(BASELINE)!.results.map((b, round) => b.latenciesMs.length / windows.get(side)!.results[round]!.latenciesMs.length - 1);
    const perTurn = { extra: spread(turnsAgainst(POINTS_SIDE)), control: spread(turnsAgainst(CONTROL)) };
    const cpuOf = (r: SideResult) => (r.cpuMsPerLog ? r.cpuMsPerLog.service + r.cpuMsPerLog.postgres : undefined);
    const baseCpu = cpuOf(base);
    const pointsCpu = cpuOf(points);
    const cpuExtra = baseCpu && pointsCpu ? pointsCpu / baseCpu - 1 : undefined;
    const met = throughputExtra <= TARGET_EXTRA;
    const pct = (v: number) => `${(v * 100).toFixed(1)} %`;

    console.log(
      `\nearning the entry adds ${pct(throughputExtra)} to a log's cost at c${CONNECTIONS} (time per log, points reward against a reward without a code)` +
        `${cpuExtra === undefined ? '' : ` and ${pct(cpuExtra)} of CPU per log`}: ${met ? 'met' : 'MISSED'} (target <= ${pct(TARGET_EXTRA)})`,
    );
    console.log(`the A/A control (the baseline against itself on a second streak) reads ${pct(controlExtra)}`);
    const between = (from: number, to: number) => `${pct(from)} to ${pct(to)}`;
    const range = ({ turns }: Spread) => between(Math.min(...turns), Math.max(...turns));
    console.log(
      `per turn (${rounds}): the entry ${range(perTurn.extra)}, median ${pct(perTurn.extra.median)}, the mean's 95 % interval ` +
        `${between(...perTurn.extra.interval)}; the A/A control ${range(perTurn.control)}, its mean's interval ${between(...perTurn.control.interval)}`,
    );
    await mkdir(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true });
    await writeFile(
      RESULTS_FILE,
      `${JSON.stringify(
        {
          generatedAt: new Date().toISOString(),
          loadAverage: { start: loadAtStart, end: loadavg()[0] },
          connections: CONNECTIONS,
          seconds: DURATION_SECONDS,
          sides: Object.fromEntries(results),
          throughputExtra,
          cpuExtra,
          controlExtra,
          perTurn,
          target: TARGET_EXTRA,
          met,
        },
        null,
        2,
      )}\n`,
    );
    console.log(`wrote ${RESULTS_FILE}`);
  }
} finally {
  await service.stop();
  await pool.end();
  await database.close();
}
