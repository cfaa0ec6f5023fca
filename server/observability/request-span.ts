/**
 * The span of a request this server records itself (traceServerRequests, with a parent-based sampler): a span as
 * the SDK's would be for the same calls, its ids, times, attributes, events, links, status and limits, handed to the
 * same span processor when it ends, without the SDK's tracer and span classes.
 *
 * Why: a recorded `GET /slots` spent about 1.1 µs of its time in the SDK's `startSpan`, its span's constructor, its
 * `setAttributes` and its `end` (the sampler asked again, a metric's attribute objects, each attribute stored key by
 * key into an empty object, times read through the SDK's clock helpers), against 0.15 µs for the same span made here
 * (docs/operators/performance.md, "Tenth round"). The request's attributes, worked out into an object of their own
 * (ServerSpanAttributes), become the span's attributes as they are when nothing in them is dropped or cut.
 *
 * Every call behaves as on the SDK's span (request-span.test.ts runs the same calls on both and compares what is
 * exported), with the limits the provider is given (spanLimitsOf), which the SDK reads from the same variables.
 * Above 300 lines for one reason: it is one span, the whole of the API's and the exporters' interface, tested as one
 * against the SDK's.
 */
import {
  diag,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  type Attributes,
  type AttributeValue,
  type Context,
  type Exception,
  type HrTime,
  type Link,
  type Span,
  type SpanContext,
  type SpanStatus,
  type TimeInput,
} from '@opentelemetry/api';
import {
  addHrTimes,
  hrTime,
  hrTimeDuration,
  isAttributeValue,
  isTimeInput,
  isTimeInputHrTime,
  millisToHrTime,
  sanitizeAttributes,
} from '@opentelemetry/core';
import type { IdGenerator, ReadableSpan, SpanLimits, SpanProcessor, TimedEvent } from '@opentelemetry/sdk-trace-base';
import type { inspect, InspectOptions } from 'node:util';

/** Where a request's span comes from and goes: the provider's resource, limits and span processor, a scope, ids. */
export interface RequestSpanSink {
  readonly resource: ReadableSpan['resource'];
  readonly scope: ReadableSpan['instrumentationScope'];
  readonly processor: SpanProcessor;
  readonly limits: Required<SpanLimits>;
  readonly ids: IdGenerator;
}

/**
 * The span limits of `env`, as the SDK's tracer provider reads them when given none: each span limit's variable,
 * then, for the attributes' count and length, the general one (`OTEL_ATTRIBUTE_COUNT_LIMIT`,
 * `OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT`), then the default (128, no length limit). The provider is given them, so the
 * SDK's spans (Express's, pg's) and RequestSpan keep the same ones.
 */
export function spanLimitsOf(env: NodeJS.ProcessEnv): Required<SpanLimits> {
  const number = (name: string): number | undefined => {
    const raw = env[name]?.trim();
    const value = raw ? Number(raw) : NaN;
    return Number.isNaN(value) ? undefined : value;
  };
  return {
    attributeCountLimit: number('OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT') ?? number('OTEL_ATTRIBUTE_COUNT_LIMIT') ?? 128,
    attributeValueLengthLimit:
      number('OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT') ?? number('OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT') ?? Infinity,
    linkCountLimit: number('OTEL_SPAN_LINK_COUNT_LIMIT') ?? 128,
    eventCountLimit: number('OTEL_SPAN_EVENT_COUNT_LIMIT') ?? 128,
    attributePerEventCountLimit: number('OTEL_SPAN_ATTRIBUTE_PER_EVENT_COUNT_LIMIT') ?? 128,
    attributePerLinkCountLimit: number('OTEL_SPAN_ATTRIBUTE_PER_LINK_COUNT_LIMIT') ?? 128,
  };
}

/** A server span, recorded and sampled, started now: a new trace, or under `parent` (a caller's sampled span). */
export class RequestSpan implements Span, ReadableSpan {
  readonly kind = SpanKind.SERVER;
  readonly startTime: HrTime;
  endTime: HrTime = [0, 0];
  duration: HrTime = [-1, -1];
  ended = false;
  status: SpanStatus = { code: SpanStatusCode.UNSET };
  attributes: Attributes = {};
  readonly links: Link[] = [];
  readonly events: TimedEvent[] = [];
  droppedAttributesCount = 0;
  droppedEventsCount = 0;
  droppedLinksCount = 0;
  readonly resource: ReadableSpan['resource'];
  readonly instrumentationScope: ReadableSpan['instrumentationScope'];
  private readonly context: SpanContext;
  private attributeCount = 0;
  /** When it started: the performance clock's reading, and the epoch's (from which a reading of that clock is dated). */
  private readonly startedAt: number;
  private readonly startedAtEpoch: number;

