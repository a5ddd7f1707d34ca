import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dispatchAndLease, dispatchEvents } from '../../src/scheduler/dispatch.js';
import { createResolver } from '../../src/webhooks/addresses.js';
import { type DeliveryDeps, DeliveryPool, leaseUntil } from '../../src/webhooks/delivery.js';
import { startTestDns, type TestDns } from '../support/dns.js';
import { startTestApp, type TestAccount, type TestApp } from '../support/harness.js';
import { assertSchema } from '../support/openapi.js';
import { startReceiver } from '../support/receiver.js';

let app: TestApp;
let acct: TestAccount;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let deps: DeliveryDeps;
let clock = new Date();
const now = () => clock;
const advance = (seconds: number) => {
  clock = new Date(clock.getTime() + seconds * 1000);
};

beforeAll(async () => {
  app = await startTestApp({
    LOYALTY_WEBHOOK_ALLOW_PRIVATE: 'true',
    LOYALTY_WEBHOOK_RETRY_SCHEDULE: '10,60',
    LOYALTY_WEBHOOK_TIMEOUT_MS: '500',
  });
  acct = await app.createAccount();
  receiver = await startReceiver();
  const s = app.running.services;
  deps = { db: s.db, box: s.box, config: s.config, resolver: createResolver([]) };
});
afterAll(async () => {
  await receiver.close();
  await app.close();
});
beforeEach(async () => {
  // Ahead of the wall clock: dispatch stamps new deliveries due at the database's now().
  clock = new Date(Date.now() + 60_000);
  // Each test subscribes a fresh webhook; earlier ones stop receiving.
  await app.db('webhook').update({ status: 'paused' });
  receiver.received.length = 0;
  receiver.respond((_req, res) => res.writeHead(200).end('ok'));
});

/** One worker's claim, delivered to the end: how many deliveries it took. */
async function deliverDueWebhooks(d: DeliveryDeps, clock: () => Date, limit?: number, width?: number): Promise<number> {
  const pool = new DeliveryPool(d, clock, { width });
  const taken = await pool.claim(limit);
  await pool.settled();
  return taken;
}
/** A lease for a dispatch by a worker holding nothing. */
const idleLease = () => ({ until: leaseUntil(deps.config, now()), free: new DeliveryPool(deps, now).free });

let seq = 0;
async function webhook(extra: Record<string, unknown> = {}) {
  const res = await acct.api.post('/schema/webhook/record', {
    name: `hook ${++seq}`,
    endpointUrl: `${receiver.url}/hook`,
    eventCodes: ['streak_progress_non_milestone_completed'],
    status: 'live',
    ...extra,
  });
  return res.body.data;
}
async function streakEvent() {
  const streak = (await acct.api.post('/schema/streak/record', { name: `S${++seq}` })).body.data;
  const log = await acct.api.post('/schema/streak_log/record', {
    streakId: streak.id,
    ownedBy: { externalId: `m${seq}` },
    activityId: 'v',
    activityAt: new Date(Date.now() - 60_000).toISOString(),
    uniqueIdentifier: `u${seq}`,
  });
  return log.body.data;
}
const webhookLogs = async (webhookId: string) =>
  (
    await acct.api.get('/schema/webhook_log/record', {
      filters: { operator: 'and', conditions: [{ fieldSlug: 'webhookId', operator: 'equals', fieldValue: webhookId }] },
    })
  ).body.data;

