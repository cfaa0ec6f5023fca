/**
 * A batch of spans in OTLP/JSON: the `ExportTraceServiceRequest` as the OTLP specification maps it to JSON (hex ids,
 * times as strings of nanoseconds, enums as numbers, field names in lowerCamelCase), as UTF-8, into memory of its own,
 * which the exporter hands to its thread rather than copying it.
 *
 * Why not the SDK's serializer (`JsonTraceSerializer`, which the export thread still uses to read the collector's
 * answers): it builds an object for every span, attribute, value and event, turns each time into a BigInt and back
 * into a string, walks the whole tree again with `JSON.stringify`, then encodes the result. Counted under callgrind
 * with every request traced, that cost about as much as the protobuf serializer's 50,000 instructions per span on the
 * server's main thread (docs/operators/performance.md, "Ninth round").
 *
 * How: each span is written as one string (template literals: V8 joins the longer pieces without copying them) and
 * that string into the batch's memory in one native call, as Latin-1 when it is all ASCII. A span's JSON is about 900
 * bytes, 2.5 times its protobuf: copied a byte at a time in a loop, as this file did before, they cost 1.8 µs per span
 * against 1.3 now (docs/operators/performance.md, "Twelfth round"). Building the whole batch as one string is slower
 * still (V8 then flattens a tree of thousands of pieces). A string is checked for what JSON escapes (and for anything
 * past ASCII) with one regular expression; one that has any goes through `JSON.stringify`. Each attribute's key is
 * kept with the text of its whole KeyValue for the last value it had: a request's attributes mostly repeat from one
 * span to the next.
 *
 * The bytes are those the SDK's serializer writes for the same spans (otlp-json-spans.test.ts compares them on every
 * kind of span and value): the same fields in the same order, the same fields left out when undefined, spans grouped
 * by resource and then by instrumentation scope (its name, version and schema), in the order they first appear.
 */
import type { Attributes, HrTime, Link, SpanContext } from '@opentelemetry/api';
import type { ReadableSpan, TimedEvent } from '@opentelemetry/sdk-trace-base';
import { BatchOutput, BatchSizes } from './batch-output';
import { groupByResourceAndScope, spanFlagsOf, type OtlpScope } from './otlp-batch-structure';

/** A batch's bytes: JSON text, as Latin-1 (a byte a character) when it is all ASCII, as UTF-8 otherwise. */
class JsonOutput extends BatchOutput {
  text(json: string, ascii: boolean): void {
    if (ascii) {
      this.room(json.length);
      this.pos += this.bytes.write(json, this.pos, 'latin1');
    } else {
      this.room(json.length > 4096 ? Buffer.byteLength(json, 'utf8') : 3 * json.length);
      this.pos += this.bytes.write(json, this.pos, 'utf8');
    }
  }
}

