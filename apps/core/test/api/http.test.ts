import { gzipSync } from 'node:zlib';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accepted, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

let app: TestApp;
let acct: TestAccount;
beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount();
});
afterAll(() => app.close());

function expectErrorEnvelope(body: any, status: number, code: string) {
  expect(body).toEqual({
    error: { status, code, message: expect.any(String), details: expect.any(Array), requestId: expect.any(String) },
  });
}

describe('envelopes and errors', () => {
  it('echoes a caller request id and makes one otherwise', async () => {
    const echoed = await acct.api.get('/schema/streak/record', undefined, { 'x-request-id': 'trace-123' });
    expect(echoed.headers.get('x-request-id')).toBe('trace-123');
    const made = await app.anon.get('/nope');
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expectErrorEnvelope(made.body, 404, 'not_found');
    expect(made.body.error.requestId).toBe(made.headers.get('x-request-id'));
  });

  it('puts the rate-limit headers on every API response, unknown paths included', async () => {
    for (const res of [
      await app.anon.get('/nope'),
      await app.platform.get('/platform/accounts'),
      await acct.api.get('/schema/streak/record'),
    ]) {
      expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
      expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    }
  });

  it('answers unknown paths 404 before asking for credentials', async () => {
    expect((await app.anon.get('/schema/nothing/record')).status).toBe(404);
    expect((await app.anon.post('/schema/streak/record/7d419a6f-9c2a-41b9-82fb-a32ad64892a2/action/nothing')).status).toBe(404);
    expect((await app.anon.get('/totally/unknown')).status).toBe(404);
  });

  it('answers 405 for operations a resource does not offer', async () => {
    const res = await acct.api.delete('/schema/event_log/record/7d419a6f-9c2a-41b9-82fb-a32ad64892a2');
    expectErrorEnvelope(res.body, 405, 'method_not_allowed');
    expect((await acct.api.request('PUT', '/schema/streak/record')).status).toBe(405);
    expect((await acct.api.post('/schema/streak_progress/record', {})).status).toBe(405);
  });

  it('lists the methods a path offers in the Allow header of every 405 (RFC 9110)', async () => {
    const id = '7d419a6f-9c2a-41b9-82fb-a32ad64892a2';
    const cases: [Promise<{ status: number; headers: Headers }>, string][] = [
      [acct.api.delete(`/schema/event_log/record/${id}`), 'GET'],
      [acct.api.request('PUT', '/schema/streak/record'), 'GET, POST'],
      [acct.api.request('PUT', `/schema/streak/record/${id}`), 'GET, PATCH, DELETE'],
      [acct.api.post('/schema/streak_progress/record', {}), 'GET'],
      [acct.api.get(`/schema/webhook/record/${id}/action/rotate_secret`), 'POST'],
      [acct.api.request('DELETE', '/enduser/token'), 'POST'],
      [acct.api.post('/analytics/summary'), 'GET'],
      [app.platform.get('/platform/accounts'), 'POST'],
      [app.platform.get(`/platform/accounts/${id}`), 'DELETE'],
    ];
    for (const [reply, allow] of cases) {
      const res = await reply;
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe(allow);
    }
  });

  it('answers HEAD as GET without the body, with the same checks (RFC 9110 §9.3.2)', async () => {
    const streak = await accepted(acct.api.post('/schema/streak/record', { name: 'Heads' }));
    const key = { 'x-api-key': acct.apiKey, 'x-api-secret': acct.apiSecret };
    const head = (path: string, headers: Record<string, string> = key) => fetch(`${app.url}/api/v1.0${path}`, { method: 'HEAD', headers });
    for (const path of ['/schema/streak/record', `/schema/streak/record/${streak.id}`, '/analytics/summary']) {
      const res = await head(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(await res.text(), path).toBe('');
    }
    expect((await head('/schema/streak/record', {})).status).toBe(401);
    expect((await head('/schema/streak/record/7d419a6f-9c2a-41b9-82fb-a32ad64892a2')).status).toBe(404);
    expect((await head('/schema/streak/record?limit=0')).status).toBe(400);
  });

  it('refuses a NUL character in any string of a body or query, naming where it is', async () => {
    const named = (res: { status: number; body: any }, code: string, field: string) => {
      expectErrorEnvelope(res.body, 400, code);
      expect(res.body.error.message).toContain('NUL');
      expect(res.body.error.details).toContainEqual(expect.objectContaining({ field, code: 'nul_character' }));
    };
    named(await acct.api.post('/schema/streak/record', { name: 'a\u0000b' }), 'invalid_input', 'name');
    named(await acct.api.post('/schema/streak/record', { name: 'x', description: 'ok', eudTitle: 'x\u0000' }), 'invalid_input', 'eudTitle');
    named(await acct.api.post('/enduser/token', { externalId: 'm', firstName: '\u0000' }), 'invalid_input', 'firstName');
    named(
      await acct.api.post('/schema/mission/record', { name: 'm', tasks: [{ title: 'ok' }, { title: '\u0000' }] }),
      'invalid_input',
      'tasks[1].title',
    );
    named(await acct.api.get('/schema/streak/record', { fields: '["na\u0000me"]' }), 'invalid_query', 'fields');
    const created = await acct.api.post('/schema/streak/record', { name: 'still works' });
    expect(created.status).toBe(200);
  });

  it('refuses a body nested deeper than any resource needs with a 400, not a stack overflow', async () => {
    const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    for (const path of ['/schema/streak/record', '/enduser/token']) {
      const res = await acct.api.request('POST', path, { raw: nested(10_000), headers: { 'content-type': 'application/json' } });
      expectErrorEnvelope(res.body, 400, 'invalid_input');
      expect(res.body.error.details).toContainEqual(expect.objectContaining({ code: 'too_deep' }));
    }
    // Within the limit, the body reaches validation, which names what is wrong with it.
    const shallow = await acct.api.request('POST', '/schema/streak/record', {
      raw: nested(64),
      headers: { 'content-type': 'application/json' },
    });
    expectErrorEnvelope(shallow.body, 400, 'invalid_input');
    expect(shallow.body.error.details).not.toContainEqual(expect.objectContaining({ code: 'too_deep' }));
  });

  it('refuses a lone surrogate in any string or key of a body, rather than storing U+FFFD', async () => {
    const before = (await acct.api.get('/schema/account_user/record', { fetchTotalCount: 'true' })).body.paging.total;
    const cases: [Promise<{ status: number; body: any }>, string][] = [
      [acct.api.post('/schema/streak/record', { name: 'a\ud800' }), 'name'],
      [acct.api.post('/schema/account_user/record', { externalId: 'x', firstName: '\udfff' }), 'firstName'],
      [
        acct.api.post('/schema/mission/record', { name: 'm', tasks: [{ name: 't', activityId: 'a\udc00b', targetValue: 1 }] }),
        'tasks[0].activityId',
      ],
      [acct.api.post('/schema/streak/record', { ['\ud83d']: 1 }), '\ud83d'],
    ];
    for (const [reply, field] of cases) {
      const res = await reply;
      expectErrorEnvelope(res.body, 400, 'invalid_input');
      expect(res.body.error.details).toContainEqual(expect.objectContaining({ field, code: 'lone_surrogate' }));
    }
    expect((await acct.api.get('/schema/account_user/record', { fetchTotalCount: 'true' })).body.paging.total).toBe(before);
    // A pair is one character, and is stored as sent.
    expect((await accepted(acct.api.post('/schema/streak/record', { name: 'streak \ud83d\udd25' }))).name).toBe('streak 🔥');
  });

  it('refuses bodies by media type, syntax and size', async () => {
    const noType = await acct.api.request('POST', '/schema/streak/record', { raw: '{"name":"x"}', headers: { 'content-type': '' } });
    expect(noType.status).toBe(415);
    const wrongType = await acct.api.request('POST', '/schema/streak/record', {
      raw: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectErrorEnvelope(wrongType.body, 415, 'unsupported_media_type');
    // A compressed body is not read as if it were the JSON it compresses; identity is no coding.
    const gzipped = await acct.api.request('POST', '/schema/streak/record', {
      raw: gzipSync('{"name":"zipped"}'),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expectErrorEnvelope(gzipped.body, 415, 'unsupported_media_type');
    const identity = await acct.api.request('POST', '/schema/streak/record', {
      raw: '{"name":"plain"}',
      headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
    });
    expect(identity.status).toBe(200);
    const charset = await acct.api.request('POST', '/schema/streak/record', {
      raw: '{"name":"x"}',
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expect(charset.status).toBe(200);
    const badJson = await acct.api.request('POST', '/schema/streak/record', {
      raw: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expectErrorEnvelope(badJson.body, 400, 'invalid_input');
    const notObject = await acct.api.post('/schema/streak/record', [1, 2]);
    expect(notObject.status).toBe(400);
    const huge = await acct.api.post('/schema/streak/record', { name: 'x', description: 'y'.repeat(1024 * 1024) });
    expectErrorEnvelope(huge.body, 413, 'payload_too_large');
    const chunked = await fetch(`${app.url}/api/v1.0/schema/streak/record`, {
      method: 'POST',
      headers: { 'x-api-key': acct.apiKey, 'x-api-secret': acct.apiSecret, 'content-type': 'application/json' },
      body: new ReadableStream({
        start(c) {
          c.enqueue(new TextEncoder().encode(`{"name":"${'z'.repeat(1024 * 1024 + 10)}"}`));
          c.close();
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
  });

  it('checks a body sent with a read or a delete as any body: another media type 415, bad JSON 400, fields 400, and deletes nothing', async () => {
    const streak = await accepted(acct.api.post('/schema/streak/record', { name: 'Bodied' }));
    const send = (method: string, path: string, body: string, contentType: string) =>
      new Promise<{ status: number; body: any }>((resolve, reject) => {
        const req = httpRequest(`${app.url}/api/v1.0${path}`, {
          method,
          headers: {
            'x-api-key': acct.apiKey,
            'x-api-secret': acct.apiSecret,
            'content-type': contentType,
            'content-length': Buffer.byteLength(body),
          },
        });
        req.on('response', (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
        });
        req.on('error', reject);
        req.end(body);
      });
    for (const [method, path] of [
      ['GET', '/schema/streak/record'],
      ['GET', '/analytics/summary'],
      ['GET', `/schema/streak/record/${streak.id}`],
      ['DELETE', `/schema/streak/record/${streak.id}`],
    ] as const) {
      expectErrorEnvelope((await send(method, path, 'hello', 'text/plain')).body, 415, 'unsupported_media_type');
      expectErrorEnvelope((await send(method, path, '{', 'application/json')).body, 400, 'invalid_input');
      const fields = await send(method, path, '{"name":"x"}', 'application/json');
      expectErrorEnvelope(fields.body, 400, 'invalid_input');
      expect(fields.body.error.details).toEqual([expect.objectContaining({ field: 'name' })]);
      // An empty object is no field.
      expect((await send(method, path, '{}', 'application/json')).status, `${method} ${path}`).toBe(method === 'DELETE' ? 204 : 200);
    }
    expect((await acct.api.get(`/schema/streak/record/${streak.id}`)).status).toBe(404);
  });

  it('answers 404 for ids that are not UUIDs', async () => {
    for (const id of ['abc', '1', "'; drop table streak; --", '7d419a6f-9c2a-41b9-82fb-a32ad64892aZ']) {
      const res = await acct.api.get(`/schema/streak/record/${encodeURIComponent(id)}`);
      expect(res.status).toBe(404);
    }
  });

  it('changes nothing on a refused update', async () => {
    const s = (await acct.api.post('/schema/streak/record', { name: 'Keep' })).body.data;
    const res = await acct.api.patch(`/schema/streak/record/${s.id}`, { name: 'Changed', aggregationPeriod: 'hourly' });
    expect(res.status).toBe(400);
    expect((await acct.api.get(`/schema/streak/record/${s.id}`)).body.data.name).toBe('Keep');
  });

  it('lists with the paging envelope', async () => {
    const res = await acct.api.get('/schema/streak/record', { limit: '1' });
    expect(res.body.paging).toEqual({ offset: 0, limit: 1, count: 1, hasMore: true });
  });
});

describe('cross-origin storefront calls', () => {
  it('answers preflights and lets a storefront read with guest and end-user headers, not API keys', async () => {
    const preflight = await fetch(`${app.url}/api/v1.0/schema/streak/record`, {
      method: 'OPTIONS',
      headers: { origin: 'https://shop.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-account-id' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    const allowed = preflight.headers.get('access-control-allow-headers')!;
    expect(allowed).toContain('x-enduser-access-token');
    expect(allowed).toContain('x-account-id');
    expect(allowed).not.toContain('x-api-key');
    const read = await fetch(`${app.url}/api/v1.0/schema/streak/record`, {
      headers: { origin: 'https://shop.example', 'x-account-id': acct.accountId },
    });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBe('*');
    expect(read.headers.get('access-control-expose-headers')).toContain('x-request-id');
  });
});

describe('operations endpoints', () => {
  it('serves health, readiness and metrics outside the API prefix', async () => {
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${app.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
    const metrics = await (await fetch(`${app.url}/metrics`)).text();
    expect(metrics).toContain('loyalty_http_request_duration_seconds_bucket');
    expect(metrics).toContain('process_cpu_user_seconds_total');
  });

  it('serves a generated OpenAPI 3.1 document covering every resource', async () => {
    const doc = await (await fetch(`${app.url}/api/v1.0/openapi.json`)).json();
    expect(doc.openapi).toBe('3.1.0');
    for (const resource of app.running.services.registry.all()) {
      const paths = Object.keys(doc.paths).filter((p) => p.startsWith(`/schema/${resource.slug}/`));
      expect(paths.length, resource.slug).toBeGreaterThan(0);
      const schema = doc.components.schemas[resource.slug.replace(/(^|_)([a-z])/g, (_: string, __: string, c: string) => c.toUpperCase())];
      for (const name of Object.keys(resource.fields)) expect(schema.properties[name], `${resource.slug}.${name}`).toBeDefined();
    }
    expect(doc.components.schemas.StreakCreate.required).toContain('name');
    expect(doc.components.schemas.StreakCreate.properties.eudTitle.anyOf[0].maxLength).toBe(48);
    expect(doc.paths['/schema/streak_log/record'].get).toBeDefined();
    // Each operation's summary reads as English: "an" before a vowel.
    expect(doc.paths['/schema/account_user/record'].post.summary).toBe('Create an account_user record');
    expect(doc.paths['/schema/email_template/record/{id}'].patch.summary).toBe('Update an email_template record');
    expect(doc.paths['/schema/streak/record/{id}'].delete.summary).toBe('Delete a streak record');
    // An action's body is required where the action cannot do without one (CONTRACT §2).
    const bodyRequired = (path: string) => doc.paths[`/schema/${path}`].post.requestBody.required;
    expect(bodyRequired('streak_progress/record/{id}/action/grant_freezes')).toBe(true);
    expect(bodyRequired('reward/record/{id}/action/import_coupons')).toBe(true);
    expect(bodyRequired('sms_template/record/{id}/action/render')).toBe(true);
    expect(bodyRequired('streak_log/record/{id}/action/reverse')).toBe(false);
    expect(bodyRequired('reward/record/{id}/action/redeem')).toBe(false);
    // Clients offer the records a field may name: fixed, or by the value of another field.
    expect(doc.components.schemas.MilestoneCreate.properties.rewardId['x-references']).toBe('reward');
    expect(doc.components.schemas.NotificationCreate.properties.templateId['x-references-by']).toEqual({
      field: 'integrationProvider',
      slugs: {
        service_email: 'email_template',
        push_cloud_messaging: 'push_notification_template',
        cloud_sms: 'sms_template',
        cloud_chat: 'chat_message_template',
      },
    });
    // A stamp's body holds its code, as the service asks: required, never null.
    const stamp = doc.components.schemas.RewardLogUpdate;
    expect(stamp.required).toEqual(['couponCode']);
    expect(stamp.properties.couponCode.anyOf).toBeUndefined();
    expect(stamp.properties.couponCode.type).toBe('string');
  });

  it('renders the reference page with assets it serves itself', async () => {
    const page = await (await fetch(`${app.url}/docs`)).text();
    const assets = [...page.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(3);
    for (const asset of assets) {
      expect(asset.startsWith('/')).toBe(true);
      expect((await fetch(`${app.url}${asset}`)).status, asset).toBe(200);
    }
  });
});

describe('closing', () => {
  it('finishes within its grace when a client stopped sending a body halfway, rather than at the keep-alive timeout', async () => {
    const own = await startTestApp();
    const { hostname, port } = new URL(own.url);
    const socket = connect(Number(port), hostname);
    await new Promise<void>((ok) => socket.once('connect', ok));
    socket.write(
      `POST /api/v1.0/schema/streak/record HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"na`,
    );
    await new Promise((ok) => setTimeout(ok, 100));
    const started = Date.now();
    await own.close();
    // The test's own 30 s timeout is what fails a close that waits out the 65 s keep-alive timeout.
    expect(Date.now() - started).toBeLessThan(20_000);
    socket.destroy();
  });
});
