import { describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/knex.js';
import { Metrics } from '../../src/observability/metrics.js';
import { Scrape } from '../support/metrics.js';

describe('scrape-time gauges without a database', () => {
  it('still answer: the database is reported down, the pool as it is, and failed queue reads are left out', async () => {
    // Nothing listens on port 1: every connection is refused at once.
    const db = createDb('postgres://nobody@127.0.0.1:1/none');
    try {
      const metrics = new Metrics(db);
      metrics.watchQueues({ getQueueSize: () => Promise.reject(new Error('connection refused')) }, ['loyalty-sweep']);
      const scrape = new Scrape(await metrics.registry.metrics());
      expect(scrape.value('loyalty_database_up')).toBe(0);
      expect(scrape.value('loyalty_db_pool_max')).toBe(10);
      expect(scrape.value('loyalty_db_pool_waiting')).toBe(0);
      expect(scrape.has('loyalty_job_queue_jobs', { queue: 'loyalty-sweep' })).toBe(false);
    } finally {
      await db.destroy();
    }
  });
});
