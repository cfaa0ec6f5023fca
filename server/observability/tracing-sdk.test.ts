/**
 * The server span of each request (traceServerRequests), as start-server.ts wraps the app's listener with traces
 * sent: a sampled request's span carries its route, its status and the HTTP instrumentation's attributes; a request
 * the sampler leaves out is exported as nothing and costs no attribute work, yet its trace is in its log lines.
 *
 * The SDK's tracer provider with an in-memory exporter; no module is patched (the server span is the server's own).
 */
import http from 'node:http';
import { ROOT_CONTEXT, trace, type Span } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  InMemorySpanExporter,
  ParentBasedSampler,
  RandomIdGenerator,
  SimpleSpanProcessor,
  TraceIdRatioBasedSampler,
  type IdGenerator,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import request from 'supertest';
import { createLogger } from '../logger';
import { registerInMemoryTracing } from '../../testing/server/in-memory-tracing';
import { createDemoApp, type DemoTestApp } from '../../testing/server/test-app';
import { waitUntil } from '../../testing/server/wait-until';
import { spanLimitsOf, type RequestSpanSink } from './request-span';
import { traceOf } from './request-trace';
import { traceSamplerOf } from './trace-sampler-setting';
import {
  HTTP_SPAN_ATTRIBUTES,
  nameRequestRoute,
  rootSamplingOf,
  traceServerRequests,
  type RootSampling,
  type ServerSpanAttributes,
} from './tracing-sdk';

const PARENT_ID = '00f067aa0ba902b7';
const SERVER_SPAN = 1;

const { provider, exporter, heldContext } = registerInMemoryTracing();

let testApp: DemoTestApp | undefined;
afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
  exporter.reset();
});

/** A `traceparent` of a trace of its own, its caller's span sampled (`01`) or not (`00`). */
function traceparent(digit: string, sampled: boolean): { traceId: string; header: string } {
  const traceId = digit.repeat(32);
  return { traceId, header: `00-${traceId}-${PARENT_ID}-${sampled ? '01' : '00'}` };
}

/** The demo app (LOG_REQUESTS, its lines kept) behind node:http's server, with a server span per request. */
async function tracedServer(
  attributes: ServerSpanAttributes,
  tracer = provider.getTracer('server-spans'),
  rootSampling?: RootSampling,
) {
  const lines: Array<{ trace_id?: string; req?: { url?: string } }> = [];
  const logger = createLogger('production', 'info', { write: (line: string) => void lines.push(JSON.parse(line)) });
  testApp = await createDemoApp({ logger, logRequests: true, nameTracedRoute: nameRequestRoute });
  // As start-server.ts wraps it: the public fast path is the part answered at once.
  const listener = traceServerRequests(tracer, testApp.app.handler, attributes, {
    rootSampling,
    heldContext,
    answerAtOnce: testApp.app.answerAtOnce,
  });
  return { server: http.createServer(listener), lines };
}

async function serverSpanOf(traceId: string): Promise<ReadableSpan> {
  const find = () =>
    exporter.getFinishedSpans().find((span) => span.spanContext().traceId === traceId && span.kind === SERVER_SPAN);
  await waitUntil(async () => find() !== undefined);
  return find()!;
}

/** Every attribute function called, counted. */
function countedAttributes(): ServerSpanAttributes & { calls: { request: number; status: number } } {
  const calls = { request: 0, status: 0 };
  return {
    calls,
    request: (req) => (calls.request++, HTTP_SPAN_ATTRIBUTES.request(req)),
    status: (code) => (calls.status++, HTTP_SPAN_ATTRIBUTES.status(code)),
  };
}

