/**
 * RequestSpan against the SDK's span: the same calls made on both, under the same limits, and what each exports
 * compared (every field but the ids, and the times the clock gives). The limits of spanLimitsOf against those the
 * SDK's provider reads from the same variables.
 */
import { diag, DiagLogLevel, ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, type Span } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  RandomIdGenerator,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanLimits,
} from '@opentelemetry/sdk-trace-base';
import { RequestSpan, spanLimitsOf } from './request-span';

const DEFAULT_LIMITS = spanLimitsOf({});
const resource = resourceFromAttributes({ 'service.name': 'slots-server' });

/**
 * What `run` tells the diagnostic logger, a line per call: its level, its message (ids as `<id>`) and what it gives
 * besides (an Error by its message).
 */
function diagnosticsOf(run: () => void): string[] {
  const lines: string[] = [];
  const ids = (text: string) => text.replace(/\b[0-9a-f]{32}\b|\b[0-9a-f]{16}\b/g, '<id>');
  const line =
    (level: string) =>
    (message: string, ...args: unknown[]) =>
      lines.push(
        [
          level,
          ids(message),
          ...args.map((arg) => (arg instanceof Error ? `Error: ${ids(arg.message)}` : typeof arg)),
        ].join(' | '),
      );
  const levels = ['error', 'warn', 'info', 'debug', 'verbose'] as const;
  diag.setLogger(Object.fromEntries(levels.map((level) => [level, line(level)])) as never, {
    logLevel: DiagLogLevel.ALL,
    suppressOverrideMessage: true,
  });
  try {
    run();
  } finally {
    diag.disable();
  }
  return lines;
}

/** A span of each kind, with `limits`, `calls` made on both; what each exported, and told the diagnostic logger. */
function bothAfter(
  calls: (span: Span, kind: 'sdk' | 'request') => void,
  limits: Partial<SpanLimits> = {},
): { sdk: ReadableSpan[]; request: ReadableSpan[]; diagnostics: { sdk: string[]; request: string[] } } {
  const all = { ...DEFAULT_LIMITS, ...limits } as Required<SpanLimits>;
  const sdkExported = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource,
    spanLimits: all,
    spanProcessors: [new SimpleSpanProcessor(sdkExported)],
  });
  const sdkSpan = provider.getTracer('slots-server').startSpan('GET', { kind: SpanKind.SERVER });
  const requestExported = new InMemorySpanExporter();
  const requestSpan = new RequestSpan(
    {
      resource,
      scope: { name: 'slots-server' },
      processor: new SimpleSpanProcessor(requestExported),
      limits: all,
      ids: new RandomIdGenerator(),
    },
    'GET',
    ROOT_CONTEXT,
  );
  const diagnostics = {
    sdk: diagnosticsOf(() => calls(sdkSpan, 'sdk')),
    request: diagnosticsOf(() => calls(requestSpan, 'request')),
  };
  return { sdk: sdkExported.getFinishedSpans(), request: requestExported.getFinishedSpans(), diagnostics };
}

/**
 * What a span exported says, but its ids and the times the clock gave: its start and duration, and unless `times`
 * (when every other time was given), its end and its events'.
 */
function comparable(span: ReadableSpan, times = false) {
  return {
    name: span.name,
    kind: span.kind,
    traceFlags: span.spanContext().traceFlags,
    parent: span.parentSpanContext,
    status: span.status,
    attributes: span.attributes,
    droppedAttributesCount: span.droppedAttributesCount,
    events: span.events.map((event) => ({ ...event, time: times ? event.time : undefined })),
    droppedEventsCount: span.droppedEventsCount,
    links: span.links,
    droppedLinksCount: span.droppedLinksCount,
    ended: span.ended,
    scope: span.instrumentationScope.name,
    resource: span.resource.attributes,
    ...(times ? { endTime: span.endTime } : {}),
  };
}

function expectSame(calls: (span: Span, kind: 'sdk' | 'request') => void, limits?: Partial<SpanLimits>, times = false) {
  const { sdk, request, diagnostics } = bothAfter(calls, limits);
  expect(request.map((span) => comparable(span, times))).toEqual(sdk.map((span) => comparable(span, times)));
  expect(request).toHaveLength(sdk.length);
  expect(diagnostics.request).toEqual(diagnostics.sdk);
}

const LINKED = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: TraceFlags.SAMPLED };

