/**
 * A batch of spans in OTLP/protobuf: the `ExportTraceServiceRequest` of opentelemetry-proto
 * (`collector/trace/v1/trace_service.proto`, `trace/v1/trace.proto`, `common/v1/common.proto`), written in one pass
 * into memory of its own, which the exporter hands to its thread rather than copying it.
 *
 * Why not the SDK's serializer (`ProtobufTraceSerializer`, which the export thread still uses to read the
 * collector's answers): it walks every batch twice, once to estimate its size and once to write it; both walks go
 * through each string a character at a time in JavaScript, the second twice (is it ASCII, then each byte), and
 * decode every id from hex into a new array. Counted under callgrind with every request traced, that was about 50,000
 * instructions per span on the server's main thread, half of what a recorded `GET /slots` cost there
 * (docs/operators/performance.md, "Ninth round"). Here a short ASCII string (most attribute keys and values) is
 * copied in one loop after its one byte of length, any other goes through Buffer's native UTF-8 writer in one call,
 * ids are decoded straight into the output, and a message's length is written before it once known: room for it is
 * kept ahead (one byte, or a few for a span and a batch), and the message is moved only when its length needs another
 * size.
 *
 * The bytes are those the SDK's serializer writes for the same spans (otlp-protobuf-spans.test.ts compares them on
 * every kind of span and value): the same fields written when empty (dropped counts, a status's code), the same
 * spans grouped by resource and then by instrumentation scope, in the order they first appear. One exception: a time
 * before 1970, which the field cannot hold (ProtobufOutput.time; docs/decisions/0019-spans-encoded-by-the-server.md).
 * Above 300 lines for one reason: the request's messages and the writer of their wire format are one encoder, tested
 * as one against the SDK's.
 */
import type { Attributes, HrTime, Link, SpanContext } from '@opentelemetry/api';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';
import { BatchOutput, BatchSizes } from './batch-output';
import { groupByResourceAndScope, spanFlagsOf, type OtlpScope } from './otlp-batch-structure';

type Resource = ReadableSpan['resource'];

/** A field's key byte: its number and wire type (0 varint, 1 fixed64, 2 length-delimited, 5 fixed32). */
function key(field: number, wireType: 0 | 1 | 2 | 5): number {
  return (field << 3) | wireType;
}

/** The bytes of an unsigned varint holding `value`. */
function varintSize(value: number): number {
  let size = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 0x80);
    size++;
  }
  return size;
}

/**
 * The room kept for a message's length before it, by what the message usually weighs: a batch and its groups some
 * hundred KB (3 bytes, up to 2 MiB), a span or a resource some hundreds of bytes (2), the rest less than 128 (1).
 */
const BATCH_LENGTH_ROOM = 3;
const MEDIUM_LENGTH_ROOM = 2;
const SMALL_LENGTH_ROOM = 1;

