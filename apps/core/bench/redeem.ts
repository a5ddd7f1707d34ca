import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startBareHttpProcess } from './bare-http.js';
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
  meanCpu,
  openBenchDatabase,
  seedStreakAccount,
  SETTLE_SECONDS,
  startServiceProcess,
  type Summary,
  summarize,
} from './lib.js';
import { type RedeemContext, redeemPath } from './redeem-bare.js';

/**
 * bench:redeem — CONTRACT §19's "Redeem at concurrency 32: >= 0.8x of the bare node:http baseline
 * doing the same statements". The service binary redeems a reward for points over HTTP (API key,
 * `ownedById`): the action's transaction locks the reward, checks points are live, locks the
 * member, writes a `redeemed` entry and the balance, issues a reward log with a generated code
 * and writes `points_redeemed`. The baseline is a bare node:http server in its own process
 * running the same statements in one transaction (redeem-bare.ts), hit by the same load
 * generator, in alternating windows of the same run. Two cases: redemptions spread over MEMBERS
 * members, and all by one member (every request waits on that member's row lock).
 */
const MEMBERS = 1_000;
const CONNECTIONS = 32;
const DURATION_SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 15);
const WARMUP_SECONDS = 3;
const ROUNDS = 3;
const POOL_SIZE = 10;
const POINTS_COST = 10;
const TARGET = 0.8;
const RESULTS_FILE = fileURLToPath(new URL('./results/redeem.json', import.meta.url));

interface SideResult {
  summary: Summary;
  cpuMsPerRedemption?: CpuTimes;
}

