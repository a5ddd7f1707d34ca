import { createRequire } from 'node:module';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler } from '@opentelemetry/sdk-trace-base';
import { enableTracing } from './trace.js';

/**
 * The share of traces started here that are kept when `OTEL_TRACES_SAMPLER` is not set: a trace
 * whose caller sent a sampled `traceparent` is always kept (parent-based), one the service starts
 * itself with this probability, decided by its trace id.
 */
export const DEFAULT_SAMPLING_RATIO = 0.1;

export interface Tracing {
  /** Exports the spans still buffered, then stops. */
  stop(): Promise<void>;
}

/**
 * Starts the OpenTelemetry SDK: the requests' server spans are ours (trace.ts, one per request);
 * the instrumentations add spans of pg queries and of outgoing calls (node:http, and undici, which
 * posts webhooks) within a sampled trace. Spans leave in batches as OTLP/HTTP JSON to
 * `<endpoint>/v1/traces`. The sampler is the standard variables' (`OTEL_TRACES_SAMPLER`,
 * `OTEL_TRACES_SAMPLER_ARG`), by default parent-based with DEFAULT_SAMPLING_RATIO. The CLI imports
 * this module only when an endpoint is configured, so a process that does not trace never loads
 * the SDK.
 */
export function startTracing(options: { endpoint: string; serviceName: string; samplerNamed: boolean }): Tracing {
  const sdk = new NodeSDK({
    serviceName: options.serviceName,
    ...(options.samplerNamed ? {} : { sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(DEFAULT_SAMPLING_RATIO) }) }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${options.endpoint}/v1/traces` }))],
    // Traces only: no metric readers or log exporters from OTEL_* variables (metrics are Prometheus's).
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [
      new HttpInstrumentation({
        // Incoming requests get our own server span, which costs a left-out trace almost nothing.
        disableIncomingRequestInstrumentation: true,
        // Outgoing calls only within a traced operation (a delivery), not as traces of their own.
        requireParentforOutgoingSpans: true,
      }),
      new UndiciInstrumentation({ requireParentforSpans: true }),
      // Only queries inside a traced operation: not each idle poll of the workers or pg-boss.
      new PgInstrumentation({ requireParentSpan: true }),
    ],
  });
  sdk.start();
  // The instrumentations patch a module when it is next `require`d. Ours are ES imports, which
  // bypass that hook and may have run already; requiring each once now patches the shared objects
  // (pg's prototypes, the http module) that every import sees.
  const require = createRequire(import.meta.url);
  for (const name of ['http', 'https', 'pg']) require(name);
  enableTracing();
  return { stop: () => sdk.shutdown() };
}