/** What JSON escapes in a string (controls, the quote, the backslash), and anything past ASCII. */
const ESCAPED_OR_NOT_ASCII = /[\u0000-\u001f"\\\u007f-\uffff]/;

/**
 * The JSON text of a span, a resource or a scope, written by the methods below, and whether it is still all ASCII:
 * a string that is not goes through `JSON.stringify`, which keeps what is past ASCII as it is.
 */
class JsonText {
  ascii = true;

  /**
   * `value` as a JSON string: between quotes when it holds nothing to escape, as JSON.stringify writes it otherwise
   * (the SDK's bytes have its escapes). Something else where a string belongs (a span named with a number: the SDK
   * does not check) is written as JSON.stringify writes it, as in the SDK's bytes (`null` for what it would leave out).
   */
  string(value: string): string {
    if (typeof value === 'string' && !ESCAPED_OR_NOT_ASCII.test(value)) return `"${value}"`;
    this.ascii = false;
    return JSON.stringify(value) ?? 'null';
  }

  /** Attributes as a list of KeyValues, in the object's own order. */
  attributes(attributes: Attributes): string {
    const names = Object.keys(attributes);
    let text = '[';
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      text += `${i > 0 ? ',' : ''}${this.keyValue(name, attributes[name])}`;
    }
    return `${text}]`;
  }

  /**
   * A KeyValue. The first KEPT_KEYS keys are kept with their JSON (`{"key":…,"value":`) and the whole KeyValue of
   * the last string, number or boolean they were written with, when short: a request's attributes mostly repeat from
   * one span to the next (its method, scheme, route, address, status), and then cost a lookup and a comparison.
   */
  private keyValue(name: string, value: unknown): string {
    let kept = keptKeys.get(name);
    if (kept !== undefined && value === kept.value && value !== undefined) {
      if (!kept.textAscii) this.ascii = false;
      return kept.text;
    }
    // The KeyValue's own text is written from here with `ascii` set, to know whether it alone is all ASCII.
    const ascii = this.ascii;
    this.ascii = true;
    if (kept === undefined) {
      const opening = `{"key":${this.string(name)},"value":`;
      kept = { opening, openingAscii: this.ascii, value: undefined, text: '', textAscii: true };
      if (keptKeys.size < KEPT_KEYS) keptKeys.set(name, kept);
    }
    this.ascii = kept.openingAscii;
    const text = `${kept.opening}${this.anyValue(value)}}`;
    const type = typeof value;
    if ((type === 'string' || type === 'number' || type === 'boolean') && text.length <= KEPT_TEXT_LENGTH) {
      kept.value = value as string | number | boolean;
      kept.text = text;
      kept.textAscii = this.ascii;
    }
    this.ascii = ascii && this.ascii;
    return text;
  }

  /** An AnyValue: one field by the value's type; `{}` for one it has no field for (`undefined`, `null`, a function). */
  anyValue(value: unknown): string {
    switch (typeof value) {
      case 'string':
        return `{"stringValue":${this.string(value)}}`;
      case 'number':
        return Number.isInteger(value) ? `{"intValue":${value}}` : `{"doubleValue":${number(value)}}`;
      case 'boolean':
        return value ? '{"boolValue":true}' : '{"boolValue":false}';
      case 'object':
        if (value === null) return '{}';
        if (value instanceof Uint8Array) return `{"bytesValue":"${Buffer.from(value).toString('base64')}"}`;
        if (Array.isArray(value)) {
          let text = '{"arrayValue":{"values":[';
          for (let i = 0; i < value.length; i++) text += `${i > 0 ? ',' : ''}${this.anyValue(value[i])}`;
          return `${text}]}}`;
        }
        return `{"kvlistValue":{"values":${this.attributes(value as Attributes)}}}`;
      default:
        return '{}';
    }
  }

  /** A span's or a link's trace state, with the comma before it; nothing when it has none. */
  traceState(context: SpanContext): string {
    const traceState = context.traceState?.serialize();
    return traceState === undefined ? '' : `,"traceState":${this.string(traceState)}`;
  }

  span(span: ReadableSpan): string {
    const context = span.spanContext();
    const parentId = span.parentSpanContext?.spanId;
    const status = span.status;
    // Each field of the status left out when undefined, as JSON.stringify leaves it.
    const code = status.code as number | undefined;
    const statusCode = code === undefined ? '' : `"code":${number(code)}`;
    const statusMessage =
      status.message === undefined ? '' : `${code === undefined ? '' : ','}"message":${this.string(status.message)}`;
    return (
      `{"traceId":${this.string(context.traceId)},"spanId":${this.string(context.spanId)}` +
      `${parentId ? `,"parentSpanId":${this.string(parentId)}` : ''}${this.traceState(context)}` +
      `,"name":${this.string(span.name)},"kind":${number(span.kind == null ? 0 : span.kind + 1)}` +
      `,"startTimeUnixNano":${time(span.startTime)},"endTimeUnixNano":${time(span.endTime)}` +
      `,"attributes":${this.attributes(span.attributes)}` +
      `${count(',"droppedAttributesCount":', span.droppedAttributesCount)}` +
      `,"events":[${this.list(span.events, this.event)}]${count(',"droppedEventsCount":', span.droppedEventsCount)}` +
      `,"status":{${statusCode}${statusMessage}}` +
      `,"links":[${this.list(span.links, this.link)}]${count(',"droppedLinksCount":', span.droppedLinksCount)}` +
      `,"flags":${spanFlagsOf(context, span.parentSpanContext?.isRemote)}}`
    );
  }

  /** `items` written by `write`, separated by commas. */
  private list<Item>(items: readonly Item[], write: (this: JsonText, item: Item) => string): string {
    let text = '';
    for (let i = 0; i < items.length; i++) text += `${i > 0 ? ',' : ''}${write.call(this, items[i]!)}`;
    return text;
  }

  private event(event: TimedEvent): string {
    return (
      `{"attributes":${this.attributes(event.attributes ?? {})},"name":${this.string(event.name)}` +
      `,"timeUnixNano":${time(event.time)},"droppedAttributesCount":${number(event.droppedAttributesCount || 0)}}`
    );
  }

  private link(link: Link): string {
    const context = link.context;
    return (
      `{"attributes":${this.attributes(link.attributes ?? {})},"spanId":${this.string(context.spanId)}` +
      `,"traceId":${this.string(context.traceId)}${this.traceState(context)}` +
      `,"droppedAttributesCount":${number(link.droppedAttributesCount || 0)}` +
      `,"flags":${spanFlagsOf(context, context.isRemote)}}`
    );
  }

  /** A resource's opening: `{"resource":{…},"scopeSpans":[`. */
  resourceOpening(resource: ReadableSpan['resource']): string {
    return (
      `{"resource":{"attributes":${this.attributes(resource.attributes)},"droppedAttributesCount":0` +
      `${this.schemaUrl(resource.schemaUrl || undefined)}},"scopeSpans":[`
    );
  }

  /** A scope's opening: `{"scope":{…},"spans":[`. */
  scopeOpening(scope: OtlpScope): string {
    const version = scope.version === undefined ? '' : `,"version":${this.string(scope.version)}`;
    const attributes =
      scope.attributes && Object.keys(scope.attributes).length > 0
        ? `,"attributes":${this.attributes(scope.attributes)}` +
          `,"droppedAttributesCount":${number(scope.droppedAttributesCount ?? 0)}`
        : '';
    return `{"scope":{"name":${this.string(scope.name)}${version}${attributes}},"spans":[`;
  }

  /** A schema's address, with the comma before it; nothing when undefined. */
  schemaUrl(url: string | undefined): string {
    return url === undefined ? '' : `,"schemaUrl":${this.string(url)}`;
  }
}

