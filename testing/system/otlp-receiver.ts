import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeOtlpTraceExport, type OtlpJsonAttribute, type OtlpJsonExport } from './otlp-protobuf';

/** One span as an OTLP/HTTP export carries it (the fields the tests read, as its JSON encoding names them). */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  /** The service that sent it (its resource's `service.name`). */
  service: string | undefined;
  attributes: Record<string, unknown>;
}

export interface OtlpReceiver {
  /** `http://127.0.0.1:<port>`: give it as OTEL_EXPORTER_OTLP_ENDPOINT. */
  readonly url: string;
  /** Every span received so far, in order. */
  readonly spans: readonly ReceivedSpan[];
  /** The paths and content types of the exports received. */
  readonly exports: ReadonlyArray<{ path: string; contentType: string | undefined }>;
  /** Resolves once a span matching `predicate` arrived; rejects after `timeoutMs`. */
  waitForSpan(predicate: (span: ReceivedSpan) => boolean, timeoutMs?: number): Promise<ReceivedSpan>;
  close(): Promise<void>;
}

/**
 * A real OTLP/HTTP receiver (what an OpenTelemetry Collector listens with on 4318), on a free port of 127.0.0.1: it
 * takes exports at `/v1/traces` in both OTLP/HTTP encodings (JSON, and protobuf read by otlp-protobuf.ts), answers
 * each as a collector does, in its own encoding, and keeps the spans for the test to read. An export in any other
 * encoding is answered 415 and recorded, so a test sees it rather than waiting in vain.
 */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const exports: Array<{ path: string; contentType: string | undefined }> = [];
  const waiters = new Set<() => void>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const contentType = req.headers['content-type'];
      exports.push({ path: req.url ?? '/', contentType });
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      const protobuf = contentType === 'application/x-protobuf';
      if (!protobuf && !contentType?.startsWith('application/json')) {
        res.writeHead(415).end();
        return;
      }
      const body = protobuf
        ? decodeOtlpTraceExport(Buffer.concat(chunks))
        : (JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpJsonExport);
      for (const resourceSpans of body.resourceSpans ?? []) {
        const resource = attributesOf(resourceSpans.resource?.attributes);
        const service = typeof resource['service.name'] === 'string' ? resource['service.name'] : undefined;
        for (const scope of resourceSpans.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            spans.push({ ...span, service, attributes: attributesOf(span.attributes) });
          }
        }
      }
      // An empty ExportTraceServiceResponse: `{}` in JSON, no bytes at all in protobuf.
      if (protobuf) res.writeHead(200, { 'Content-Type': 'application/x-protobuf' }).end();
      else res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    spans,
    exports,
    waitForSpan(predicate, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = spans.find(predicate);
          if (!found) return;
          cleanUp();
          resolve(found);
        };
        const timer = setTimeout(() => {
          cleanUp();
          reject(
            new Error(`No such span within ${timeoutMs} ms; received: ${JSON.stringify(spans.map((s) => s.name))}`),
          );
        }, timeoutMs);
        const cleanUp = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function attributesOf(attributes: OtlpJsonAttribute[] | undefined): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const { key, value } of attributes ?? []) {
    values[key] = value.stringValue ?? value.intValue ?? value.boolValue ?? value.doubleValue;
  }
  return values;
}
