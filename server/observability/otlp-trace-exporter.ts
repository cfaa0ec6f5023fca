import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { InvalidSettingError } from '../config/env-values';

/** The OTLP encodings spans can be sent in, as `OTEL_EXPORTER_OTLP_PROTOCOL` names them (both over HTTP). */
export type OtlpTraceProtocol = 'http/json' | 'http/protobuf';

/**
 * What the server sends when neither variable names a protocol: JSON, which it has sent since tracing came, so an
 * endpoint set up for it keeps its spans (the specification's default is `http/protobuf`; every OpenTelemetry
 * Collector takes both on its OTLP/HTTP port).
 */
export const DEFAULT_OTLP_TRACE_PROTOCOL: OtlpTraceProtocol = 'http/json';

/**
 * The protocol `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL` names, else `OTEL_EXPORTER_OTLP_PROTOCOL`, else the default. A
 * value the server cannot send in (`grpc`, a typo) stops the start, naming the variable: silently sending another
 * encoding would leave the operator with no spans and no reason.
 */
export function otlpTraceProtocolOf(env: NodeJS.ProcessEnv): OtlpTraceProtocol {
  for (const name of ['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'OTEL_EXPORTER_OTLP_PROTOCOL']) {
    const value = env[name]?.trim();
    if (!value) continue;
    if (value === 'http/json' || value === 'http/protobuf') return value;
    throw new InvalidSettingError(name, value, '"http/protobuf" or "http/json" (gRPC is not supported)');
  }
  return DEFAULT_OTLP_TRACE_PROTOCOL;
}

/**
 * The OTLP/HTTP exporter of `protocol`; both read the other OTEL_EXPORTER_OTLP_* variables themselves (endpoint,
 * headers, timeout, compression). Protobuf is the cheaper to send: its encoder writes each span's bytes directly, where
 * JSON builds an object per span and field and then stringifies the whole batch, about twice the bytes
 * (docs/operators/performance.md).
 */
export function otlpTraceExporter(protocol: OtlpTraceProtocol): SpanExporter {
  return protocol === 'http/protobuf' ? new ProtobufTraceExporter() : new JsonTraceExporter();
}
