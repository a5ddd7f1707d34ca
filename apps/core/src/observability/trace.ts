import {
  type Context,
  context,
  createContextKey,
  propagation,
  ROOT_CONTEXT,
  type Span,
  type SpanContext,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
} from '@opentelemetry/api';
import type { Context as KoaContext, Next } from 'koa';

/*
 * Spans of our own and the trace context events carry, through the OpenTelemetry API alone: the
 * SDK (tracing.ts) is loaded only when traces are exported, and until then nothing here records.
 *
 * A trace the sampler leaves out costs next to nothing: its context carries no span, only its
 * span context under a key of ours, so the pg, http and undici instrumentations (which trace only
 * under a parent span) pass its queries and calls straight through and no span of ours is made,
 * while the events it writes still carry its traceparent and the worker's parent-based sampler
 * leaves their deliveries out too.
 */

let enabled = false;

/** Called once the SDK runs: from then on spans are recorded. */
export function enableTracing(): void {
  enabled = true;
}

const tracer = () => trace.getTracer('loyalty');
const UNSAMPLED = createContextKey('loyalty unsampled trace');

export type SpanAttributes = Record<string, string | number | boolean>;

/** The context work under `span` runs in: the span itself when it records, otherwise only its trace's identity. */
function under(parent: Context, span: Span): Context {
  return span.isRecording() ? trace.setSpan(parent, span) : trace.deleteSpan(parent).setValue(UNSAMPLED, span.spanContext());
}

export interface SpanOptions {
  /** The span's parent instead of the active one. */
  parent?: Context;
  /** Internal unless said. */
  kind?: SpanKind;
}

/**
 * Runs `work` in a span (a child of the active one, or of `parent`), ended when it settles; errors
 * are recorded on it. `work` gets the span only when it records.
 */
export async function inSpan<T>(
  name: string,
  attributes: SpanAttributes,
  work: (span?: Span) => Promise<T>,
  { parent, kind }: SpanOptions = {},
): Promise<T> {
  if (!enabled) return work();
  const from = parent ?? context.active();
  // Within a trace left out: nothing to record, and the context already says so.
  if (from.getValue(UNSAMPLED)) return work();
  const span = tracer().startSpan(name, { attributes, kind }, from);
  const active = under(from, span);
  if (!span.isRecording()) return context.with(active, work);
  return context.with(active, async () => {
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

/** Endpoints scraped or probed every few seconds: spans of them would bury the requests. */
const UNTRACED_PATHS = new Set(['/metrics', '/healthz', '/readyz']);

/**
 * Koa middleware: one server span per request, continuing the caller's `traceparent`, named by
 * the route it matched (`routeOf`, read once the request is answered) and carrying its status.
 */
export function requestSpans(routeOf: (ctx: KoaContext) => string | undefined) {
  return (ctx: KoaContext, next: Next): Promise<void> => {
    if (!enabled || UNTRACED_PATHS.has(ctx.path)) return next();
    const attributes = { 'http.request.method': ctx.method, 'url.path': ctx.path };
    const parent = propagation.extract(ROOT_CONTEXT, ctx.headers);
    return inSpan(
      ctx.method,
      attributes,
      async (span) => {
        try {
          await next();
        } finally {
          if (span) describeAnswer(span, ctx, routeOf(ctx));
        }
      },
      { parent, kind: SpanKind.SERVER },
    );
  };
}

/** A request's span once it is answered: named by its route, with its status. */
function describeAnswer(span: Span, ctx: KoaContext, route: string | undefined): void {
  if (route) {
    span.updateName(`${ctx.method} ${route}`);
    span.setAttribute('http.route', route);
  }
  span.setAttribute('http.response.status_code', ctx.status);
  if (ctx.status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
}

/** The span context of the active trace: its recording span's, or the one a left-out trace keeps. */
function activeSpanContext(): SpanContext | undefined {
  const active = context.active();
  return trace.getSpanContext(active) ?? (active.getValue(UNSAMPLED) as SpanContext | undefined);
}

const TRACE_PARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The W3C traceparent of the active trace, stored with the events it writes; null when not tracing. */
export function currentTraceParent(): string | null {
  if (!enabled) return null;
  const span = activeSpanContext();
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
