import {
  JsonTraceSerializer,
  ProtobufTraceSerializer,
  type IExportTraceServiceResponse,
  type ISerializer,
} from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { InvalidSettingError } from '../config/env-values';

/** The OTLP encodings spans can be sent in, as `OTEL_EXPORTER_OTLP_PROTOCOL` names them (both over HTTP). */
export type OtlpTraceProtocol = 'http/json' | 'http/protobuf';

/**
 * What the server sends when neither variable names a protocol: JSON, which it has sent since tracing came, so an
 * endpoint set up for it keeps its spans (the specification's default is `http/protobuf`; every OpenTelemetry
 * Collector takes both on its OTLP/HTTP port).
 */
const DEFAULT_OTLP_TRACE_PROTOCOL: OtlpTraceProtocol = 'http/json';

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

/** What sending in a protocol means: the SDK's serializer of its encoding, and the content type of its requests. */
export interface OtlpTraceEncoding {
  serializer: ISerializer<ReadableSpan[], IExportTraceServiceResponse>;
  contentType: string;
}

/**
 * Each protocol's encoding. Protobuf is the cheaper to encode: its serializer writes each span's bytes directly, where
 * JSON builds an object per span and field and then stringifies the whole batch, about twice the bytes
 * (docs/operators/performance.md).
 */
export const OTLP_ENCODINGS: Readonly<Record<OtlpTraceProtocol, OtlpTraceEncoding>> = {
  'http/json': { serializer: JsonTraceSerializer, contentType: 'application/json' },
  'http/protobuf': { serializer: ProtobufTraceSerializer, contentType: 'application/x-protobuf' },
};
