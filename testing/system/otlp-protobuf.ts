/**
 * Reads an OTLP/HTTP protobuf export (`ExportTraceServiceRequest`, opentelemetry-proto's trace service) into the shape
 * of its JSON encoding, as far as the tests read it: resources with their attributes, and spans with their ids (hex),
 * parent, name, kind and attributes. A receiver's own decoder, written from the proto files, so that a test checks
 * what the server sends rather than the SDK's encoder against itself.
 */

/** An attribute's value as OTLP/JSON writes it. */
export interface OtlpJsonValue {
  stringValue?: string;
  intValue?: number | string;
  boolValue?: boolean;
  doubleValue?: number;
}
export interface OtlpJsonAttribute {
  key: string;
  value: OtlpJsonValue;
}
export interface OtlpJsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpJsonAttribute[];
}
/** An `ExportTraceServiceRequest` as OTLP/JSON writes it (the fields above). */
export interface OtlpJsonExport {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpJsonAttribute[] };
    scopeSpans?: Array<{ spans?: OtlpJsonSpan[] }>;
  }>;
}

/** The wire types of the protobuf encoding. */
const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;
const FIXED32 = 5;

/** One field of a message: its number, and its value (a number for a varint, the bytes otherwise). */
interface Field {
  number: number;
  wireType: number;
  varint: bigint;
  bytes: Uint8Array;
}

/** The fields of one message, in order; a wire type the trace protos do not use (groups) is refused. */
function fieldsOf(message: Uint8Array): Field[] {
  const fields: Field[] = [];
  let at = 0;
  const varint = (): bigint => {
    let value = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (at >= message.length) throw new Error('protobuf: a varint runs past the end of its message');
      const byte = message[at++]!;
      value |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return value;
    }
  };
  const take = (length: number): Uint8Array => {
    if (at + length > message.length) throw new Error('protobuf: a field runs past the end of its message');
    const bytes = message.subarray(at, at + length);
    at += length;
    return bytes;
  };
  while (at < message.length) {
    const tag = Number(varint());
    const field: Field = { number: tag >>> 3, wireType: tag & 7, varint: 0n, bytes: new Uint8Array() };
    if (field.wireType === VARINT) field.varint = varint();
    else if (field.wireType === FIXED64) field.bytes = take(8);
    else if (field.wireType === LENGTH_DELIMITED) field.bytes = take(Number(varint()));
    else if (field.wireType === FIXED32) field.bytes = take(4);
    else throw new Error(`protobuf: wire type ${field.wireType} (field ${field.number}) is not used by OTLP`);
    fields.push(field);
  }
  return fields;
}

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** AnyValue: 1 string, 2 bool, 3 int64, 4 double (arrays, maps and bytes are not read). */
function valueOf(message: Uint8Array): OtlpJsonValue {
  const value: OtlpJsonValue = {};
  for (const field of fieldsOf(message)) {
    if (field.number === 1) value.stringValue = text(field.bytes);
    else if (field.number === 2) value.boolValue = field.varint !== 0n;
    else if (field.number === 3) value.intValue = Number(BigInt.asIntN(64, field.varint));
    else if (field.number === 4) value.doubleValue = Buffer.from(field.bytes).readDoubleLE(0);
  }
  return value;
}

/** KeyValue: 1 key, 2 value. */
function attributeOf(message: Uint8Array): OtlpJsonAttribute {
  const attribute: OtlpJsonAttribute = { key: '', value: {} };
  for (const field of fieldsOf(message)) {
    if (field.number === 1) attribute.key = text(field.bytes);
    else if (field.number === 2) attribute.value = valueOf(field.bytes);
  }
  return attribute;
}

/** Span: 1 trace_id, 2 span_id, 4 parent_span_id, 5 name, 6 kind, 9 attributes. */
function spanOf(message: Uint8Array): OtlpJsonSpan {
  const span: OtlpJsonSpan = { traceId: '', spanId: '', name: '', kind: 0, attributes: [] };
  for (const field of fieldsOf(message)) {
    if (field.number === 1) span.traceId = hex(field.bytes);
    else if (field.number === 2) span.spanId = hex(field.bytes);
    else if (field.number === 4 && field.bytes.length > 0) span.parentSpanId = hex(field.bytes);
    else if (field.number === 5) span.name = text(field.bytes);
    else if (field.number === 6) span.kind = Number(field.varint);
    else if (field.number === 9) span.attributes!.push(attributeOf(field.bytes));
  }
  return span;
}

/** ExportTraceServiceRequest: 1 resource_spans; ResourceSpans: 1 resource (1 attributes), 2 scope_spans (2 spans). */
export function decodeOtlpTraceExport(body: Uint8Array): OtlpJsonExport {
  const resourceSpans: NonNullable<OtlpJsonExport['resourceSpans']> = [];
  for (const field of fieldsOf(body)) {
    if (field.number !== 1) continue;
    const entry: (typeof resourceSpans)[number] = { resource: { attributes: [] }, scopeSpans: [] };
    for (const part of fieldsOf(field.bytes)) {
      if (part.number === 1) {
        for (const attribute of fieldsOf(part.bytes)) {
          if (attribute.number === 1) entry.resource!.attributes!.push(attributeOf(attribute.bytes));
        }
      } else if (part.number === 2) {
        const spans = fieldsOf(part.bytes)
          .filter((scopeField) => scopeField.number === 2)
          .map((scopeField) => spanOf(scopeField.bytes));
        entry.scopeSpans!.push({ spans });
      }
    }
    resourceSpans.push(entry);
  }
  return { resourceSpans };
}
