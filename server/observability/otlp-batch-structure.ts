/**
 * What both OTLP encodings of a batch share (otlp-json-spans.ts, otlp-protobuf-spans.ts): its spans grouped by
 * resource and then by instrumentation scope, and the flags of a span or a link.
 */
import type { Attributes, SpanContext } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

/**
 * A span's instrumentation scope, with the attributes OTLP gives a scope: the SDK's serializers write them when a
 * scope has them, though this SDK's type does not declare them.
 */
export type OtlpScope = ReadableSpan['instrumentationScope'] & {
  attributes?: Attributes;
  droppedAttributesCount?: number;
};

/**
 * The spans by resource (the same object for the spans of one provider), then by what `scopeKey` gives their scope,
 * each group in the order its first span appears. The SDK's protobuf serializer tells scopes apart as objects (one
 * per tracer), its JSON serializer by name, version and schema: each encoding here groups as the SDK's does.
 */
export function groupByResourceAndScope<Key>(
  spans: readonly ReadableSpan[],
  scopeKey: (scope: ReadableSpan['instrumentationScope']) => Key,
): Map<ReadableSpan['resource'], Map<Key, ReadableSpan[]>> {
  const resources = new Map<ReadableSpan['resource'], Map<Key, ReadableSpan[]>>();
  for (const span of spans) {
    let scopes = resources.get(span.resource);
    if (scopes === undefined) resources.set(span.resource, (scopes = new Map()));
    const key = scopeKey(span.instrumentationScope);
    const group = scopes.get(key);
    if (group === undefined) scopes.set(key, [span]);
    else group.push(span);
  }
  return resources;
}

/** Span flags (trace.proto): whether the parent's remoteness is known (always, here) and whether it is remote. */
const FLAGS_HAS_IS_REMOTE = 0x100;
const FLAGS_IS_REMOTE = 0x200;

/**
 * The `flags` of an OTLP span or link: the W3C trace flags of its context (its low byte), with whether its parent
 * (for a link, its context) came from another process.
 */
export function spanFlagsOf(context: SpanContext, remote: boolean | undefined): number {
  return (context.traceFlags & 0xff) | FLAGS_HAS_IS_REMOTE | (remote ? FLAGS_IS_REMOTE : 0);
}
