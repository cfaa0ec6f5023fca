/**
 * Batches of spans recorded by a real SDK provider, one for each thing an OTLP encoding must get right: every span
 * kind, attribute value (strings past ASCII and past 127 bytes, integers past 32 bits and outside int64, doubles,
 * NaN, arrays with holes), event, link, status, trace state, remote and local parents, dropped counts, spans
 * interleaved across resources and scopes, and values the SDK itself never records on a span (bytes, key-value
 * lists). The server's encoders are tested on them against the SDK's serializers, byte for byte.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace, type HrTime, type Link } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

/** Spans recorded by a real SDK provider, `limits` as its span limits. */
export function spanRecorder(
  options: { service?: string; schemaUrl?: string; limits?: ConstructorParameters<typeof BasicTracerProvider>[0] } = {},
) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    ...options.limits,
    resource: resourceFromAttributes(
      { 'service.name': options.service ?? 'slots-server', 'deployment.environment.name': 'tést' },
      options.schemaUrl === undefined ? {} : { schemaUrl: options.schemaUrl },
    ),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  return { provider, spans: () => exporter.getFinishedSpans() };
}

const REMOTE_PARENT = trace.setSpanContext(ROOT_CONTEXT, {
  traceId: '0af7651916cd43dd8448eb211c80319c',
  spanId: 'b7ad6b7169203331',
  traceFlags: TraceFlags.SAMPLED,
  isRemote: true,
  traceState: new TraceState('vendor=value,other=1'),
});

const LINK: Link = {
  context: {
    traceId: '4BF92F3577B34DA6A3CE929D0E0E4736',
    spanId: '00F067AA0BA902B7',
    traceFlags: TraceFlags.NONE,
    isRemote: true,
    traceState: new TraceState('linked=yes'),
  },
  attributes: { 'link.reason': 'follows', 'link.index': 3 },
};

const LONG = 'x'.repeat(127);

/** Every kind of attribute value a span can carry. */
const EVERY_VALUE = {
  ascii: 'GET /slots',
  empty: '',
  latin: 'café crème',
  cjk: '日本語の文字列',
  emoji: 'slot 😀 rendered',
  loneSurrogate: 'broken \ud800 pair',
  escaped: 'a tab\t, a newline\n and \u0001',
  quoted: 'say "hi"',
  backslashed: 'C:\\slots',
  exactly127: LONG,
  exactly128: `${LONG}y`,
  longNonAscii: 'é'.repeat(200),
  // Past ASCII after many characters: a copy begun one byte at a time goes to UTF-8 (here 128 bytes, two of length).
  lateNonAscii: `${'x'.repeat(126)}é`,
  veryLong: 'z'.repeat(20_000),
  yes: true,
  no: false,
  zero: 0,
  small: 127,
  varint2: 128,
  int31: 2 ** 31,
  int32: 2 ** 32,
  large: 2 ** 53 + 2,
  minusOne: -1,
  negative: -123_456_789_012,
  int64Min: -(2 ** 63),
  int64End: 2 ** 63,
  fraction: 1.5,
  notANumber: Number.NaN,
  infinite: Number.POSITIVE_INFINITY,
  minusZero: -0,
  strings: ['a', 'bé', ''],
  numbers: [1, -2, 3.25],
  booleans: [true, false],
  withHoles: ['a', null, undefined, 'b'],
  emptyArray: [],
  // Keys past ASCII and with what JSON escapes: the JSON encoder keeps each key's text once written.
  'clé.naïve': 'key past ASCII',
  'a "quoted" key': 'key with quotes',
};

/** Spans of every kind under a remote parent with every value, events, a link and each status; then local ones. */
function spansOfEveryKind(): ReadableSpan[] {
  const { provider, spans } = spanRecorder({ schemaUrl: 'https://opentelemetry.io/schemas/1.30.0' });
  const tracer = provider.getTracer('slots-server', '1.2.3', { schemaUrl: 'https://example.test/schema' });
  const other = provider.getTracer('@opentelemetry/instrumentation-pg');
  for (const kind of [SpanKind.INTERNAL, SpanKind.SERVER, SpanKind.CLIENT, SpanKind.PRODUCER, SpanKind.CONSUMER]) {
    const span = tracer.startSpan(
      `span of kind ${kind}`,
      { kind, attributes: EVERY_VALUE, links: [LINK] },
      REMOTE_PARENT,
    );
    span.addEvent('an event', { 'event.detail': 'naïve', count: 2 });
    span.addEvent('an event without attributes', [1_700_000_000, 999_999_999]);
    span.setStatus(
      kind === SpanKind.SERVER ? { code: SpanStatusCode.ERROR, message: 'answer cut short' } : { code: kind % 3 },
    );
    span.end();
  }
  // A local parent, a root span, times given by the caller (one at the epoch's first second).
  const root = other.startSpan('SELECT slots', { startTime: [1_764_000_000, 123_456_789] }, ROOT_CONTEXT);
  const child = tracer.startSpan('child', { startTime: [0, 5] }, trace.setSpan(ROOT_CONTEXT, root));
  child.end([4_102_444_800, 1]);
  root.end(new Date(1_764_000_001_500));
  return spans();
}

