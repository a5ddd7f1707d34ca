import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config.js';
import { createDb } from '../../src/db/knex.js';
import { Metrics } from '../../src/observability/metrics.js';
import { serveEndpoints } from '../../src/observability/endpoints.js';

describe("a worker's metrics port", () => {
  it('serves /healthz and /metrics, nothing else, and names the setting when its port is taken', async () => {
    const db = createDb('postgres://nobody@127.0.0.1:1/none');
    const metrics = new Metrics(db);
    const first = await serveEndpoints(metrics, '127.0.0.1', 0, 'LOYALTY_WORKER_METRICS_PORT');
    try {
      const health = await fetch(`${first.url}/healthz`);
      expect([health.status, await health.json(), health.headers.get('x-content-type-options')]).toEqual([
        200,
        { status: 'ok' },
        'nosniff',
      ]);
      const scrape = await fetch(`${first.url}/metrics`);
      expect(scrape.status).toBe(200);
      expect(scrape.headers.get('content-type')).toContain('text/plain');
      expect(await scrape.text()).toContain('# TYPE loyalty_logs_total counter');
      const other = await fetch(`${first.url}/other`);
      expect([other.status, other.headers.get('x-content-type-options')]).toEqual([404, 'nosniff']);
      expect((await fetch(`${first.url}/metrics`, { method: 'POST' })).status).toBe(405);
      const port = Number(new URL(first.url).port);
      const taken = serveEndpoints(metrics, '127.0.0.1', port, 'LOYALTY_WORKER_METRICS_PORT');
      await expect(taken).rejects.toBeInstanceOf(ConfigError);
      await expect(taken).rejects.toThrow(`port ${port} on 127.0.0.1 is in use: set LOYALTY_WORKER_METRICS_PORT to another`);
    } finally {
      await first.close();
      await db.destroy();
    }
  });
});
