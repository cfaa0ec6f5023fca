import {
  JsonTraceSerializer,
  ProtobufTraceSerializer,
  type IExportTraceServiceResponse,
  type ISerializer,
} from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { InvalidSettingError } from '../config/env-values';
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
  /** A batch's request body; undefined if it could not be encoded. */
  encode(spans: ReadableSpan[]): Uint8Array | undefined;
  /**
   * Whether `encode` gives each batch memory of its own from the start of its `buffer`, which can then be handed to
   * the export thread rather than copied.
   */
  ownsMemory: boolean;
  contentType: string;
  /** The SDK's reading of the collector's answer (a partial success), in the protocol's encoding. */
  readResponse: ISerializer<ReadableSpan[], IExportTraceServiceResponse>['deserializeResponse'];
}

/**
 * Each protocol's encoding. JSON is the SDK's serializer, which builds an object per span and field and then
 * stringifies the whole batch, about twice the bytes. Protobuf is this server's own encoder, which writes the bytes
 * the SDK's would in well under half its time (otlp-protobuf-spans.ts).
 */
export const OTLP_ENCODINGS: Readonly<Record<OtlpTraceProtocol, OtlpTraceEncoding>> = {
  'http/json': {
    encode: (spans) => JsonTraceSerializer.serializeRequest(spans),
    ownsMemory: false,
    contentType: 'application/json',
    readResponse: (data) => JsonTraceSerializer.deserializeResponse(data),
  },
  'http/protobuf': {
    encode: encodeSpansAsProtobuf,
    ownsMemory: true,
    contentType: 'application/x-protobuf',
    readResponse: (data) => ProtobufTraceSerializer.deserializeResponse(data),
  },
};