/** A span over its limits: attributes, events and links dropped. */
function spansOverTheirLimits(): ReadableSpan[] {
  const { provider, spans } = spanRecorder({
    limits: {
      spanLimits: { attributeCountLimit: 2, eventCountLimit: 1, linkCountLimit: 1, attributePerEventCountLimit: 1 },
    },
  });
  const span = provider
    .getTracer('limited')
    .startSpan('limited', { attributes: { a: 1, b: 2, c: 3, d: 4 }, links: [LINK, LINK, LINK] });
  span.addEvent('first', { one: 1, two: 2 });
  span.addEvent('second');
  span.end();
  return spans();
}

/** Spans of two resources and three scopes, interleaved as a batch would have them. */
function interleavedSpans(): ReadableSpan[] {
  const first = spanRecorder({ service: 'first' });
  // Empty versions and schemas: JSON writes them, protobuf leaves them out.
  const second = spanRecorder({ service: 'second', schemaUrl: '' });
  const alpha = first.provider.getTracer('alpha');
  const beta = first.provider.getTracer('beta', '2.0.0');
  const gamma = second.provider.getTracer('gamma', '', { schemaUrl: '' });
  for (const tracer of [alpha, gamma, beta, alpha, gamma, beta]) tracer.startSpan('interleaved').end();
  const [a1, b1, a2, b2] = first.spans();
  const [g1, g2] = second.spans();
  return [a1!, g1!, b1!, a2!, g2!, b2!];
}

/**
 * A span recorded by the SDK, then given `fields` it would not record itself: what an encoder may still be handed (a
 * ReadableSpan is an interface, and the SDK checks little of what it records).
 */
function spanRecordedThenGiven(fields: Record<string, unknown>): ReadableSpan[] {
  const { provider, spans } = spanRecorder();
  provider.getTracer('hand-made').startSpan('hand-made').end();
  const [span] = spans();
  return [{ ...span!, spanContext: () => span!.spanContext(), ...fields } as unknown as ReadableSpan];
}

/** A span whose attributes hold what a log record can and a span cannot: bytes, key-value lists, a function. */
function spanWithObjects(): ReadableSpan[] {
  return spanRecordedThenGiven({
    attributes: {
      bytes: new Uint8Array([0, 1, 2, 255]),
      nested: { inner: 'value', deeper: { list: [1, 'two', { three: 3 }] }, nothing: null },
      listOfLists: [
        [1, 2],
        ['a', new Uint8Array([9])],
      ],
      aFunction: () => undefined,
      inheriting: Object.assign(Object.create({ inherited: 'left out' }) as object, { own: 'kept' }),
    },
  });
}

/**
 * A span with what the SDK lets through unchecked: a number as its name, an object as its status message, no status
 * code, a kind the API does not have, counts past 32 bits and below zero, a scope whose version and schema are null,
 * times in fractions of a second, a link's ids that are not hex.
 */
function spanWithUncheckedFields(): ReadableSpan[] {
  return spanRecordedThenGiven({
    name: 7,
    status: { message: { reason: 'naïve' } },
    kind: -1,
    startTime: [1_700_000_000.5, 250.75],
    endTime: [1_700_000_001, 1_500_000_000],
    droppedAttributesCount: 2 ** 33,
    droppedEventsCount: -1,
    instrumentationScope: { name: 'unchecked', version: null, schemaUrl: null },
    links: [{ context: { traceId: '0g'.repeat(16), spanId: 'zZ'.repeat(8), traceFlags: 1 }, attributes: {} }],
  });
}

/**
 * A span whose times are given by a Date before 1970, which the SDK turns into negative seconds and nanoseconds: JSON
 * writes the negative count; protobuf's field is unsigned, and the SDK's serializer and the server's wrap it apart.
 */
export function spanBefore1970(startTime: HrTime | Date = new Date(-1500)): ReadableSpan[] {
  const { provider, spans } = spanRecorder();
  const span = provider.getTracer('old').startSpan('old', { startTime });
  span.addEvent('older', new Date(-1));
  span.end(new Date(-1));
  return spans();
}

/** The batches, by what each is for. */
export const SPAN_BATCHES: readonly (readonly [string, () => ReadableSpan[]])[] = [
  ['spans of every kind, attribute value, event, link and status', spansOfEveryKind],
  ['dropped attributes, events and links, as the SDK counts them', spansOverTheirLimits],
  ['spans grouped by resource and by scope in the order they first appear', interleavedSpans],
  ['values the SDK itself never records on a span: bytes, key-value lists', spanWithObjects],
  [
    'fields the SDK lets through unchecked: a number as a name, times in fractions of a second',
    spanWithUncheckedFields,
  ],
  ['an empty batch', () => []],
];
