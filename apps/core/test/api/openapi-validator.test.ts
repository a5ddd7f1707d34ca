import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { assertDocumented } from '../support/openapi.js';

/** The shared response validator refuses what the document does not declare (issue #21). */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const ID = '7d419a6f-9c2a-41b9-82fb-a32ad64892a2';
const json = (extra: Record<string, string> = {}) =>
  new Headers({
    'content-type': 'application/json',
    'x-request-id': 'r',
    'x-ratelimit-limit': '10',
    'x-ratelimit-remaining': '9',
    ...extra,
  });
const error = (status: number) => ({ error: { status, code: 'x', message: 'm', details: [], requestId: 'r' } });
const check = (method: string, path: string, status: number, body: unknown, headers = json()) =>
  assertDocumented({
    method,
    url: new URL(`${app.url}/api/v1.0${path}`),
    status,
    headers,
    text: body === undefined ? '' : JSON.stringify(body),
    body,
  });

describe('the shared OpenAPI response validator', () => {
  it('accepts a documented answer', async () => {
    await expect(
      check('GET', '/schema/streak/record', 200, { data: [], paging: { offset: 0, limit: 100, count: 0, hasMore: false } }),
    ).resolves.toBeUndefined();
    await expect(check('GET', `/schema/streak/record/${ID}`, 404, error(404))).resolves.toBeUndefined();
    await expect(check('PUT', '/schema/streak/record', 405, error(405), json({ allow: 'GET, POST' }))).resolves.toBeUndefined();
  });

  it('refuses an undocumented status, body, content type, header or path', async () => {
    await expect(check('DELETE', `/schema/event_log/record/${ID}`, 200, { data: {} })).rejects.toThrow(/undocumented method answered 200/);
    await expect(check('GET', '/schema/streak/record', 409, error(409))).rejects.toThrow(/do not declare/);
    await expect(check('GET', '/schema/streak/record', 200, { data: [{ id: 'not a uuid' }] })).rejects.toThrow(/body/);
    await expect(
      check('GET', '/schema/streak/record', 200, 'text', new Headers({ 'content-type': 'text/plain', 'x-request-id': 'r' })),
    ).rejects.toThrow(/content type/);
    await expect(
      check('GET', '/schema/streak/record', 400, error(400), new Headers({ 'content-type': 'application/json' })),
    ).rejects.toThrow(/x-request-id is missing/);
    await expect(check('PUT', '/schema/streak/record', 405, error(405), json({ allow: 'GET' }))).rejects.toThrow(/Allow/);
    await expect(check('GET', '/nowhere', 200, { data: 1 })).rejects.toThrow(/no documented path/);
    await expect(
      assertDocumented({ method: 'GET', url: new URL(`${app.url}/metrics`), status: 200, headers: new Headers(), text: '', body: '' }),
    ).rejects.toThrow(/not an API operation/);
  });
});
