import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
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
 * `pnpm bench:records`: the generic records API (list with filter and sort, get by id) over
 * 1,000,000 members, against the same SQL run directly with pg, measured in the same run.
 */

const MEMBERS = 1_000_000;
const ACCOUNTS = 100;
const TARGET_MEMBERS = 100_000;
const CONNECTIONS = 32;
// createDb's default pool: the service and the baseline queue for connections alike.
const POOL_SIZE = 10;
const DURATION_SECONDS = positiveNumber('BENCH_DURATION_SECONDS', 15);
const WARMUP_SECONDS = Math.min(3, DURATION_SECONDS);
const ROUNDS = 3;
const LIST_LIMIT = 50;
const LIST_LAST_NAME = 'Garcia';
const API = '/api/v1.0/schema/account_user/record';
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
  if (!(n > 0)) throw new Error(`${name} must be a positive number of seconds, got "${raw}"`);
  return n;
}

interface Statement {
  sql: string;
  values: unknown[];
}

// Written out as RecordService builds them (checked against the service's own queries before measuring).
const listStatement = (accountId: string): Statement => ({
  sql:
    'select "account_user".* from "account_user" where "account_user"."account_id" = $1' +
    ' and (("account_user"."status" = $2) and ("account_user"."last_name" = $3))' +
    ' order by "account_user"."created_at" DESC, "account_user"."id" desc limit $4',
  values: [accountId, 'live', LIST_LAST_NAME, LIST_LIMIT + 1],
});

const getStatement = (accountId: string, id: string): Statement => ({
  sql: 'select * from "account_user" where "account_user"."account_id" = $1 and "account_user"."id" = $2 limit $3',
  values: [accountId, id, 1],
});

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

/** Fails unless one API call makes the service issue exactly `expected` and answers what it returns. */
async function checkSameQuery(
  db: Db,
  pool: pg.Pool,
  call: () => Promise<Response>,
  expected: Statement,
  idsOf: (body: { data: unknown }) => string[],
  expectedIds: (rows: { id: string }[]) => string[],
): Promise<void> {
  const issued: Statement[] = [];
  const listener = (q: { sql: string; bindings?: unknown[] }) => issued.push({ sql: q.sql, values: q.bindings ?? [] });
  db.on('query', listener);
  let res: Response;
  try {
    res = await call();
  } finally {
    db.off('query', listener);
  }
  if (!issued.some((s) => s.sql === expected.sql && isDeepStrictEqual(s.values, expected.values))) {
    throw new Error(`the service no longer issues the baseline's SQL; it issued:\n${issued.map((s) => s.sql).join('\n')}`);
  }
  const body = (await res.json()) as { data: unknown };
  const direct = await pool.query<{ id: string }>(expected.sql, expected.values);
  if (res.status !== 200 || !isDeepStrictEqual(idsOf(body), expectedIds(direct.rows))) {
    throw new Error(`the API and the baseline disagree (status ${res.status})`);
  }
}

interface Comparison {
  api: Summary;
  baseline: Summary;
  ratio: { requestsPerSecond: number; p99: number };
}

/** Both sides warmed up, then measured in alternating windows, so both see the same machine. */
async function compare(
  name: string,
  api: (seconds: number) => Promise<LoadResult>,
  baseline: (seconds: number) => Promise<LoadResult>,
): Promise<Comparison> {
  console.log(`${name}: API and baseline in ${ROUNDS} alternating windows ...`);
  await api(WARMUP_SECONDS);
  await baseline(WARMUP_SECONDS);
  const windows: { api: LoadResult[]; baseline: LoadResult[] } = { api: [], baseline: [] };
  for (let round = 0; round < ROUNDS; round++) {
    windows.api.push(await api(DURATION_SECONDS / ROUNDS));
    windows.baseline.push(await baseline(DURATION_SECONDS / ROUNDS));
  }
  const apiSummary = summarize(combine(windows.api));
  const baselineSummary = summarize(combine(windows.baseline));
  return {
    api: apiSummary,
    baseline: baselineSummary,
    ratio: {
      requestsPerSecond: apiSummary.requestsPerSecond / baselineSummary.requestsPerSecond,
      p99: apiSummary.p99Ms / baselineSummary.p99Ms,
    },
  };
}

function report(comparisons: Record<string, Comparison>): string {
  const ms = (v: number) => v.toFixed(2);
  const rows: string[][] = [];
  for (const [name, c] of Object.entries(comparisons)) {
    for (const [source, s] of [
      ['API', c.api],
      ['baseline (pg)', c.baseline],
    ] as const) {
      rows.push([`${name}  ${source}`, String(s.requests), s.requestsPerSecond.toFixed(0), ms(s.p50Ms), ms(s.p95Ms), ms(s.p99Ms)]);
    }
    rows.push([`${name}  API / baseline`, '', `${c.ratio.requestsPerSecond.toFixed(2)}x`, '', '', `${c.ratio.p99.toFixed(2)}x`]);
  }
  return formatTable(['scenario', 'requests', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms'], rows);
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
    let service: Awaited<ReturnType<typeof startServiceProcess>> | undefined;
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

      await checkSameQuery(
        db,
        pool,
        () => fetch(`${api.url}${listPath}`, { headers }),
        list,
        (body) => (body.data as { id: string }[]).map((r) => r.id),
        (rows) => rows.slice(0, LIST_LIMIT).map((r) => r.id),
      );
      const sampleId = ids[0]!;
      await checkSameQuery(
        db,
        pool,
        () => fetch(`${api.url}${API}/${sampleId}`, { headers }),
        getStatement(seeded.accountId, sampleId),
        (body) => [(body.data as { id: string }).id],
        (rows) => rows.map((r) => r.id),
      );

      service = await startServiceProcess({
        DATABASE_URL: database.url,
        LOYALTY_MASTER_KEY: masterKey.toString('base64'),
        LOYALTY_RATE_LIMIT_PER_SECOND: huge,
      });
      const url = service.url;
      const comparisons = {
        list: await compare(
          'list',
          (seconds) => httpLoad({ ...load, seconds, url, headers, path: () => listPath }),
          (seconds) => closedLoop({ ...load, seconds }, () => pool.query(list.sql, list.values)),
        ),
        get: await compare(
          'get',
          (seconds) => httpLoad({ ...load, seconds, url, headers, path: () => `${API}/${randomId()}` }),
          (seconds) =>
            closedLoop({ ...load, seconds }, () => {
              const get = getStatement(seeded.accountId, randomId());
              return pool.query(get.sql, get.values);
            }),
        ),
      };

      const loadAtEnd = loadavg()[0]!;
      console.log(
        `\n${CONNECTIONS} connections, ${DURATION_SECONDS} s per side in ${ROUNDS} alternating windows after ${WARMUP_SECONDS} s warm-up, pool ${POOL_SIZE}; service in its own process;` +
          ` ${availableParallelism()} CPUs, 1-minute load average ${loadAtStart.toFixed(2)} at start, ${loadAtEnd.toFixed(2)} at end\n`,
      );
      console.log(report(comparisons));
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
      await service?.stop();
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
