import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SPAN_BATCHES, spanRecorder } from '../../testing/server/otlp-span-batches';
import { encodeSpansAsProtobuf } from './otlp-protobuf-spans';

/** Encodes `spans` and checks the bytes are the SDK's serializer's, byte for byte. */
function expectSameBytes(spans: ReadableSpan[]): Uint8Array {
  const ours = encodeSpansAsProtobuf(spans);
  expect(Buffer.from(ours).equals(Buffer.from(ProtobufTraceSerializer.serializeRequest(spans)!))).toBe(true);
  return ours;
}

it.each(SPAN_BATCHES)('writes what the SDK writes for %s', (_, batch) => {
  expectSameBytes(batch());
});

it('writes a batch longer than its length field was sized for, and batches that outweigh the last one', () => {
  const { provider, spans } = spanRecorder();
  const tracer = provider.getTracer('heavy');
  tracer.startSpan('light').end();
  // One light span makes the next guess small; then a batch over 2 MiB, whose length takes four bytes.
  expectSameBytes(spans());
  for (let i = 0; i < 120; i++)
    tracer.startSpan('heavy', { attributes: { payload: `${i}`.padEnd(20_000, 'p') } }).end();
  const heavy = spans().slice(1);
  expect(expectSameBytes(heavy).length).toBeGreaterThan(2 * 1024 * 1024);
});