/** A batch's bytes as protobuf writes them: varints, fixed-width numbers, length-delimited strings and messages. */
class ProtobufOutput extends BatchOutput {
  /** A varint of a whole number in [0, 2^32) (lengths, counts, enums, keys). */
  uint32(value: number): void {
    this.room(5);
    const bytes = this.bytes;
    while (value >= 0x80) {
      bytes[this.pos++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    bytes[this.pos++] = value;
  }

  /** A varint of a whole number in the int64 range: a negative one in two's complement, ten bytes. */
  int64(value: number): void {
    if (value >= 0 && value <= 0xffffffff) return this.uint32(value);
    const magnitude = Math.abs(value);
    let low = magnitude >>> 0;
    let high = Math.floor(magnitude / 0x100000000) >>> 0;
    if (value < 0) {
      low = (~low + 1) >>> 0;
      high = (~high + (low === 0 ? 1 : 0)) >>> 0;
    }
    this.room(10);
    const bytes = this.bytes;
    while (high !== 0 || low >= 0x80) {
      bytes[this.pos++] = (low & 0x7f) | 0x80;
      low = ((low >>> 7) | (high << 25)) >>> 0;
      high >>>= 7;
    }
    bytes[this.pos++] = low;
  }

  fixed32(value: number): void {
    this.room(4);
    this.bytes.writeUInt32LE(value >>> 0, this.pos);
    this.pos += 4;
  }

  /**
   * An OpenTelemetry time (seconds, nanoseconds) as fixed64 nanoseconds. Seconds times 10^9 passes 2^53, where a
   * double loses units: the seconds are multiplied by 10^9's two 16-bit halves apart, each product exact, and the
   * 64-bit sum is carried through two 32-bit words. A time the SDK does not make from its clock (a fraction of a
   * second, nanoseconds past a second, before 1970 from a Date) goes through BigInt: its whole parts, and before 1970
   * the 64 bits of a negative count, which this unsigned field cannot mean (the SDK's serializer wraps it otherwise;
   * neither drops the batch).
   */
  time([seconds, nanos]: HrTime): void {
    let low: number;
    let high: number;
    if (Number.isSafeInteger(seconds) && seconds >= 0 && Number.isInteger(nanos) && nanos >= 0 && nanos < 1e9) {
      const byLowHalf = seconds * 0xca00 + nanos; // 10^9 = 0x3b9a * 2^16 + 0xca00
      const byHighHalf = seconds * 0x3b9a; // to be shifted left by 16 bits
      const highHalfTop = Math.floor(byHighHalf / 0x10000);
      const lowSum = (byHighHalf - highHalfTop * 0x10000) * 0x10000 + (byLowHalf % 0x100000000);
      low = lowSum % 0x100000000;
      high = (highHalfTop + Math.floor(byLowHalf / 0x100000000) + Math.floor(lowSum / 0x100000000)) >>> 0;
    } else {
      const total = BigInt.asUintN(64, BigInt(Math.trunc(seconds)) * 1_000_000_000n + BigInt(Math.trunc(nanos)));
      low = Number(total & 0xffffffffn);
      high = Number(total >> 32n);
    }
    this.room(8);
    this.bytes.writeUInt32LE(low, this.pos);
    this.bytes.writeUInt32LE(high, this.pos + 4);
    this.pos += 8;
  }

  double(value: number): void {
    this.room(8);
    this.bytes.writeDoubleLE(value, this.pos);
    this.pos += 8;
  }

  /**
   * Length-delimited UTF-8. Under 128 characters (a length of one byte) a loop costs less than a call into Buffer's
   * native code, whose way in (its arguments checked, the string flattened) weighs as much as a few dozen characters
   * copied: with the loop stopping at 16 characters, the keys of a request's attributes (`http.request.method`,
   * `network.protocol.version`…) went there, and a span took a fifth more time. At any length, a character past ASCII
   * sends the string there. Something else where a string belongs (a span named with
   * a number: the SDK does not check) is written as the empty string, as the SDK's serializer writes it.
   */
  string(text: string): void {
    const value = typeof text === 'string' ? text : '';
    const length = value.length;
    if (length < 128) {
      this.room(length + 1);
      const bytes = this.bytes;
      const start = this.pos + 1;
      let i = 0;
      for (; i < length; i++) {
        const code = value.charCodeAt(i);
        if (code >= 0x80) break;
        bytes[start + i] = code;
      }
      if (i === length) {
        bytes[this.pos] = length;
        this.pos = start + length;
        return;
      }
    }
    // At most three bytes a character (counted exactly for a long string, whose room would otherwise be three times
    // its size): written after one byte kept for the length, moved if it needs more.
    this.room((length > 4096 ? Buffer.byteLength(value, 'utf8') : 3 * length) + 5);
    const start = this.pos;
    const size = this.bytes.write(value, start + 1, 'utf8');
    this.pos = start + 1 + size;
    this.end(start, 1);
  }

  /** Length-delimited bytes from their hex spelling (a trace or span id). */
  hex(value: string): void {
    const size = value.length >>> 1;
    this.uint32(size);
    this.room(size);
    const bytes = this.bytes;
    const start = this.pos;
    for (let i = 0; i < size; i++) {
      bytes[start + i] = (nibble(value.charCodeAt(2 * i)) << 4) | nibble(value.charCodeAt(2 * i + 1));
    }
    this.pos = start + size;
  }

  raw(value: Uint8Array): void {
    this.uint32(value.length);
    this.room(value.length);
    this.bytes.set(value, this.pos);
    this.pos += value.length;
  }

  /** Starts a length-delimited message: `room` bytes kept for its length. Returns where it starts, for end(). */
  begin(room: number): number {
    this.room(room);
    const start = this.pos;
    this.pos += room;
    return start;
  }

  /** Ends the message begun at `start`: its length written there, the message moved if it needs another size. */
  end(start: number, room: number): void {
    const length = this.pos - start - room;
    const size = varintSize(length);
    if (size !== room) {
      this.room(size - room);
      this.bytes.copyWithin(start + size, start + room, this.pos);
      this.pos += size - room;
    }
    let value = length;
    let at = start;
    while (value >= 0x80) {
      this.bytes[at++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    this.bytes[at] = value;
  }
}

/**
 * A hex digit's value: a digit, a lower-case letter from a to f, anything else read as an upper-case letter (the SDK
 * checks the ids it makes and takes; a link's are the caller's, and decode here as the SDK's serializer decodes them).
 */
function nibble(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x61 && code <= 0x66) return code - 0x57;
  return code - 0x37;
}

const sizes = new BatchSizes(512);

/**
 * The `ExportTraceServiceRequest` of `spans`, in OTLP/protobuf: a view from the start of memory of its own (its
 * `buffer` can be transferred to another thread).
 */
export function encodeSpansAsProtobuf(spans: readonly ReadableSpan[]): Uint8Array {
  return sizes.write(
    spans.length,
    (size) => new ProtobufOutput(size),
    (output) => {
      for (const [resource, scopes] of groupByResourceAndScope(spans, (scope) => scope)) {
        output.byte(key(1, 2)); // resource_spans
        const start = output.begin(BATCH_LENGTH_ROOM);
        writeResource(output, resource);
        for (const [scope, scopeSpans] of scopes) {
          output.byte(key(2, 2)); // scope_spans
          const scopeStart = output.begin(BATCH_LENGTH_ROOM);
          writeScope(output, scope);
          for (const span of scopeSpans) writeSpan(output, span);
          if (scope.schemaUrl) {
            output.byte(key(3, 2));
            output.string(scope.schemaUrl);
          }
          output.end(scopeStart, BATCH_LENGTH_ROOM);
        }
        if (resource.schemaUrl) {
          output.byte(key(3, 2));
          output.string(resource.schemaUrl);
        }
        output.end(start, BATCH_LENGTH_ROOM);
      }
    },
  );
}

function writeResource(output: ProtobufOutput, resource: Resource): void {
  output.byte(key(1, 2));
  const start = output.begin(MEDIUM_LENGTH_ROOM);
  writeAttributes(output, resource.attributes, key(1, 2));
  output.byte(key(2, 0)); // dropped_attributes_count: none known
  output.byte(0);
  output.end(start, MEDIUM_LENGTH_ROOM);
}

function writeScope(output: ProtobufOutput, scope: OtlpScope): void {
  output.byte(key(1, 2));
  const start = output.begin(SMALL_LENGTH_ROOM);
  output.byte(key(1, 2));
  output.string(scope.name);
  if (scope.version) {
    output.byte(key(2, 2));
    output.string(scope.version);
  }
  if (scope.attributes) writeAttributes(output, scope.attributes, key(3, 2));
  if (scope.droppedAttributesCount) {
    output.byte(key(4, 0));
    output.int64(scope.droppedAttributesCount);
  }
  output.end(start, SMALL_LENGTH_ROOM);
}

function writeSpan(output: ProtobufOutput, span: ReadableSpan): void {
  output.byte(key(2, 2)); // ScopeSpans.spans
  const start = output.begin(MEDIUM_LENGTH_ROOM);
  const context = span.spanContext();
  writeIds(output, context, key(3, 2));
  const parentId = span.parentSpanContext?.spanId;
  if (parentId) {
    output.byte(key(4, 2));
    output.hex(parentId);
  }
  output.byte(key(5, 2));
  output.string(span.name);
  // The API's kinds start at INTERNAL = 0, the protocol's at UNSPECIFIED = 0, which is left out.
  const kind = span.kind == null ? 0 : span.kind + 1;
  if (kind !== 0) {
    output.byte(key(6, 0));
    output.int64(kind);
  }
  output.byte(key(7, 1));
  output.time(span.startTime);
  output.byte(key(8, 1));
  output.time(span.endTime);
  writeAttributes(output, span.attributes, key(9, 2));
  output.byte(key(10, 0));
  output.int64(span.droppedAttributesCount);
  for (const event of span.events) writeEvent(output, event);
  output.byte(key(12, 0));
  output.int64(span.droppedEventsCount);
  for (const link of span.links) writeLink(output, link);
  output.byte(key(14, 0));
  output.int64(span.droppedLinksCount);
  output.byte(key(15, 2));
  const status = output.begin(SMALL_LENGTH_ROOM);
  if (span.status.message) {
    output.byte(key(2, 2));
    output.string(span.status.message);
  }
  output.byte(key(3, 0));
  output.int64(span.status.code);
  output.end(status, SMALL_LENGTH_ROOM);
  output.uint32(key(16, 5));
  output.fixed32(spanFlagsOf(context, span.parentSpanContext?.isRemote));
  output.end(start, MEDIUM_LENGTH_ROOM);
}

/** A span's or a link's trace id, span id (fields 1 and 2) and trace state (field 3, under `traceStateKey`). */
function writeIds(output: ProtobufOutput, context: SpanContext, traceStateKey: number): void {
  output.byte(key(1, 2));
  output.hex(context.traceId);
  output.byte(key(2, 2));
  output.hex(context.spanId);
  const traceState = context.traceState?.serialize();
  if (traceState) {
    output.byte(traceStateKey);
    output.string(traceState);
  }
}

function writeEvent(output: ProtobufOutput, event: TimedEvent): void {
  output.byte(key(11, 2));
  const start = output.begin(SMALL_LENGTH_ROOM);
  output.byte(key(1, 1));
  output.time(event.time);
  output.byte(key(2, 2));
  output.string(event.name);
  if (event.attributes) writeAttributes(output, event.attributes, key(3, 2));
  output.byte(key(4, 0));
  output.int64(event.droppedAttributesCount || 0);
  output.end(start, SMALL_LENGTH_ROOM);
}

function writeLink(output: ProtobufOutput, link: Link): void {
  output.byte(key(13, 2));
  const start = output.begin(SMALL_LENGTH_ROOM);
  writeIds(output, link.context, key(3, 2));
  if (link.attributes) writeAttributes(output, link.attributes, key(4, 2));
  output.byte(key(5, 0));
  output.int64(link.droppedAttributesCount || 0);
  output.byte(key(6, 5));
  output.fixed32(spanFlagsOf(link.context, link.context.isRemote));
  output.end(start, SMALL_LENGTH_ROOM);
}

/** Each attribute as a KeyValue under `fieldKey`, in the object's own order. */
function writeAttributes(output: ProtobufOutput, attributes: Attributes, fieldKey: number): void {
  const names = Object.keys(attributes);
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    output.byte(fieldKey);
    writeKeyValue(output, name, attributes[name]);
  }
}

function writeKeyValue(output: ProtobufOutput, name: string, value: unknown): void {
  const start = output.begin(SMALL_LENGTH_ROOM);
  output.byte(key(1, 2));
  output.string(name);
  output.byte(key(2, 2));
  const valueStart = output.begin(SMALL_LENGTH_ROOM);
  writeAnyValue(output, value);
  output.end(valueStart, SMALL_LENGTH_ROOM);
  output.end(start, SMALL_LENGTH_ROOM);
}

/** int64's bounds: a whole number outside them goes as a double. */
const INT64_MIN = -(2 ** 63);
const INT64_END = 2 ** 63;

/** An AnyValue's one field; nothing for a value it has no field for (`undefined`, `null`, a function). */
function writeAnyValue(output: ProtobufOutput, value: unknown): void {
  switch (typeof value) {
    case 'string':
      output.byte(key(1, 2));
      output.string(value);
      return;
    case 'boolean':
      output.byte(key(2, 0));
      output.byte(value ? 1 : 0);
      return;
    case 'number':
      if (Number.isInteger(value) && value >= INT64_MIN && value < INT64_END) {
        output.byte(key(3, 0));
        output.int64(value);
      } else {
        output.byte(key(4, 1));
        output.double(value);
      }
      return;
    case 'object':
      if (value === null) return;
      if (value instanceof Uint8Array) {
        output.byte(key(7, 2));
        output.raw(value);
      } else if (Array.isArray(value)) {
        output.byte(key(5, 2)); // array_value: ArrayValue { repeated AnyValue values = 1 }
        const start = output.begin(SMALL_LENGTH_ROOM);
        for (const item of value) {
          output.byte(key(1, 2));
          const itemStart = output.begin(SMALL_LENGTH_ROOM);
          writeAnyValue(output, item);
          output.end(itemStart, SMALL_LENGTH_ROOM);
        }
        output.end(start, SMALL_LENGTH_ROOM);
      } else {
        output.byte(key(6, 2)); // kvlist_value: KeyValueList { repeated KeyValue values = 1 }
        const start = output.begin(SMALL_LENGTH_ROOM);
        const entries = value as Record<string, unknown>;
        for (const name in entries) {
          if (!Object.hasOwn(entries, name)) continue;
          output.byte(key(1, 2));
          writeKeyValue(output, name, entries[name]);
        }
        output.end(start, SMALL_LENGTH_ROOM);
      }
      return;
    default:
      return;
  }
}
