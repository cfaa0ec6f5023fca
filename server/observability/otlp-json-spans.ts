/**
 * A batch of spans in OTLP/JSON: the `ExportTraceServiceRequest` as the OTLP specification maps it to JSON (hex ids,
 * times as strings of nanoseconds, enums as numbers, field names in lowerCamelCase), written in one pass, as UTF-8,
 * into memory of its own, which the exporter hands to its thread rather than copying it.
 *
 * Why not the SDK's serializer (`JsonTraceSerializer`, which the export thread still uses to read the collector's
 * answers): it builds an object for every span, attribute, value and event, turns each time into a BigInt and back
 * into a string, walks the whole tree again with `JSON.stringify`, then encodes the result. Counted under callgrind
 * with every request traced, that cost about as much as the protobuf serializer's 50,000 instructions per span on the
 * server's main thread (docs/operators/performance.md, "Ninth round"). Building the text as one string instead was
 * slower still (V8 then flattens a tree of thousands of pieces). Here the JSON around the values is copied in as
 * bytes, a string that holds nothing to escape is copied in one loop (most keys, methods, paths, addresses, hex ids),
 * any other goes through `JSON.stringify`, and a time is its seconds followed by its nine digits of nanoseconds.
 *
 * The bytes are those the SDK's serializer writes for the same spans (otlp-json-spans.test.ts compares them on every
 * kind of span and value): the same fields in the same order, the same fields left out when undefined, spans grouped
 * by resource and then by instrumentation scope (its name, version and schema), in the order they first appear.
 */
import type { Attributes, HrTime, Link, SpanContext } from '@opentelemetry/api';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';
import { BatchOutput, BatchSizes } from './batch-output';
import { groupByResourceAndScope, spanFlagsOf, type OtlpScope } from './otlp-batch-structure';

const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

/** A batch's bytes as JSON writes them: the text around the values, strings, numbers. */
class JsonOutput extends BatchOutput {
  /** ASCII text as it is: the JSON around the values (names, punctuation), digits. */
  ascii(text: string): void {
    const length = text.length;
    this.room(length);
    const bytes = this.bytes;
    const start = this.pos;
    for (let i = 0; i < length; i++) bytes[start + i] = text.charCodeAt(i);
    this.pos = start + length;
  }

  /**
   * `value` as a JSON string. A string of printable ASCII without a quote or a backslash is copied between its
   * quotes; any other goes through JSON.stringify, whose escapes the SDK's bytes have, and is written as UTF-8.
   * Something else where a string belongs (a span named with a number: the SDK does not check) is written as
   * JSON.stringify writes it, as in the SDK's bytes (`null` for what it would leave out).
   */
  string(value: string): void {
    if (typeof value !== 'string') {
      this.utf8(JSON.stringify(value) ?? 'null');
      return;
    }
    const length = value.length;
    this.room(length + 2);
    const bytes = this.bytes;
    const start = this.pos;
    bytes[start] = 0x22;
    for (let i = 0; i < length; i++) {
      const code = value.charCodeAt(i);
      if (code < 0x20 || code === 0x22 || code === 0x5c || code >= 0x80) {
        this.utf8(JSON.stringify(value));
        return;
      }
      bytes[start + 1 + i] = code;
    }
    bytes[start + 1 + length] = 0x22;
    this.pos = start + 2 + length;
  }

  /** Any text, as UTF-8 (at most three bytes a character; counted exactly for a long text). */
  private utf8(text: string): void {
    this.room(text.length > 4096 ? Buffer.byteLength(text, 'utf8') : 3 * text.length);
    this.pos += this.bytes.write(text, this.pos, 'utf8');
  }

  /** A number as JSON writes it: NaN and the infinities as null. */
  number(value: number): void {
    this.ascii(Number.isFinite(value) ? `${value}` : 'null');
  }

  /**
   * An OpenTelemetry time (seconds, nanoseconds) as a JSON string of its nanoseconds: the seconds, then the
   * nanoseconds on nine digits. A time outside what the SDK makes (a fraction, nanoseconds past a second, the epoch's
   * first second) goes through BigInt, as the SDK's serializer takes every time.
   */
  time([seconds, nanos]: HrTime): void {
    if (!(Number.isSafeInteger(seconds) && seconds > 0 && Number.isInteger(nanos) && nanos >= 0 && nanos < 1e9)) {
      this.ascii(`"${BigInt(Math.trunc(seconds)) * 1_000_000_000n + BigInt(Math.trunc(nanos))}"`);
      return;
    }
    this.ascii(`"${seconds}`);
    this.room(10);
    const bytes = this.bytes;
    for (let i = 8; i >= 0; i--) {
      bytes[this.pos + i] = 0x30 + (nanos % 10);
      nanos = Math.floor(nanos / 10);
    }
    bytes[this.pos + 9] = 0x22;
    this.pos += 10;
  }
}

