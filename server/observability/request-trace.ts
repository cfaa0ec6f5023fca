import type { IncomingMessage } from 'node:http';
import { context, propagation, trace, type Span, type SpanContext } from '@opentelemetry/api';
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
    traceContextOf(trace.getSpanContext(context.active())) ??
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
 * The headers that carry the current trace on to a request the server sends (a remote's descriptor), so the remote's
 * logs can be matched to ours: the active span's context with tracing on; else `parent`'s trace (the request it is
 * sent for, see traceOf), or a new trace.
 */
export function outgoingTraceHeaders(parent?: TraceContext): Record<string, string> {
  const headers: Record<string, string> = {};
  propagation.inject(context.active(), headers);
  headers[TRACEPARENT_HEADER] ??= formatTraceparent(childContextOf(parent ?? null));
  return headers;
}

/** Undefined for no span (with no SDK registered, the API's context is always the empty root one). */
function traceContextOf(span: SpanContext | undefined): TraceContext | undefined {
  if (span === undefined || !trace.isSpanContextValid(span)) return undefined;
  return { traceId: span.traceId, spanId: span.spanId, sampled: (span.traceFlags & 1) === 1 };
}
