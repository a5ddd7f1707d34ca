import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import pino from 'pino';
import { SecretBox } from '../src/auth/crypto.js';
import { loadConfig } from '../src/config.js';
import { createDb, type Db } from '../src/db/knex.js';
import { migrateLatest } from '../src/db/migrate.js';
import { startApi } from '../src/server.js';
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
  inTurn,
  type LoadResult,
  openBenchDatabase,
  startServiceProcess,
  type Summary,
  summarize,
} from './lib.js';
import { startBareHttpProcess } from './bare-http.js';
import { formatProfile, type ProfileSummary, summarizeProfileDir } from './profile.js';
import {
  API,
  getStatement,
  holdoutsStatement,
  LIST_LAST_NAME,
  LIST_LIMIT,
  listStatement,
  type RecordsContext,
  selectList,
  type Statement,
} from './records-bare.js';

/**
 * `pnpm bench:records`: the generic records API (list with filter and sort, get by id) over
 * 1,000,000 members, against baselines measured in the same run: a bare node:http server running
 * the same SQL through pg in a process of its own (bare-http.ts, the limit of any Node service
 * here), the same server's routes on Koa and @koa/router (what the service's framework alone
 * costs), and the same SQL run directly with pg. The service prepares the get (a named statement,
 * planned once per connection) and the baselines send it unnamed, as the SQL alone says; one more
 * bare server that prepares it too shows what that is worth, and the Koa routes preparing it show
 * the most a service on Koa could reach against it.
 *
 * After the measured windows, the service runs each scenario once more under `node --cpu-prof` and
 * the result holds its top frames (profile.ts). BENCH_MEMBERS makes a smaller run (a tenth of them
 * in the measured account); BENCH_CPU_PROF=0 skips the profile, BENCH_CPU_PROF=dir keeps the
 * profiles in dir/<scenario>.
 */

const MEMBERS = positiveNumber('BENCH_MEMBERS', 1_000_000);
const ACCOUNTS = 100;
const TARGET_MEMBERS = Math.floor(MEMBERS / 10);
const CONNECTIONS = 32;
// createDb's default pool: the service and the baseline queue for connections alike.
const POOL_SIZE = 10;
const DURATION_SECONDS = positiveNumber('BENCH_DURATION_SECONDS', 15);
/** `BENCH_CPU_PROF=0` skips the profile; a folder keeps the .cpuprofile files there (else a temp folder, removed). */
const PROFILE = process.env.BENCH_CPU_PROF !== '0';
const PROFILE_DIR = PROFILE && process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : undefined;
const PROFILE_SECONDS = Math.min(5, DURATION_SECONDS);
const PROFILE_TOP = 15;
const WARMUP_SECONDS = Math.min(3, DURATION_SECONDS);
const ROUNDS = 3;
const RESULTS_FILE = fileURLToPath(new URL('./results/records.json', import.meta.url));

const FIRST_NAMES = [
  'Olivia',
  'Liam',
  'Emma',
  'Noah',
  'Ava',
  'Elijah',
  'Sophia',
  'Lucas',
  'Mia',
  'Mateo',
  'Amelia',
  'Hugo',
  'Chloe',
  'Yuki',
  'Lena',
  'Omar',
  'Priya',
  'Jonas',
  'Sofia',
  'Wei',
];
const LAST_NAMES = [
  'Smith',
  'Garcia',
  'Müller',
  'Martin',
  'Rossi',
  'Tanaka',
  'Kim',
  'Silva',
  'Dubois',
  'Nowak',
  'Johnson',
  'Lopez',
  'Schmidt',
  'Bernard',
  'Ferrari',
  'Sato',
  'Park',
  'Santos',
  'Moreau',
  'Chen',
];
// Weighted by repetition: about 70% live, 20% paused, 10% draft; 60% without a language.
const STATUSES = ['live', 'live', 'live', 'live', 'live', 'live', 'live', 'paused', 'paused', 'draft'];
const LANGUAGES = [null, null, null, null, null, null, 'en', 'es', 'fr', 'de'];

function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!(n > 0)) throw new Error(`${name} must be a positive number, got "${raw}"`);
  return n;
}