const sizes = new BatchSizes(1024);

/** The `ExportTraceServiceRequest` of `spans`, in OTLP/JSON: UTF-8 in memory of its own, from its start. */
export function encodeSpansAsJson(spans: readonly ReadableSpan[]): Uint8Array {
  return sizes.write(
    spans.length,
    (size) => new JsonOutput(size),
    (output) => writeRequest(output, spans),
  );
}

function writeRequest(output: JsonOutput, spans: readonly ReadableSpan[]): void {
  output.ascii('{"resourceSpans":[');
  let resourceCount = 0;
  for (const [resource, scopes] of groupByResourceAndScope(spans, scopeNameVersionAndSchema)) {
    if (resourceCount++ > 0) output.byte(COMMA);
    output.ascii('{"resource":{"attributes":');
    writeAttributes(output, resource.attributes);
    output.ascii(',"droppedAttributesCount":0');
    if (resource.schemaUrl) writeField(output, ',"schemaUrl":', resource.schemaUrl);
    output.ascii('},"scopeSpans":[');
    let scopeCount = 0;
    for (const group of scopes.values()) {
      if (scopeCount++ > 0) output.byte(COMMA);
      const scope: OtlpScope = group[0]!.instrumentationScope;
      output.ascii('{"scope":');
      writeScope(output, scope);
      output.ascii(',"spans":[');
      for (let i = 0; i < group.length; i++) {
        if (i > 0) output.byte(COMMA);
        writeSpan(output, group[i]!);
      }
      output.byte(CLOSE_BRACKET);
      if (scope.schemaUrl !== undefined) writeField(output, ',"schemaUrl":', scope.schemaUrl);
      output.byte(CLOSE_BRACE);
    }
    output.byte(CLOSE_BRACKET);
    if (resource.schemaUrl) writeField(output, ',"schemaUrl":', resource.schemaUrl);
    output.byte(CLOSE_BRACE);
  }
  output.ascii(']}');
}

/** A scope as the SDK's JSON serializer tells scopes apart. */
function scopeNameVersionAndSchema(scope: OtlpScope): string {
  return `${scope.name}@${scope.version || ''}:${scope.schemaUrl || ''}`;
}

/** `name` (the JSON before the value: a comma, the field's name, a colon), then `value` as a JSON string. */
function writeField(output: JsonOutput, name: string, value: string): void {
  output.ascii(name);
  output.string(value);
}

function writeScope(output: JsonOutput, scope: OtlpScope): void {
  writeField(output, '{"name":', scope.name);
  if (scope.version !== undefined) writeField(output, ',"version":', scope.version);
  if (scope.attributes && Object.keys(scope.attributes).length > 0) {
    output.ascii(',"attributes":');
    writeAttributes(output, scope.attributes);
    output.ascii(',"droppedAttributesCount":');
    output.number(scope.droppedAttributesCount ?? 0);
  }
  output.byte(CLOSE_BRACE);
}

