import type { IncomingMessage } from 'node:http';
// Types only: the API's functions are handed over by tracing-sdk.ts (followOpenTelemetry).
import type { Context, ContextAPI, Span, SpanContext, TraceAPI } from '@opentelemetry/api';
import {
  childContextOf,
  formatTraceparent,
  parseTraceparent,
  TRACEPARENT_HEADER,
  type TraceContext,
} from './trace-context';

const TRACE = Symbol('trace');
const SPAN = Symbol('span');

type TracedRequest = IncomingMessage & { [TRACE]?: TraceContext; [SPAN]?: Span };

/** The parts of OpenTelemetry's API read here, and @opentelemetry/core's isTracingSuppressed. */
export interface OpenTelemetryReads {
  context: ContextAPI;
  trace: TraceAPI;
  isTracingSuppressed: (context: Context) => boolean;
}

/**
 * OpenTelemetry, once tracing-sdk.ts is loaded; null before. Only that module registers an SDK (a context manager, a
 * tracer provider), and tracing.ts loads it only when tracing is on: until then the API's context is always the empty
 * root one, with no span, and this module reads nothing from it. So the server with tracing off never loads
 * @opentelemetry/api nor /core (they were the only @opentelemetry packages its start loaded).
 */
let otel: OpenTelemetryReads | null = null;

/** Called by tracing-sdk.ts as it loads: from then on the request's trace follows OpenTelemetry's context. */
export function followOpenTelemetry(reads: OpenTelemetryReads): void {
  otel = reads;
}

/**
 * The trace context of a request, the same for every log line it causes. With tracing on (tracing.ts), the span
 * opened for it (which took the caller's `traceparent` as its parent): the one it runs without a context under
 * (keepSpanOf), else the active one; with tracing off, the caller's trace with a span id of our own, or a new trace
 * when it came without a valid `traceparent`. Worked out on first use only: a request that logs nothing and sends
 * nothing on costs nothing.
 */
export function traceOf(req: IncomingMessage): TraceContext {
  const traced = req as TracedRequest;
  traced[TRACE] ??=
    traceContextOf(traced[SPAN]?.spanContext()) ??
    traceContextOf(otel?.trace.getSpanContext(otel.context.active())) ??
    childContextOf(parseTraceparent(req.headers[TRACEPARENT_HEADER]));
  return traced[TRACE];
}

/**
 * Makes `span` the request's own for traceOf: a request sampled out runs without entering a context
 * (held-context.ts), so its trace (and its decision, not sampled) reaches its log lines and the requests it sends on
 * through the request. Its ids are read only if one of them asks.
 */
export function keepSpanOf(req: IncomingMessage, span: Span): void {
  (req as TracedRequest)[SPAN] = span;
}

/** The fields a request's log lines carry (the names OpenTelemetry's log correlation uses). */
export function traceLogFields(req: IncomingMessage): { trace_id: string; span_id: string } {
  const { traceId, spanId } = traceOf(req);
  return { trace_id: traceId, span_id: spanId };
}

/**
 * The headers that carry the trace on to a request the server sends with fetch (a remote's descriptor, a release's
 * files), so that the remote's logs can be matched to ours, where fetch's instrumentation (fetch-spans.ts) does not
 * carry it: under an active span with tracing on, the instrumentation sends the trace of the span it starts (or of
 * the request's own, sampled out) and the context's baggage, and this gives nothing (a second `traceparent` would
 * make the pair invalid for the remote); else `parent`'s trace (the request it is sent for, see traceOf), or a new
 * trace.
 */
export function outgoingTraceHeaders(parent?: TraceContext): Record<string, string> {
  if (otel !== null && fetchSendsTrace(otel, otel.context.active())) return {};
  return { [TRACEPARENT_HEADER]: formatTraceparent(childContextOf(parent ?? null)) };
}

/**
 * Whether fetch's instrumentation sends the trace of `active` itself: it does under a valid span unless tracing is
 * suppressed there (a probe's context). With tracing off, the API's context is always the empty root one.
 */
function fetchSendsTrace({ trace, isTracingSuppressed }: OpenTelemetryReads, active: Context): boolean {
  const span = trace.getSpanContext(active);
  return span !== undefined && trace.isSpanContextValid(span) && !isTracingSuppressed(active);
}

/** Undefined for no span (with no SDK registered, the API's context is always the empty root one). */
function traceContextOf(span: SpanContext | undefined): TraceContext | undefined {
  if (span === undefined || otel === null || !otel.trace.isSpanContextValid(span)) return undefined;
  return { traceId: span.traceId, spanId: span.spanId, sampled: (span.traceFlags & 1) === 1 };
}
