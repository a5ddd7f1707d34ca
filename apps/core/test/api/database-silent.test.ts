import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CREDENTIALS_CHANNEL } from '../../src/auth/authenticate.js';
import { EVENTS_CHANNEL } from '../../src/events/wakeup.js';
import { type DatabaseGate, startDatabaseGate } from '../support/database-gate.js';
import { Client, createTestDatabase, PLATFORM_TOKEN } from '../support/harness.js';
import { type ServiceProcess, startProcessWith, until } from '../support/processes.js';

/**
 * A database that stops answering (a failover, a network partition: connections accepted and never
 * answered) is an outage like one that refuses: the service answers 503 with Retry-After while it
 * lasts, and serves and sweeps again once it is back, without a restart. A connection left opening
 * on the silent server would have held its place in a pool (the service's, pg-boss's) for good, and
 * a listener's for its channel.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let gate: DatabaseGate & { url: string; close(): Promise<void> };
let api: ServiceProcess;
let direct: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase();
  gate = await startDatabaseGate(database.url);
  api = await startProcessWith(
    {
      DATABASE_URL: gate.url,
      LOYALTY_MASTER_KEY: randomBytes(32).toString('base64'),
      LOYALTY_PLATFORM_TOKEN: PLATFORM_TOKEN,
      // Two connections, and one account's two requests at once: both waiting on the silent server fill the pool.
      LOYALTY_DB_POOL_MAX: '2',
      LOYALTY_TENANT_CONCURRENCY: '2',
      // The workers ask pg-boss for a sweep every second.
      LOYALTY_SCHEDULER_INTERVAL_MS: '1000',
    },
    ['serve'],
  );
  direct = new pg.Client({ connectionString: database.url });
  await direct.connect();
}, 60_000);

afterAll(async () => {
  await api?.kill();
  await direct?.end();
  await gate?.close();
  await database?.drop();
});

/** Whether the service's listener for `channel` has a session on the database (read past the gate). */
async function listening(channel: string): Promise<boolean> {
  const { rowCount } = await direct.query('select 1 from pg_stat_activity where datname = current_database() and application_name = $1', [
    `loyalty-listener-${channel}`,
  ]);
  return rowCount === 1;
}

/** Whether a sweep asked for after `since` has run. */
async function swept(since: Date): Promise<boolean> {
  const { rowCount } = await direct.query(
    `select 1 from pgboss.job where name = 'loyalty-sweep' and state = 'completed' and created_on > $1`,
    [since],
  );
  return (rowCount ?? 0) > 0;
}

describe('a database that does not answer', () => {
  // Ten seconds of silence, up to ten of recovery, then a sweep, on a CI host that may run at half speed.
  it(
    'answers 503 with Retry-After while it is silent; serves, listens and sweeps again once it answers',
    { timeout: 120_000 },
    async () => {
      const platform = new Client(api.url, { authorization: `Bearer ${PLATFORM_TOKEN}` });
      const made = (await platform.post('/platform/accounts', { organizationName: 'Silent', accountName: 'Silent' })).body.data;
      const key = new Client(api.url, { 'x-api-key': made.apiKey.apiKey, 'x-api-secret': made.apiKey.apiSecret });
      expect((await key.get('/schema/streak/record')).status).toBe(200);
      await until(() => listening(CREDENTIALS_CHANNEL), 10_000, 'the credentials listener');
      await until(() => swept(new Date(0)), 20_000, 'a first sweep');

      const silent = gate.silent();
      try {
        const started = Date.now();
        const answers = await Promise.all(Array.from({ length: 2 }, () => key.get('/schema/streak/record')));
        for (const answer of answers) {
          expect(answer.status, JSON.stringify(answer.body)).toBe(503);
          expect(answer.body.error.code).toBe('unavailable');
          expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
        }
        // The pool's wait (10 s), not the operating system's.
        expect(Date.now() - started).toBeLessThan(25_000);
      } finally {
        silent.restore();
      }
      const restored = new Date();

      // The connections opening on the silent server give up (10 s), and new ones open. A read can be
      // served by a new connection while the other is still waiting out its 10 s, so a write may see a
      // 503 a moment longer: wait for both (a 503 changes nothing).
      await until(async () => (await key.get('/schema/streak/record')).status === 200, 30_000, 'serving again');
      await until(
        async () => (await key.post('/schema/streak/record', { name: 'After the silence' })).status === 200,
        30_000,
        'writing again',
      );
      expect(
        (await key.get('/schema/streak/record')).body.data.filter((r: { name: string }) => r.name === 'After the silence'),
      ).toHaveLength(1);
      await until(() => listening(CREDENTIALS_CHANNEL), 30_000, 'the credentials listener back');
      await until(() => listening(EVENTS_CHANNEL), 30_000, 'the events listener back');
      await until(() => swept(restored), 40_000, 'sweeps again');
    },
  );
});
