import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDns, type TestDns } from '../support/dns.js';
import { type Client, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

let dns: TestDns;
let app: TestApp;
let acct: TestAccount;
let other: TestAccount;
let member: Client;

const BASE = '/schema/webhook/record';
const valid = (over: Record<string, unknown> = {}) => ({
  name: 'Orders hook',
  endpointUrl: 'https://93.184.216.34/hooks/loyalty',
  eventCodes: ['streak_progress_completed', 'challenge_progress_failed'],
  ...over,
});

beforeAll(async () => {
  dns = await startTestDns();
  dns.zone.set('hooks.public.test', { A: ['93.184.216.34'] });
  dns.zone.set('hooks.private.test', { A: ['10.1.2.3'] });
  dns.zone.set('hooks.mapped.test', { AAAA: ['::ffff:7f00:1'] });
  dns.zone.set('hooks.ula.test', { AAAA: ['fd00::5'] });
  dns.zone.set('hooks.mixed.test', { A: ['93.184.216.34', '169.254.169.254'] });
  dns.zone.set('hooks.benchmark.test', { A: ['198.18.0.1'] });
  dns.zone.set('hooks.documentation.test', { AAAA: ['2001:db8::1'] });
  app = await startTestApp({ LOYALTY_DNS_SERVERS: dns.server });
  acct = await app.createAccount();
  other = await app.createAccount();
  const token = await acct.api.post('/enduser/token', { externalId: 'member-1' });
  expect(token.status).toBe(200);
  member = app.anon.with({ 'x-enduser-access-token': token.body.data.accessToken, 'x-account-id': acct.accountId });
});
afterAll(async () => {
  await app?.close();
  await dns?.close();
});

/** The error details of a 400 as `field:code` pairs. */
function details(res: { status: number; body: any }): string[] {
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.error.code).toBe('invalid_input');
  return res.body.error.details.map((d: { field: string; code: string }) => `${d.field}:${d.code}`);
}

