import { type Context, context, ROOT_CONTEXT, type Span, SpanStatusCode, trace, TraceFlags } from '@opentelemetry/api';

/*
 * Spans of our own and the trace context events carry, through the OpenTelemetry API alone: the
 * SDK (tracing.ts) is loaded only when traces are exported, and until then nothing here records.
 */

let enabled = false;

/** Called once the SDK runs: from then on spans are recorded. */
export function enableTracing(): void {
  enabled = true;
}

const tracer = () => trace.getTracer('loyalty');

export type SpanAttributes = Record<string, string | number | boolean>;

/** Runs `work` in a span (a child of the active one, or of `parent`), ended when it settles; errors are recorded on it. */
export async function inSpan<T>(name: string, attributes: SpanAttributes, work: (span?: Span) => Promise<T>, parent?: Context): Promise<T> {
  if (!enabled) return work();
  return tracer().startActiveSpan(name, { attributes }, parent ?? context.active(), async (span) => {
    try {
      return await work(span);
    } catch (err) {
      span.recordException(err as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw err;
    } finally {
      span.end();
    }
  });
}

const TRACE_PARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The W3C traceparent of the active span, stored with the events it writes; null when not tracing. */
export function currentTraceParent(): string | null {
  if (!enabled) return null;
  const span = trace.getSpanContext(context.active());
  if (!span || !trace.isSpanContextValid(span)) return null;
  return `00-${span.traceId}-${span.spanId}-${(span.traceFlags & TraceFlags.SAMPLED ? 1 : 0).toString(16).padStart(2, '0')}`;
}

/** A context whose parent is the span a stored traceparent names, so work on an event joins its request's trace. */
export function contextOf(traceParent: unknown): Context | undefined {
  const match = typeof traceParent === 'string' ? TRACE_PARENT.exec(traceParent) : null;
  if (!enabled || !match) return undefined;
  return trace.setSpanContext(ROOT_CONTEXT, {
    traceId: match[1]!,
    spanId: match[2]!,
    traceFlags: Number.parseInt(match[3]!, 16),
    isRemote: true,
  });
}