  constructor(
    private readonly sink: RequestSpanSink,
    public name: string,
    startedFrom: Context,
    readonly parentSpanContext?: SpanContext,
  ) {
    this.startedAtEpoch = Date.now();
    this.startedAt = performance.now();
    this.startTime = millisToHrTime(this.startedAtEpoch);
    // The span id first, as the SDK's tracer makes them (an IdGenerator of the caller's sees the same order).
    const spanId = sink.ids.generateSpanId();
    const traceId = parentSpanContext?.traceId ?? sink.ids.generateTraceId();
    const traceState = parentSpanContext?.traceState;
    this.context =
      traceState === undefined
        ? { traceId, spanId, traceFlags: TraceFlags.SAMPLED }
        : { traceId, spanId, traceFlags: TraceFlags.SAMPLED, traceState };
    this.resource = sink.resource;
    this.instrumentationScope = sink.scope;
    sink.processor.onStart(this, startedFrom);
  }

  spanContext(): SpanContext {
    return this.context;
  }

  isRecording(): boolean {
    return !this.ended;
  }

  /**
   * The request's attributes, an object made for this span alone (nothing else keeps or changes it): kept as the
   * span's own when none is dropped or cut, or set one by one as setAttributes sets them. A value left undefined (a
   * request without a `User-Agent`: the instrumentation's function still writes its key) is dropped, so that object
   * goes the second way.
   */
  setRequestAttributes(attributes: Attributes): void {
    const { attributeCountLimit, attributeValueLengthLimit } = this.sink.limits;
    const names = Object.keys(attributes);
    let kept =
      this.attributeCount === 0 && names.length <= attributeCountLimit && attributeValueLengthLimit === Infinity;
    for (let i = 0; kept && i < names.length; i++) {
      const value = attributes[names[i]!];
      kept = value != null && names[i] !== '' && isAttributeValue(value);
    }
    if (kept && !this.ended) {
      this.attributes = attributes;
      this.attributeCount = names.length;
    } else {
      this.setAttributes(attributes);
    }
  }

  setAttribute(key: string, value?: AttributeValue): this {
    if (value == null || this.endedWarning()) return this;
    if (key.length === 0) {
      diag.warn(`Invalid attribute key: ${key}`);
      return this;
    }
    if (!isAttributeValue(value)) {
      diag.warn(`Invalid attribute value set for key: ${key}`);
      return this;
    }
    const isNew = !Object.hasOwn(this.attributes, key);
    if (isNew && this.attributeCount >= this.sink.limits.attributeCountLimit) {
      this.droppedAttributesCount++;
      return this;
    }
    this.attributes[key] = this.cut(value);
    if (isNew) this.attributeCount++;
    return this;
  }

  setAttributes(attributes: Attributes): this {
    for (const key in attributes) {
      if (Object.hasOwn(attributes, key)) this.setAttribute(key, attributes[key]);
    }
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (this.endedWarning()) return this;
    const { eventCountLimit, attributePerEventCountLimit } = this.sink.limits;
    if (eventCountLimit === 0) {
      diag.warn('No events allowed.');
      this.droppedEventsCount++;
      return this;
    }
    if (this.droppedOldest(this.events, eventCountLimit, this.droppedEventsCount, 'events')) this.droppedEventsCount++;
    let given: Attributes | undefined;
    if (isTimeInput(attributesOrTime)) {
      if (!isTimeInput(time)) time = attributesOrTime;
    } else {
      given = attributesOrTime;
    }
    const { attributes, dropped } = this.limited(given, attributePerEventCountLimit);
    this.events.push({ name, attributes, time: this.timeOf(time), droppedAttributesCount: dropped });
    return this;
  }

  addLink(link: Link): this {
    if (this.endedWarning()) return this;
    const { linkCountLimit, attributePerLinkCountLimit } = this.sink.limits;
    if (linkCountLimit === 0) {
      this.droppedLinksCount++;
      return this;
    }
    if (this.droppedOldest(this.links, linkCountLimit, this.droppedLinksCount, 'links')) this.droppedLinksCount++;
    const { attributes, dropped } = this.limited(link.attributes, attributePerLinkCountLimit);
    this.links.push({
      context: link.context,
      ...(Object.keys(attributes).length > 0 ? { attributes } : {}),
      ...(dropped > 0 ? { droppedAttributesCount: dropped } : {}),
    });
    return this;
  }

  addLinks(links: Link[]): this {
    for (const link of links) this.addLink(link);
    return this;
  }

  setStatus(status: SpanStatus): this {
    if (this.endedWarning()) return this;
    if (status.code === SpanStatusCode.UNSET || this.status.code === SpanStatusCode.OK) return this;
    const next: SpanStatus = { code: status.code };
    if (status.code === SpanStatusCode.ERROR) {
      if (typeof status.message === 'string') next.message = status.message;
      else if (status.message != null) {
        diag.warn(`Dropping invalid status.message of type '${typeof status.message}', expected 'string'`);
      }
    }
    this.status = next;
    return this;
  }

  updateName(name: string): this {
    if (!this.endedWarning()) this.name = name;
    return this;
  }

  recordException(exception: Exception, time?: TimeInput): void {
    const attributes: Attributes = {};
    if (typeof exception === 'string') {
      attributes['exception.message'] = exception;
    } else if (exception) {
      if (exception.code) attributes['exception.type'] = exception.code.toString();
      else if (exception.name) attributes['exception.type'] = exception.name;
      if (exception.message) attributes['exception.message'] = exception.message;
      if (exception.stack) attributes['exception.stacktrace'] = exception.stack;
    }
    if (attributes['exception.type'] || attributes['exception.message']) this.addEvent('exception', attributes, time);
    else diag.warn(`Failed to record an exception ${String(exception)}`);
  }

