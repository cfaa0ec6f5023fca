import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace, type Link } from '@opentelemetry/api';
import { TraceState } from '@opentelemetry/core';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { encodeSpansAsProtobuf } from './otlp-protobuf-spans';

/** The SDK's bytes for the same spans: what this encoder must write, byte for byte. */
function sdkBytes(spans: ReadableSpan[]): Buffer {
  return Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!);
}

function expectSameBytes(spans: ReadableSpan[]): Uint8Array {
  const ours = encodeSpansAsProtobuf(spans);
  expect(Buffer.from(ours).equals(sdkBytes(spans))).toBe(true);
  return ours;
}

/** Spans recorded by a real SDK provider, `limits` as its span limits. */
function recorder(
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

it('writes what the SDK writes for spans of every kind, attribute value, event, link and status', () => {
  const { provider, spans } = recorder({ schemaUrl: 'https://opentelemetry.io/schemas/1.30.0' });
  const tracer = provider.getTracer('slots-server', '1.2.3', { schemaUrl: 'https://example.test/schema' });
  const other = provider.getTracer('@opentelemetry/instrumentation-pg');
  const long = 'x'.repeat(127);
  const values = {
    ascii: 'GET /slots',
    empty: '',
    latin: 'café crème',
    cjk: '日本語の文字列',
    emoji: 'slot 😀 rendered',
    loneSurrogate: 'broken \ud800 pair',
    exactly127: long,
    exactly128: `${long}y`,
    longNonAscii: 'é'.repeat(200),
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
  };
  for (const kind of [SpanKind.INTERNAL, SpanKind.SERVER, SpanKind.CLIENT, SpanKind.PRODUCER, SpanKind.CONSUMER]) {
    const span = tracer.startSpan(`span of kind ${kind}`, { kind, attributes: values, links: [LINK] }, REMOTE_PARENT);
    span.addEvent('an event', { 'event.detail': 'naïve', count: 2 });
    span.addEvent('an event without attributes', [1_700_000_000, 999_999_999]);
    span.setStatus(
      kind === SpanKind.SERVER ? { code: SpanStatusCode.ERROR, message: 'answer cut short' } : { code: kind % 3 },
    );
    span.end();
  }
  // A local parent, a root span, times given by the caller.
  const root = other.startSpan('SELECT slots', { startTime: [1_764_000_000, 123_456_789] }, ROOT_CONTEXT);
  const child = tracer.startSpan('child', {}, trace.setSpan(ROOT_CONTEXT, root));
  child.end([4_102_444_800, 1]);
  root.end(new Date(1_764_000_001_500));
  expectSameBytes(spans());
});

it('writes dropped attributes, events and links as the SDK counts them', () => {
  const { provider, spans } = recorder({
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
  const [recorded] = spans();
  expect([recorded!.droppedAttributesCount, recorded!.droppedEventsCount, recorded!.droppedLinksCount]).toEqual([
    2, 1, 2,
  ]);
  expectSameBytes(spans());
});

it('groups spans by resource and by scope in the order they first appear', () => {
  const first = recorder({ service: 'first' });
  const second = recorder({ service: 'second' });
  const alpha = first.provider.getTracer('alpha');
  const beta = first.provider.getTracer('beta', '2.0.0');
  const gamma = second.provider.getTracer('gamma');
  for (const tracer of [alpha, gamma, beta, alpha, gamma, beta]) tracer.startSpan('interleaved').end();
  const mixed = [first.spans(), second.spans()].flat();
  // Interleaved as a batch would have them: first's and second's spans one after the other.
  const batch = [mixed[0]!, mixed[3]!, mixed[1]!, mixed[4]!, mixed[2]!, mixed[5]!];
  expectSameBytes(batch);
  expectSameBytes([]);
});

it('writes attribute values the SDK itself never records: bytes and lists of key-values (a log record can)', () => {
  const { provider, spans } = recorder();
  provider.getTracer('objects').startSpan('objects').end();
  const [span] = spans();
  const withObjects = {
    ...span!,
    spanContext: () => span!.spanContext(),
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
  } as unknown as ReadableSpan;
  expectSameBytes([withObjects]);
});

it('writes a batch longer than its length field was sized for, and batches that outweigh the last one', () => {
  const { provider, spans } = recorder();
  const tracer = provider.getTracer('heavy');
  tracer.startSpan('light').end();
  // One light span makes the next guess small; then a batch over 2 MiB, whose length takes four bytes.
  expectSameBytes(spans());
  for (let i = 0; i < 120; i++)
    tracer.startSpan('heavy', { attributes: { payload: `${i}`.padEnd(20_000, 'p') } }).end();
  const heavy = spans().slice(1);
  expect(expectSameBytes(heavy).length).toBeGreaterThan(2 * 1024 * 1024);
});

it('gives each batch memory of its own, from its start, so that it can be handed to another thread', () => {
  const { provider, spans } = recorder();
  provider.getTracer('memory').startSpan('one').end();
  const neighbour = Buffer.from('a small Buffer, from the shared pool');
  const first = encodeSpansAsProtobuf(spans());
  const second = encodeSpansAsProtobuf(spans());
  expect(first.byteOffset).toBe(0);
  expect(second.buffer).not.toBe(first.buffer);
  expect(first.buffer).not.toBe(neighbour.buffer);
  // Moved, not copied: Node copies a slice of Buffer's shared pool instead (or refuses it, in later versions).
  const moved = structuredClone(first, { transfer: [first.buffer] });
  expect(first.byteLength).toBe(0);
  expect(Buffer.from(moved).equals(Buffer.from(second))).toBe(true);
  expect(neighbour.toString()).toBe('a small Buffer, from the shared pool');
});
