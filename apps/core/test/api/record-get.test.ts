import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accepted, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';

/**
 * A record's get runs as a named prepared statement that names its columns: planned once per
 * connection, and still valid when a migration adds a column while the service runs (a prepared
 * `select *` would then fail with "cached plan must not change result type").
 */

interface Connection {
  query(sql: string): Promise<{ rows: { statement: string }[] }>;
}

interface PoolClient {
  acquireConnection(): Promise<Connection>;
  releaseConnection(connection: Connection): Promise<void>;
  pool: { numFree(): number; numUsed(): number };
}

let app: TestApp;
let account: TestAccount;
let memberId: string;

beforeAll(async () => {
  app = await startTestApp();
  account = await app.createAccount();
  memberId = (await accepted(account.api.post('/schema/account_user/record', { externalId: 'prepared-1', firstName: 'Ada' }))).id;
});

afterAll(async () => {
  await app.close();
});

/** The statements prepared on every connection the service's pool holds. */
async function preparedStatements(): Promise<string[]> {
  const client = app.db.client as PoolClient;
  const held: Connection[] = [];
  try {
    for (let n = client.pool.numFree() + client.pool.numUsed(); n > 0; n--) held.push(await client.acquireConnection());
    const found: string[] = [];
    for (const connection of held) {
      found.push(...(await connection.query('select statement from pg_prepared_statements')).rows.map((r) => r.statement));
    }
    return found;
  } finally {
    for (const connection of held) await client.releaseConnection(connection);
  }
}

describe('a record get', () => {
  it('is prepared on the connection that ran it, with its columns named', async () => {
    const member = await accepted(account.api.get(`/schema/account_user/record/${memberId}`));
    expect(member).toMatchObject({ id: memberId, externalId: 'prepared-1', firstName: 'Ada' });
    const gets = (await preparedStatements()).filter((s) => /from "account_user" where/.test(s));
    expect(gets.length).toBeGreaterThan(0);
    for (const statement of gets) {
      expect(statement).toMatch(/^select "id", .*"external_id", .* from "account_user" where /);
      expect(statement).not.toContain('*');
    }
  });

  it("is one statement, the member's holdout groups read with the row", async () => {
    const get = () => accepted(account.api.get(`/schema/account_user/record/${memberId}`));
    // The first get has read the API key and the table's columns, which the service keeps.
    await get();
    const issued: string[] = [];
    const listener = (query: { sql: string }) => issued.push(query.sql);
    app.db.on('query', listener);
    try {
      expect(await get()).toMatchObject({ id: memberId, heldOutOf: [] });
    } finally {
      app.db.off('query', listener);
    }
    // The key is read again only when a change notice (the account's own creation, delivered late
    // under load) emptied the service's key cache between the two gets.
    const reads = issued.filter((sql) => !/ from "apikey" inner join "account" /.test(sql));
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatch(/ as "heldOutOf" from "account_user" where /);
  });

  it('answers the same after a column is added to its table while the service runs', async () => {
    const before = await accepted(account.api.get(`/schema/account_user/record/${memberId}`));
    await app.db.raw('alter table account_user add column added_while_serving text');
    try {
      for (let i = 0; i < 5; i++) expect(await accepted(account.api.get(`/schema/account_user/record/${memberId}`))).toEqual(before);
      // An update reads the row the same way, under its lock.
      const updated = await accepted(account.api.patch(`/schema/account_user/record/${memberId}`, { firstName: 'Grace' }));
      expect(updated).toEqual({ ...before, firstName: 'Grace', updatedAt: updated.updatedAt });
    } finally {
      await app.db.raw('alter table account_user drop column added_while_serving');
    }
  });
});