// One statement: each account's members come from generate_series; offset 0 fences the subquery
// so each random pick is evaluated once per row and the email agrees with the names.
const SEED_SQL = `
  insert into account_user
    (account_id, external_id, first_name, last_name, email, language_code, status, created_at, updated_at)
  select account_id, 'member-' || i, first_name, last_name,
         lower(first_name || '.' || last_name || '.' || i) || '@example.com',
         language_code, status, created_at, created_at
  from (
    select a.account_id, g.i,
           ($3::text[])[1 + floor(random() * cardinality($3::text[]))::int] as first_name,
           ($4::text[])[1 + floor(random() * cardinality($4::text[]))::int] as last_name,
           ($5::text[])[1 + floor(random() * cardinality($5::text[]))::int] as status,
           ($6::text[])[1 + floor(random() * cardinality($6::text[]))::int] as language_code,
           now() - random() * interval '365 days' as created_at
    from unnest($1::uuid[], $2::int[]) as a(account_id, members)
    cross join lateral generate_series(1, a.members) as g(i)
    offset 0
  ) as m`;

interface Seeded {
  accountId: string;
  apiKey: string;
  apiSecret: string;
  memberIds: string[];
  seedSeconds: number;
}

async function seed(db: Db, pool: pg.Pool, box: SecretBox): Promise<Seeded> {
  const started = process.hrtime.bigint();
  const accounts = [];
  for (let n = 1; n <= ACCOUNTS; n++) {
    accounts.push(await provisionAccount(db, box, { organizationName: `Bench org ${n}`, accountName: `Bench account ${n}` }));
  }
  const provisioned = elapsedSeconds(started);
  const others = ACCOUNTS - 1;
  const rest = MEMBERS - TARGET_MEMBERS;
  const counts = accounts.map((_, i) => (i === 0 ? TARGET_MEMBERS : Math.floor(rest / others) + (i <= rest % others ? 1 : 0)));
  const client = await pool.connect();
  try {
    await client.query('select setseed($1)', [0.42]); // the same data on every run
    await client.query(SEED_SQL, [accounts.map((a) => a.account.id), counts, FIRST_NAMES, LAST_NAMES, STATUSES, LANGUAGES]);
    await client.query('analyze account_user');
  } finally {
    client.release();
  }
  const seconds = elapsedSeconds(started);
  console.log(
    `seeded ${MEMBERS.toLocaleString('en')} members over ${ACCOUNTS} accounts in ${seconds.toFixed(1)} s` +
      ` (accounts ${provisioned.toFixed(1)} s, members and analyze ${(seconds - provisioned).toFixed(1)} s)`,
  );
  const target = accounts[0]!;
  const accountId = target.account.id as string;
  const ids = await pool.query<{ id: string }>('select id from account_user where account_id = $1', [accountId]);
  return {
    accountId,
    apiKey: target.apiKey.apiKey,
    apiSecret: target.apiKey.apiSecret,
    memberIds: ids.rows.map((r) => r.id),
    seedSeconds: seconds,
  };
}

/**
 * Fails unless an API call makes the service issue exactly the `expected` statements, in order, and
 * answers what the first returns. Measured on a second call: the first reads the API key and the
 * table's columns, which the service then keeps.
 */
async function checkSameQuery(
  db: Db,
  pool: pg.Pool,
  call: () => Promise<Response>,
  [expected, ...more]: [Statement, ...Statement[]],
  idsOf: (body: { data: unknown }) => string[],
  expectedIds: (rows: { id: string }[]) => string[],
): Promise<void> {
  await (await call()).arrayBuffer();
  const issued: Statement[] = [];
  const listener = (q: { sql: string; bindings?: unknown[] }) => issued.push({ sql: q.sql, values: q.bindings ?? [] });
  db.on('query', listener);
  let res: Response;
  try {
    res = await call();
  } finally {
    db.off('query', listener);
  }
  if (!isDeepStrictEqual(issued, [expected, ...more])) {
    throw new Error(`the service no longer issues the baseline's SQL; it issued:\n${issued.map((s) => s.sql).join('\n')}`);
  }
  const body = (await res.json()) as { data: unknown };
  const direct = await pool.query<{ id: string }>(expected.sql, expected.values);
  if (res.status !== 200 || !isDeepStrictEqual(idsOf(body), expectedIds(direct.rows))) {
    throw new Error(`the API and the baseline disagree (status ${res.status})`);
  }
}

