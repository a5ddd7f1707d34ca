import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestDatabase, PLATFORM_TOKEN } from '../support/harness.js';
import { type ServiceProcess, startProcessWith, until } from '../support/processes.js';
import { startReceiver } from '../support/receiver.js';

/**
 * SIGTERM to `loyalty serve` (API and workers in one process): the API stops taking connections at
 * once, while the workers drain; requests still waiting for their account's turn are answered 503
 * (they did nothing); a request under way finishes, and its answer closes its keep-alive connection.
 */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let service: ServiceProcess;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let locker: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startReceiver();
  service = await startProcessWith(
    {
      DATABASE_URL: database.url,
      LOYALTY_MASTER_KEY: randomBytes(32).toString('base64'),
      LOYALTY_PLATFORM_TOKEN: PLATFORM_TOKEN,
      LOYALTY_WEBHOOK_ALLOW_PRIVATE: 'true',
      LOYALTY_TENANT_CONCURRENCY: '1',
      LOYALTY_SCHEDULER_INTERVAL_MS: '200',
    },
    ['serve'],
  );
  locker = new pg.Client({ connectionString: database.url });
  await locker.connect();
}, 60_000);

afterAll(async () => {
  await locker?.end();
  await service?.kill('SIGKILL');
  await receiver?.close();
  await database?.drop();
});

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request over a keep-alive agent, as a pooling client sends it; the raw headers as sent. */
function send(agent: Agent, url: URL, method: string, headers: Record<string, string>, body?: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

describe('SIGTERM to serve', () => {
  it('closes the listener at once, refuses queued requests with 503, and finishes the one under way with Connection: close', async () => {
    const platform = new Client(service.url, { authorization: `Bearer ${PLATFORM_TOKEN}` });
    const made = (await platform.post('/platform/accounts', { organizationName: 'Stop', accountName: 'Stop' })).body.data;
    const auth = { 'x-api-key': made.apiKey.apiKey, 'x-api-secret': made.apiKey.apiSecret };
    const api = new Client(service.url, auth);
    const streak = (await api.post('/schema/streak/record', { name: 'S', status: 'live' })).body.data;
    await api.post('/schema/webhook/record', {
      name: 'H',
      status: 'live',
      endpointUrl: `${receiver.url}/hook`,
      eventCodes: ['streak_progress_non_milestone_completed', 'streak_progress_in_progress'],
    });
    // The workers have a delivery under way when the signal comes: the receiver answers only after 3 s.
    receiver.respond((_req, res) => setTimeout(() => res.writeHead(200).end('ok'), 3000));
    const log = (n: number) => ({
      streakId: streak.id,
      ownedBy: { externalId: `m-${n}` },
      activityId: 'visit',
      activityAt: new Date().toISOString(),
      uniqueIdentifier: `stop-${n}`,
    });
    expect((await api.post('/schema/streak_log/record', log(0))).status).toBe(200);
    await until(() => receiver.received.length > 0, 30_000, 'a delivery under way');

    // One request holds the account's only turn (its log waits on a lock); two more wait for it.
    await locker.query('begin');
    await locker.query('lock table streak_log in exclusive mode');
    const agent = new Agent({ keepAlive: true });
    const url = new URL(`${service.url}/schema/streak_log/record`);
    const underWay = send(agent, url, 'POST', auth, log(1));
    await until(
      async () =>
        (
          await locker.query(
            "select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()",
          )
        ).rowCount! > 0,
      30_000,
      'the log waiting on the lock',
    );
    const queued = [send(agent, url, 'POST', auth, log(2)), send(agent, url, 'POST', auth, log(3))];
    await new Promise((r) => setTimeout(r, 200));

    service.child.kill('SIGTERM');
    for (const answer of await Promise.all(queued)) {
      expect(answer.status, answer.body).toBe(503);
      expect(answer.headers['retry-after']).toBe('1');
    }
    // The listener is closed while the process still drains its delivery.
    await until(
      () =>
        fetch(new URL('/healthz', service.url)).then(
          () => false,
          () => true,
        ),
      5_000,
      'the listener closed',
    );
    expect(service.child.exitCode).toBeNull();
    await locker.query('commit');
    const finished = await underWay;
    expect(finished.status, finished.body).toBe(200);
    expect(finished.headers.connection).toBe('close');
    await service.exited;
    const stored = await locker.query('select unique_identifier from streak_log order by 1');
    expect(stored.rows.map((r) => r.unique_identifier)).toEqual(['stop-0', 'stop-1']);
  }, 90_000);
});