/** An attribute's key as written last (JsonText.keyValue), and whether each text is all ASCII. */
interface KeptKey {
  opening: string;
  openingAscii: boolean;
  value: string | number | boolean | undefined;
  text: string;
  textAscii: boolean;
}

/** The keys kept (JsonText.keyValue), and how many at most: a server's keys are a few dozen. */
const keptKeys = new Map<string, KeptKey>();
const KEPT_KEYS = 512;
/**
 * The longest KeyValue text kept with its value: the values that repeat are short (a method, a route, an address),
 * and a long one (a query's text, with no length limit by default) would otherwise stay in memory until its key's
 * next value.
 */
const KEPT_TEXT_LENGTH = 512;

/** A number as JSON writes it: NaN and the infinities as null. */
function number(value: number): string {
  return Number.isFinite(value) ? `${value}` : 'null';
}

/** A count with the JSON before it, or nothing when it is undefined (JSON.stringify leaves such a field out). */
function count(name: string, value: number | undefined): string {
  return value === undefined ? '' : `${name}${number(value)}`;
}

/**
 * An OpenTelemetry time (seconds, nanoseconds) as a JSON string of its nanoseconds: the seconds, then the
 * nanoseconds on nine digits. A time outside what the SDK makes (a fraction, nanoseconds past a second, the epoch's
 * first second) goes through BigInt, as the SDK's serializer takes every time.
 */
function time([seconds, nanos]: HrTime): string {
  if (!(Number.isSafeInteger(seconds) && seconds > 0 && Number.isInteger(nanos) && nanos >= 0 && nanos < 1e9)) {
    return `"${BigInt(Math.trunc(seconds)) * 1_000_000_000n + BigInt(Math.trunc(nanos))}"`;
  }
  return `"${seconds}${`${1e9 + nanos}`.slice(1)}"`;
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
  const json = new JsonText();
  /** What `json` wrote since the last call, into the output. */
  const write = (text: string) => {
    output.text(text, json.ascii);
    json.ascii = true;
  };
  write('{"resourceSpans":[');
  let resourceCount = 0;
  for (const [resource, scopes] of groupByResourceAndScope(spans, scopeNameVersionAndSchema)) {
    write(`${resourceCount++ > 0 ? ',' : ''}${json.resourceOpening(resource)}`);
    let scopeCount = 0;
    for (const group of scopes.values()) {
      const scope: OtlpScope = group[0]!.instrumentationScope;
      write(`${scopeCount++ > 0 ? ',' : ''}${json.scopeOpening(scope)}`);
      for (let i = 0; i < group.length; i++) write(`${i > 0 ? ',' : ''}${json.span(group[i]!)}`);
      write(`]${json.schemaUrl(scope.schemaUrl)}}`);
    }
    write(`]${json.schemaUrl(resource.schemaUrl || undefined)}}`);
  }
  write(']}');
}

/** A scope as the SDK's JSON serializer tells scopes apart. */
function scopeNameVersionAndSchema(scope: OtlpScope): string {
  return `${scope.name}@${scope.version || ''}:${scope.schemaUrl || ''}`;
}
