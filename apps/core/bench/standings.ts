import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SecretBox } from '../src/auth/crypto.js';
import { createDb } from '../src/db/knex.js';
import { migrateLatest } from '../src/db/migrate.js';
import { periodKey } from '../src/engine/periods.js';
import { buildPendingStandings, type RankBy } from '../src/engine/standings.js';
import type { Knex } from 'knex';
import { provisionAccount } from '../src/tenancy.js';
import {
  checkpoint,
  cpuPerRequest,
  cpuTimes,
  type CpuTimes,
  elapsedSeconds,
  formatTable,
  httpLoad,
  openBenchDatabase,
  startServiceProcess,
  type Summary,
  summarize,
} from './lib.js';

/**
 * bench:standings — leaderboard standings at a million members: 1,000,000 ranked progresses in
 * one challenge window and 1,000,000 in-progress streak runs, inserted in bulk, leaderboards created
 * through the API (which builds their standings), then GET standings by end users at the top, the
 * middle and the bottom of each board (each answer carries the caller's own rank), at 16
 * concurrent callers. Target: p95 <= 25 ms. Prints the rank statement's plan for a bottom member.
 */
const MEMBERS = Number(process.env.BENCH_STANDINGS_MEMBERS ?? 1_000_000);
const CONNECTIONS = Number(process.env.BENCH_STANDINGS_CONNECTIONS ?? 16);
const DURATION_SECONDS = Number(process.env.BENCH_DURATION_SECONDS ?? 6);
const WARMUP_SECONDS = 2;
const TARGET_P95_MS = 25;
const RESULTS_FILE = fileURLToPath(new URL('./results/standings.json', import.meta.url));
const POSITIONS = ['top', 'middle', 'bottom'] as const;

interface Board {
  kind: 'challenge' | 'streak';
  definitionId: string;
  rankBy: RankBy;
  periodKey: string;
  leaderboardId?: string;
}

/**
 * Members, then one progress each per definition, in bulk with triggers off (the standings are
 * built when the leaderboards are created). Values are skewed as activity is: many small, few large.
 */
async function seed(url: string, box: SecretBox) {
  const db = createDb(url, 2);
  try {
    await migrateLatest(db);
    const made = await provisionAccount(db, box, { organizationName: 'Bench', accountName: 'Standings', timezone: 'UTC' });
    const accountId = made.account.id as string;
    const now = new Date();
    const [challenge] = await db('challenge')
      .insert({
        account_id: accountId,
        name: 'Monthly',
        aggregation_period: 'monthly',
        aggregation_method: 'count',
        completion_target_value: 1000,
        to_be_failed_warning_hours: 24,
      })
      .returning('id');
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
    const window = periodKey(now, 'monthly', 'UTC');
    const today = periodKey(now, 'daily', 'UTC');
    const started = process.hrtime.bigint();
    // One plain connection: bulk statements outlast the service's query time-out.
    const bulk = new pg.Client({ connectionString: url });
    await bulk.connect();
    try {
      await bulk.query('begin');
      await bulk.query('set local session_replication_role = replica');
      await bulk.query(
        `insert into account_user (account_id, external_id, first_name, last_name)
         select $1, 'member-' || n, 'First' || n, 'Last' || n from generate_series(1, $2) as n`,
        [accountId, MEMBERS],
      );
      await bulk.query(
        `insert into challenge_progress (account_id, challenge_id, owned_by_id, period_key, challenge_progress_status, current_progress_value,
                                         challenge_started_at, challenge_to_be_failed_at, is_warned, updated_at)
         select $1, $2, u.id, $3, 'in_progress', 1 + floor(500 * power(random(), 3)), now(), now() + interval '1 day', false,
                now() - random() * interval '10 days'
           from account_user u where u.account_id = $1`,
        [accountId, challenge.id, window],
      );
      await bulk.query(
        `insert into streak_progress (account_id, streak_id, owned_by_id, unique_identifier, streak_progress_status, current_progress_value,
                                      streak_started_at, streak_to_be_broken_at, current_period_key, last_completed_period_key, updated_at)
         select $1, $2, u.id, $4 || ':' || u.id, 'in_progress', 1 + floor(365 * power(random(), 4)), now(), now() + interval '1 day', $3, $3,
                now() - random() * interval '10 days'
           from account_user u where u.account_id = $1`,
        [accountId, streak.id, today, streak.id],
      );
      await bulk.query('commit');
      // As a running system has them: statistics, and no vacuum of a fresh bulk load during the measurements.
      await bulk.query('vacuum analyze');
    } finally {
      await bulk.end();
    }
    const seedSeconds = elapsedSeconds(started);
    const boards: Board[] = [
      { kind: 'challenge', definitionId: challenge.id, rankBy: 'window_progress', periodKey: window },
      { kind: 'streak', definitionId: streak.id, rankBy: 'current_run', periodKey: '' },
    ];
    return { accountId, apiKey: made.apiKey.apiKey, apiSecret: made.apiKey.apiSecret, boards, seedSeconds };
  } finally {
    await db.destroy();
  }
}