/** Fails unless a baseline server (bare or Koa) answers what the statement returns. */
async function checkSameAnswer(
  pool: pg.Pool,
  call: () => Promise<Response>,
  expected: Statement,
  idsOf: (body: { data: unknown }) => string[],
  expectedIds: (rows: { id: string }[]) => string[],
): Promise<void> {
  const res = await call();
  const body = (await res.json()) as { data: unknown };
  const direct = await pool.query<{ id: string }>(expected.sql, expected.values);
  if (res.status !== 200 || !isDeepStrictEqual(idsOf(body), expectedIds(direct.rows))) {
    throw new Error(`a baseline server and the statement disagree (status ${res.status})`);
  }
}

/** One side of a comparison: its load for a window, and the process whose CPU it spends (none for raw SQL). */
interface Side {
  run(seconds: number): Promise<LoadResult>;
  pid?: number;
}

/** Microseconds of the monotonic clock, the clock of a CPU profile's timestamps. */
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

type SideName = 'api' | 'koaHttp' | 'bareHttp' | 'koaPrepared' | 'barePrepared' | 'rawSql';
/** Every scenario's sides, in the order they are measured and reported. */
const SIDES: readonly SideName[] = ['api', 'koaHttp', 'bareHttp', 'koaPrepared', 'barePrepared', 'rawSql'];
const SIDE_LABELS: Record<SideName, string> = {
  api: 'API',
  koaHttp: 'Koa + @koa/router + pg',
  bareHttp: 'bare HTTP (node:http + pg)',
  koaPrepared: 'Koa + @koa/router + pg, statement prepared',
  barePrepared: 'bare HTTP, statement prepared',
  rawSql: 'raw SQL (pg)',
};
/** The sides every scenario has; the prepared ones only where the service prepares the statement. */
type PreparedSide = 'koaPrepared' | 'barePrepared';
type CoreSide = Exclude<SideName, PreparedSide>;

interface Ratio {
  requestsPerSecond: number;
  p99: number;
}

type Comparison = Record<CoreSide, Summary> &
  Partial<Record<PreparedSide, Summary>> & {
    ratio: {
      apiOverBareHttp: Ratio;
      apiOverKoaHttp: Ratio;
      koaHttpOverBareHttp: Ratio;
      apiOverRawSql: Ratio;
      bareHttpOverRawSql: Ratio;
      apiOverBarePrepared?: Ratio;
      /** What Koa and its router alone cost against the same statement prepared: the ceiling of any service on them. */
      koaPreparedOverBarePrepared?: Ratio;
    };
    /** From /proc: `service` is the API's or the bare server's process; `loadGenerator` this one (autocannon, or pg for raw SQL). */
    cpuMsPerRequest?: Partial<Record<SideName, CpuTimes>>;
    profile?: ProfileSummary;
  };

const ratioOf = (a: Summary, b: Summary): Ratio => ({
  requestsPerSecond: a.requestsPerSecond / b.requestsPerSecond,
  p99: a.p99Ms / b.p99Ms,
});

/** Every side warmed up, then measured in alternating windows, so all see the same machine. */
async function compare(name: string, sides: Record<CoreSide, Side> & Partial<Record<PreparedSide, Side>>): Promise<Comparison> {
  const present = SIDES.filter((side) => sides[side]);
  console.log(`${name}: ${present.map((side) => SIDE_LABELS[side]).join(', ')} in ${ROUNDS} alternating windows ...`);
  for (const side of present) await sides[side]!.run(WARMUP_SECONDS);
  const bySide = <T>(make: () => T) => Object.fromEntries(present.map((side) => [side, make()])) as Record<SideName, T>;
  const windows = bySide<LoadResult[]>(() => []);
  const cpu = bySide<CpuTimes>(() => ({ service: 0, postgres: 0, loadGenerator: 0 }));
  let cpuKnown = true;
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of inTurn(present, round)) {
      const pid = sides[side]!.pid ?? -1;
      const before = cpuTimes(pid);
      const result = await sides[side]!.run(DURATION_SECONDS / ROUNDS);
      const used = cpuPerRequest(before, cpuTimes(pid), 1);
      windows[side].push(result);
      if (!used) cpuKnown = false;
      else for (const key of ['service', 'postgres', 'loadGenerator'] as const) cpu[side][key] += used[key];
    }
  }
  const summaries = Object.fromEntries(present.map((side) => [side, summarize(combine(windows[side]))])) as Record<CoreSide, Summary> &
    Partial<Record<PreparedSide, Summary>>;
  for (const side of present) {
    for (const key of ['service', 'postgres', 'loadGenerator'] as const) cpu[side][key] /= summaries[side]!.requests;
  }
  return {
    ...summaries,
    ratio: {
      apiOverBareHttp: ratioOf(summaries.api, summaries.bareHttp),
      apiOverKoaHttp: ratioOf(summaries.api, summaries.koaHttp),
      koaHttpOverBareHttp: ratioOf(summaries.koaHttp, summaries.bareHttp),
      apiOverRawSql: ratioOf(summaries.api, summaries.rawSql),
      bareHttpOverRawSql: ratioOf(summaries.bareHttp, summaries.rawSql),
      ...(summaries.barePrepared ? { apiOverBarePrepared: ratioOf(summaries.api, summaries.barePrepared) } : {}),
      ...(summaries.koaPrepared && summaries.barePrepared
        ? { koaPreparedOverBarePrepared: ratioOf(summaries.koaPrepared, summaries.barePrepared) }
        : {}),
    },
    ...(cpuKnown ? { cpuMsPerRequest: cpu } : {}),
  };
}