describe('a sampled request’s span', () => {
  it('answered before Express’s router (GET /slots): named by its route, with its status and request attributes', async () => {
    const { server } = await tracedServer(HTTP_SPAN_ATTRIBUTES);
    const slots = traceparent('a', true);
    await request(server).get('/slots?view=full').set('traceparent', slots.header).expect(200);
    const span = await serverSpanOf(slots.traceId);
    expect(span.name).toBe('GET /slots');
    expect(span.parentSpanContext?.spanId).toBe(PARENT_ID);
    expect(span.attributes).toMatchObject({
      'http.route': '/slots',
      'http.response.status_code': 200,
      'http.request.method': 'GET',
      'url.path': '/slots',
      'url.query': 'view=full',
      'url.scheme': 'http',
    });
  });

  it('of an Express route: named by its route, with the status it answered', async () => {
    const { server } = await tracedServer(HTTP_SPAN_ATTRIBUTES);
    const meta = traceparent('b', true);
    // Signed out: the route answers 401.
    await request(server).get('/meta').set('traceparent', meta.header).expect(401);
    const span = await serverSpanOf(meta.traceId);
    expect(span.name).toBe('GET /meta');
    expect(span.attributes['http.route']).toBe('/meta');
    expect(span.attributes['http.response.status_code']).toBe(401);
  });
});

describe('a request sampled out', () => {
  it('its caller’s span not sampled: no span exported, no attribute worked out, its trace id still logged', async () => {
    const attributes = countedAttributes();
    const { server, lines } = await tracedServer(attributes);
    const left = traceparent('c', false);
    await request(server).get('/slots').set('traceparent', left.header).expect(200);
    await request(server).get('/meta').set('traceparent', left.header).expect(401);
    // A sampled request after them: once its span is exported, theirs would have been too.
    const taken = traceparent('d', true);
    await request(server).get('/slots').set('traceparent', taken.header).expect(200);
    await serverSpanOf(taken.traceId);

    expect(exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === left.traceId)).toEqual([]);
    expect(attributes.calls).toEqual({ request: 1, status: 1 });
    const logged = lines.filter((line) => line.trace_id === left.traceId).map((line) => line.req?.url);
    expect(logged).toEqual(['/slots', '/meta']);
  });

  it('by the ratio at the root (no traceparent, parentbased_traceidratio at 0): no span exported', async () => {
    const sampler = new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(0) });
    const exported = new InMemorySpanExporter();
    const rationed = new NodeTracerProvider({ sampler, spanProcessors: [new SimpleSpanProcessor(exported)] });
    const attributes = countedAttributes();
    const { server, lines } = await tracedServer(attributes, rationed.getTracer('server-spans'));
    for (let sent = 0; sent < 5; sent++) await request(server).get('/slots').expect(200);
    await rationed.forceFlush();
    expect(exported.getFinishedSpans()).toEqual([]);
    expect(attributes.calls).toEqual({ request: 0, status: 0 });
    // Each still has a trace of its own in its log line.
    const traces = new Set(lines.filter((line) => line.req?.url === '/slots').map((line) => line.trace_id));
    expect(traces.size).toBe(5);
    await rationed.shutdown();
  });
});

describe('a recorded request the listener answers at once (answerAtOnce)', () => {
  /** What the part answered at once saw of its request's span: while it ran, a turn later, and at the answer's end. */
  interface Seen {
    during?: Span;
    nextTurn?: Span;
    logged?: string;
  }

  /**
   * A listener whose part answered at once takes `/at-once` and declines anything else (the rest of the listener
   * answers it a turn later), each recording what it saw.
   */
  function atOnceServer(seen: Record<string, Seen>): http.Server {
    const sawFor = (req: http.IncomingMessage): Seen => (seen[req.url!] = {});
    const answerAtOnce = (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
      if (req.url !== '/at-once') return false;
      const saw = sawFor(req);
      saw.during = trace.getActiveSpan();
      setImmediate(() => (saw.nextTurn = trace.getActiveSpan()));
      res.on('finish', () => (saw.logged = traceOf(req).spanId));
      res.end('at once');
      return true;
    };
    const listener: http.RequestListener = (req, res) => {
      if (answerAtOnce(req, res)) return;
      const saw = sawFor(req);
      saw.during = trace.getActiveSpan();
      setImmediate(() => {
        saw.nextTurn = trace.getActiveSpan();
        res.end('later');
      });
    };
    const tracer = provider.getTracer('server-spans');
    return http.createServer(
      traceServerRequests(tracer, listener, HTTP_SPAN_ATTRIBUTES, { heldContext, answerAtOnce }),
    );
  }

  it('has its span active while it is answered, carried into nothing after, and its trace in its log line', async () => {
    const seen: Record<string, Seen> = {};
    const server = atOnceServer(seen);
    // As after a request sampled out: AsyncLocalStorage off, nothing holding it.
    expect(heldContext.offUnlessHeld()).toBe(true);
    const atOnce = traceparent('1', true);
    await request(server).get('/at-once').set('traceparent', atOnce.header).expect(200, 'at once');
    const span = await serverSpanOf(atOnce.traceId);
    await waitUntil(async () => 'nextTurn' in seen['/at-once']!);
    expect(seen['/at-once']!.during?.spanContext()).toEqual(span.spanContext());
    // AsyncLocalStorage was not entered for it: the callback it left for the next turn runs in no context.
    expect(seen['/at-once']!.nextTurn).toBeUndefined();
    expect(seen['/at-once']!.logged).toBe(span.spanContext().spanId);
    expect(span.status.code).toBe(0);
  });

  it('one it declines is answered by the listener, its context carried across its asynchronous steps', async () => {
    const seen: Record<string, Seen> = {};
    const server = atOnceServer(seen);
    const later = traceparent('2', true);
    await request(server).get('/later').set('traceparent', later.header).expect(200, 'later');
    const span = await serverSpanOf(later.traceId);
    expect(seen['/later']!.during?.spanContext()).toEqual(span.spanContext());
    expect(seen['/later']!.nextTurn?.spanContext()).toEqual(span.spanContext());
    expect(seen['/at-once']).toBeUndefined();
  });
});