describe('webhook delivery', () => {
  it('posts the signed envelope once per matching live webhook and marks it processed', async () => {
    const hook = await webhook();
    const paused = await webhook({ status: 'paused' });
    const other = await webhook({ eventCodes: ['challenge_progress_completed'] });
    const log = await streakEvent();
    expect(await dispatchEvents(app.db)).toBeGreaterThan(0);
    expect(await deliverDueWebhooks(deps, now)).toBe(1);
    expect(await webhookLogs(paused.id)).toEqual([]);
    expect(await webhookLogs(other.id)).toEqual([]);
    expect(receiver.received).toHaveLength(1);
    const { headers, body, path } = receiver.received[0]!;
    expect(path).toBe('/hook');
    const parsed = JSON.parse(body);
    await assertSchema(app.url, 'WebhookDelivery', parsed);
    const [stored] = await webhookLogs(hook.id);
    expect(parsed).toEqual({
      id: stored.id,
      accountId: acct.accountId,
      createdAt: stored.createdAt,
      events: [
        {
          id: stored.eventLogIds[0],
          eventCode: 'streak_progress_non_milestone_completed',
          createdAt: expect.any(String),
          ownedById: log.ownedById,
          payload: { streakLog: expect.objectContaining({ id: log.id }) },
        },
      ],
    });
    expect(headers['content-type']).toBe('application/json');
    expect(headers['x-service-signature']).toBe(createHmac('sha256', hook.webhookSecret).update(body).digest('hex'));
    expect(headers['webhook-id']).toBe(stored.id);
    const key = Buffer.from(hook.webhookSecret.slice('whsec_'.length), 'base64');
    const signed = `${stored.id}.${headers['webhook-timestamp']}.${body}`;
    expect(headers['webhook-signature']).toBe(`v1,${createHmac('sha256', key).update(signed).digest('base64')}`);
    expect(stored).toMatchObject({
      webhookLogStatus: 'processed',
      retryCount: 0,
      lastResponseStatus: 200,
      deliveredAt: clock.toISOString(),
      nextRetryAt: null,
      eventLogs: [expect.objectContaining({ eventCode: 'streak_progress_non_milestone_completed' })],
    });
  });

  it('a worker dispatching with a lease gets the new deliveries, which no claim takes while the lease holds', async () => {
    const hook = await webhook();
    const log = await streakEvent();
    const dispatched = await dispatchAndLease(app.db, idleLease());
    expect(dispatched.leased).toEqual([expect.objectContaining({ webhook_id: hook.id, webhook_log_status: 'pending' })]);
    expect(dispatched.webhooks.map((w) => w.id)).toEqual([hook.id]);
    expect(dispatched.eventRows).toEqual([
      expect.objectContaining({ id: dispatched.leased[0]!.event_log_ids[0], owned_by_id: log.ownedById }),
    ]);
    expect(await deliverDueWebhooks(deps, now)).toBe(0);
    const pool = new DeliveryPool(deps, now);
    pool.start(dispatched.leased, dispatched.webhooks, dispatched.eventRows);
    await pool.settled();
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers['webhook-id']).toBe(dispatched.leased[0]!.id);
    expect(JSON.parse(receiver.received[0]!.body).events[0].payload.streakLog.id).toBe(log.id);
    const [stored] = await webhookLogs(hook.id);
    expect(stored).toMatchObject({ id: dispatched.leased[0]!.id, webhookLogStatus: 'processed', lastResponseStatus: 200, retryCount: 0 });
  });

  it('delivers what a worker leased on dispatch and never sent once the lease runs out, under the same webhook-id', async () => {
    const hook = await webhook();
    await streakEvent();
    // The worker dies between its dispatch and the POST.
    const dispatched = await dispatchAndLease(app.db, idleLease());
    expect(dispatched.leased).toHaveLength(1);
    expect(await deliverDueWebhooks(deps, now)).toBe(0);
    advance(deps.config.webhookTimeoutMs / 1000 + 6);
    expect(await deliverDueWebhooks(deps, now)).toBe(1);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([dispatched.leased[0]!.id]);
    expect((await webhookLogs(hook.id))[0]).toMatchObject({ webhookLogStatus: 'processed' });
  });

  it('hands back, unsent, a delivery leased on dispatch whose lease could run out before its POST ends', async () => {
    await webhook();
    await streakEvent();
    const dispatched = await dispatchAndLease(app.db, idleLease());
    // The lease is the time-out plus 5 s; with less than the time-out plus a second left, another worker could take it mid-POST.
    advance(4.5);
    const pool = new DeliveryPool(deps, now);
    pool.start(dispatched.leased, dispatched.webhooks, dispatched.eventRows);
    await pool.settled();
    expect(receiver.received).toHaveLength(0);
    expect(await deliverDueWebhooks(deps, now)).toBe(1);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([dispatched.leased[0]!.id]);
  });

  it('leases on dispatch only as far as the worker has room, and a claim tops an account up to its share', async () => {
    const hooks = [await webhook(), await webhook(), await webhook()];
    for (let i = 0; i < 4; i++) await streakEvent();
    const dispatched = await dispatchAndLease(app.db, { until: leaseUntil(deps.config, now()), free: 2 });
    expect([dispatched.leased.length, dispatched.webhooks.length, dispatched.eventRows.length]).toEqual([2, 2, 1]);
    // One lane for the account, so a share of eight: with two held, a claim takes six of the ten due.
    const pool = new DeliveryPool(deps, now, { accountCap: 1 });
    pool.start(dispatched.leased, dispatched.webhooks, dispatched.eventRows);
    expect(await pool.claim()).toBe(6);
    await pool.settled();
    expect(await pool.claim()).toBe(4);
    await pool.settled();
    expect(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size).toBe(12);
    for (const hook of hooks)
      expect((await webhookLogs(hook.id)).map((l: { webhookLogStatus: string }) => l.webhookLogStatus)).toEqual(Array(4).fill('processed'));
  });

  it('a stopping worker hands back what waits for a lane and sends only what is in flight', async () => {
    const hook = await webhook();
    for (let i = 0; i < 3; i++) await streakEvent();
    receiver.respond((_req, res) => setTimeout(() => res.writeHead(200).end(), 100));
    const dispatched = await dispatchAndLease(app.db, idleLease());
    const pool = new DeliveryPool(deps, now, { accountCap: 1 });
    pool.start(dispatched.leased, dispatched.webhooks, dispatched.eventRows);
    await pool.drain();
    expect(receiver.received).toHaveLength(1);
    const logs = await app.db('webhook_log').where({ webhook_id: hook.id }).select('webhook_log_status', 'lease_until');
    expect(logs.map((l) => [l.webhook_log_status, l.lease_until]).sort()).toEqual([
      ['pending', null],
      ['pending', null],
      ['processed', null],
    ]);
    // Handed back, they are due for the next worker's claim.
    expect(await deliverDueWebhooks(deps, now)).toBe(2);
  });

  it('counts a delivery that fails before its POST as a failed attempt and still records the rest of its batch', async () => {
    const good = await webhook();
    const broken = await webhook();
    // A secret that no longer opens (sealed under another master key, say).
    await app.db('webhook').where({ id: broken.id }).update({ webhook_secret_enc: 'not-a-sealed-secret' });
    await streakEvent();
    await dispatchEvents(app.db);
    expect(await deliverDueWebhooks(deps, now)).toBe(2);
    expect(receiver.received).toHaveLength(1);
    expect((await webhookLogs(good.id))[0]).toMatchObject({ webhookLogStatus: 'processed' });
    // Read from the table: the API cannot show a webhook whose secret does not open.
    const failed = app.db('webhook_log').where({ webhook_id: broken.id });
    expect(await failed.clone().select('webhook_log_status', 'retry_count', 'last_error')).toEqual([
      { webhook_log_status: 'errored', retry_count: 1, last_error: 'delivery failed' },
    ]);
    // Out of the later tests' way: its retry would fall due when they move the clock.
    await failed.clone().delete();
    await app.db('webhook').where({ id: broken.id }).delete();
  });

  it('retries failures on the schedule until max_errored, and a later success is processed', async () => {
    const hook = await webhook();
    receiver.respond((_req, res) => res.writeHead(500).end('boom'));
    await streakEvent();
    await dispatchEvents(app.db);
    await deliverDueWebhooks(deps, now);
    let [log] = await webhookLogs(hook.id);
    expect(log).toMatchObject({
      webhookLogStatus: 'errored',
      retryCount: 1,
      lastResponseStatus: 500,
      lastError: 'HTTP 500',
      nextRetryAt: new Date(clock.getTime() + 10_000).toISOString(),
    });
    advance(9);
    expect(await deliverDueWebhooks(deps, now)).toBe(0);
    advance(1);
    expect(await deliverDueWebhooks(deps, now)).toBe(1);
    [log] = await webhookLogs(hook.id);
    expect(log).toMatchObject({ webhookLogStatus: 'errored', retryCount: 2, lastRetriedAt: clock.toISOString() });
    advance(60);
    await deliverDueWebhooks(deps, now);
    [log] = await webhookLogs(hook.id);
    expect(log).toMatchObject({ webhookLogStatus: 'max_errored', retryCount: 3, nextRetryAt: null });
    advance(3600);
    expect(await deliverDueWebhooks(deps, now)).toBe(0);
    expect(receiver.received).toHaveLength(3);

    const recovering = await webhook();
    await streakEvent();
    await dispatchEvents(app.db);
    await deliverDueWebhooks(deps, now);
    receiver.respond((_req, res) => res.writeHead(204).end());
    advance(10);
    await deliverDueWebhooks(deps, now);
    const [ok] = await webhookLogs(recovering.id);
    expect(ok).toMatchObject({ webhookLogStatus: 'processed', retryCount: 1, lastResponseStatus: 204 });
  });

  it('holds a paused webhook’s deliveries uncounted, and sends them as soon as it is live again', async () => {
    const hook = await webhook();
    receiver.respond((_req, res) => res.writeHead(500).end('boom'));
    await streakEvent();
    await dispatchEvents(app.db);
    await deliverDueWebhooks(deps, now);
    expect((await acct.api.patch(`/schema/webhook/record/${hook.id}`, { status: 'paused' })).status).toBe(200);
    advance(10);
    receiver.respond((_req, res) => res.writeHead(204).end());
    // Due, but paused: not sent, and the attempt not counted.
    expect(await deliverDueWebhooks(deps, now)).toBe(1);
    expect(receiver.received).toHaveLength(1);
    expect((await webhookLogs(hook.id))[0]).toMatchObject({ webhookLogStatus: 'errored', retryCount: 1 });
    expect((await acct.api.patch(`/schema/webhook/record/${hook.id}`, { status: 'live' })).status).toBe(200);
    expect(await deliverDueWebhooks(deps, now)).toBe(1);
    expect(receiver.received).toHaveLength(2);
    expect((await webhookLogs(hook.id))[0]).toMatchObject({ webhookLogStatus: 'processed', retryCount: 1 });
  });

  it('resends a delivery on request, after max_errored', async () => {
    const hook = await webhook();
    receiver.respond((_req, res) => res.writeHead(500).end());
    await streakEvent();
    await dispatchEvents(app.db);
    for (const wait of [0, 10, 60]) {
      advance(wait);
      await deliverDueWebhooks(deps, now);
    }
    const [failed] = await webhookLogs(hook.id);
    expect(failed.webhookLogStatus).toBe('max_errored');
    receiver.respond((_req, res) => res.writeHead(200).end());
    const resent = await acct.api.post(`/schema/webhook_log/record/${failed.id}/action/resend`);
    expect(resent.body.data).toMatchObject({ webhookLogStatus: 'pending', retryCount: 0, lastError: null });
    await deliverDueWebhooks(deps, now);
    const [delivered] = await webhookLogs(hook.id);
    expect(delivered).toMatchObject({ webhookLogStatus: 'processed', lastResponseStatus: 200 });
    expect(receiver.received.at(-1)!.headers['webhook-id']).toBe(failed.id);
  });

  it.each([
    ['hangs', (_req: unknown, _res: unknown) => {}, /no answer within 500 ms/],
    ['resets', (req: { socket: { destroy(): void } }) => req.socket.destroy(), /connection failed/],
    [
      'redirects',
      (_req: unknown, res: { writeHead(s: number, h: object): { end(): void } }) =>
        res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' }).end(),
      /redirects are not followed/,
    ],
  ])('treats a receiver that %s as a failure to retry', async (_name, behaviour, error) => {
    const hook = await webhook();
    receiver.respond(behaviour as never);
    await streakEvent();
    await dispatchEvents(app.db);
    await deliverDueWebhooks(deps, now);
    const [log] = await webhookLogs(hook.id);
    expect(log.webhookLogStatus).toBe('errored');
    expect(log.lastError).toMatch(error);
    expect(receiver.received).toHaveLength(1);
  });

  it("reads past a receiver's long answer without keeping it, and fails one that drips its answer past the time-out", async () => {
    const hook = await webhook();
    receiver.respond((_req, res) => res.writeHead(200).end('x'.repeat(1024 * 1024)));
    await streakEvent();
    await dispatchEvents(app.db);
    await deliverDueWebhooks(deps, now);
    const [long] = await webhookLogs(hook.id);
    expect(long).toMatchObject({ webhookLogStatus: 'processed', lastResponseStatus: 200 });

    receiver.respond((_req, res) => {
      res.writeHead(200);
      const drip = setInterval(() => res.write('.'), 100);
      res.on('close', () => clearInterval(drip));
    });
    await streakEvent();
    await dispatchEvents(app.db);
    await deliverDueWebhooks(deps, now);
    const dripped = (await webhookLogs(hook.id)).find((l: { id: string }) => l.id !== long.id);
    expect(dripped).toMatchObject({ webhookLogStatus: 'errored', lastResponseStatus: null });
    expect(dripped.lastError).toMatch(/no answer within 500 ms/);
  });

  it('signs with the rotated secret', async () => {
    const hook = await webhook();
    const rotated = (await acct.api.post(`/schema/webhook/record/${hook.id}/action/rotate_secret`)).body.data;
    expect(rotated.webhookSecret).not.toBe(hook.webhookSecret);
    await streakEvent();
    await dispatchEvents(app.db);
    await deliverDueWebhooks(deps, now);
    const { headers, body } = receiver.received[0]!;
    expect(headers['x-service-signature']).toBe(createHmac('sha256', rotated.webhookSecret).update(body).digest('hex'));
  });

  it('never delivers twice to a quick receiver while slow ones hold the lanes, nor retries a slow one early', async () => {
    // Three receivers that answer after the time-out, one at once; two workers, on the wall clock.
    const wall = () => new Date();
    receiver.respond((req, res) => {
      if (req.url === '/quick') res.writeHead(200).end('ok');
      else setTimeout(() => res.writeHead(200).end('late'), 2_000);
    });
    const quick = await webhook({ endpointUrl: `${receiver.url}/quick` });
    const slow = [await webhook(), await webhook(), await webhook()];
    for (let i = 0; i < 8; i++) await streakEvent();
    await dispatchEvents(app.db);
    // 24 slow deliveries, two at a time in each of two workers, hold their lanes past the time-out.
    let settled = false;
    const first = deliverDueWebhooks(deps, wall, 100, 2).finally(() => (settled = true));
    const second = (async () => {
      while (!settled) {
        await deliverDueWebhooks(deps, wall, 100, 2);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      while ((await deliverDueWebhooks(deps, wall, 100, 2)) > 0);
    })();
    await Promise.all([first, second]);
    const quickIds = receiver.received.filter((r) => r.path === '/quick').map((r) => r.headers['webhook-id']);
    expect(quickIds).toHaveLength(8);
    expect(new Set(quickIds).size).toBe(8);
    expect((await webhookLogs(quick.id)).map((l: { webhookLogStatus: string }) => l.webhookLogStatus)).toEqual(Array(8).fill('processed'));
    // Each slow delivery was tried once, and waits for its retry on the schedule.
    for (const hook of slow) {
      const logs = await webhookLogs(hook.id);
      expect(logs.map((l: { retryCount: number; webhookLogStatus: string }) => [l.webhookLogStatus, l.retryCount])).toEqual(
        Array(8).fill(['errored', 1]),
      );
    }
    const slowAttempts = receiver.received.filter((r) => r.path === '/hook').length;
    expect(slowAttempts).toBe(24);
  }, 30_000);

  it('never delivers one log twice when workers race', async () => {
    const hook = await webhook();
    for (let i = 0; i < 30; i++) await streakEvent();
    await dispatchEvents(app.db);
    receiver.respond((_req, res) => setTimeout(() => res.writeHead(200).end(), 20));
    // The file's 500 ms timeout is for the hang tests; here a slow answer under load would be a retry, which may repeat by design.
    const patient = { ...deps, config: { ...deps.config, webhookTimeoutMs: 15_000 } };
    const attempted = await Promise.all([0, 1, 2, 3].map(() => deliverDueWebhooks(patient, now, 10, 4)));
    let total = attempted.reduce((a, b) => a + b, 0);
    while (total < 30) total += await deliverDueWebhooks(patient, now);
    const ids = receiver.received.map((r) => r.headers['webhook-id']);
    expect(ids).toHaveLength(30);
    expect(new Set(ids).size).toBe(30);
    const logs = await webhookLogs(hook.id);
    expect(logs.every((l: { webhookLogStatus: string }) => l.webhookLogStatus === 'processed')).toBe(true);
  });
});

