import { JsonTraceSerializer } from '@opentelemetry/otlp-transformer';
import { SPAN_BATCHES, spanBefore1970 } from '../../testing/server/otlp-span-batches';
import { encodeSpansAsJson } from './otlp-json-spans';

it.each([...SPAN_BATCHES, ['a span with times before 1970', () => spanBefore1970()] as const])(
  'writes what the SDK writes for %s',
  (_, batch) => {
    const spans = batch();
    const ours = Buffer.from(encodeSpansAsJson(spans));
    const sdks = Buffer.from(JsonTraceSerializer.serializeRequest(spans)!);
    // Compared as text first, for a readable difference, then byte for byte.
    expect(ours.toString('utf8')).toBe(sdks.toString('utf8'));
    expect(ours.equals(sdks)).toBe(true);
  },
);