const started = process.hrtime.bigint();
const loadAtStart = loadavg()[0]!;
const database = await openBenchDatabase();
console.log(`using ${database.description}`);
const masterKey = randomBytes(32);
const account = await seedStreakAccount(database.url, masterKey, MEMBERS);
const pool = new pg.Pool({ connectionString: database.url, max: 2 });
// Points live, every member with more points than any run can spend, one live reward with a cost whose codes are generated.
await pool.query(
  `insert into points_setting (account_id, status) values ($1, 'live') on conflict (account_id) do update set status = 'live'`,
  [account.accountId],
);
await pool.query(`update account_user set points_balance = 1000000000 where account_id = $1`, [account.accountId]);
const {
  rows: [reward],
} = await pool.query<{ id: string; coupon_code_length: number }>(
  `insert into reward (account_id, name, description, discount_type, discount_value, reward_expiry_type, handle_coupon,
                       handle_coupon_auto_generation, coupon_code_length, status, reward_kind, points_cost)
   values ($1, 'Ten off', 'For points', 'percentage', 10, 'no_expiry', true, true, 12, 'live', 'code', $2) returning id, coupon_code_length`,
  [account.accountId, POINTS_COST],
);
await pool.query('analyze');
const service = await startServiceProcess({
  DATABASE_URL: database.url,
  LOYALTY_MASTER_KEY: masterKey.toString('base64'),
  LOYALTY_RATE_LIMIT_PER_SECOND: String(1e9),
});
const headers = { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret, 'content-type': 'application/json' };
const path = redeemPath(reward!.id);
let bare: Awaited<ReturnType<typeof startBareHttpProcess>> | undefined;
try {
  // A sample redemption: its answer, and the event payload the baseline writes (of the service's own size).
  const sample = await fetch(`${service.url}${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ ownedById: account.memberIds[0] }),
  });
  const sampleBody = (await sample.json()) as { data: { rewardLog: { couponCode: string | null }; pointsBalance: number } };
  if (sample.status !== 200) throw new Error(`sample redemption answered ${sample.status}: ${JSON.stringify(sampleBody)}`);
  if (!sampleBody.data.rewardLog.couponCode) throw new Error(`sample redemption got no code: ${JSON.stringify(sampleBody)}`);
  const {
    rows: [event],
  } = await pool.query<{ payload: unknown }>(`select payload from event_log where event_code = 'points_redeemed' limit 1`);
  const context: RedeemContext = {
    accountId: account.accountId,
    rewardId: reward!.id,
    pointsCost: POINTS_COST,
    codeLength: reward!.coupon_code_length,
    payload: JSON.stringify(event!.payload),
  };
  bare = await startBareHttpProcess({
    routesModule: new URL('./redeem-bare.js', import.meta.url),
    databaseUrl: database.url,
    poolSize: POOL_SIZE,
    context,
  });
  const check = await fetch(`${bare.url}${path}`, { method: 'POST', headers, body: JSON.stringify({ ownedById: account.memberIds[0] }) });
  if (check.status !== 200) throw new Error(`bare redemption answered ${check.status}: ${await check.text()}`);

  const cases: Record<string, () => string> = {
    [`${MEMBERS} members`]: () => account.memberIds[Math.floor(Math.random() * account.memberIds.length)]!,
    'one member (hot)': () => account.memberIds[1]!,
  };
  const results: Record<string, { api: SideResult; bare: SideResult; ratio: number; met: boolean }> = {};
  for (const [name, member] of Object.entries(cases)) {
    const body = () => JSON.stringify({ ownedById: member() });
    const sides = [
      { name: 'api' as const, pid: service.pid, url: service.url },
      { name: 'bare' as const, pid: bare.pid, url: bare.url },
    ];
    const load = (url: string, seconds: number) =>
      httpLoad({ url, connections: CONNECTIONS, seconds, headers, method: 'POST', path: () => path, body });
    for (const side of sides) await load(side.url, WARMUP_SECONDS);
    await pool.query('analyze');
    await checkpoint(pool);
    for (const side of sides) await load(side.url, SETTLE_SECONDS);
    const windows = {
      api: { results: [] as LoadResult[], cpu: [] as (CpuTimes | undefined)[] },
      bare: { results: [] as LoadResult[], cpu: [] as (CpuTimes | undefined)[] },
    };
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of inTurn(sides, round)) {
        const before = cpuTimes(side.pid);
        const result = await load(side.url, DURATION_SECONDS / ROUNDS);
        windows[side.name].results.push(result);
        windows[side.name].cpu.push(cpuPerRequest(before, cpuTimes(side.pid), result.latenciesMs.length));
      }
    }
    const side = (n: 'api' | 'bare'): SideResult => {
      const cpu = meanCpu(windows[n].cpu);
      return { summary: summarize(combine(windows[n].results)), ...(cpu ? { cpuMsPerRedemption: cpu } : {}) };
    };
    const api = side('api');
    const bareSide = side('bare');
    const ratio = api.summary.requestsPerSecond / bareSide.summary.requestsPerSecond;
    results[name] = { api, bare: bareSide, ratio, met: ratio >= TARGET };
  }

  // Every redemption wrote its entry, its log with a code of its own, and its event; no balance went below 0.
  const {
    rows: [counts],
  } = await pool.query<{ entries: number; logs: number; coded: number; codes: number; events: number; negative: number }>(
    `select (select count(*) from point_entry where reason = 'redeemed')::int as entries,
            (select count(*) from reward_log where reward_id = $1)::int as logs,
            (select count(*) from reward_log where reward_id = $1 and coupon_code is not null)::int as coded,
            (select count(distinct coupon_code) from coupon where reward_id = $1)::int as codes,
            (select count(*) from event_log where event_code = 'points_redeemed')::int as events,
            (select count(*) from account_user where points_balance < 0)::int as negative`,
    [reward!.id],
  );
  const c = counts!;
  if (c.entries !== c.logs || c.logs !== c.coded || c.coded !== c.codes || c.codes !== c.events || c.negative)
    throw new Error(`inconsistent redemptions: ${JSON.stringify(c)}`);
  const loadAtEnd = loadavg()[0]!;

  const ms = (v: number) => v.toFixed(2);
  const rows: string[][] = [];
  for (const [name, r] of Object.entries(results)) {
    for (const [label, s] of [
      ['API', r.api],
      ['bare HTTP', r.bare],
    ] as const) {
      const cpu = s.cpuMsPerRedemption;
      rows.push([
        `${name}  ${label}`,
        String(s.summary.requests),
        s.summary.requestsPerSecond.toFixed(0),
        ms(s.summary.p50Ms),
        ms(s.summary.p95Ms),
        ms(s.summary.p99Ms),
        cpu ? `${cpu.service.toFixed(2)} / ${cpu.postgres.toFixed(2)} / ${cpu.loadGenerator.toFixed(2)}` : '',
      ]);
    }
    rows.push([`${name}  API / bare HTTP`, '', `${r.ratio.toFixed(2)}x`, '', '', '', `${r.met ? 'met' : 'MISSED'} (target >= ${TARGET}x)`]);
  }
  console.log(
    `\nc${CONNECTIONS}, ${DURATION_SECONDS} s per side in ${ROUNDS} alternating windows after ${WARMUP_SECONDS} s warm-up, pool ${POOL_SIZE} each side;` +
      ` service and bare HTTP server each in its own process; ${availableParallelism()} CPUs, load average ${loadAtStart.toFixed(2)} → ${loadAtEnd.toFixed(2)}\n`,
  );
  console.log(
    formatTable(
      ['redemptions at c32', 'redemptions', 'per s', 'p50 ms', 'p95 ms', 'p99 ms', 'CPU ms each: server / PostgreSQL / load gen.'],
      rows,
    ),
  );
  console.log(`\n${c.entries} redemptions stored, each with its entry, its own code and its event; no balance below 0`);
  await mkdir(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true });
  await writeFile(
    RESULTS_FILE,
    `${JSON.stringify({ generatedAt: new Date().toISOString(), node: process.version, cpus: availableParallelism(), loadAverage: { start: loadAtStart, end: loadAtEnd }, database: database.description, members: MEMBERS, connections: CONNECTIONS, poolSize: POOL_SIZE, durationSeconds: DURATION_SECONDS, rounds: ROUNDS, target: TARGET, results }, null, 2)}\n`,
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