describe('webhook addresses at delivery', () => {
  let dns: TestDns;
  let strict: TestApp;
  beforeAll(async () => {
    dns = await startTestDns();
    strict = await startTestApp({ LOYALTY_DNS_SERVERS: dns.server, LOYALTY_WEBHOOK_TIMEOUT_MS: '500' });
  });
  afterAll(async () => {
    await strict.close();
    await dns.close();
  });

  it('refuses a host that resolved publicly at create and privately at delivery (DNS rebinding)', async () => {
    const owner = await strict.createAccount();
    dns.zone.set('hooks.rebind.test', { A: ['93.184.216.34'] });
    const created = await owner.api.post('/schema/webhook/record', {
      name: 'rebind',
      endpointUrl: `http://hooks.rebind.test:${receiver.port}/hook`,
      eventCodes: ['streak_progress_non_milestone_completed'],
      status: 'live',
    });
    expect(created.status).toBe(200);
    dns.zone.set('hooks.rebind.test', { A: ['127.0.0.1'] });
    const streak = (await owner.api.post('/schema/streak/record', { name: 'S' })).body.data;
    await owner.api.post('/schema/streak_log/record', {
      streakId: streak.id,
      ownedBy: { externalId: 'x' },
      activityId: 'v',
      activityAt: new Date().toISOString(),
      uniqueIdentifier: 'r1',
    });
    await dispatchEvents(strict.db);
    const s = strict.running.services;
    await deliverDueWebhooks({ db: s.db, box: s.box, config: s.config, resolver: createResolver([dns.server]) }, now);
    const [log] = (await owner.api.get('/schema/webhook_log/record')).body.data;
    expect(log.webhookLogStatus).toBe('errored');
    expect(log.lastError).toMatch(/non-public address \(127\.0\.0\.1\)/);
    expect(receiver.received).toHaveLength(0);
  });
});
