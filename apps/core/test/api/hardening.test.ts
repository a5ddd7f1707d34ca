import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedEveryResource } from '../support/fixtures.js';
import { startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

/** Findings of a black-box probe of the core (issue #12): each answered in the contract's error body. */
let app: TestApp;
let owner: TestAccount;
let ids: Map<string, string>;

beforeAll(async () => {
  app = await startTestApp({ LOYALTY_WEBHOOK_ALLOW_PRIVATE: 'true' });
  owner = await app.createAccount();
  ids = await seedEveryResource(app, owner);
}, 120_000);
afterAll(() => app.close());

const BUILT_IN_KEYS = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

describe('body keys that name built-in object properties', () => {
  it('are unknown fields (400 naming the field) on create and update of every resource', async () => {
    const writable = app.running.services.registry
      .all()
      .filter((r) => r.access.create?.includes('apikey') || r.access.update?.includes('apikey'));
    expect(writable.length).toBeGreaterThan(20);
    for (const resource of writable) {
      for (const key of BUILT_IN_KEYS) {
        const raw = JSON.stringify({ [key]: 1 });
        const headers = { 'content-type': 'application/json' };
        const attempts = [];
        if (resource.access.create?.includes('apikey') && !resource.createRaw) {
          attempts.push(owner.api.request('POST', `/schema/${resource.slug}/record`, { raw, headers }));
        }
        if (resource.access.update?.includes('apikey')) {
          attempts.push(owner.api.request('PATCH', `/schema/${resource.slug}/record/${ids.get(resource.slug)}`, { raw, headers }));
        }
        for (const res of await Promise.all(attempts)) {
          expect(res.status, `${resource.slug} ${key}: ${JSON.stringify(res.body)}`).toBe(400);
          expect(res.body.error.code).toBe('invalid_input');
          expect(res.body.error.details).toContainEqual(expect.objectContaining({ field: key, code: 'unknown_field' }));
        }
      }
    }
  }, 120_000);

  it('name no field, action or asset anywhere else a client names one', async () => {
    const reward = ids.get('reward')!;
    for (const key of BUILT_IN_KEYS) {
      const fields = await owner.api.get('/schema/reward/record', { fields: [key] });
      expect(fields.status).toBe(400);
      expect(fields.body.error.code).toBe('invalid_query');
      const filters = await owner.api.get('/schema/reward/record', {
        filters: { operator: 'and', conditions: [{ fieldSlug: key, operator: 'equals', fieldValue: 1 }] },
      });
      expect(filters.status).toBe(400);
      const sortBy = await owner.api.get('/schema/reward/record', { sortBy: [{ fieldSlug: key, order: 'ASC' }] });
      expect(sortBy.status).toBe(400);
      const query = await owner.api.get('/schema/reward/record', { [key]: '1' });
      expect(query.status).toBe(400);
      expect((await owner.api.post(`/schema/reward/record/${reward}/action/${key}`, {})).status).toBe(404);
      expect((await owner.api.get(`/schema/${key}/record`)).status).toBe(404);
      const asset = await fetch(`${app.url}/docs/assets/${key}`);
      expect(asset.status).toBe(404);
      const headers = { 'content-type': 'application/json' };
      const token = await owner.api.request('POST', '/enduser/token', { raw: `{"externalId":"m","${key}":1}`, headers });
      expect(token.status).toBe(400);
      expect(token.body.error.details).toContainEqual(expect.objectContaining({ field: key }));
      const platform = await app.platform.request('POST', '/platform/accounts', {
        raw: `{"organizationName":"O","accountName":"A","${key}":1}`,
        headers,
      });
      expect(platform.status).toBe(400);
      expect(platform.body.error.details).toContainEqual(expect.objectContaining({ field: key }));
    }
  });
});

describe('fields naming a secret', () => {
  it.each([
    ['cloud_sms', 'secretAccessKey'],
    ['cloud_chat', 'secretAccessKey'],
    ['push_cloud_messaging', 'serviceAccountJSON'],
    ['apikey', 'apiSecret'],
  ])('%s: fields=["%s"] is 400 invalid_query on list and get', async (slug, secret) => {
    for (const path of [`/schema/${slug}/record`, `/schema/${slug}/record/${ids.get(slug)}`]) {
      const res = await owner.api.get(path, { fields: [secret] });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error.code).toBe('invalid_query');
      expect(res.body.error.details).toContainEqual(expect.objectContaining({ field: 'fields' }));
      expect(res.body.error.message).toContain(secret);
    }
  });
});