const PARAMETERS = ['p_account', 'p_definition', 'p_rank_by', 'p_period', 'p_member', 'p_limit'];

/** EXPLAIN (ANALYZE, BUFFERS) of the statement inside the database function the route calls. */
async function explainStandings(db: Knex, values: Knex.Value[]): Promise<string> {
  const source = (await db.raw(`select prosrc from pg_proc where proname = 'loyalty_standings'`)).rows[0].prosrc as string;
  const statement = /return query([\s\S]*);\s*end/.exec(source)![1]!;
  const bindings: Knex.Value[] = [];
  const sql = statement.replace(/\bp_(account|definition|rank_by|period|member|limit)\b/g, (name) => {
    bindings.push(values[PARAMETERS.indexOf(name)]!);
    return '?';
  });
  const { rows } = await db.raw(`explain (analyze, buffers) ${sql}`, bindings);
  return (rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']).join('\n');
}

async function call<T>(url: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<T> {
  const res = await fetch(`${url}/api/v1.0${path}`, {
    method,
    headers: { ...headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as { data: T };
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

async function main(): Promise<void> {
  const started = process.hrtime.bigint();
  const loadAtStart = loadavg()[0]!;
  const database = await openBenchDatabase();
  console.log(`using ${database.description}`);
  const masterKey = randomBytes(32);
  const seeded = await seed(database.url, new SecretBox(masterKey));
  console.log(`seeded ${MEMBERS} members with a challenge window and a streak run each in ${seeded.seedSeconds.toFixed(1)} s`);
  const huge = String(1_000_000_000);
  const service = await startServiceProcess({
    DATABASE_URL: database.url,
    LOYALTY_MASTER_KEY: masterKey.toString('base64'),
    LOYALTY_RATE_LIMIT_PER_SECOND: huge,
    LOYALTY_ENDUSER_RATE_LIMIT_PER_SECOND: huge,
  });
  const db = createDb(database.url, 2);
  const pool = new pg.Pool({ connectionString: database.url, max: 1 });
  const admin = { 'x-api-key': seeded.apiKey, 'x-api-secret': seeded.apiSecret };
  const results: Record<string, unknown> = {};
  const rows: string[][] = [];
  const plans: Record<string, string> = {};
  let met = true;
  try {
    for (const board of seeded.boards) {
      const creating = process.hrtime.bigint();
      const made = await call<{ id: string }>(service.url, 'POST', '/schema/leaderboard/record', admin, {
        name: `Top ${board.kind}`,
        linkedSchemaSlug: board.kind,
        linkedSchemaRecordId: board.definitionId,
        rankBy: board.rankBy,
      });
      board.leaderboardId = made.id;
      const createSeconds = elapsedSeconds(creating);
      // Above LOYALTY_STANDINGS_INLINE_MAX progress records the standings are built in the background, as a worker does.
      const building = process.hrtime.bigint();
      await buildPendingStandings(db);
      const buildSeconds = elapsedSeconds(building);
      console.log(
        `${board.kind} leaderboard created in ${createSeconds.toFixed(2)} s; standings of ${MEMBERS} members built in the background in ${buildSeconds.toFixed(1)} s`,
      );
      await db.raw('vacuum analyze leaderboard_standing, leaderboard_count');

      // Members by the progress itself (every member is live): the first, the median and the last.
      const progress =
        board.kind === 'challenge'
          ? {
              sql: 'select owned_by_id, current_progress_value as value from challenge_progress where account_id = ? and challenge_id = ? and period_key = ?',
              bindings: [board.periodKey],
            }
          : {
              sql: `select owned_by_id, current_progress_value as value from streak_progress where account_id = ? and streak_id = ? and streak_progress_status = 'in_progress'`,
              bindings: [],
            };
      const ranked = `(${progress.sql}) p`;
      const bindings = [seeded.accountId, board.definitionId, ...progress.bindings];
      const pick = async (order: string, offset: number) =>
        (
          await db.raw(
            `select p.owned_by_id as member_id, p.value, u.external_id from ${ranked} join account_user u on u.account_id = ? and u.id = p.owned_by_id order by ${order} offset ? limit 1`,
            [...bindings, seeded.accountId, offset],
          )
        ).rows[0] as { member_id: string; value: number; external_id: string };
      const members = {
        top: await pick('p.value desc', 0),
        middle: await pick('p.value desc', Math.floor(MEMBERS / 2)),
        bottom: await pick('p.value asc', 0),
      };

      const scenarios: Record<string, Summary & { rank: number; expectedRank: number; cpuMsPerCall?: CpuTimes }> = {};
      for (const position of POSITIONS) {
        const m = members[position];
        const token = await call<{ accessToken: string }>(service.url, 'POST', '/enduser/token', admin, { externalId: m.external_id });
        const headers = { 'x-enduser-access-token': token.accessToken, 'x-account-id': seeded.accountId };
        const path = `/api/v1.0/schema/leaderboard/record/${board.leaderboardId}/standings`;
        const answer = await call<{ caller: { rank: number; value: number } | null }>(
          service.url,
          'GET',
          path.replace('/api/v1.0', ''),
          headers,
        );
        // The rank by brute force, to show the answer is exact.
        const brute = await db.raw(`select 1 + count(*)::int as rank from ${ranked} where p.value > ?`, [...bindings, m.value]);
        const expectedRank = brute.rows[0].rank as number;
        if (answer.caller?.rank !== expectedRank)
          throw new Error(`${board.kind} ${position}: rank ${answer.caller?.rank}, brute force ${expectedRank}`);
        await httpLoad({ url: service.url, connections: CONNECTIONS, seconds: WARMUP_SECONDS, headers, path: () => path });
        await checkpoint(pool);
        const before = cpuTimes(service.pid);
        const load = await httpLoad({ url: service.url, connections: CONNECTIONS, seconds: DURATION_SECONDS, headers, path: () => path });
        const cpu = cpuPerRequest(before, cpuTimes(service.pid), load.latenciesMs.length);
        const summary = summarize(load);
        scenarios[position] = { ...summary, rank: answer.caller!.rank, expectedRank, cpuMsPerCall: cpu };
        met &&= summary.p95Ms <= TARGET_P95_MS;
        rows.push([
          `${board.kind} ${board.rankBy}, ${position} (rank ${answer.caller!.rank.toLocaleString('en')})`,
          String(summary.requests),
          summary.requestsPerSecond.toFixed(0),
          summary.p50Ms.toFixed(2),
          summary.p95Ms.toFixed(2),
          summary.p99Ms.toFixed(2),
          cpu ? cpu.service.toFixed(2) : '',
          cpu ? cpu.postgres.toFixed(2) : '',
        ]);
      }
      plans[board.kind] = await explainStandings(db, [
        seeded.accountId,
        board.definitionId,
        board.rankBy,
        board.periodKey,
        members.bottom.member_id,
        10,
      ]);
      results[board.kind] = { rankBy: board.rankBy, periodKey: board.periodKey || null, createSeconds, buildSeconds, scenarios };
    }
  } finally {
    await db.destroy();
    await pool.end();
    await service.stop();
    await database.close();
  }

  console.log(
    `\n${MEMBERS} ranked members per board, ${CONNECTIONS} concurrent end users, ${DURATION_SECONDS} s per scenario after ${WARMUP_SECONDS} s warm-up`,
  );
  console.log(
    formatTable(['scenario', 'calls', 'calls/s', 'p50 ms', 'p95 ms', 'p99 ms', 'service CPU ms/call', 'PostgreSQL CPU ms/call'], rows),
  );
  console.log(`\ntarget p95 <= ${TARGET_P95_MS} ms: ${met ? 'met' : 'NOT met'}`);
  for (const [kind, plan] of Object.entries(plans))
    console.log(`\nEXPLAIN (ANALYZE, BUFFERS) of the standings statement, ${kind} board, bottom member:\n${plan}`);
  await mkdir(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true });
  await writeFile(
    RESULTS_FILE,
    JSON.stringify(
      {
        generatedAt: new Date().toISOString(),
        loadAverage: { start: loadAtStart, end: loadavg()[0]! },
        members: MEMBERS,
        connections: CONNECTIONS,
        durationSeconds: DURATION_SECONDS,
        targetP95Ms: TARGET_P95_MS,
        seedSeconds: seeded.seedSeconds,
        boards: results,
        plans,
      },
      null,
      2,
    ),
  );
  console.log(`wrote ${RESULTS_FILE}\ntotal run time ${elapsedSeconds(started).toFixed(1)} s`);
}

await main();
