import type { IncomingMessage } from 'node:http';
import { context, propagation, trace } from '@opentelemetry/api';
import {
  childContextOf,
  formatTraceparent,
  parseTraceparent,
  TRACEPARENT_HEADER,
  type TraceContext,
} from './trace-context';

const TRACE = Symbol('trace');

type TracedRequest = IncomingMessage & { [TRACE]?: TraceContext };

/**
 * The trace context of a request, the same for every log line it causes. With tracing on (tracing.ts), the span
 * the OpenTelemetry SDK opened for it (which took the caller's `traceparent` as its parent); with tracing off, the
 * caller's trace with a span id of our own, or a new trace when it came without a valid `traceparent`. Worked out
 * on first use only: a request that logs nothing and sends nothing on costs nothing.
 */
export function traceOf(req: IncomingMessage): TraceContext {
  const traced = req as TracedRequest;
  traced[TRACE] ??= activeSpanContext() ?? childContextOf(parseTraceparent(req.headers[TRACEPARENT_HEADER]));
  return traced[TRACE];
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

/** With no SDK registered, the API's context is always the empty root one: undefined. */
function activeSpanContext(): TraceContext | undefined {
  const span = trace.getSpanContext(context.active());
  if (span === undefined || !trace.isSpanContextValid(span)) return undefined;
  return { traceId: span.traceId, spanId: span.spanId, sampled: (span.traceFlags & 1) === 1 };
}
