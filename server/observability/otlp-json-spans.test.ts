import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { SPAN_BATCHES, spanBefore1970, spanRecorder } from '../../testing/server/otlp-span-batches';
import { encodeSpansAsJson } from './otlp-json-spans';

/** Compared as text first, for a readable difference, then byte for byte. */
function expectTheSdksBytes(spans: ReadableSpan[]): void {
  const ours = Buffer.from(encodeSpansAsJson(spans));
  const sdks = Buffer.from(JsonTraceSerializer.serializeRequest(spans)!);
  expect(ours.toString('utf8')).toBe(sdks.toString('utf8'));
  expect(ours.equals(sdks)).toBe(true);
}

it.each([...SPAN_BATCHES, ['a span with times before 1970', () => spanBefore1970()] as const])(
  'writes what the SDK writes for %s',
  (_, batch) => expectTheSdksBytes(batch()),
);

// The encoder keeps each key's text with the last value it was written with: a value that changes, or comes back,
// past ASCII or not, of another type or none, must still be written as it is now, in a batch and in the next.
it('writes what the SDK writes when a key keeps or changes its value from one span to the next', () => {
  const values = ['GET', 'GET', 'POST', 'GET', 'café', 'café', 'GET', 1, 1, '1', true, true, 1.5, undefined, 'GET'];
  const { provider, spans } = spanRecorder();
  const tracer = provider.getTracer('repeating');
  for (const value of values) {
    const span = tracer.startSpan('repeating', { attributes: { 'http.request.method': 'GET' } });
    // Set after the start: the SDK drops an undefined value given at the start, and keeps one set later.
    span.setAttribute('changing', value as string);
    span.end();
  }
  const batch = spans();
  expectTheSdksBytes(batch);
  expectTheSdksBytes(batch.slice().reverse());
});

it('writes what the SDK writes for a key past ASCII in spans otherwise all ASCII, first and once kept', () => {
  const { provider, spans } = spanRecorder({ service: 'ascii' });
  const tracer = provider.getTracer('ascii');
  for (const value of ['value', 'value', 'other']) tracer.startSpan('ascii', { attributes: { clé: value } }).end();
  // One span a batch: the text of each is written as a whole, as Latin-1 when it is all ASCII.
  for (const span of spans()) expectTheSdksBytes([span]);
});

// Last: the keys kept are then all taken, and the tests above would no longer find theirs kept.
it('writes what the SDK writes for more keys than it keeps', () => {
  const { provider, spans } = spanRecorder({ limits: { spanLimits: { attributeCountLimit: 2000 } } });
  const attributes = Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`key.${i}`, `value ${i}`]));
  provider.getTracer('many keys').startSpan('many keys', { attributes }).end();
  expectTheSdksBytes(spans());
  expectTheSdksBytes(spans());
});
