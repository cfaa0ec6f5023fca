import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SPAN_BATCHES, spanBefore1970, spanRecorder } from '../../testing/server/otlp-span-batches';
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

it('starts a batch at a bounded size, however large the last batch weighed per span', () => {
  const { provider, spans } = spanRecorder();
  const tracer = provider.getTracer('outsized');
  // One span of 7 MB alone in its batch: 512 spans at that weight would ask for more than a Buffer can hold.
  tracer.startSpan('outsized', { attributes: { statement: 's'.repeat(7 * 1024 * 1024) } }).end();
  expectSameBytes(spans());
  for (let i = 0; i < 512; i++) tracer.startSpan(`light ${i}`).end();
  expectSameBytes(spans().slice(1));
});

it('writes a time before 1970 as the 64 bits of its negative count of nanoseconds, and sends the batch', () => {
  // The SDK makes [-1, -500000000] of -1.5 s; 2^64 - 1.5e9 ns is [18446744072 s, 209551616 ns], from its clock's path.
  const [before1970] = spanBefore1970();
  const wrapped = { ...before1970!, spanContext: () => before1970!.spanContext() } as ReadableSpan;
  const ours = Buffer.from(encodeSpansAsProtobuf([before1970!]));
  const asWrapped = Buffer.from(
    encodeSpansAsProtobuf([{ ...wrapped, startTime: [18_446_744_072, 209_551_616] } as ReadableSpan]),
  );
  expect(before1970!.startTime).toEqual([-1, -500_000_000]);
  expect(ours.equals(asWrapped)).toBe(true);
});