describe('RequestSpan, the same calls as on the SDK’s span', () => {
  it('attributes: every kind of value, the ones the SDK refuses, a key set again', () => {
    expectSame((span) => {
      span.setAttributes({ text: 'a', number: 1.5, whole: 7, yes: true, texts: ['x', 'y'], numbers: [1, 2] });
      span.setAttribute('nothing', undefined as never);
      span.setAttributes({ empty: null as never, '': 'no key', object: { a: 1 } as never, mixed: ['a', 1] as never });
      span.setAttribute('text', 'again');
      span.end();
    });
  });

  it('attributes past the count limit dropped and counted, a known key still set; values cut to the length', () => {
    expectSame(
      (span) => {
        span.setAttributes({ a: '1', b: '2', c: '3', d: '4' });
        span.setAttribute('a', 'changed');
        span.end();
      },
      { attributeCountLimit: 3 },
    );
    expectSame(
      (span) => {
        span.setAttributes({ long: 'abcdefgh', short: 'ab', list: ['abcdefgh', 'ab'], number: 123456 });
        span.end();
      },
      { attributeValueLengthLimit: 4 },
    );
  });

  it('a request’s attributes: kept as they are, or set one by one when some are dropped, over the limit or cut', () => {
    const request = () => ({ 'http.request.method': 'GET', 'url.path': '/slots', 'server.port': 4000 });
    const cases: Array<[() => Record<string, unknown>, Partial<SpanLimits>]> = [
      [request, {}],
      [() => ({ ...request(), 'user_agent.original': undefined, '': 'x' }), {}],
      [request, { attributeCountLimit: 2 }],
      [() => ({ ...request(), 'url.path': '/slots/a-long-path' }), { attributeValueLengthLimit: 6 }],
    ];
    for (const [attributes, limits] of cases) {
      expectSame((span, kind) => {
        const given = attributes() as never;
        if (kind === 'request') (span as RequestSpan).setRequestAttributes(given);
        else span.setAttributes(given);
        span.setAttribute('http.route', '/slots');
        span.end();
      }, limits);
    }
  });

  it('a request’s attributes kept as the span’s own object only when each is there and within the limits', () => {
    const given = { 'http.request.method': 'GET', 'url.path': '/slots' };
    const adopted = bothAfter((span, kind) => {
      if (kind === 'request') (span as RequestSpan).setRequestAttributes(given);
      span.end();
    });
    expect(adopted.request[0]!.attributes).toBe(given);
    const withHole = { ...given, 'user_agent.original': undefined };
    const copied = bothAfter((span, kind) => {
      if (kind === 'request') (span as RequestSpan).setRequestAttributes(withHole);
      span.end();
    });
    expect(copied.request[0]!.attributes).not.toBe(withHole);
    expect(copied.request[0]!.attributes).toEqual(given);
  });

  it('events: with attributes, times of every kind, past their limits', () => {
    const at = new Date('2026-11-26T12:00:00Z');
    expectSame(
      (span) => {
        span.addEvent('plain');
        span.addEvent('with attributes', { kept: 'yes', dropped: null as never });
        span.addEvent('at a date', at);
        span.addEvent('at a time', { a: 1 }, [1_700_000_000, 5]);
        span.addEvent('at epoch milliseconds', at.getTime() + 0.5);
        span.addEvent('time twice', at, [1_700_000_001, 0]);
        span.end([1_800_000_000, 0]);
      },
      {},
      false,
    );
    const { sdk, request } = bothAfter((span) => {
      span.addEvent('at a date', new Date(1_700_000_000_123));
      span.addEvent('at a time', { a: 1 }, [1_700_000_000, 5]);
      span.end([1_800_000_000, 0]);
    });
    expect(request.map((span) => comparable(span, true))).toEqual(sdk.map((span) => comparable(span, true)));
    expectSame(
      (span) => {
        for (const name of ['one', 'two', 'three']) span.addEvent(name, { a: 1, b: 2 });
        span.end();
      },
      { eventCountLimit: 2, attributePerEventCountLimit: 1 },
    );
    expectSame(
      (span) => {
        span.addEvent('refused');
        span.end();
      },
      { eventCountLimit: 0 },
    );
  });

  it('links: with and without attributes, past their limits', () => {
    expectSame((span) => {
      span.addLink({ context: LINKED });
      span.addLinks([{ context: LINKED, attributes: { reason: 'follows', empty: undefined } }]);
      span.end();
    });
    expectSame(
      (span) => {
        span.addLinks([
          { context: LINKED, attributes: { a: 1, b: 2 } },
          { context: { ...LINKED, spanId: 'c'.repeat(16) } },
        ]);
        span.end();
      },
      { linkCountLimit: 1, attributePerLinkCountLimit: 1 },
    );
    expectSame(
      (span) => {
        span.addLink({ context: LINKED });
        span.end();
      },
      { linkCountLimit: 0 },
    );
  });

  it('status: an error with its message, an OK that stays, an unset one ignored, a message not a string', () => {
    for (const statuses of [
      [{ code: SpanStatusCode.ERROR, message: 'failed' }],
      [{ code: SpanStatusCode.OK }, { code: SpanStatusCode.ERROR, message: 'too late' }],
      [{ code: SpanStatusCode.ERROR }, { code: SpanStatusCode.UNSET }],
      [{ code: SpanStatusCode.ERROR, message: 42 as never }],
      [{ code: SpanStatusCode.OK, message: 'not kept' }],
    ]) {
      expectSame((span) => {
        for (const status of statuses) span.setStatus(status);
        span.end();
      });
    }
  });

  it('exceptions recorded as the SDK records them', () => {
    const coded = Object.assign(new Error('refused'), { code: 'E_REFUSED' });
    const typed = new TypeError('bad type');
    expectSame(
      (span) => {
        span.recordException(coded, [1_700_000_000, 0]);
        span.recordException(typed, [1_700_000_000, 1]);
        span.recordException('a message', [1_700_000_000, 2]);
        span.recordException({} as never);
        span.end([1_800_000_000, 0]);
      },
      {},
      false,
    );
  });

  it('renamed; nothing changes after its end, which happens once; an end before its start lasts nothing', () => {
    expectSame((span) => {
      span.updateName('GET /slots');
      span.end();
      span.updateName('after');
      span.setAttribute('after', 1);
      span.addEvent('after');
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    const { sdk, request } = bothAfter((span) => span.end([1_000, 0]));
    expect(request[0]!.duration).toEqual([0, 0]);
    expect(request[0]!.endTime).toEqual(request[0]!.startTime);
    expect(sdk[0]!.duration).toEqual([0, 0]);
  });

  it('its times: started now, ended a duration later on the performance clock; a reading of that clock as a time', () => {
    const before = Date.now();
    const { request } = bothAfter((span, kind) => {
      if (kind === 'request') span.addEvent('read from the clock', performance.now());
      span.end();
    });
    const [span] = request;
    const millis = ([seconds, nanos]: readonly [number, number]) => seconds * 1000 + nanos / 1e6;
    expect(millis(span!.startTime)).toBeGreaterThanOrEqual(before);
    expect(millis(span!.startTime)).toBeLessThanOrEqual(Date.now());
    expect(millis(span!.duration)).toBeGreaterThanOrEqual(0);
    expect(millis(span!.endTime) - millis(span!.startTime)).toBeCloseTo(millis(span!.duration), 2);
    expect(Math.abs(millis(span!.events[0]!.time) - Date.now())).toBeLessThan(1000);
  });

  it('a new trace, sampled, its ids the sink’s; under a caller’s span, its trace and state', () => {
    const ids = { generateTraceId: () => 'c'.repeat(32), generateSpanId: () => 'd'.repeat(16) };
    const sink = {
      resource,
      scope: { name: 'slots-server' },
      processor: new SimpleSpanProcessor(new InMemorySpanExporter()),
      limits: DEFAULT_LIMITS,
      ids,
    };
    expect(new RequestSpan(sink, 'GET', ROOT_CONTEXT).spanContext()).toEqual({
      traceId: 'c'.repeat(32),
      spanId: 'd'.repeat(16),
      traceFlags: TraceFlags.SAMPLED,
    });
    const traceState = { serialize: () => 'vendor=value' } as never;
    const child = new RequestSpan(sink, 'GET', ROOT_CONTEXT, { ...LINKED, isRemote: true, traceState });
    expect(child.spanContext()).toEqual({
      traceId: LINKED.traceId,
      spanId: 'd'.repeat(16),
      traceFlags: TraceFlags.SAMPLED,
      traceState,
    });
    expect(child.parentSpanContext?.spanId).toBe(LINKED.spanId);
  });
});

describe('spanLimitsOf', () => {
  const NAMES = [
    'OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT',
    'OTEL_ATTRIBUTE_COUNT_LIMIT',
    'OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT',
    'OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT',
    'OTEL_SPAN_LINK_COUNT_LIMIT',
    'OTEL_SPAN_EVENT_COUNT_LIMIT',
    'OTEL_SPAN_ATTRIBUTE_PER_EVENT_COUNT_LIMIT',
    'OTEL_SPAN_ATTRIBUTE_PER_LINK_COUNT_LIMIT',
  ];
  const saved = Object.fromEntries(NAMES.map((name) => [name, process.env[name]]));
  afterEach(() => {
    for (const name of NAMES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  });

  /** The limits the SDK's provider reads from the process's environment when given none. */
  function sdkLimits(): SpanLimits {
    const tracer = new BasicTracerProvider().getTracer('limits');
    return (tracer as unknown as { _spanLimits: SpanLimits })._spanLimits;
  }

  it.each([
    ['none set', {}],
    ['span limits', { OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT: '10', OTEL_SPAN_ATTRIBUTE_VALUE_LENGTH_LIMIT: '64' }],
    ['general limits only', { OTEL_ATTRIBUTE_COUNT_LIMIT: '20', OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT: '32' }],
    ['both, the span’s first', { OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT: '5', OTEL_ATTRIBUTE_COUNT_LIMIT: '50' }],
    [
      'events and links',
      {
        OTEL_SPAN_LINK_COUNT_LIMIT: '3',
        OTEL_SPAN_EVENT_COUNT_LIMIT: '4',
        OTEL_SPAN_ATTRIBUTE_PER_EVENT_COUNT_LIMIT: '5',
        OTEL_SPAN_ATTRIBUTE_PER_LINK_COUNT_LIMIT: '6',
      },
    ],
    ['blank or not a number', { OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT: ' ', OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT: 'many' }],
    ['spaces around', { OTEL_SPAN_EVENT_COUNT_LIMIT: ' 7 ' }],
  ])('as the SDK reads them: %s', (_, env: Record<string, string>) => {
    for (const name of NAMES) delete process.env[name];
    Object.assign(process.env, env);
    expect(spanLimitsOf(process.env)).toEqual(sdkLimits());
  });
});
