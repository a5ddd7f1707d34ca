import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Flow } from '../../src/auth/authenticate.js';
import type { Op } from '../../src/records/context.js';
import { seedEveryResource } from '../support/fixtures.js';
import { type Client, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

/**
 * The authorisation matrix, generated from the resource definitions: every resource × operation ×
 * flow answers as CONTRACT §2, §5 and §6 say. (Other accounts: test/api/isolation.test.ts.)
 */
let app: TestApp;
let acct: TestAccount;
let ids = new Map<string, string>();
let flows: Record<Flow, Client>;
const MISSING = '00000000-0000-4000-8000-000000000000';

beforeAll(async () => {
  app = await startTestApp({ LOYALTY_WEBHOOK_ALLOW_PRIVATE: 'true' });
  acct = await app.createAccount();
  ids = await seedEveryResource(app, acct);
  // The end user is the member who owns the fixtures' logs, progress and reward logs.
  const token = (await acct.api.post('/enduser/token', { externalId: 'iso-member' })).body.data.accessToken as string;
  flows = {
    apikey: acct.api,
    enduser: app.anon.with({ 'x-enduser-access-token': token, 'x-account-id': acct.accountId }),
    guest: app.anon.with({ 'x-account-id': acct.accountId }),
  };
}, 120_000);
afterAll(() => app.close());

const OPS: Op[] = ['list', 'get', 'create', 'update', 'delete'];

function request(client: Client, slug: string, op: Op, id: string) {
  const item = `/schema/${slug}/record/${id}`;
  switch (op) {
    case 'list':
      return client.get(`/schema/${slug}/record`);
    case 'get':
      return client.get(item);
    case 'create':
      return client.post(`/schema/${slug}/record`, {});
    case 'update':
      return client.patch(item, {});
    case 'delete':
      // A record that does not exist: allowed flows learn 404, others are refused first.
      return client.delete(`/schema/${slug}/record/${MISSING}`);
  }
}

describe('authorisation matrix', () => {
  it('answers every resource × operation × flow as the contract says', async () => {
    const wrong: string[] = [];
    for (const resource of app.running.services.registry.all()) {
      for (const op of OPS) {
        for (const flow of Object.keys(flows) as Flow[]) {
          const res = await request(flows[flow], resource.slug, op, ids.get(resource.slug)!);
          const offered = resource.access[op];
          const allowed = offered?.includes(flow);
          let expected: number[];
          if (flow === 'guest' && !allowed) expected = [401];
          else if (!offered) expected = [405];
          else if (!allowed) expected = [403];
          else if (op === 'create') expected = resource.createRaw ? [415] : [400];
          else if (op === 'update') expected = [200, 400];
          else if (op === 'delete') expected = [404];
          else expected = [200];
          if (!expected.includes(res.status))
            wrong.push(`${resource.slug} ${op} as ${flow}: ${res.status}, expected ${expected.join('/')}`);
          if (res.status >= 400) expect(res.body.error.status, `${resource.slug} ${op} ${flow}`).toBe(res.status);
        }
      }
    }
    expect(wrong).toEqual([]);
  });
});
