import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, startTestApp, type TestAccount, type TestApp } from '../support/harness.js';
import { type ServiceProcess, startProcess, until } from '../support/processes.js';
import { startReceiver } from '../support/receiver.js';

/** A span as OTLP/HTTP JSON carries it, with its process's service name. */
interface ReceivedSpan {
  service: string;
  scope: string;
  name: string;
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId?: string;
}

const SERVER = 2;

/** A local OTLP/HTTP collector: the exporters post JSON to /v1/traces; every span is kept. */
async function startCollector() {
  const spans: ReceivedSpan[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url !== '/v1/traces' || !req.headers['content-type']?.includes('application/json')) {
        res.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      for (const rs of body.resourceSpans ?? []) {
        const service = rs.resource.attributes.find((a: { key: string }) => a.key === 'service.name')?.value.stringValue;
        for (const ss of rs.scopeSpans ?? []) {
          for (const s of ss.spans ?? []) {
            spans.push({
              service,
              scope: ss.scope.name,
              name: s.name,
              kind: s.kind,
              traceId: s.traceId,
              spanId: s.spanId,
              parentSpanId: s.parentSpanId || undefined,
            });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

let app: TestApp;
let acct: TestAccount;
const processes: ServiceProcess[] = [];
const collector = await startCollector();
const receiver = await startReceiver();

beforeAll(async () => {
  app = await startTestApp({ LOYALTY_WEBHOOK_ALLOW_PRIVATE: 'true' });
  acct = await app.createAccount({ timezone: 'UTC' });
  // Spans leave the batch soon after they end, so the test need not stop the processes to see them.
  const env = { LOYALTY_WEBHOOK_ALLOW_PRIVATE: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '50' };
  processes.push(await startProcess(app, ['serve', '--no-workers'], env), await startProcess(app, ['worker'], env));
}, 120_000);
afterAll(async () => {
  await Promise.all(processes.map((p) => p.kill()));
  await Promise.all([collector.close(), receiver.close()]);
  await app?.close();
});

describe('traces exported over OTLP', () => {
  it('puts a log request, its SQL and its webhook delivery in another process in one trace', async () => {
    await acct.api.post('/schema/webhook/record', {
      name: 'all',
      status: 'live',
      endpointUrl: `${receiver.url}/hook`,
      eventCodes: ['streak_progress_non_milestone_completed'],
    });
    const streak = (await acct.api.post('/schema/streak/record', { name: 'Daily' })).body.data;
    const member = (await acct.api.post('/schema/account_user/record', { externalId: 'traced' })).body.data;
    const api = new Client(processes[0]!.url, { 'x-api-key': acct.apiKey, 'x-api-secret': acct.apiSecret });
    const res = await api.post('/schema/streak_log/record', {
      streakId: streak.id,
      ownedById: member.id,
      activityId: 'visit',
      activityAt: new Date().toISOString(),
      uniqueIdentifier: 'traced-1',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    // Each process exports on its own schedule: wait for the last span of each side.
    const delivered = () => collector.spans.find((s) => s.name === 'webhook delivery');
    await until(
      () => {
        const delivery = delivered();
        return (
          !!delivery &&
          collector.spans.some((s) => s.kind === SERVER && s.service === 'loyalty-api' && s.traceId === delivery.traceId) &&
          collector.spans.some((s) => s.service === 'loyalty-worker' && s.parentSpanId === delivery.spanId)
        );
      },
      30_000,
      'the request and delivery spans',
    );
    const ingest = collector.spans.find((s) => s.name === 'ingest streak_log')!;
    expect(ingest).toMatchObject({ service: 'loyalty-api', scope: 'loyalty' });
    const trace = collector.spans.filter((s) => s.traceId === ingest.traceId);
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    const ancestors = (span: ReceivedSpan): ReceivedSpan[] => {
      const parent = span.parentSpanId ? byId.get(span.parentSpanId) : undefined;
      return parent ? [parent, ...ancestors(parent)] : [];
    };

    // The request: the HTTP server span is the root; Koa's middleware spans and the ingest span sit under it.
    const request = trace.find((s) => s.kind === SERVER && s.scope === '@opentelemetry/instrumentation-http')!;
    expect(request).toMatchObject({ service: 'loyalty-api', parentSpanId: undefined });
    expect(ancestors(ingest).at(-1)).toBe(request);
    expect(ancestors(ingest).some((s) => s.scope === '@opentelemetry/instrumentation-koa')).toBe(true);
    // Its SQL: pg's query spans under the ingest span.
    expect(
      trace.filter((s) => s.scope === '@opentelemetry/instrumentation-pg' && s.parentSpanId === ingest.spanId).length,
    ).toBeGreaterThanOrEqual(2);

    // The event carries the ingest span's context, and the worker's delivery span continues from it.
    const [event] = await app.db('event_log').where({ owned_by_id: member.id }).select('trace_parent');
    expect(event.trace_parent).toBe(`00-${ingest.traceId}-${ingest.spanId}-01`);
    const delivery = collector.spans.find((s) => s.name === 'webhook delivery')!;
    expect(delivery).toMatchObject({ service: 'loyalty-worker', traceId: request.traceId, parentSpanId: ingest.spanId });
    // ... and so does the POST to the receiver, whose traceparent names the same trace.
    expect(
      trace.some(
        (s) => s.service === 'loyalty-worker' && s.scope === '@opentelemetry/instrumentation-undici' && s.parentSpanId === delivery.spanId,
      ),
    ).toBe(true);
    expect(receiver.received[0]!.headers.traceparent).toMatch(new RegExp(`^00-${request.traceId}-[0-9a-f]{16}-01$`));
  });
});