function report(comparisons: Record<string, Comparison>): string {
  const ms = (v: number) => v.toFixed(2);
  const rows: string[][] = [];
  for (const [name, c] of Object.entries(comparisons)) {
    for (const side of SIDES) {
      const s = c[side];
      if (!s) continue;
      const cpu = c.cpuMsPerRequest?.[side];
      rows.push([
        `${name}  ${SIDE_LABELS[side]}`,
        String(s.requests),
        s.requestsPerSecond.toFixed(0),
        ms(s.p50Ms),
        ms(s.p95Ms),
        ms(s.p99Ms),
        cpu ? `${cpu.service.toFixed(3)} / ${cpu.postgres.toFixed(3)} / ${cpu.loadGenerator.toFixed(3)}` : '',
      ]);
    }
    for (const [label, r] of [
      ['API / bare HTTP', c.ratio.apiOverBareHttp],
      ['Koa / bare HTTP', c.ratio.koaHttpOverBareHttp],
      ['API / Koa', c.ratio.apiOverKoaHttp],
      ['API / raw SQL', c.ratio.apiOverRawSql],
      ['API / bare HTTP, prepared', c.ratio.apiOverBarePrepared],
      ['Koa / bare HTTP, both prepared', c.ratio.koaPreparedOverBarePrepared],
    ] as const) {
      if (!r) continue;
      rows.push([`${name}  ${label}`, '', `${r.requestsPerSecond.toFixed(2)}x`, '', '', `${r.p99.toFixed(2)}x`, '']);
    }
  }
  return formatTable(['scenario', 'requests', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', 'CPU ms/req: server / PostgreSQL / load gen.'], rows);
}

async function main(): Promise<void> {
  const runStarted = process.hrtime.bigint();
  // Other work on the machine skews every figure; the load average lets a reader judge a run.
  const loadAtStart = loadavg()[0]!;
  const database = await openBenchDatabase();
  console.log(`using ${database.description}`);
  const masterKey = randomBytes(32);
  const db = createDb(database.url, POOL_SIZE);
  const pool = new pg.Pool({ connectionString: database.url, max: POOL_SIZE });
  try {
    await migrateLatest(db);
    const seeded = await seed(db, pool, new SecretBox(masterKey));
    await checkpoint(pool);

    const list = listStatement(seeded.accountId);
    const holdouts = holdoutsStatement(seeded.accountId);
    const plan = await pool.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${list.sql}`, list.values);
    const listPlan = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
    console.log(`\nlist query plan on the seeded data:\n${listPlan}\n`);

    const huge = String(1_000_000_000); // rate limits out of the way: this measures the request path
    const config = loadConfig({
      DATABASE_URL: database.url,
      LOYALTY_MASTER_KEY: masterKey.toString('base64'),
      PORT: '0',
      LOG_LEVEL: 'silent',
      LOYALTY_RATE_LIMIT_PER_SECOND: huge,
      LOYALTY_ENDUSER_RATE_LIMIT_PER_SECOND: huge,
      LOYALTY_GUEST_RATE_LIMIT_PER_SECOND: huge,
    });
    // In this process only to see the SQL it issues; the load goes to the service binary in a process of its own.
    const api = await startApi(config, db, pino({ level: 'silent' }));
    const context: RecordsContext = { accountId: seeded.accountId, columns: await selectList(pool) };
    const baseline = {
      routesModule: new URL('./records-bare.js', import.meta.url),
      databaseUrl: database.url,
      poolSize: POOL_SIZE,
      context,
    };
    const bare = await startBareHttpProcess(baseline);
    const koa = await startBareHttpProcess({ ...baseline, framework: 'koa' });
    const barePrepared = await startBareHttpProcess({ ...baseline, context: { ...context, prepareGet: true } });
    const koaPrepared = await startBareHttpProcess({ ...baseline, framework: 'koa', context: { ...context, prepareGet: true } });
    try {
      const headers = { 'x-api-key': seeded.apiKey, 'x-api-secret': seeded.apiSecret };
      const listQuery = new URLSearchParams({
        filters: JSON.stringify({
          operator: 'and',
          conditions: [
            { fieldSlug: 'status', operator: 'equals', fieldValue: 'live' },
            { fieldSlug: 'lastName', operator: 'equals', fieldValue: LIST_LAST_NAME },
          ],
        }),
        sortBy: JSON.stringify([{ fieldSlug: 'createdAt', order: 'DESC' }]),
        limit: String(LIST_LIMIT),
      });
      const listPath = `${API}?${listQuery}`;
      const ids = seeded.memberIds;
      const randomId = () => ids[Math.floor(Math.random() * ids.length)]!;
      const load = { connections: CONNECTIONS };

      const listIds = (body: { data: unknown }) => (body.data as { id: string }[]).map((r) => r.id);
      const listRows = (rows: { id: string }[]) => rows.slice(0, LIST_LIMIT).map((r) => r.id);
      const getIds = (body: { data: unknown }) => [(body.data as { id: string }).id];
      const getRows = (rows: { id: string }[]) => rows.map((r) => r.id);
      const sampleId = ids[0]!;
      await checkSameQuery(db, pool, () => fetch(`${api.url}${listPath}`, { headers }), [list, holdouts], listIds, listRows);
      await checkSameQuery(
        db,
        pool,
        () => fetch(`${api.url}${API}/${sampleId}`, { headers }),
        [getStatement(context, sampleId)],
        getIds,
        getRows,
      );
      for (const server of [bare, koa, barePrepared, koaPrepared]) {
        await checkSameAnswer(pool, () => fetch(`${server.url}${listPath}`), list, listIds, listRows);
        await checkSameAnswer(pool, () => fetch(`${server.url}${API}/${sampleId}`), getStatement(context, sampleId), getIds, getRows);
      }

      // `prepared`: the service sends the scenario's statement prepared (records/direct.ts).
      const scenarios: Record<'list' | 'get', { path: () => string; sql: () => Promise<unknown>; prepared: boolean }> = {
        list: {
          path: () => listPath,
          sql: async () => {
            await pool.query(list.sql, list.values);
            await pool.query({ name: 'records_holdouts', text: holdouts.sql, values: holdouts.values });
          },
          prepared: false,
        },
        get: {
          prepared: true,
          path: () => `${API}/${randomId()}`,
          sql: () => {
            const get = getStatement(context, randomId());
            return pool.query(get.sql, get.values);
          },
        },
      };
      const startService = () =>
        startServiceProcess({
          DATABASE_URL: database.url,
          LOYALTY_MASTER_KEY: masterKey.toString('base64'),
          LOYALTY_RATE_LIMIT_PER_SECOND: huge,
        });
      const comparisons: Record<string, Comparison> = {};
      for (const [name, scenario] of Object.entries(scenarios)) {
        const service = await startService();
        try {
          comparisons[name] = await compare(name, {
            api: { pid: service.pid, run: (seconds) => httpLoad({ ...load, seconds, url: service.url, headers, path: scenario.path }) },
            koaHttp: { pid: koa.pid, run: (seconds) => httpLoad({ ...load, seconds, url: koa.url, headers, path: scenario.path }) },
            bareHttp: { pid: bare.pid, run: (seconds) => httpLoad({ ...load, seconds, url: bare.url, headers, path: scenario.path }) },
            rawSql: { run: (seconds) => closedLoop({ ...load, seconds }, scenario.sql) },
            ...(scenario.prepared
              ? {
                  barePrepared: {
                    pid: barePrepared.pid,
                    run: (seconds: number) => httpLoad({ ...load, seconds, url: barePrepared.url, headers, path: scenario.path }),
                  },
                  koaPrepared: {
                    pid: koaPrepared.pid,
                    run: (seconds: number) => httpLoad({ ...load, seconds, url: koaPrepared.url, headers, path: scenario.path }),
                  },
                }
              : {}),
          });
        } finally {
          await service.stop();
        }
      }
      if (PROFILE) {
        // After the measured windows, so the profiler's overhead is in no figure above.
        const dir = PROFILE_DIR ?? (await mkdtemp(join(tmpdir(), 'loyalty-records-profile-')));
        const serviceNodeOptions = process.env.BENCH_SERVICE_NODE_OPTIONS ?? '';
        try {
          for (const [name, scenario] of Object.entries(scenarios)) {
            const profileDir = join(dir, name);
            await rm(profileDir, { recursive: true, force: true });
            // startServiceProcess puts BENCH_SERVICE_NODE_OPTIONS before the binary's path, where the profiler's flags go.
            process.env.BENCH_SERVICE_NODE_OPTIONS = `${serviceNodeOptions} --cpu-prof --cpu-prof-dir=${profileDir}`.trim();
            const service = await startService();
            let window: [number, number];
            try {
              const run = (seconds: number) => httpLoad({ ...load, seconds, url: service.url, headers, path: scenario.path });
              console.log(`${name}: profiling the service for ${PROFILE_SECONDS} s ...`);
              await run(WARMUP_SECONDS);
              const from = nowUs();
              await run(PROFILE_SECONDS);
              window = [from, nowUs()];
            } finally {
              await service.stop(); // the profile is written as the process exits
              process.env.BENCH_SERVICE_NODE_OPTIONS = serviceNodeOptions;
            }
            comparisons[name]!.profile = await summarizeProfileDir(profileDir, PROFILE_TOP, [window]);
          }
        } finally {
          if (!PROFILE_DIR) await rm(dir, { recursive: true, force: true });
        }
      }

      const loadAtEnd = loadavg()[0]!;
      console.log(
        `\n${CONNECTIONS} connections, ${DURATION_SECONDS} s per side in ${ROUNDS} alternating windows after ${WARMUP_SECONDS} s warm-up, pool ${POOL_SIZE}; service, Koa and bare HTTP servers each in a process of its own;` +
          ` ${availableParallelism()} CPUs, 1-minute load average ${loadAtStart.toFixed(2)} at start, ${loadAtEnd.toFixed(2)} at end\n`,
      );
      console.log(report(comparisons));
      for (const [name, c] of Object.entries(comparisons)) {
        if (c.profile) console.log(`\n${name}: the service's CPU profile\n${formatProfile(c.profile)}`);
      }
      const version = await pool.query<{ server_version: string }>('show server_version');
      await mkdir(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true });
      await writeFile(
        RESULTS_FILE,
        `${JSON.stringify(
          {
            generatedAt: new Date().toISOString(),
            node: process.version,
            cpus: availableParallelism(),
            loadAverage: { start: loadAtStart, end: loadAtEnd },
            postgres: version.rows[0]?.server_version,
            members: MEMBERS,
            accounts: ACCOUNTS,
            targetAccountMembers: TARGET_MEMBERS,
            seedSeconds: seeded.seedSeconds,
            connections: CONNECTIONS,
            poolSize: POOL_SIZE,
            durationSeconds: DURATION_SECONDS,
            rounds: ROUNDS,
            warmupSeconds: WARMUP_SECONDS,
            listPlan,
            scenarios: comparisons,
          },
          null,
          2,
        )}\n`,
      );
      console.log(`\nwrote ${RESULTS_FILE}`);
    } finally {
      await koaPrepared.stop();
      await barePrepared.stop();
      await koa.stop();
      await bare.stop();
      await api.close();
    }
  } finally {
    // pool.end() resolves before its sockets close, and the forced drop may cut them first.
    pool.on('error', () => {});
    await pool.end();
    await db.destroy();
    await database.close();
  }
  console.log(`total run time ${elapsedSeconds(runStarted).toFixed(1)} s`);
}

await main();
