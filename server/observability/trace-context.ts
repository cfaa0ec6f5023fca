import { randomBytes } from 'node:crypto';

/** The W3C trace context of one unit of work: the trace it belongs to, its own span, whether it is sampled. */
export interface TraceContext {
  /** 32 lowercase hex digits, never all zeros. */
  traceId: string;
  /** 16 lowercase hex digits, never all zeros. */
  spanId: string;
  sampled: boolean;
}

export const TRACEPARENT_HEADER = 'traceparent';

/** `version-traceid-parentid-flags`; a future version may append fields after a dash (W3C Trace Context, 3.2). */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZERO_TRACE_ID = '0'.repeat(32);
const ZERO_SPAN_ID = '0'.repeat(16);

/**
 * The context a `traceparent` header carries, or null when it is absent or invalid (an invalid one is ignored, as
 * the W3C recommendation says: the request then starts a trace of its own). Never throws: the value is a client's.
 */
export function parseTraceparent(header: string | string[] | undefined): TraceContext | null {
  if (typeof header !== 'string' || header.length > 512) return null;
  const match = TRACEPARENT.exec(header.trim());
  if (!match) return null;
  const [, version, traceId, spanId, flags, rest] = match as unknown as [
    string,
    string,
    string,
    string,
    string,
    string?,
  ];
  // Version ff is forbidden; version 00 has no trailing fields.
  if (version === 'ff' || (version === '00' && rest !== undefined)) return null;
  if (traceId === ZERO_TRACE_ID || spanId === ZERO_SPAN_ID) return null;
  return { traceId, spanId, sampled: (parseInt(flags, 16) & 1) === 1 };
}

/** The `traceparent` header value of `context` (version 00). */
export function formatTraceparent(context: TraceContext): string {
  return `00-${context.traceId}-${context.spanId}-${context.sampled ? '01' : '00'}`;
}

/**
 * The context of work done on behalf of `parent` (a request that came with a `traceparent`): the same trace, a span
 * of its own. Without a parent, a new trace.
 */
export function childContextOf(parent: TraceContext | null): TraceContext {
  if (parent === null) return { traceId: randomHex(16, ZERO_TRACE_ID), spanId: newSpanId(), sampled: true };
  return { traceId: parent.traceId, spanId: newSpanId(), sampled: parent.sampled };
}

function newSpanId(): string {
  return randomHex(8, ZERO_SPAN_ID);
}

function randomHex(bytes: number, zero: string): string {
  let hex = randomBytes(bytes).toString('hex');
  while (hex === zero) hex = randomBytes(bytes).toString('hex');
  return hex;
}
