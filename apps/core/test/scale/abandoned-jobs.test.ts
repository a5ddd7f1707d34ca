import PgBoss from 'pg-boss';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from '../../src/scheduler/worker.js';
import { startTestApp, type TestApp } from '../support/harness.js';
import { until } from '../support/processes.js';

/**
 * A worker that dies holding a sweep (SIGKILL, or the database lost as it finished) leaves the
 * job active, and the sweep queue starts no other while one is active. The job's expiry ends it:
 * here a few seconds, so that the test does not wait the production minute.
 */
let app: TestApp;
let boss: PgBoss;

beforeAll(async () => {
  app = await startTestApp({ LOYALTY_SCHEDULER_INTERVAL_MS: '500' });
  boss = new PgBoss({ connectionString: app.config.databaseUrl!, schema: 'pgboss', max: 1 });
  boss.on('error', () => undefined);
});
afterAll(async () => {
  await boss.stop({ graceful: false, wait: true });
  await app.close();
});

const completedSweeps = async (after: Date) =>
  Number(
    (
      await app.db.raw(`select count(*) as n from pgboss.job where name = 'loyalty-sweep' and state = 'completed' and created_on > ?`, [
        after,
      ])
    ).rows[0].n,
  );

describe('a job left active by a dead worker', () => {
  it('is failed at its expiry, and the next sweep runs', async () => {
    const jobExpiry = { sweepSeconds: 2, retentionSeconds: 2, maintenanceSeconds: 1 };
    // The queue as the workers create it, then stopped: the job below is the dead worker's.
    await (await startWorkers(app.running.services, app.config.databaseUrl!, { jobExpiry })).stop();
    await boss.start();
    await app.db.raw(`delete from pgboss.job where name = 'loyalty-sweep' and state < 'active'`);
    await boss.send('loyalty-sweep', {}, { singletonKey: 'sweep' });
    const [taken] = await boss.fetch('loyalty-sweep');
    expect(taken).toBeDefined();
    const abandonedAt = new Date();

    const workers = await startWorkers(app.running.services, app.config.databaseUrl!, { jobExpiry });
    try {
      await until(async () => (await completedSweeps(abandonedAt)) > 0, 30_000, 'a sweep completed after the abandoned one');
      const abandoned = await boss.getJobById('loyalty-sweep', taken!.id);
      expect(abandoned?.state).not.toBe('active');
    } finally {
      await workers.stop();
    }
  });
});