function writeSpan(output: JsonOutput, span: ReadableSpan): void {
  const context = span.spanContext();
  writeField(output, '{"traceId":', context.traceId);
  writeField(output, ',"spanId":', context.spanId);
  const parentId = span.parentSpanContext?.spanId;
  if (parentId) writeField(output, ',"parentSpanId":', parentId);
  writeTraceState(output, context);
  writeField(output, ',"name":', span.name);
  output.ascii(',"kind":');
  output.number(span.kind == null ? 0 : span.kind + 1);
  output.ascii(',"startTimeUnixNano":');
  output.time(span.startTime);
  output.ascii(',"endTimeUnixNano":');
  output.time(span.endTime);
  output.ascii(',"attributes":');
  writeAttributes(output, span.attributes);
  writeCount(output, ',"droppedAttributesCount":', span.droppedAttributesCount);
  output.ascii(',"events":[');
  for (let i = 0; i < span.events.length; i++) {
    if (i > 0) output.byte(COMMA);
    writeEvent(output, span.events[i]!);
  }
  output.byte(CLOSE_BRACKET);
  writeCount(output, ',"droppedEventsCount":', span.droppedEventsCount);
  output.ascii(',"status":{');
  // Each field left out when undefined, as JSON.stringify leaves it.
  const code = span.status.code as number | undefined;
  if (code !== undefined) {
    output.ascii('"code":');
    output.number(code);
  }
  if (span.status.message !== undefined) {
    writeField(output, code === undefined ? '"message":' : ',"message":', span.status.message);
  }
  output.ascii('},"links":[');
  for (let i = 0; i < span.links.length; i++) {
    if (i > 0) output.byte(COMMA);
    writeLink(output, span.links[i]!);
  }
  output.byte(CLOSE_BRACKET);
  writeCount(output, ',"droppedLinksCount":', span.droppedLinksCount);
  output.ascii(',"flags":');
  output.number(spanFlagsOf(context, span.parentSpanContext?.isRemote));
  output.byte(CLOSE_BRACE);
}

/** A count under `name`, or nothing when it is undefined (JSON.stringify leaves such a field out). */
function writeCount(output: JsonOutput, name: string, value: number | undefined): void {
  if (value === undefined) return;
  output.ascii(name);
  output.number(value);
}

function writeTraceState(output: JsonOutput, context: SpanContext): void {
  const traceState = context.traceState?.serialize();
  if (traceState !== undefined) writeField(output, ',"traceState":', traceState);
}

function writeEvent(output: JsonOutput, event: TimedEvent): void {
  output.ascii('{"attributes":');
  writeAttributes(output, event.attributes ?? {});
  writeField(output, ',"name":', event.name);
  output.ascii(',"timeUnixNano":');
  output.time(event.time);
  output.ascii(',"droppedAttributesCount":');
  output.number(event.droppedAttributesCount || 0);
  output.byte(CLOSE_BRACE);
}

function writeLink(output: JsonOutput, link: Link): void {
  const context = link.context;
  output.ascii('{"attributes":');
  writeAttributes(output, link.attributes ?? {});
  writeField(output, ',"spanId":', context.spanId);
  writeField(output, ',"traceId":', context.traceId);
  writeTraceState(output, context);
  output.ascii(',"droppedAttributesCount":');
  output.number(link.droppedAttributesCount || 0);
  output.ascii(',"flags":');
  output.number(spanFlagsOf(context, context.isRemote));
  output.byte(CLOSE_BRACE);
}

/** Attributes as a list of KeyValues, in the object's own order. */
function writeAttributes(output: JsonOutput, attributes: Attributes): void {
  const names = Object.keys(attributes);
  output.byte(OPEN_BRACKET);
  for (let i = 0; i < names.length; i++) {
    if (i > 0) output.byte(COMMA);
    const name = names[i]!;
    writeField(output, '{"key":', name);
    output.ascii(',"value":');
    writeAnyValue(output, attributes[name]);
    output.byte(CLOSE_BRACE);
  }
  output.byte(CLOSE_BRACKET);
}

/** An AnyValue: one field by the value's type; `{}` for a value it has no field for (`undefined`, `null`, a function). */
function writeAnyValue(output: JsonOutput, value: unknown): void {
  switch (typeof value) {
    case 'string':
      writeField(output, '{"stringValue":', value);
      break;
    case 'number':
      output.ascii(Number.isInteger(value) ? '{"intValue":' : '{"doubleValue":');
      output.number(value);
      break;
    case 'boolean':
      output.ascii(value ? '{"boolValue":true' : '{"boolValue":false');
      break;
    case 'object':
      if (value === null) {
        output.byte(OPEN_BRACE);
      } else if (value instanceof Uint8Array) {
        writeField(output, '{"bytesValue":', Buffer.from(value).toString('base64'));
      } else if (Array.isArray(value)) {
        output.ascii('{"arrayValue":{"values":[');
        for (let i = 0; i < value.length; i++) {
          if (i > 0) output.byte(COMMA);
          writeAnyValue(output, value[i]);
        }
        output.ascii(']}');
      } else {
        output.ascii('{"kvlistValue":{"values":');
        writeAttributes(output, value as Attributes);
        output.byte(CLOSE_BRACE);
      }
      break;
    default:
      output.byte(OPEN_BRACE);
  }
  output.byte(CLOSE_BRACE);
}
