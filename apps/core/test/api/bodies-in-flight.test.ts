import { randomUUID } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';
import { type ServiceProcess, startProcess } from '../support/processes.js';

/**
 * What a burst of large bodies may hold, through `loyalty serve`: every body waits in memory for its
 * account's turn, so those in flight are bounded per merchant (all its keys) and the rest wait
 * unread; a request whose client has gone leaves the line instead of being worked for nobody.
 */
let app: TestApp;
let served: ServiceProcess;
let a: TestAccount;
let b: TestAccount;
const MB = 1024 * 1024;

beforeAll(async () => {
  app = await startTestApp();
  // One turn per account, so a request held in it makes the next one wait in line.
  served = await startProcess(app, ['serve', '--no-workers'], { LOYALTY_TENANT_CONCURRENCY: '1', LOYALTY_DB_POOL_MAX: '3' });
  [a, b] = [await app.createAccount(), await app.createAccount()];
}, 60_000);
afterAll(async () => {
  await served?.kill();
  await app?.close();
});

const on = (account: { apiKey: string; apiSecret: string }) =>
  new Client(served.url, { 'x-api-key': account.apiKey, 'x-api-secret': account.apiSecret });

/** A coupon import declaring the largest body a route takes, of which only a few bytes ever come. */
function slowImport(account: TestAccount): Socket {
  const { hostname, port } = new URL(served.url);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => {});
  socket.write(
    `POST /api/v1.0/schema/reward/record/${randomUUID()}/action/import_coupons HTTP/1.1\r\nhost: test\r\n` +
      `x-api-key: ${account.apiKey}\r\nx-api-secret: ${account.apiSecret}\r\ncontent-type: text/csv\r\ncontent-length: ${4 * MB}\r\n\r\nCODE`,
  );
  return socket;
}

describe('bodies in flight', () => {
  it("are bounded per merchant: past 32 MB its next body waits, unread, whichever key sends it, while another account's pass; it is answered once room is given back", async () => {
    const secondKey = (await a.api.post('/schema/apikey/record', { name: 'Second', status: 'live' })).body.data;
    const slow = Array.from({ length: 8 }, () => slowImport(a));
    const waiting: Promise<{ status: number }>[] = [];
    try {
      // Past authentication, the eight hold 32 MB while their bodies do not come.
      await new Promise((resolve) => setTimeout(resolve, 300));
      waiting.push(
        on(a).post('/schema/streak/record', { name: 'First key' }),
        on(secondKey).post('/schema/streak/record', { name: 'Second key' }),
      );
      const answered = await Promise.race([Promise.all(waiting), new Promise((resolve) => setTimeout(() => resolve('waiting'), 1000))]);
      expect(answered).toBe('waiting');
      // A request without a body holds nothing, and another merchant's bodies are their own.
      expect((await on(a).get('/schema/streak/record')).status).toBe(200);
      expect((await on(b).post('/schema/streak/record', { name: 'Theirs' })).status).toBe(200);
    } finally {
      for (const socket of slow) socket.destroy();
    }
    // The connections gone, what they held is given back and the two go through.
    expect((await Promise.all(waiting)).map((r) => r.status)).toEqual([200, 200]);
    const names = (await on(a).get('/schema/streak/record')).body.data.map((s: { name: string }) => s.name);
    expect(names.sort()).toEqual(['First key', 'Second key']);
  });

  it('of a client that has gone leave the line: the request is never worked', async () => {
    const db = new pg.Client({ connectionString: app.config.databaseUrl });
    await db.connect();
    try {
      // The account's one turn is held by a create that waits for this lock.
      await db.query('begin');
      await db.query('lock table streak in access exclusive mode');
      const first = on(b).post('/schema/streak/record', { name: 'Held' });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const leaving = new AbortController();
      const gone = fetch(`${served.url}/schema/streak/record`, {
        method: 'POST',
        headers: { 'x-api-key': b.apiKey, 'x-api-secret': b.apiSecret, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Gone' }),
        signal: leaving.signal,
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      leaving.abort();
      await expect(gone).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 300));
      await db.query('commit');
      expect((await first).status).toBe(200);
    } finally {
      await db.end();
    }
    // Anything still in line would have run by now: this request is behind it.
    expect((await on(b).get('/schema/streak/record')).body.data.map((s: { name: string }) => s.name).sort()).toEqual(['Held', 'Theirs']);
  });
});
