import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Op } from '../../src/records/context.js';
import { seedEveryResource } from '../support/fixtures.js';
import { startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

/**
 * The isolation matrix: for every resource the registry serves, a record of account A is
 * invisible to account B through every operation and flow. A resource without a fixture fails.
 */
let app: TestApp;
let a: TestAccount;
let b: TestAccount;
let ids = new Map<string, string>();

beforeAll(async () => {
  app = await startTestApp({ LOYALTY_WEBHOOK_ALLOW_PRIVATE: 'true' });
  a = await app.createAccount();
  b = await app.createAccount();
  ids = await seedEveryResource(app, a);
}, 120_000);
afterAll(() => app.close());

describe('cross-account isolation', () => {
  it('has a fixture for every resource', () => {
    const missing = app.running.services.registry
      .all()
      .map((r) => r.slug)
      .filter((slug) => !ids.has(slug));
    expect(missing).toEqual([]);
  });

  it('hides every record of account A from account B on every operation', async () => {
    const member = (await b.api.post('/enduser/token', { externalId: 'b-member' })).body.data.accessToken as string;
    const flows = {
      apikey: b.api,
      enduser: app.anon.with({ 'x-enduser-access-token': member, 'x-account-id': b.accountId }),
      guest: app.anon.with({ 'x-account-id': b.accountId }),
    };
    for (const resource of app.running.services.registry.all()) {
      const id = ids.get(resource.slug)!;
      const item = `/schema/${resource.slug}/record/${id}`;
      const allowed = (op: Op, flow: keyof typeof flows) => resource.access[op]?.includes(flow);
      for (const flow of Object.keys(flows) as (keyof typeof flows)[]) {
        const client = flows[flow];
        const where = `${resource.slug} as ${flow}`;
        if (allowed('get', flow)) expect((await client.get(item)).status, `get ${where}`).toBe(404);
        if (allowed('update', flow)) expect((await client.patch(item, {})).status, `update ${where}`).toBe(404);
        if (allowed('delete', flow)) expect((await client.delete(item)).status, `delete ${where}`).toBe(404);
        if (allowed('list', flow)) {
          const list = await client.get(`/schema/${resource.slug}/record`, {
            filters: { operator: 'and', conditions: [{ fieldSlug: 'id', operator: 'equals', fieldValue: id }] },
          });
          expect(list.status, `list ${where}`).toBe(200);
          expect(list.body.data, `list ${where}`).toEqual([]);
        }
        for (const [name, action] of Object.entries(resource.actions ?? {})) {
          if (flow !== 'apikey') continue;
          const res = await client.request(
            'POST',
            `${item}/action/${name}`,
            action.accepts?.includes('application/json') === false ? {} : { body: {} },
          );
          expect(res.status, `action ${name} ${where}`).toBe(404);
        }
      }
      // The owner still sees it, unchanged by B's attempts.
      if (resource.access.get?.includes('apikey')) expect((await a.api.get(item)).status, `owner get ${resource.slug}`).toBe(200);
    }
  });
});
