import {
  JsonTraceSerializer,
  ProtobufTraceSerializer,
  type IExportTraceServiceResponse,
  type ISerializer,
} from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { InvalidSettingError } from '../config/env-values';
import { encodeSpansAsJson } from './otlp-json-spans';
import { encodeSpansAsProtobuf } from './otlp-protobuf-spans';

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

/** What sending in a protocol means: how a batch is encoded, the content type of its requests, how answers read. */
export interface OtlpTraceEncoding {
  /**
   * A batch's request body, in memory of its own from the start of its `buffer`: the exporter moves that memory to
   * its thread rather than copying it.
   */
  encode(spans: readonly ReadableSpan[]): Uint8Array;
  contentType: string;
  /** The SDK's reading of the collector's answer (a partial success), in the protocol's encoding. */
  readResponse: ISerializer<ReadableSpan[], IExportTraceServiceResponse>['deserializeResponse'];
}

/**
 * Each protocol's encoding: the server's own encoders, which write the bytes the SDK's serializers would, in about
 * half the time (otlp-json-spans.ts, otlp-protobuf-spans.ts). On the main thread the two now cost about as much;
 * protobuf is still the cheaper to send: 2.5 times fewer bytes for the export thread and the collector.
 */
export const OTLP_ENCODINGS: Readonly<Record<OtlpTraceProtocol, OtlpTraceEncoding>> = {
  'http/json': {
    encode: encodeSpansAsJson,
    contentType: 'application/json',
    readResponse: (data) => JsonTraceSerializer.deserializeResponse(data),
  },
  'http/protobuf': {
    encode: encodeSpansAsProtobuf,
    contentType: 'application/x-protobuf',
    readResponse: (data) => ProtobufTraceSerializer.deserializeResponse(data),
  },
};
