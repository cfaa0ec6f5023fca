import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OTLP_ENCODINGS, otlpTraceProtocolOf } from './otlp-trace-protocol';

describe('otlpTraceProtocolOf', () => {
  it('is JSON, as the server has always sent, when no variable names a protocol', () => {
    expect(otlpTraceProtocolOf({})).toBe('http/json');
    expect(otlpTraceProtocolOf({ OTEL_EXPORTER_OTLP_PROTOCOL: ' ' })).toBe('http/json');
  });

  it('reads OTEL_EXPORTER_OTLP_PROTOCOL, and OTEL_EXPORTER_OTLP_TRACES_PROTOCOL before it', () => {
    expect(otlpTraceProtocolOf({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' })).toBe('http/protobuf');
    expect(otlpTraceProtocolOf({ OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/protobuf' })).toBe('http/protobuf');
    expect(
      otlpTraceProtocolOf({
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      }),
    ).toBe('http/json');
  });

  it('refuses a protocol it cannot send in, naming the variable that holds it', () => {
    expect(() => otlpTraceProtocolOf({ OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      'OTEL_EXPORTER_OTLP_PROTOCOL="grpc" is not valid: expected "http/protobuf" or "http/json" (gRPC is not supported).',
    );
    // A bad traces-only value is refused even when the general one is good.
    expect(() =>
      otlpTraceProtocolOf({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'json' }),
    ).toThrow('OTEL_EXPORTER_OTLP_TRACES_PROTOCOL="json" is not valid');
  });
});

describe('OTLP_ENCODINGS', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  provider
    .getTracer('protocol')
    .startSpan('GET /slots', { attributes: { 'http.route': '/slots' } })
    .end();
  const spans = exporter.getFinishedSpans();

  it('sends JSON as the SDK encodes it, under its content type, and reads its answers', () => {
    const json = OTLP_ENCODINGS['http/json'];
    expect(json.contentType).toBe('application/json');
    expect(Buffer.from(json.encode(spans)).equals(Buffer.from(JsonTraceSerializer.serializeRequest(spans)!))).toBe(
      true,
    );
    const answer = JSON.stringify({ partialSuccess: { rejectedSpans: 3, errorMessage: 'too old' } });
    expect(json.readResponse(Buffer.from(answer))).toEqual({
      partialSuccess: { rejectedSpans: 3, errorMessage: 'too old' },
    });
  });

  it('sends protobuf in the bytes the SDK writes, under its content type, and reads its answers', () => {
    const protobuf = OTLP_ENCODINGS['http/protobuf'];
    expect(protobuf.contentType).toBe('application/x-protobuf');
    const bytes = protobuf.encode(spans);
    expect(Buffer.from(bytes).equals(Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!))).toBe(true);
    // ExportTraceServiceResponse { partial_success (1) { rejected_spans (1): 3, error_message (2): "too old" } }
    const answer = Buffer.from([0x0a, 0x0b, 0x08, 0x03, 0x12, 0x07, ...Buffer.from('too old')]);
    expect(protobuf.readResponse(answer)).toEqual({ partialSuccess: { rejectedSpans: 3, errorMessage: 'too old' } });
  });

  it.each(['http/json', 'http/protobuf'] as const)(
    'gives each %s batch memory of its own, from its start, so that it can be moved to the export thread',
    (protocol) => {
      const { encode } = OTLP_ENCODINGS[protocol];
      const neighbour = Buffer.from('a small Buffer, from the shared pool');
      const first = encode(spans);
      const second = encode(spans);
      expect(first.byteOffset).toBe(0);
      expect(second.buffer).not.toBe(first.buffer);
      expect(first.buffer).not.toBe(neighbour.buffer);
      // Moved, not copied: Node copies a slice of Buffer's shared pool instead (or refuses it, in later versions).
      const moved = structuredClone(first, { transfer: [first.buffer] });
      expect(first.byteLength).toBe(0);
      expect(Buffer.from(moved).equals(Buffer.from(second))).toBe(true);
      expect(neighbour.toString()).toBe('a small Buffer, from the shared pool');
    },
  );
});
