import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../core/test/support/harness';
import { appConfig } from './support/stack';
import { until } from './support/until';

let db: { url: string; drop(): Promise<void> };
let WorkLoop: typeof import('../app/storage/work-loop.server').WorkLoop;

beforeAll(async () => {
  db = await createTestDatabase({ empty: true });
  // The module reads the process's environment when imported.
  Object.assign(process.env, appConfig({ databaseUrl: db.url, coreUrl: 'http://127.0.0.1:9', platformToken: 't' }));
  ({ WorkLoop } = await import('../app/storage/work-loop.server'));
});
afterAll(() => db?.drop());

/** A step over `due` units that takes `ms` each, claiming one as a SKIP LOCKED query would, and counting how many run at once. */
function counted(due: number, ms: number) {
  const seen = { steps: 0, asked: 0, running: 0, most: 0, claimed: 0, done: 0 };
  const step = async () => {
    seen.steps++;
    seen.running++;
    seen.most = Math.max(seen.most, seen.running);
    const claimed = seen.claimed < due && ++seen.claimed > 0;
    await new Promise((r) => setTimeout(r, ms));
    seen.running--;
    if (claimed) seen.done++;
    return claimed;
  };
  const anyDue = async () => {
    seen.asked++;
    return seen.claimed < due;
  };
  return { seen, step, anyDue };
}

describe('a work loop of several lanes', () => {
  it('asks whether anything is due while nothing is, and runs no lane: an idle worker holds no connection per lane', async () => {
    const { seen, step, anyDue } = counted(0, 5);
    const loop = new WorkLoop({ databaseUrl: db.url, channel: 'loyalty_test_idle', name: 'test', step, lanes: 4, anyDue });
    loop.start(20);
    try {
      await until('a few polls', () => seen.asked >= 5);
    } finally {
      await loop.stop();
    }
    expect(seen.steps).toBe(0);
  });

  it('works due units in every lane at once, and each once', async () => {
    const { seen, step, anyDue } = counted(40, 10);
    const loop = new WorkLoop({ databaseUrl: db.url, channel: 'loyalty_test_busy', name: 'test', step, lanes: 4, anyDue });
    loop.start(60_000);
    try {
      await until('the units worked off', () => seen.done === 40);
    } finally {
      await loop.stop();
    }
    expect(seen.most).toBe(4);
    expect(seen.done).toBe(40);
  });
});