it('traces neither a probe nor a scrape, whatever its caller sampled', async () => {
  const { server } = await tracedServer(HTTP_SPAN_ATTRIBUTES);
  const probe = traceparent('e', true);
  await request(server).get('/healthz').set('traceparent', probe.header).expect(200);
  const queried = traceparent('d', true);
  await request(server).get('/healthz?from=balancer').set('traceparent', queried.header).expect(200);
  const later = traceparent('f', true);
  await request(server).get('/slots').set('traceparent', later.header).expect(200);
  await serverSpanOf(later.traceId);
  for (const untraced of [probe, queried]) {
    expect(exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === untraced.traceId)).toEqual([]);
  }
});

describe('rootSamplingOf (parentbased_traceidratio decided before any id)', () => {
  const ratio = (arg: string) =>
    traceSamplerOf({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: arg });

  /** Where the spans rootSamplingOf records go: kept in memory, as a provider with its sampler keeps the SDK's. */
  function requestSpans(ids: IdGenerator = new RandomIdGenerator()) {
    const exported = new InMemorySpanExporter();
    const processor = new SimpleSpanProcessor(exported);
    const sink: RequestSpanSink = {
      resource: resourceFromAttributes({ 'service.name': 'slots-server' }),
      scope: { name: 'slots-server' },
      processor,
      limits: spanLimitsOf({}),
      ids,
    };
    return { exported, sink, processor };
  }

  /** The server's spans of `rootSampling`, its requests' recorded into `exported`. */
  function rootSampled(arg: string) {
    const { exported, sink, processor } = requestSpans();
    const rootSampling = rootSamplingOf(ratio(arg), sink)!;
    const sampled = new NodeTracerProvider({ sampler: rootSampling.sampler, spanProcessors: [processor] });
    return { exported, tracer: sampled.getTracer('server-spans'), sampled, rootSampling };
  }

  it('decides for the parent-based samplers, the default one included; leaves the others to the SDK', () => {
    const { sink } = requestSpans();
    for (const sampler of ['always_on', 'always_off', 'traceidratio']) {
      const setting = traceSamplerOf({ OTEL_TRACES_SAMPLER: sampler, OTEL_TRACES_SAMPLER_ARG: '0.1' });
      expect(rootSamplingOf(setting, sink)).toBeUndefined();
    }
    expect(rootSamplingOf(ratio(' 0.1 '), sink)).toBeDefined();
    const recorded = (env: NodeJS.ProcessEnv) =>
      rootSamplingOf(traceSamplerOf(env), sink)!.spanOf('GET', ROOT_CONTEXT).isRecording();
    for (const env of [
      {},
      { OTEL_TRACES_SAMPLER: ' ' },
      { OTEL_TRACES_SAMPLER: 'parentbased_always_on' },
      // A ratio sampler without a ratio: 1, as the specification says.
      { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio' },
    ]) {
      expect(recorded(env)).toBe(true);
    }
    expect(recorded({ OTEL_TRACES_SAMPLER: 'parentbased_always_off ' })).toBe(false);
  });

  it('a request sampled out at the root: no span, its ids made once and only when read', () => {
    const made: string[] = [];
    const { sink } = requestSpans({
      generateTraceId: () => (made.push('trace'), 'a'.repeat(32)),
      generateSpanId: () => (made.push('span'), 'b'.repeat(16)),
    });
    const span = rootSamplingOf(ratio('0'), sink)!.spanOf('GET', ROOT_CONTEXT);
    expect(span.isRecording()).toBe(false);
    expect(made).toEqual([]);
    expect(span.spanContext().traceId).toBe('a'.repeat(32));
    expect(span.spanContext().spanId).toBe('b'.repeat(16));
    expect(span.spanContext().traceId).toBe('a'.repeat(32));
    expect(made).toEqual(['trace', 'span']);
    expect(span.spanContext().traceFlags).toBe(0);
  });

  it('at 0: no span exported, no attribute worked out, each request a trace of its own in its log line', async () => {
    const { exported, tracer, sampled, rootSampling } = rootSampled('0');
    const attributes = countedAttributes();
    const { server, lines } = await tracedServer(attributes, tracer, rootSampling);
    for (let sent = 0; sent < 5; sent++) await request(server).get('/slots').expect(200);
    await request(server).get('/meta').expect(401);
    await sampled.forceFlush();
    expect(exported.getFinishedSpans()).toEqual([]);
    expect(attributes.calls).toEqual({ request: 0, status: 0 });
    const traces = new Set(lines.filter((line) => line.req?.url === '/slots').map((line) => line.trace_id));
    expect(traces.size).toBe(5);
    expect([...traces].every((traceId) => /^[0-9a-f]{32}$/.test(traceId ?? ''))).toBe(true);
    await sampled.shutdown();
  });

  it('at 1: every new trace recorded as before; a caller’s decision still followed', async () => {
    const { exported, tracer, sampled, rootSampling } = rootSampled('1');
    const { server, lines } = await tracedServer(HTTP_SPAN_ATTRIBUTES, tracer, rootSampling);
    await request(server).get('/slots?view=full').expect(200);
    const left = traceparent('1', false);
    await request(server).get('/slots').set('traceparent', left.header).expect(200);
    await sampled.forceFlush();

    const spans = exported.getFinishedSpans();
    expect(spans).toHaveLength(1);
    expect(spans[0]!.name).toBe('GET /slots');
    expect(spans[0]!.kind).toBe(SERVER_SPAN);
    expect(spans[0]!.parentSpanContext).toBeUndefined();
    expect(spans[0]!.attributes).toMatchObject({ 'http.route': '/slots', 'url.query': 'view=full' });
    expect(lines.find((line) => line.req?.url === '/slots?view=full')?.trace_id).toBe(spans[0]!.spanContext().traceId);
    expect(lines.filter((line) => line.trace_id === left.traceId)).toHaveLength(1);
    await sampled.shutdown();
  });

  it('at 0: a caller’s sampled trace still recorded, under its span, with its trace state', async () => {
    const { exported, tracer, sampled, rootSampling } = rootSampled('0');
    const { server } = await tracedServer(HTTP_SPAN_ATTRIBUTES, tracer, rootSampling);
    const caller = traceparent('2', true);
    await request(server).get('/slots').set('traceparent', caller.header).set('tracestate', 'vendor=value').expect(200);
    await sampled.forceFlush();

    const [span] = exported.getFinishedSpans();
    expect(span?.spanContext()).toMatchObject({ traceId: caller.traceId, traceFlags: 1 });
    expect(span?.spanContext().traceState?.serialize()).toBe('vendor=value');
    expect(span?.parentSpanContext).toMatchObject({ traceId: caller.traceId, spanId: PARENT_ID, isRemote: true });
    expect(span?.spanContext().spanId).not.toBe(PARENT_ID);
    expect(span?.name).toBe('GET /slots');
    expect(span?.attributes).toMatchObject({ 'http.route': '/slots', 'http.response.status_code': 200 });
    await sampled.shutdown();
  });
});
