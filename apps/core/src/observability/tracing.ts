import { createRequire } from 'node:module';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { KoaInstrumentation } from '@opentelemetry/instrumentation-koa';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { enableTracing } from './trace.js';

/** Endpoints scraped or probed every few seconds: spans of them would bury the requests. */
const UNTRACED_PATHS = new Set(['/metrics', '/healthz', '/readyz']);

export interface Tracing {
  /** Exports the spans still buffered, then stops. */
  stop(): Promise<void>;
}

/**
 * Starts the OpenTelemetry SDK: spans of HTTP requests (in, and out through node:http and through
 * undici, which posts webhooks), Koa middleware and pg queries, exported as OTLP/HTTP JSON to
 * `<endpoint>/v1/traces`. The CLI imports this module only when an endpoint is configured, so a
 * process that does not trace never loads the SDK.
 */
export function startTracing(options: { endpoint: string; serviceName: string }): Tracing {
  const sdk = new NodeSDK({
    serviceName: options.serviceName,
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${options.endpoint}/v1/traces` }))],
    // Traces only: no metric readers or log exporters from OTEL_* variables (metrics are Prometheus's).
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED_PATHS.has((req.url ?? '').split('?')[0]!),
        // Outgoing calls only within a traced operation (a delivery), not as traces of their own.
        requireParentforOutgoingSpans: true,
      }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
      new KoaInstrumentation(),
      // Only queries inside a traced operation: not each idle poll of the workers or pg-boss.
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  // The instrumentations patch a module when it is next `require`d. Ours are ES imports, which
  // bypass that hook and may have run already; requiring each once now patches the shared objects
  // (Koa's and pg's prototypes, the http module) that every import sees.
  const require = createRequire(import.meta.url);
  for (const name of ['http', 'https', 'koa', 'pg']) require(name);
  enableTracing();
  return { stop: () => sdk.shutdown() };
}
