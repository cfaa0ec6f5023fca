import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { otlpTraceExporter, otlpTraceProtocolOf } from './otlp-trace-exporter';

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

it('gives the exporter of each protocol', async () => {
  const json = otlpTraceExporter('http/json');
  const protobuf = otlpTraceExporter('http/protobuf');
  expect(json).toBeInstanceOf(JsonTraceExporter);
  expect(protobuf).toBeInstanceOf(ProtobufTraceExporter);
  await Promise.all([json.shutdown(), protobuf.shutdown()]);
});
