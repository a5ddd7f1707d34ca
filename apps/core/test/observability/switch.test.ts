import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { startTestApp, type TestApp } from '../support/harness.js';

/** LOYALTY_METRICS_ENABLED=false: the service works and exposes nothing (how bench:ingest measures what metrics cost). */
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ LOYALTY_METRICS_ENABLED: 'false' });
});
afterAll(() => app?.close());

describe('metrics switched off', () => {
  it('serves requests, and /metrics has no series', async () => {
    const acct = await app.createAccount({ timezone: 'UTC' });
    const streak = (await acct.api.post('/schema/streak/record', { name: 'Daily' })).body.data;
    const log = await acct.api.post('/schema/streak_log/record', {
      streakId: streak.id,
      ownedBy: { externalId: 'm' },
      activityId: 'visit',
      activityAt: new Date().toISOString(),
      uniqueIdentifier: 'u1',
    });
    expect(log.status).toBe(200);
    const res = await fetch(`${app.url}/metrics`);
    expect(res.status).toBe(200);
    expect((await res.text()).trim()).toBe('');
  });

  it('is read from the environment with the other settings, and refused when not a boolean', () => {
    expect(loadConfig({}).metricsEnabled).toBe(true);
    expect(loadConfig({ LOYALTY_METRICS_ENABLED: 'false' }).metricsEnabled).toBe(false);
    expect(() => loadConfig({ LOYALTY_METRICS_ENABLED: 'sometimes' })).toThrow(/LOYALTY_METRICS_ENABLED must be true or false/);
    expect(loadConfig({ LOYALTY_WORKER_METRICS_PORT: '9100', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toMatchObject({
      workerMetricsPort: 9100,
      otlpEndpoint: 'http://collector:4318',
    });
  });
});