  end(endTime?: TimeInput): void {
    if (this.endedWarning()) {
      diag.error(
        `${this.name} ${this.context.traceId}-${this.context.spanId} - You can only call end() on a span once.`,
      );
      return;
    }
    this.endTime = this.timeOf(endTime);
    this.duration = hrTimeDuration(this.startTime, this.endTime);
    if (this.duration[0] < 0) {
      const [startTime, givenEnd] = [this.startTime, this.endTime];
      diag.warn(
        'Inconsistent start and end time, startTime > endTime. Setting span duration to 0ms.',
        startTime,
        givenEnd,
      );
      this.endTime = [this.startTime[0], this.startTime[1]];
      this.duration = [0, 0];
    }
    if (this.droppedEventsCount > 0)
      diag.warn(`Dropped ${this.droppedEventsCount} events because eventCountLimit reached`);
    if (this.droppedLinksCount > 0) diag.warn(`Dropped ${this.droppedLinksCount} links because linkCountLimit reached`);
    this.sink.processor.onEnding?.(this);
    this.ended = true;
    this.sink.processor.onEnd(this);
  }

  /**
   * What `util.inspect` shows, as for the SDK's span: the span's own fields, not the sink (its processor, its exporter
   * and the other spans waiting for their batch).
   */
  [Symbol.for('nodejs.util.inspect.custom')](depth: number, options: InspectOptions, show: typeof inspect): string {
    const payload = {
      name: this.name,
      kind: this.kind,
      spanContext: this.context,
      parentSpanContext: this.parentSpanContext,
      status: this.status,
      startTime: this.startTime,
      endTime: this.endTime,
      duration: this.duration,
      ended: this.ended,
      attributes: this.attributes,
      events: this.events,
      links: this.links,
      droppedAttributesCount: this.droppedAttributesCount,
      droppedEventsCount: this.droppedEventsCount,
      droppedLinksCount: this.droppedLinksCount,
      instrumentationScope: this.instrumentationScope,
      resource: { attributes: this.resource.attributes },
    };
    return `RequestSpan ${show(payload, { ...options, depth })}`;
  }

  /** Whether the span has ended, which any change after is told to the diagnostic logger (the SDK's warning). */
  private endedWarning(): boolean {
    if (this.ended) {
      const { traceId, spanId } = this.context;
      const ids = `{traceId: ${traceId}, spanId: ${spanId}}`;
      diag.warn(
        `Cannot execute the operation on ended Span ${ids}`,
        new Error(`Operation attempted on ended Span ${ids}`),
      );
    }
    return this.ended;
  }

  /** Whether `list` was full under `limit`, its oldest item then dropped to make room (the SDK keeps the newest). */
  private droppedOldest(list: unknown[], limit: number, droppedBefore: number, what: 'events' | 'links'): boolean {
    if (list.length < limit) return false;
    if (droppedBefore === 0) diag.debug(`Dropping extra ${what}.`);
    list.shift();
    return true;
  }

  /** An event's or a link's attributes: the valid ones, at most `limit`, each value cut to the length limit. */
  private limited(given: Attributes | undefined, limit: number): { attributes: Attributes; dropped: number } {
    const valid = sanitizeAttributes(given);
    const attributes: Attributes = {};
    let count = 0;
    let dropped = 0;
    for (const key in valid) {
      if (!Object.hasOwn(valid, key)) continue;
      if (count >= limit) {
        dropped++;
        continue;
      }
      attributes[key] = this.cut(valid[key]!);
      count++;
    }
    return { attributes, dropped };
  }

  /** A value cut to the attribute length limit: a string, or each string of an array. */
  private cut(value: AttributeValue): AttributeValue {
    const limit = this.sink.limits.attributeValueLengthLimit;
    if (limit <= 0) {
      diag.warn(`Attribute value limit must be positive, got ${limit}`);
      return value;
    }
    if (typeof value === 'string') return value.length <= limit ? value : value.substring(0, limit);
    if (Array.isArray(value)) {
      return value.map((item: unknown) =>
        typeof item === 'string' && item.length > limit ? item.substring(0, limit) : item,
      ) as AttributeValue;
    }
    return value;
  }

  /**
   * A time given to the span, as the SDK reads it: a number no later than the performance clock's reading is a
   * reading of that clock, a later one milliseconds since the epoch; none is now, measured from the span's start on
   * the performance clock.
   */
  private timeOf(input: TimeInput | undefined): HrTime {
    if (typeof input === 'number') {
      if (input > performance.now()) return millisToHrTime(input);
      return hrTime(input + this.startedAtEpoch - (this.startedAt + performance.timeOrigin));
    }
    if (input instanceof Date) return millisToHrTime(input.getTime());
    if (isTimeInputHrTime(input)) return input;
    return addHrTimes(this.startTime, millisToHrTime(performance.now() - this.startedAt));
  }
}
