import { randomBytes } from 'node:crypto';
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
  attributes: Record<string, unknown>;
}

const SERVER = 2;

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

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
              attributes: Object.fromEntries(
                (s.attributes ?? []).map((a: { key: string; value: Record<string, unknown> }) => [a.key, Object.values(a.value)[0]]),
              ),
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
  let streakId: string;
  /** A member's first log of the day on the streak (so it completes the day and its event goes out), under `traceparent`. */
  const logAs = async (traceparent: string, externalId: string) => {
    const member = (await acct.api.post('/schema/account_user/record', { externalId })).body.data;
    const res = await new Client(processes[0]!.url, { 'x-api-key': acct.apiKey, 'x-api-secret': acct.apiSecret, traceparent }).post(
      '/schema/streak_log/record',
      { streakId, ownedById: member.id, activityId: 'visit', activityAt: new Date().toISOString(), uniqueIdentifier: externalId },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [event] = await app.db('event_log').where({ owned_by_id: member.id }).select('trace_parent');
    return event.trace_parent as string;
  };
  const delivered = (traceId: string) =>
    collector.spans.find((s) => s.name === 'webhook delivery' && s.traceId === traceId && s.service === 'loyalty-worker');

  beforeAll(async () => {
    await acct.api.post('/schema/webhook/record', {
      name: 'all',
      status: 'live',
      endpointUrl: `${receiver.url}/hook`,
      eventCodes: ['streak_progress_non_milestone_completed'],
    });
    streakId = (await acct.api.post('/schema/streak/record', { name: 'Daily' })).body.data.id;
  });

  it('puts a sampled log request, its SQL and its webhook delivery in another process in one trace', async () => {
    // The caller's own span: under the default parent-based sampler, its sampled flag keeps the trace.
    const caller = { traceId: hex(16), spanId: hex(8) };
    const traceParent = await logAs(`00-${caller.traceId}-${caller.spanId}-01`, 'traced-1');

    // Each process exports on its own schedule: wait for the last span of each side.
    await until(
      () => {
        const delivery = delivered(caller.traceId);
        return (
          !!delivery &&
          collector.spans.some((s) => s.kind === SERVER && s.traceId === caller.traceId) &&
          collector.spans.some((s) => s.service === 'loyalty-worker' && s.parentSpanId === delivery.spanId)
        );
      },
      30_000,
      'the request and delivery spans',
    );
    const trace = collector.spans.filter((s) => s.traceId === caller.traceId);
    const ingest = trace.find((s) => s.name === 'ingest streak_log')!;
    expect(ingest).toMatchObject({ service: 'loyalty-api', scope: 'loyalty' });

    // The request: its server span continues the caller's, named by its route; the ingest span sits under it.
    const request = trace.find((s) => s.kind === SERVER)!;
    expect(request).toMatchObject({
      service: 'loyalty-api',
      scope: 'loyalty',
      parentSpanId: caller.spanId,
      name: 'POST /api/v1.0/schema/:slug/record',
      attributes: { 'http.route': '/api/v1.0/schema/:slug/record', 'http.response.status_code': 200 },
    });
    expect(ingest.parentSpanId).toBe(request.spanId);
    // Its SQL: pg's query spans under the ingest span.
    expect(
      trace.filter((s) => s.scope === '@opentelemetry/instrumentation-pg' && s.parentSpanId === ingest.spanId).length,
    ).toBeGreaterThanOrEqual(2);

    // The event carries the ingest span's context, and the worker's delivery span continues from it.
    expect(traceParent).toBe(`00-${caller.traceId}-${ingest.spanId}-01`);
    expect(delivered(caller.traceId)).toMatchObject({ parentSpanId: ingest.spanId });
    // ... and so does the POST to the receiver, whose traceparent names the same trace.
    const delivery = delivered(caller.traceId)!;
    expect(
      trace.some(
        (s) => s.service === 'loyalty-worker' && s.scope === '@opentelemetry/instrumentation-undici' && s.parentSpanId === delivery.spanId,
      ),
    ).toBe(true);
    expect(receiver.received.at(-1)!.headers.traceparent).toMatch(new RegExp(`^00-${caller.traceId}-[0-9a-f]{16}-01$`));
  });

  it('records nothing of a trace its caller left out, in either process, and passes the decision on', async () => {
    const left = { traceId: hex(16), spanId: hex(8) };
    const before = receiver.received.length;
    const traceParent = await logAs(`00-${left.traceId}-${left.spanId}-00`, 'left-out-1');
    await until(() => receiver.received.length > before, 30_000, 'the left-out delivery');
    // The event and the receiver still learn the trace, unsampled, so whatever follows leaves it out too.
    expect(traceParent).toMatch(new RegExp(`^00-${left.traceId}-[0-9a-f]{16}-00$`));
    expect(receiver.received.at(-1)!.headers.traceparent).toMatch(new RegExp(`^00-${left.traceId}-[0-9a-f]{16}-00$`));

    // A sampled request after it: once its delivery's spans are in, the left-out ones would have been too.
    const kept = { traceId: hex(16), spanId: hex(8) };
    await logAs(`00-${kept.traceId}-${kept.spanId}-01`, 'kept-1');
    await until(() => !!delivered(kept.traceId), 30_000, 'the kept delivery');
    expect(collector.spans.filter((s) => s.traceId === left.traceId)).toEqual([]);
  });

  it('keeps about one in ten of the traces it starts itself (the default ratio)', async () => {
    const serverSpans = () => collector.spans.filter((s) => s.kind === SERVER && s.service === 'loyalty-api' && !s.parentSpanId).length;
    const before = serverSpans();
    const api = new Client(processes[0]!.url, { 'x-api-key': acct.apiKey, 'x-api-secret': acct.apiSecret });
    for (let i = 0; i < 200; i++) expect((await api.get(`/schema/streak/record/${streakId}`)).status).toBe(200);
    // A marker the caller samples, answered after the 200: its span's export follows theirs.
    const marker = { traceId: hex(16), spanId: hex(8) };
    expect(
      (await api.with({ traceparent: `00-${marker.traceId}-${marker.spanId}-01` }).get(`/schema/streak/record/${streakId}`)).status,
    ).toBe(200);
    await until(() => collector.spans.some((s) => s.traceId === marker.traceId), 30_000, 'the marker span');
    // Binomial(200, 0.1): outside 4..40 with a probability of about one in 100,000.
    const kept = serverSpans() - before;
    expect(kept).toBeGreaterThanOrEqual(4);
    expect(kept).toBeLessThanOrEqual(40);
  });
});