describe('webhook CRUD', () => {
  it('creates with defaults and a generated secret, returned on every read', async () => {
    const created = await acct.api.post(BASE, valid({ description: 'For the CRM' }));
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const hook = created.body.data;
    expect(hook).toMatchObject({
      name: 'Orders hook',
      description: 'For the CRM',
      status: 'draft',
      endpointUrl: 'https://93.184.216.34/hooks/loyalty',
      eventCodes: ['streak_progress_completed', 'challenge_progress_failed'],
    });
    expect(hook.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(hook.webhookSecret.slice(6), 'base64')).toHaveLength(32);

    const got = await acct.api.get(`${BASE}/${hook.id}`);
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual(hook);
    const list = await acct.api.get(BASE);
    expect(list.body.data.find((h: { id: string }) => h.id === hook.id).webhookSecret).toBe(hook.webhookSecret);

    const raw = await app.db('webhook').where({ id: hook.id }).first();
    expect(raw.webhook_secret_enc).toBeTruthy();
    expect(JSON.stringify(raw)).not.toContain(hook.webhookSecret.slice(6));
  });

  it('gives each webhook its own secret', async () => {
    const a = await acct.api.post(BASE, valid());
    const b = await acct.api.post(BASE, valid());
    expect(a.body.data.webhookSecret).not.toBe(b.body.data.webhookSecret);
  });

  it('updates, filters and deletes', async () => {
    const { body } = await acct.api.post(BASE, valid({ name: 'To change' }));
    const id = body.data.id;
    const patched = await acct.api.patch(`${BASE}/${id}`, {
      name: 'Changed',
      status: 'live',
      eventCodes: ['mission_progress_completed'],
      endpointUrl: 'http://hooks.public.test:8080/x',
      description: null,
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data).toMatchObject({
      name: 'Changed',
      status: 'live',
      eventCodes: ['mission_progress_completed'],
      endpointUrl: 'http://hooks.public.test:8080/x',
      description: null,
    });
    expect(patched.body.data.webhookSecret).toBe(body.data.webhookSecret);

    const filtered = await acct.api.get(BASE, {
      filters: {
        operator: 'and',
        conditions: [{ fieldSlug: 'eventCodes', operator: 'contains', fieldValue: 'mission_progress_completed' }],
      },
    });
    expect(filtered.status).toBe(200);
    expect(filtered.body.data.map((h: { id: string }) => h.id)).toEqual([id]);
    const bySecret = await acct.api.get(BASE, {
      filters: { operator: 'and', conditions: [{ fieldSlug: 'webhookSecret', operator: 'equals', fieldValue: 'x' }] },
    });
    expect(bySecret.status).toBe(400);
    expect(bySecret.body.error.code).toBe('invalid_query');

    expect((await acct.api.delete(`${BASE}/${id}`)).status).toBe(204);
    expect((await acct.api.get(`${BASE}/${id}`)).status).toBe(404);
    expect((await acct.api.delete(`${BASE}/${id}`)).status).toBe(404);
  });
});

describe('webhook validation', () => {
  it('requires name, endpointUrl and eventCodes', async () => {
    expect(details(await acct.api.post(BASE, {})).sort()).toEqual(['endpointUrl:required', 'eventCodes:required', 'name:required']);
    expect(details(await acct.api.post(BASE, valid({ name: null, status: null })))).toEqual(['name:required', 'status:not_nullable']);
  });

  it.each([
    [{ name: 'n'.repeat(257) }, 'name:too_long'],
    [{ name: '' }, 'name:too_short'],
    [{ description: 'd'.repeat(1025) }, 'description:too_long'],
    [{ endpointUrl: `https://93.184.216.34/${'p'.repeat(2030)}` }, 'endpointUrl:too_long'],
    [{ endpointUrl: 'ftp://93.184.216.34/x' }, 'endpointUrl:invalid_format'],
    [{ endpointUrl: 'not a url' }, 'endpointUrl:invalid_format'],
    // Read as host public.example by some parsers and 127.0.0.1 by others.
    [{ endpointUrl: 'http://public.example\\@127.0.0.1/' }, 'endpointUrl:invalid_format'],
    [{ endpointUrl: 'https://user:pass@93.184.216.34/x' }, 'endpointUrl:invalid_format'],
    [{ endpointUrl: 'https://93.184.216.34\\x' }, 'endpointUrl:invalid_format'],
    [{ endpointUrl: 42 }, 'endpointUrl:invalid_type'],
    [{ eventCodes: [] }, 'eventCodes:too_few'],
    [{ eventCodes: ['streak_progress_completed', 'nope'] }, 'eventCodes[1]:invalid_enum'],
    [{ eventCodes: ['streak_progress_completed', 'streak_progress_broken', 'streak_progress_completed'] }, 'eventCodes[2]:duplicate'],
    [{ status: 'archived' }, 'status:invalid_enum'],
    [{ webhookSecret: 'whsec_mine' }, 'webhookSecret:read_only'],
    [{ id: randomUUID() }, 'id:read_only'],
    [{ secret: 'x' }, 'secret:unknown_field'],
  ])('refuses %j', async (over, expected) => {
    expect(details(await acct.api.post(BASE, valid(over)))).toEqual([expected]);
  });

  it('refuses eventCodes that is not an array', async () => {
    expect(details(await acct.api.post(BASE, valid({ eventCodes: 'streak_progress_completed' })))).toContain('eventCodes:invalid_type');
  });

  it('accepts an endpointUrl of exactly 2048 characters', async () => {
    const url = 'https://93.184.216.34/';
    const res = await acct.api.post(BASE, valid({ endpointUrl: url + 'p'.repeat(2048 - url.length) }));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });

  it('takes a scheme in any case (RFC 3986), as it takes a lower-case one', async () => {
    for (const endpointUrl of ['HTTPS://93.184.216.34/hook', 'Http://93.184.216.34/hook']) {
      const res = await acct.api.post(BASE, valid({ endpointUrl }));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.data.endpointUrl).toBe(endpointUrl);
    }
    expect(details(await acct.api.post(BASE, valid({ endpointUrl: 'HTTPS://user:pass@93.184.216.34/x' })))).toEqual([
      'endpointUrl:invalid_format',
    ]);
  });

  it('checks updates the same way', async () => {
    const { body } = await acct.api.post(BASE, valid());
    const id = body.data.id;
    expect(details(await acct.api.patch(`${BASE}/${id}`, { eventCodes: [] }))).toEqual(['eventCodes:too_few']);
    expect(
      details(await acct.api.patch(`${BASE}/${id}`, { eventCodes: ['challenge_progress_failed', 'challenge_progress_failed'] })),
    ).toEqual(['eventCodes[1]:duplicate']);
    expect(details(await acct.api.patch(`${BASE}/${id}`, { webhookSecret: 'x' }))).toEqual(['webhookSecret:read_only']);
    expect(details(await acct.api.patch(`${BASE}/${id}`, { endpointUrl: null }))).toEqual(['endpointUrl:required']);
    expect(details(await acct.api.patch(`${BASE}/${id}`, { color: 'red' }))).toEqual(['color:unknown_field']);
    expect((await acct.api.get(`${BASE}/${id}`)).body.data).toEqual(body.data);
  });

  it('answers 400 to a body that is not a JSON object', async () => {
    const res = await acct.api.request('POST', BASE, { raw: '{"name":', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_input');
    const notObject = await acct.api.post(BASE, ['x']);
    expect(notObject.status).toBe(400);
    expect(notObject.body.error.details).toMatchObject([{ code: 'invalid_type' }]);
  });
});

describe('webhook endpoint addresses', () => {
  it.each([
    'http://127.0.0.1/hook',
    'http://127.1.2.3:9000/hook',
    'http://2130706433/hook',
    'http://10.0.0.5/hook',
    'http://172.16.3.4/hook',
    'http://192.168.0.10/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://100.64.1.1/hook',
    'http://224.0.0.5/hook',
    'http://0.0.0.0/hook',
    'http://[::1]/hook',
    'http://[::]/hook',
    'http://[fe80::1]/hook',
    'http://[fd12:3456::1]/hook',
    'http://[ff02::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://[::ffff:192.168.1.1]/hook',
    'http://localhost:3000/hook',
    'https://LOCALHOST./hook',
    'https://hooks.private.test/x',
    'https://hooks.mapped.test/x',
    'https://hooks.ula.test/x',
    'https://hooks.mixed.test/x',
  ])('refuses %s', async (endpointUrl) => {
    const res = await acct.api.post(BASE, valid({ endpointUrl }));
    expect(details(res)).toEqual(['endpointUrl:private_address']);
  });

  // One address of each IANA special-purpose range that is not globally reachable (the unit test has them all).
  it.each([
    ['http://198.18.0.1/hook', 'benchmarking'],
    ['http://198.19.255.254/hook', 'benchmarking'],
    ['http://192.0.0.8/hook', 'reserved'],
    ['http://192.0.0.170/hook', 'reserved'],
    ['http://192.0.2.10/hook', 'documentation'],
    ['http://198.51.100.7/hook', 'documentation'],
    ['http://203.0.113.200/hook', 'documentation'],
    ['http://192.88.99.1/hook', 'reserved'],
    ['http://[::ffff:198.18.0.1]/hook', 'benchmarking'],
    ['http://[64:ff9b:1::1]/hook', 'private'],
    ['http://[100::1]/hook', 'reserved'],
    ['http://[2001::1]/hook', 'reserved'],
    ['http://[2001:2::1]/hook', 'benchmarking'],
    ['http://[2001:db8::1]/hook', 'documentation'],
    ['http://[3fff::1]/hook', 'documentation'],
    ['http://[5f00::1]/hook', 'reserved'],
    ['https://hooks.benchmark.test/x', 'benchmarking'],
    ['https://hooks.documentation.test/x', 'documentation'],
  ])('refuses %s (a %s address)', async (endpointUrl, kind) => {
    const res = await acct.api.post(BASE, valid({ endpointUrl }));
    expect(details(res)).toEqual(['endpointUrl:private_address']);
    expect(res.body.error.details[0].message).toContain(`(${kind} address space)`);
  });

  it.each(['https://8.8.8.8/hook', 'http://[2606:4700::1111]/hook', 'https://hooks.public.test/x', 'https://does-not-exist.test/x'])(
    'accepts %s',
    async (endpointUrl) => {
      const res = await acct.api.post(BASE, valid({ endpointUrl }));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    },
  );

  it('checks the address on update and leaves the record unchanged when refused', async () => {
    const { body } = await acct.api.post(BASE, valid({ endpointUrl: 'https://hooks.public.test/x' }));
    expect(details(await acct.api.patch(`${BASE}/${body.data.id}`, { endpointUrl: 'https://hooks.private.test/x' }))).toEqual([
      'endpointUrl:private_address',
    ]);
    expect(details(await acct.api.patch(`${BASE}/${body.data.id}`, { endpointUrl: 'http://[::1]:8080/' }))).toEqual([
      'endpointUrl:private_address',
    ]);
    expect((await acct.api.get(`${BASE}/${body.data.id}`)).body.data.endpointUrl).toBe('https://hooks.public.test/x');
  });

  it('sees a record change in DNS at the next update', async () => {
    dns.zone.set('hooks.moving.test', { A: ['93.184.216.34'] });
    const { body } = await acct.api.post(BASE, valid({ endpointUrl: 'https://hooks.moving.test/x' }));
    expect(body.data.endpointUrl).toBe('https://hooks.moving.test/x');
    dns.zone.set('hooks.moving.test', { A: ['192.168.1.20'] });
    expect(details(await acct.api.patch(`${BASE}/${body.data.id}`, { endpointUrl: 'https://hooks.moving.test/y' }))).toEqual([
      'endpointUrl:private_address',
    ]);
  });

  it('allows private addresses when LOYALTY_WEBHOOK_ALLOW_PRIVATE is set', async () => {
    const lax = await startTestApp({ LOYALTY_WEBHOOK_ALLOW_PRIVATE: 'true', LOYALTY_DNS_SERVERS: dns.server });
    try {
      const a = await lax.createAccount();
      for (const endpointUrl of ['http://127.0.0.1:8080/hook', 'http://localhost/hook', 'https://hooks.private.test/x']) {
        const res = await a.api.post(BASE, valid({ endpointUrl }));
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      }
    } finally {
      await lax.close();
    }
  });
});

describe('rotate_secret', () => {
  it('replaces the secret and returns the webhook', async () => {
    const { body } = await acct.api.post(BASE, valid());
    const id = body.data.id;
    const rotated = await acct.api.post(`${BASE}/${id}/action/rotate_secret`);
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    expect(rotated.body.data).toMatchObject({ id, name: body.data.name, eventCodes: body.data.eventCodes });
    expect(rotated.body.data.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(rotated.body.data.webhookSecret).not.toBe(body.data.webhookSecret);
    expect(Date.parse(rotated.body.data.updatedAt)).toBeGreaterThan(Date.parse(body.data.updatedAt));
    const got = await acct.api.get(`${BASE}/${id}`);
    expect(got.body.data.webhookSecret).toBe(rotated.body.data.webhookSecret);
    const raw = await app.db('webhook').where({ id }).first();
    expect(JSON.stringify(raw)).not.toContain(rotated.body.data.webhookSecret.slice(6));
  });

  it('takes no body fields: each one sent is named, and the secret stays', async () => {
    const { body } = await acct.api.post(BASE, valid());
    const refused = await acct.api.post(`${BASE}/${body.data.id}/action/rotate_secret`, { bogus: 1, secret: 'mine' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.map((d: { field: string; code: string }) => [d.field, d.code])).toEqual([
      ['bogus', 'unknown_field'],
      ['secret', 'unknown_field'],
    ]);
    expect((await acct.api.post(`${BASE}/${body.data.id}/action/rotate_secret`, 5)).status).toBe(400);
    expect((await acct.api.get(`${BASE}/${body.data.id}`)).body.data.webhookSecret).toBe(body.data.webhookSecret);
    expect((await acct.api.post(`${BASE}/${body.data.id}/action/rotate_secret`, {})).status).toBe(200);
  });

  it('is 404 for another account, an unknown id or an unknown action, 405 for GET and 403 for an end user', async () => {
    const { body } = await acct.api.post(BASE, valid());
    const id = body.data.id;
    expect((await other.api.post(`${BASE}/${id}/action/rotate_secret`)).status).toBe(404);
    expect((await acct.api.post(`${BASE}/${randomUUID()}/action/rotate_secret`)).status).toBe(404);
    expect((await acct.api.post(`${BASE}/${id}/action/rotate`)).status).toBe(404);
    expect((await acct.api.get(`${BASE}/${id}/action/rotate_secret`)).status).toBe(405);
    expect((await member.post(`${BASE}/${id}/action/rotate_secret`)).status).toBe(403);
    expect((await app.anon.post(`${BASE}/${id}/action/rotate_secret`)).status).toBe(401);
    expect((await acct.api.get(`${BASE}/${id}`)).body.data.webhookSecret).toBe(body.data.webhookSecret);
  });
});

describe('webhook access', () => {
  it('hides webhooks of other accounts', async () => {
    const { body } = await acct.api.post(BASE, valid());
    const id = body.data.id;
    expect((await other.api.get(`${BASE}/${id}`)).status).toBe(404);
    expect((await other.api.patch(`${BASE}/${id}`, { name: 'Mine now' })).status).toBe(404);
    expect((await other.api.delete(`${BASE}/${id}`)).status).toBe(404);
    expect((await other.api.get(BASE)).body.data).toEqual([]);
    expect((await acct.api.get(`${BASE}/${id}`)).body.data.name).toBe('Orders hook');
    expect((await acct.api.get(`${BASE}/not-a-uuid`)).status).toBe(404);
  });

  it('refuses end users (403) and guests (401)', async () => {
    const { body } = await acct.api.post(BASE, valid());
    expect((await member.get(BASE)).status).toBe(403);
    expect((await member.get(`${BASE}/${body.data.id}`)).status).toBe(403);
    expect((await member.post(BASE, valid())).status).toBe(403);
    expect((await member.patch(`${BASE}/${body.data.id}`, { name: 'x' })).status).toBe(403);
    expect((await member.delete(`${BASE}/${body.data.id}`)).status).toBe(403);
    expect((await app.anon.get(BASE)).status).toBe(401);
  });
});

describe('webhook_log', () => {
  const LOGS = '/schema/webhook_log/record';

  async function seedLog(account: TestAccount, webhookId: string, over: Record<string, unknown> = {}) {
    const events = await app
      .db('event_log')
      .insert([
        {
          account_id: account.accountId,
          event_code: 'streak_progress_completed',
          owned_by_id: randomUUID(),
          linked_schema_slug: 'streak_progress',
          linked_schema_record_id: randomUUID(),
          payload: { streakLog: { id: 'a' } },
        },
        { account_id: account.accountId, event_code: 'streak_progress_milestone_completed', payload: {} },
      ])
      .returning('*');
    const [log] = await app
      .db('webhook_log')
      .insert({ account_id: account.accountId, webhook_id: webhookId, event_log_ids: [events[1].id, events[0].id], ...over })
      .returning('*');
    return { log, events };
  }

  it('lists and gets logs with the webhook and event logs joined', async () => {
    const hook = (await acct.api.post(BASE, valid())).body.data;
    const delivered = new Date('2026-11-21T10:00:00.000Z');
    const { log, events } = await seedLog(acct, hook.id, {
      webhook_log_status: 'processed',
      retry_count: 2,
      last_retried_at: delivered,
      next_retry_at: null,
      last_response_status: 204,
      delivered_at: delivered,
    });
    const got = await acct.api.get(`${LOGS}/${log.id}`);
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    expect(got.body.data).toEqual({
      id: log.id,
      webhookId: hook.id,
      webhook: hook,
      eventLogIds: [events[1].id, events[0].id],
      eventLogs: [
        {
          id: events[1].id,
          eventCode: 'streak_progress_milestone_completed',
          ownedById: null,
          linkedSchemaSlug: null,
          linkedSchemaRecordId: null,
          payload: {},
          createdAt: events[1].created_at.toISOString(),
        },
        {
          id: events[0].id,
          eventCode: 'streak_progress_completed',
          ownedById: events[0].owned_by_id,
          linkedSchemaSlug: 'streak_progress',
          linkedSchemaRecordId: events[0].linked_schema_record_id,
          payload: { streakLog: { id: 'a' } },
          createdAt: events[0].created_at.toISOString(),
        },
      ],
      webhookLogStatus: 'processed',
      status: 'live',
      retryCount: 2,
      lastRetriedAt: delivered.toISOString(),
      nextRetryAt: null,
      lastResponseStatus: 204,
      lastError: null,
      deliveredAt: delivered.toISOString(),
      createdAt: log.created_at.toISOString(),
      updatedAt: log.updated_at.toISOString(),
    });

    const pending = await seedLog(acct, hook.id);
    const list = await acct.api.get(LOGS, {
      filters: {
        operator: 'and',
        conditions: [
          { fieldSlug: 'webhookLogStatus', operator: 'equals', fieldValue: 'pending' },
          { fieldSlug: 'webhookId', operator: 'equals', fieldValue: hook.id },
        ],
      },
      fetchTotalCount: true,
    });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.data.map((l: { id: string }) => l.id)).toEqual([pending.log.id]);
    expect(list.body.data[0]).toMatchObject({ webhookLogStatus: 'pending', status: 'live', retryCount: 0, webhook: { id: hook.id } });
    expect(list.body.paging).toMatchObject({ count: 1, total: 1, hasMore: false });

    const narrow = await acct.api.get(`${LOGS}/${log.id}`, { fields: ['webhookLogStatus'] });
    expect(narrow.body.data).toEqual({ id: log.id, webhookLogStatus: 'processed' });
  });

  it('shows a null webhook and leaves out erased event logs', async () => {
    const { log, events } = await seedLog(acct, randomUUID());
    await app.db('event_log').where({ id: events[0].id }).delete();
    const got = await acct.api.get(`${LOGS}/${log.id}`);
    expect(got.body.data.webhook).toBeNull();
    expect(got.body.data.eventLogs.map((e: { id: string }) => e.id)).toEqual([events[1].id]);
  });

  it('is read-only, API keys only, and per account', async () => {
    const hook = (await acct.api.post(BASE, valid())).body.data;
    const { log } = await seedLog(acct, hook.id);
    expect((await acct.api.post(LOGS, { webhookId: hook.id })).status).toBe(405);
    expect((await acct.api.patch(`${LOGS}/${log.id}`, { status: 'paused' })).status).toBe(405);
    expect((await acct.api.delete(`${LOGS}/${log.id}`)).status).toBe(405);
    expect((await member.get(LOGS)).status).toBe(403);
    expect((await member.get(`${LOGS}/${log.id}`)).status).toBe(403);
    expect((await other.api.get(`${LOGS}/${log.id}`)).status).toBe(404);
    expect((await other.api.get(LOGS)).body.data).toEqual([]);
  });

  it('goes with its webhook when the webhook is deleted', async () => {
    const doomed = (await acct.api.post(BASE, valid())).body.data;
    const kept = (await acct.api.post(BASE, valid())).body.data;
    const gone = await seedLog(acct, doomed.id);
    const stays = await seedLog(acct, kept.id);
    expect((await acct.api.delete(`${BASE}/${doomed.id}`)).status).toBe(204);
    expect((await acct.api.get(`${LOGS}/${gone.log.id}`)).status).toBe(404);
    expect(await app.db('webhook_log').where({ webhook_id: doomed.id })).toEqual([]);
    expect((await acct.api.get(`${LOGS}/${stays.log.id}`)).status).toBe(200);
    // History stays: the event logs themselves are not the webhook's.
    expect(
      await app.db('event_log').whereIn(
        'id',
        gone.events.map((e: { id: string }) => e.id),
      ),
    ).toHaveLength(2);
  });
});
