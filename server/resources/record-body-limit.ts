import type { RegisteredResource } from './registered-resource';

/**
 * The most JSON one character of a text value can take: a control character escaped as `\u0001`. A character outside
 * the BMP, one character to maxLength, is four bytes of UTF-8 as JSON.stringify writes it.
 */
const JSON_BYTES_PER_CHARACTER = 6;

/**
 * The largest body a save of one of `resource`'s records may need, in whole KiB: the API's usual limit for everything
 * else in it, and room for each text field at its maxLength twice (an edit sends a changed value, and under
 * UNCHANGED_FIELDS_KEY the value its form loaded). With the usual limit alone, a resource declaring
 * `maxLength: 20_000` offered a field its form could not save past 16 KiB, and not edit past 8.
 */
export function recordBodyLimitBytes(resource: RegisteredResource, baseBytes: number): number {
  let characters = 0;
  for (const field of resource.fields.values()) characters += field.maxLength ?? 0;
  return Math.ceil((baseBytes + 2 * JSON_BYTES_PER_CHARACTER * characters) / 1024) * 1024;
}
