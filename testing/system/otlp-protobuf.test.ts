import { ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { decodeOtlpTraceExport, type OtlpJsonExport } from './otlp-protobuf';

/** Real spans of the SDK: a server span with attributes of every scalar kind, and a child of it. */
function recordedSpans() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'decoder-test', 'service.instance.id': 7 }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('decoder-test');
  const parent = tracer.startSpan('GET /slots', {
    kind: SpanKind.SERVER,
    attributes: { 'http.route': '/slots', 'http.response.status_code': 200, 'big.int': -3, ok: true, ratio: 0.25 },
  });
  const child = tracer.startSpan('query', {}, trace.setSpan(ROOT_CONTEXT, parent));
  child.end();
  parent.end();
  return exporter.getFinishedSpans();
}

/** The fields the decoder reads, from an export in either encoding. */
function readFields(request: OtlpJsonExport) {
  return request.resourceSpans!.map((resource) => ({
    resource: resource.resource?.attributes,
    spans: resource.scopeSpans!.flatMap((scope) =>
      scope.spans!.map(({ traceId, spanId, parentSpanId, name, kind, attributes }) => ({
        traceId,
        spanId,
        parentSpanId: parentSpanId || undefined,
        name,
        kind,
        attributes: attributes?.map(({ key, value }) => ({
          key,
          value: { ...value, intValue: value.intValue === undefined ? undefined : Number(value.intValue) },
        })),
      })),
    ),
  }));
}

it('reads a protobuf export as the SDK writes the same spans in JSON', () => {
  const spans = recordedSpans();
  const json = JSON.parse(Buffer.from(JsonTraceSerializer.serializeRequest(spans)!).toString('utf8')) as OtlpJsonExport;
  const decoded = decodeOtlpTraceExport(ProtobufTraceSerializer.serializeRequest(spans)!);
  expect(readFields(decoded)).toEqual(readFields(json));
  // The comparison is not of two empty lists: both spans, their ids and values as sent.
  const [server, query] = [...readFields(decoded)[0]!.spans].sort((a, b) => a.name.localeCompare(b.name));
  expect(server).toMatchObject({ name: 'GET /slots', kind: 2, parentSpanId: undefined });
  expect(server!.traceId).toMatch(/^[0-9a-f]{32}$/);
  expect(query).toMatchObject({ name: 'query', traceId: server!.traceId, parentSpanId: server!.spanId });
  expect(server!.attributes).toEqual(
    expect.arrayContaining([
      { key: 'http.route', value: { stringValue: '/slots' } },
      { key: 'big.int', value: { intValue: -3 } },
      { key: 'ok', value: { boolValue: true } },
      { key: 'ratio', value: { doubleValue: 0.25 } },
    ]),
  );
});

it('refuses a body that is not protobuf rather than reading nonsense', () => {
  expect(() => decodeOtlpTraceExport(Buffer.from('{"resourceSpans":[]}'))).toThrow(/protobuf/);
});