describe('invalid UTF-8 in a body', () => {
  const invalid = (json: string) =>
    Buffer.concat([
      Buffer.from(json.slice(0, json.indexOf('%'))),
      Buffer.from([0xff, 0xc3, 0x28]),
      Buffer.from(json.slice(json.indexOf('%') + 1)),
    ]);

  it('is 400 invalid_input on create and update, and changes nothing', async () => {
    const headers = { 'content-type': 'application/json' };
    const before = await app.db('streak').where({ account_id: owner.accountId }).select('id', 'name', 'updated_at');
    const created = await owner.api.request('POST', '/schema/streak/record', { raw: invalid('{"name":"bad %"}'), headers });
    expect(created.status, JSON.stringify(created.body)).toBe(400);
    expect(created.body.error.code).toBe('invalid_input');
    const streak = ids.get('streak')!;
    const updated = await owner.api.request('PATCH', `/schema/streak/record/${streak}`, { raw: invalid('{"name":"bad %"}'), headers });
    expect(updated.status).toBe(400);
    expect(updated.body.error.code).toBe('invalid_input');
    expect(await app.db('streak').where({ account_id: owner.accountId }).select('id', 'name', 'updated_at')).toEqual(before);
  });

  it('is 400 invalid_input in a CSV coupon import, and imports nothing', async () => {
    const reward = ids.get('reward')!;
    const before = await app.db('coupon').where({ account_id: owner.accountId }).count({ n: '*' });
    const res = await owner.api.request('POST', `/schema/reward/record/${reward}/action/import_coupons`, {
      raw: invalid('GOOD-1\nBAD-%\n'),
      headers: { 'content-type': 'text/csv' },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe('invalid_input');
    expect(await app.db('coupon').where({ account_id: owner.accountId }).count({ n: '*' })).toEqual(before);
  });
});

describe('upper bounds of numbers and strings', () => {
  const expectRefused = (res: { status: number; body: any }, field: string, code: string) => {
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe('invalid_input');
    expect(res.body.error.details).toContainEqual(expect.objectContaining({ field, code }));
  };

  it('refuses targets and values beyond their maximum, on create and update, changing nothing', async () => {
    expectRefused(
      await owner.api.post('/schema/challenge/record', { name: 'C', completionTargetValue: 1e12 }),
      'completionTargetValue',
      'too_large',
    );
    expectRefused(
      await owner.api.post('/schema/streak/record', { name: 'S', aggregationTargetValue: 1e12 }),
      'aggregationTargetValue',
      'too_large',
    );
    expectRefused(
      await owner.api.post('/schema/streak/record', { name: 'S', completionTargetValue: 1e7 }),
      'completionTargetValue',
      'too_large',
    );
    const mission = { name: 'M', tasks: [{ name: 't', activityId: 'a', targetValue: 1e12 }] };
    expectRefused(await owner.api.post('/schema/mission/record', mission), 'tasks[0].targetValue', 'too_large');
    const challenge = ids.get('challenge')!;
    const before = await owner.api.get(`/schema/challenge/record/${challenge}`);
    expectRefused(
      await owner.api.patch(`/schema/challenge/record/${challenge}`, { completionTargetValue: 1e12 }),
      'completionTargetValue',
      'too_large',
    );
    expect((await owner.api.get(`/schema/challenge/record/${challenge}`)).body).toEqual(before.body);
  });

  it('refuses a percentage discount over 100 (1.23e29 included) and a huge fixed amount', async () => {
    const reward = { name: 'R', description: 'd', discountType: 'percentage', rewardExpiryType: 'no_expiry' };
    expectRefused(await owner.api.post('/schema/reward/record', { ...reward, discountValue: 1.23e29 }), 'discountValue', 'too_large');
    expectRefused(await owner.api.post('/schema/reward/record', { ...reward, discountValue: 100.5 }), 'discountValue', 'too_large');
    expect((await owner.api.post('/schema/reward/record', { ...reward, discountValue: 100 })).status).toBe(200);
    expectRefused(
      await owner.api.post('/schema/reward/record', { ...reward, discountType: 'fixed_amount', discountValue: 1e12 }),
      'discountValue',
      'too_large',
    );
    const fixed = await owner.api.post('/schema/reward/record', { ...reward, discountType: 'fixed_amount', discountValue: 250 });
    expect(fixed.status).toBe(200);
    // Switching a 250 fixed amount to a percentage would make it 250 %.
    expectRefused(
      await owner.api.patch(`/schema/reward/record/${fixed.body.data.id}`, { discountType: 'percentage' }),
      'discountValue',
      'too_large',
    );
  });

  it('refuses a name of spaces only on create and update of every named record, changing nothing', async () => {
    const named = ['streak', 'challenge', 'mission', 'reward', 'leaderboard', 'webhook', 'tier'];
    for (const slug of named) {
      const id = ids.get(slug)!;
      expectRefused(await owner.api.post(`/schema/${slug}/record`, { name: ' \t\n ' }), 'name', 'invalid_format');
      const before = await owner.api.get(`/schema/${slug}/record/${id}`);
      const res = await owner.api.patch(`/schema/${slug}/record/${id}`, { name: '   ' });
      expectRefused(res, 'name', 'invalid_format');
      expect(res.body.error.details[0].message).toBe('Must not be blank');
      expect((await owner.api.get(`/schema/${slug}/record/${id}`)).body).toEqual(before.body);
    }
    const doc = (await app.anon.get('/openapi.json')).body;
    expect(doc.components.schemas.StreakCreate.properties.name.pattern).toBe('\\S');
    expect((await owner.api.patch(`/schema/streak/record/${ids.get('streak')}`, { name: ' Summer run ' })).status).toBe(200);
  });

  it('refuses a 300 KB email footer on create and update', async () => {
    expectRefused(
      await owner.api.post('/schema/email_footer/record', { name: 'F', htmlContent: `<p>${'x'.repeat(300_000)}</p>` }),
      'htmlContent',
      'too_long',
    );
    const footer = ids.get('email_footer')!;
    expectRefused(
      await owner.api.patch(`/schema/email_footer/record/${footer}`, { htmlContent: 'x'.repeat(300_000) }),
      'htmlContent',
      'too_long',
    );
  });

  it('counts a bound in words, singular for one', async () => {
    const messageOf = async (res: Promise<any>) => (await res).body.error.details[0].message;
    expect(
      await messageOf(owner.api.post('/schema/webhook/record', { name: 'W', endpointUrl: 'https://example.com/h', eventCodes: [] })),
    ).toBe('Must be at least 1 item.');
    expect(await messageOf(owner.api.post('/schema/streak/record', { name: '' }))).toBe('Must be at least 1 character.');
    expect(await messageOf(owner.api.post('/schema/streak/record', { name: 'x'.repeat(257) }))).toBe('Must be at most 256 characters.');
  });

  it('shows a maximum for every number and string a client writes, in the OpenAPI document', async () => {
    const doc = (await app.anon.get('/openapi.json')).body;
    const unbounded: string[] = [];
    const walk = (schema: any, where: string): void => {
      if (!schema || typeof schema !== 'object') return;
      if (schema.$ref) return walk(doc.components.schemas[schema.$ref.split('/').at(-1)], where);
      for (const alternative of schema.anyOf ?? schema.oneOf ?? []) walk(alternative, where);
      if ((schema.type === 'number' || schema.type === 'integer') && schema.maximum === undefined && schema.exclusiveMaximum === undefined)
        unbounded.push(where);
      const fixed = schema.enum || schema.const !== undefined || ['uuid', 'date-time'].includes(schema.format);
      if (schema.type === 'string' && !fixed && schema.maxLength === undefined) unbounded.push(where);
      if (schema.type === 'array') walk(schema.items, `${where}[]`);
      for (const [key, property] of Object.entries(schema.properties ?? {})) walk(property, `${where}.${key}`);
    };
    for (const [name, schema] of Object.entries(doc.components.schemas as Record<string, unknown>)) {
      if (name.endsWith('Create') || name.endsWith('Update')) walk(schema, name);
    }
    for (const path of Object.values(doc.paths as Record<string, Record<string, any>>)) {
      for (const op of Object.values(path)) {
        const body = op.requestBody?.content?.['application/json']?.schema;
        if (body && !body.$ref) walk(body, op.operationId);
      }
    }
    expect(unbounded).toEqual([]);
    expect(doc.components.schemas.ChallengeCreate.properties.completionTargetValue.maximum).toBe(1_000_000_000);
    expect(doc.components.schemas.EmailFooterCreate.properties.htmlContent.maxLength).toBe(65_536);
  });
});

describe('oversized request lines and headers', () => {
  /** Sends a raw request over a socket of its own and reads the whole answer (the server closes or answers in full). */
  const rawRequest = (head: string) =>
    new Promise<{ status: number; headers: string; body: string }>((resolve, reject) => {
      const { hostname, port } = new URL(app.url);
      const socket = connect(Number(port), hostname);
      let data = '';
      socket.on('data', (chunk) => (data += chunk.toString()));
      socket.on('error', reject);
      socket.on('close', () => {
        const [headers = '', body = ''] = data.split('\r\n\r\n');
        resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1] ?? 0), headers, body });
      });
      socket.write(head);
    });
  const errorShape = (status: number, code: string) => ({
    error: { status, code, message: expect.any(String), details: [], requestId: expect.any(String) },
  });

  it('a query of 20 KB is 414 in the contract error body', async () => {
    const res = await rawRequest(
      `GET /api/v1.0/schema/streak/record?filters=${'x'.repeat(20_000)} HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n`,
    );
    expect(res.status, res.headers).toBe(414);
    expect(res.headers).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(res.body)).toEqual(errorShape(414, 'uri_too_long'));
    expect(JSON.parse(res.body).error.message).toContain('16384');
  });

  it('a query just under the limit is answered as usual (here: 401 without credentials)', async () => {
    const path = '/api/v1.0/schema/streak/record?junk=';
    const res = await rawRequest(`GET ${path}${'x'.repeat(16_384 - path.length)} HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n`);
    expect(res.status).toBe(401);
  });

  it('a request line and headers beyond what the server reads are 431 in the contract error body', async () => {
    for (const head of [
      `GET /api/v1.0/schema/streak/record?filters=${'x'.repeat(200_000)} HTTP/1.1\r\nhost: test\r\n\r\n`,
      `GET /api/v1.0/schema/streak/record HTTP/1.1\r\nhost: test\r\nx-junk: ${'x'.repeat(200_000)}\r\n\r\n`,
    ]) {
      const res = await rawRequest(head);
      expect(res.status, res.headers).toBe(431);
      expect(res.headers).toMatch(/content-type: application\/json/i);
      expect(JSON.parse(res.body)).toEqual(errorShape(431, 'header_too_large'));
      // The headers every answer carries (CONTRACT §12, docs/api.md).
      expect(res.headers).toMatch(/x-ratelimit-limit: \d+/i);
      expect(res.headers).toMatch(/x-ratelimit-remaining: \d+/i);
      expect(res.headers).toMatch(/x-content-type-options: nosniff/i);
    }
  });

  it('a request that is not HTTP is 400 in the contract error body', async () => {
    const res = await rawRequest('NOT HTTP AT ALL\r\n\r\n');
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toEqual(errorShape(400, 'invalid_input'));
    expect(res.headers).toMatch(/x-ratelimit-limit: \d+/i);
    expect(res.headers).toMatch(/x-content-type-options: nosniff/i);
  });
});

