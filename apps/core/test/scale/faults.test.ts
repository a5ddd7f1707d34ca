import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../src/auth/crypto.js';
import { type EmbeddedServer, startEmbeddedPostgres } from '../../src/db/embedded.js';
import { createDb, type Db } from '../../src/db/knex.js';
import { migrateLatest } from '../../src/db/migrate.js';
import { provisionAccount } from '../../src/tenancy.js';
import { Client } from '../support/harness.js';
import { type ServiceProcess, startProcessWith, until } from '../support/processes.js';
import { startReceiver } from '../support/receiver.js';

/**
 * Faults mid-load on a PostgreSQL server this test owns (so restarting it disturbs no other
 * suite): an API process and a worker killed with SIGKILL, and the database restarted.
 * Acknowledged logs are never lost; unacknowledged ones are all or nothing; everything recovers.
 */
const dataDir = mkdtempSync(join(tmpdir(), 'loyalty-faults-'));
chmodSync(dataDir, 0o755);
let pg: EmbeddedServer;
let db: Db;
let env: Record<string, string>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const processes: ServiceProcess[] = [];

beforeAll(async () => {
  pg = await startEmbeddedPostgres(dataDir);
  db = createDb(pg.url, 2);
  await migrateLatest(db);
  env = {
    DATABASE_URL: pg.url,
    LOYALTY_MASTER_KEY: randomBytes(32).toString('base64'),
    LOYALTY_PLATFORM_TOKEN: randomBytes(16).toString('hex'),
    LOYALTY_WEBHOOK_ALLOW_PRIVATE: 'true',
    LOYALTY_WEBHOOK_RETRY_SCHEDULE: '1,1,1,1,1,1,1,1,1,1',
  };
  receiver = await startReceiver();
}, 120_000);
afterAll(async () => {
  await Promise.all(processes.map((p) => p.kill('SIGKILL')));
  await receiver.close();
  await db.destroy();
  await pg.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

interface Attempt {
  uniqueIdentifier: string;
  status: number | 'no answer';
}

describe('faults mid-load', () => {
  it('keeps acknowledged logs, leaves no half-written ones, and recovers from killed processes and a database restart', async () => {
    const made = await provisionAccount(db, new SecretBox(Buffer.from(env.LOYALTY_MASTER_KEY!, 'base64')), {
      organizationName: 'Faults',
      accountName: 'Faults',
    });
    const start = async (args: string[]) => {
      const p = await startProcessWith(env, args);
      processes.push(p);
      return p;
    };
    const auth = { 'x-api-key': made.apiKey.apiKey, 'x-api-secret': made.apiKey.apiSecret };
    let apiA = await start(['serve', '--no-workers']);
    const apiB = await start(['serve', '--no-workers']);
    let worker = await start(['worker']);
    const admin = new Client(apiB.url, auth);
    const streak = (await admin.post('/schema/streak/record', { name: 'S' })).body.data;
    await admin.post('/schema/webhook/record', {
      name: 'H',
      status: 'live',
      endpointUrl: `${receiver.url}/hook`,
      eventCodes: ['streak_progress_non_milestone_completed', 'streak_progress_in_progress'],
    });

    const attempts: Attempt[] = [];
    const readiness: number[] = [];
    let sent = 0;
    let stop = false;
    const clients = () => [new Client(apiA.url, auth), new Client(apiB.url, auth)];
    let targets = clients();
    const load = Array.from({ length: 16 }, async () => {
      while (!stop) {
        const n = sent++;
        const uniqueIdentifier = `log-${n}`;
        try {
          const res = await targets[n % 2]!.post('/schema/streak_log/record', {
            streakId: streak.id,
            ownedBy: { externalId: `m-${n % 300}` },
            activityId: 'visit',
            activityAt: new Date().toISOString(),
            uniqueIdentifier,
          });
          attempts.push({ uniqueIdentifier, status: res.status });
        } catch {
          attempts.push({ uniqueIdentifier, status: 'no answer' });
        }
      }
    });
    const acknowledged = () => attempts.filter((a) => a.status === 200).length;

    await until(() => acknowledged() > 150, 60_000, 'load under way');
    await apiA.kill('SIGKILL');
    await worker.kill('SIGKILL');
    await until(() => acknowledged() > 300, 60_000, 'load continuing on the other process');
    apiA = await start(['serve', '--no-workers']);
    worker = await start(['worker']);
    targets = clients();
    await until(() => acknowledged() > 450, 60_000, 'load on both processes again');

    await pg.stop();
    for (const api of [apiA, apiB]) readiness.push((await fetch(new URL('/readyz', api.url))).status);
    await new Promise((r) => setTimeout(r, 1500));
    await pg.start();
    await until(
      async () => (await fetch(new URL('/readyz', apiA.url))).status === 200 && (await fetch(new URL('/readyz', apiB.url))).status === 200,
      60_000,
      'ready again',
    );
    const acknowledgedBeforeEnd = acknowledged();
    await until(() => acknowledged() > acknowledgedBeforeEnd + 100, 60_000, 'load after the restart');
    stop = true;
    await Promise.all(load);

    expect(readiness).toEqual([503, 503]);
    const statuses = new Set(attempts.map((a) => a.status));
    // While the database was down the API answered 503 (retryable), never 500.
    expect([...statuses].filter((s) => s !== 200 && s !== 503 && s !== 'no answer')).toEqual([]);

    // Acknowledged logs are all stored and aggregated; every stored log carries its events (all or nothing).
    const stored = new Map(
      (await db('streak_log').select('unique_identifier', 'id', 'is_aggregated')).map((r) => [r.unique_identifier as string, r]),
    );
    for (const a of attempts.filter((x) => x.status === 200))
      expect(stored.get(a.uniqueIdentifier)?.is_aggregated, a.uniqueIdentifier).toBe(true);
    const withEvents = await db.raw(`select count(distinct payload->'streakLog'->>'id') as n from event_log`);
    expect(Number(withEvents.rows[0].n)).toBe(stored.size);
    const recount = await db.raw(`
      select count(*) as n from task_progress t
       where t.current_progress_value <> (select count(*) from streak_log l
                                           join streak_progress p on p.account_id = l.account_id and p.streak_id = l.streak_id and p.owned_by_id = l.owned_by_id
                                          where p.id = t.linked_schema_record_id and l.period_key = t.period_key and l.is_aggregated)`);
    expect(Number(recount.rows[0].n)).toBe(0);

    // Every event reaches the receiver after the worker crash and the restart.
    const events = Number((await db('event_log').count({ n: '*' }))[0]!.n);
    await until(
      async () => Number((await db('webhook_log').where({ webhook_log_status: 'processed' }).count({ n: '*' }))[0]!.n) === events,
      150_000,
      'all delivered',
    ).catch(async (e) => {
      console.log(
        'DIAG processes',
        JSON.stringify(processes.map((p) => ({ pid: p.child.pid, exit: p.child.exitCode, signal: p.child.signalCode }))),
      );
      console.log(
        'DIAG activity',
        JSON.stringify(
          (
            await db.raw(
              `select pid, application_name, state, wait_event_type, wait_event, left(query, 120) as query, now() - xact_start as xact_age from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
            )
          ).rows,
        ),
      );
      console.log(
        'DIAG events',
        events,
        JSON.stringify(await db('webhook_log').select('webhook_log_status').count({ n: '*' }).groupBy('webhook_log_status')),
        JSON.stringify(
          await db('event_log').select(db.raw('dispatched_at is null as undispatched')).count({ n: '*' }).groupBy(db.raw('1')),
        ),
        JSON.stringify(
          await db('webhook_log')
            .whereNot('webhook_log_status', 'processed')
            .select('last_error', 'lease_until', 'next_retry_at', 'retry_count')
            .limit(3),
        ),
        new Date().toISOString(),
      );
      throw e;
    });
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(events);
  }, 300_000);
});
