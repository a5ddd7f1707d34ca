import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestAccount } from './support/harness.js';

let app: TestApp;
let acct: TestAccount;
beforeAll(async () => {
  app = await startTestApp();
  acct = await app.createAccount();
});
afterAll(() => app.close());

describe('smoke', () => {
  it('creates and lists a streak', async () => {
    const created = await acct.api.post('/schema/streak/record', { name: 'Daily', eudTitle: 'Log daily' });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const list = await acct.api.get('/schema/streak/record', { filters: { operator: 'and', conditions: [{ fieldSlug: 'eudTitle', operator: 'contains', fieldValue: 'daily' }] } });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    expect(list.body.data).toHaveLength(1);
    const inList = await acct.api.get('/schema/streak/record', { filters: { operator: 'and', conditions: [{ fieldSlug: 'aggregationPeriod', operator: 'in', fieldValue: ['daily', 'weekly'] }] } });
    expect(inList.body.data).toHaveLength(1);
  });
});