describe('a client sending its body slowly', () => {
  let narrow: TestApp;
  beforeAll(async () => {
    // The account's share of the pool is one request: a body received inside it would hold the whole share.
    narrow = await startTestApp({ LOYALTY_TENANT_CONCURRENCY: '1' });
  });
  afterAll(() => narrow.close());

  it("holds its own socket only: the account's other requests are answered while three such bodies are still coming", async () => {
    const acct = await narrow.createAccount();
    const { hostname, port } = new URL(narrow.url);
    const slow = [
      // A guest naming the account (its id is public: the widget sends it) and an API key, each one byte into ten.
      ['GET /api/v1.0/schema/streak/record', `x-account-id: ${acct.accountId}`],
      ['GET /api/v1.0/schema/streak/record', `x-account-id: ${acct.accountId}`],
      ['POST /api/v1.0/schema/streak/record', `x-api-key: ${acct.apiKey}\r\nx-api-secret: ${acct.apiSecret}`],
    ].map(([line, credentials]) => {
      const socket = connect(Number(port), hostname);
      socket.on('error', () => {});
      socket.write(`${line} HTTP/1.1\r\nhost: test\r\n${credentials}\r\ncontent-type: application/json\r\ncontent-length: 10\r\n\r\n{`);
      return socket;
    });
    try {
      // Past authentication, the three wait for the rest of their bodies.
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (let i = 0; i < 3; i++) expect((await acct.api.get('/schema/streak/record')).status).toBe(200);
      expect((await acct.api.post('/schema/streak/record', { name: 'Meanwhile' })).status).toBe(200);
    } finally {
      for (const socket of slow) socket.destroy();
    }
  });
});
