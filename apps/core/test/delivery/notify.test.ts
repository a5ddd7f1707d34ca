import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_CHANNEL, notifyEventsCommitted, Wakeup } from '../../src/events/wakeup.js';
import { startTestApp, type TestApp } from '../support/harness.js';

/** The wake-up a log's commit sends to the workers: after the commit, one at a time, never skipped. */
let app: TestApp;
let listener: pg.Client;
const received: string[] = [];

beforeAll(async () => {
  app = await startTestApp();
  listener = new pg.Client({ connectionString: app.config.databaseUrl });
  await listener.connect();
  listener.on('notification', (n) => received.push(n.payload ?? ''));
  await listener.query(`listen ${pg.escapeIdentifier(EVENTS_CHANNEL)}`);
});
afterAll(async () => {
  await listener.end();
  await app.close();
});

/** The wake-ups received so far: a marker sent last arrives after every NOTIFY committed before it. */
async function wakeUps(marker: string): Promise<number> {
  await app.db.raw('select pg_notify(?, ?)', [EVENTS_CHANNEL, marker]);
  while (!received.includes(marker)) await new Promise((r) => setTimeout(r, 10));
  const count = received.indexOf(marker);
  received.splice(0, count + 1);
  return count;
}

describe('notifyEventsCommitted', () => {
  it('answers commits that come before its send starts with one NOTIFY', async () => {
    await Promise.all(Array.from({ length: 50 }, () => notifyEventsCommitted(app.db)));
    expect(await wakeUps('first')).toBe(1);
  });

  it('sends again for a commit that comes while a send is under way', async () => {
    const first = notifyEventsCommitted(app.db);
    // The first send has started by the time the event loop reaches its check phase.
    await new Promise((r) => setImmediate(r));
    const second = notifyEventsCommitted(app.db);
    const third = notifyEventsCommitted(app.db);
    expect(third).toBe(second);
    await Promise.all([first, second]);
    expect(await wakeUps('second')).toBe(2);
  });
});

describe('Wakeup', () => {
  const POLL_MS = 60_000;
  const settled = (p: Promise<void>) => Promise.race([p.then(() => true), new Promise((r) => setTimeout(() => r(false), 20))]);

  it('wakes every delivery loop that waits, and keeps a signal that came while none did for the next wait only', async () => {
    const wakeup = new Wakeup();
    const first = wakeup.wait(POLL_MS);
    const second = wakeup.wait(POLL_MS);
    expect(await settled(first)).toBe(false);
    wakeup.signal();
    expect(await settled(first)).toBe(true);
    expect(await settled(second)).toBe(true);

    wakeup.signal();
    expect(await settled(wakeup.wait(POLL_MS))).toBe(true);
    const idle = wakeup.wait(POLL_MS);
    expect(await settled(idle)).toBe(false);
    wakeup.signal();
    await idle;
  });

  it('once closed, ends every wait, the waiting ones and any later one', async () => {
    const wakeup = new Wakeup();
    const waiting = wakeup.wait(POLL_MS);
    wakeup.close();
    expect(await settled(waiting)).toBe(true);
    expect(await settled(wakeup.wait(POLL_MS))).toBe(true);
    expect(await settled(wakeup.wait(POLL_MS))).toBe(true);
  });

  it('ends a wait at the poll interval without a signal', async () => {
    expect(await settled(new Wakeup().wait(5))).toBe(true);
  });
});
