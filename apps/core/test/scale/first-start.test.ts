import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/harness.js';
import { type ServiceProcess, startProcess } from '../support/processes.js';

/**
 * A fleet rolled out at once on a database no worker has used yet: every process makes the job
 * queues (pg-boss's tables) at the same moment, and each must start and stay up (CONTRACT §1: any
 * number of each may run against one database).
 */
let app: TestApp;
const processes: ServiceProcess[] = [];

beforeAll(async () => {
  app = await startTestApp();
}, 60_000);
afterAll(async () => {
  await Promise.all(processes.map((p) => p.kill('SIGKILL')));
  await app.close();
});

describe('workers starting together on a new database', () => {
  it('all start and keep running, whichever makes the queues first', async () => {
    for (let round = 0; round < 3; round++) {
      await app.db.raw('drop schema if exists pgboss cascade');
      const started = await Promise.all([
        startProcess(app, ['worker']),
        startProcess(app, ['worker']),
        startProcess(app, ['worker']),
        startProcess(app, ['serve']),
      ]);
      processes.push(...started);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(
        started.map((p) => p.child.exitCode),
        `round ${round}`,
      ).toEqual([null, null, null, null]);
      await Promise.all(started.map((p) => p.kill()));
    }
  }, 120_000);
});
