/**
 * The thread that sends the server's spans to the OTLP receiver (started by otlp-trace-exporter.ts, never imported):
 * it takes each batch already encoded, and sends it with the OpenTelemetry SDK's own OTLP/HTTP delegate, which reads
 * the OTEL_EXPORTER_OTLP_* variables as the SDK's exporters do (endpoint, headers, timeout, compression) and keeps
 * their retries, their timeout and their limit on concurrent exports.
 *
 * Why a thread: the exporter's requests went through the same Node HTTP and stream code as the server's answers, and
 * V8 then optimized that code for both, which cost every answer of a traced server (docs/operators/performance.md,
 * "Eighth round"). Here they run in an isolate of their own.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { convertLegacyHttpOptions, createOtlpHttpExportDelegate } from '@opentelemetry/otlp-exporter-base/node-http';
import type { ISerializer } from '@opentelemetry/otlp-transformer';
import { OTLP_ENCODINGS, type OtlpTraceProtocol } from './otlp-trace-protocol';

/** What the server's thread asks: a batch to send, or every batch sent so far finished (flush, then shutdown). */
export type ExportThreadRequest =
  | { kind: 'export'; id: number; batch: EncodedBatch }
  | { kind: 'flush' | 'shutdown'; id: number };

/** What this thread answers, once per request, with the request's id. */
export type ExportThreadReply =
  | { kind: 'exported'; id: number }
  | { kind: 'failed'; id: number; error: ExportThreadError }
  | { kind: 'done'; id: number };

/** An error of this thread, as a message carries it: the SDK's `code` (an HTTP status) and `data` (the answer) kept. */
export interface ExportThreadError {
  name: string;
  message: string;
  stack?: string;
  code?: number;
  data?: string;
}

/** A batch of spans as the server's thread encoded it: the request's body, and how many spans it carries. */
export interface EncodedBatch {
  bytes: Uint8Array;
  spans: number;
}

/** What the thread is started with. */
export interface ExportThreadData {
  protocol: OtlpTraceProtocol;
}

function replyOf(id: number, result: ExportResult): ExportThreadReply {
  if (result.code === ExportResultCode.SUCCESS) return { kind: 'exported', id };
  const error = result.error ?? new Error('export failed');
  const { code, data } = error as { code?: unknown; data?: unknown };
  return {
    kind: 'failed',
    id,
    error: {
      name: error.name,
      message: error.message,
      ...(error.stack === undefined ? {} : { stack: error.stack }),
      ...(typeof code === 'number' ? { code } : {}),
      ...(typeof data === 'string' ? { data } : {}),
    },
  };
}

function serve(port: NonNullable<typeof parentPort>, { protocol }: ExportThreadData): void {
  const encoding = OTLP_ENCODINGS[protocol];
  // Sends the bytes as they came; reads the receiver's answer as the protocol's own serializer does (a partial
  // success goes to the SDK's diagnostic logger, as it did when the SDK's exporter ran on the main thread).
  const passThrough: ISerializer<EncodedBatch, unknown> = {
    serializeRequest: (batch) => batch.bytes,
    deserializeResponse: encoding.readResponse,
  };
  const delegate = createOtlpHttpExportDelegate(
    convertLegacyHttpOptions({}, 'TRACES', 'v1/traces', { 'Content-Type': encoding.contentType }),
    passThrough,
    'otlp_http_span_exporter',
    { name: 'span', countItems: (batch) => batch.spans },
    undefined,
  );
  port.on('message', (request: ExportThreadRequest) => {
    switch (request.kind) {
      case 'export':
        delegate.export(request.batch, (result) => port.postMessage(replyOf(request.id, result)));
        return;
      case 'flush':
      case 'shutdown':
        (request.kind === 'flush' ? delegate.forceFlush() : delegate.shutdown()).then(
          () => port.postMessage({ kind: 'done', id: request.id } satisfies ExportThreadReply),
          (error: unknown) =>
            port.postMessage(replyOf(request.id, { code: ExportResultCode.FAILED, error: error as Error })),
        );
        return;
    }
  });
}

if (parentPort !== null) serve(parentPort, workerData as ExportThreadData);
