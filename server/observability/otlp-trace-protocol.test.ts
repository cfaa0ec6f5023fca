import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
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

it('sends each protocol in its encoding, under its content type', () => {
  expect(OTLP_ENCODINGS['http/json']).toEqual({ serializer: JsonTraceSerializer, contentType: 'application/json' });
  expect(OTLP_ENCODINGS['http/protobuf']).toEqual({
    serializer: ProtobufTraceSerializer,
    contentType: 'application/x-protobuf',
  });
});
