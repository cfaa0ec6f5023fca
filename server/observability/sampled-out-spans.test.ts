/**
 * A request sampled out costs the instrumentations no span of their own (sparingTracer): Express's router and route
 * handler layers under it, and the request its handler sends on with fetch, start no span in the SDK (no ids made, no
 * sampler asked), yet that request still carries the request's trace in `traceparent`, marked not sampled. A sampled
 * request keeps its layer spans, and the request it sends on gets one.
 *
 * A request sampled out that brought no trace of its own runs without a context while nothing holds one
 * (held-context.ts): its trace still reaches its log fields and what it sends on.
 *
 * The server's own server spans (traceServerRequests) and the SDK's instrumentations (createInstrumentations), given
 * a provider that counts the spans the SDK is asked for; Express is patched by hand (Jest's module loader is not the
 * one the instrumentation hooks), fetch is seen through Node's diagnostics channels; the requests sent on reach a real
 * origin, which records the headers they came with.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { context, INVALID_TRACEID, ROOT_CONTEXT, SpanKind, trace, type TracerProvider } from '@opentelemetry/api';
import { isTracingSuppressed } from '@opentelemetry/core';
import type { InstrumentationBase } from '@opentelemetry/instrumentation';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import express from 'express';
import request from 'supertest';
import { newTracesSampledOut, registerInMemoryTracing } from '../../testing/server/in-memory-tracing';
import { waitUntil } from '../../testing/server/wait-until';
import { startHttpFixtureServer, type HttpFixtureServer } from '../../testing/system/http-fixture-server';
import { outgoingTraceHeaders, traceLogFields, traceOf } from './request-trace';
import { parseTraceparent } from './trace-context';
import {
  createInstrumentations,
  HTTP_SPAN_ATTRIBUTES,
  parentRequiringTracer,
  sparingTracer,
  traceServerRequests,
} from './tracing-sdk';

const PARENT_ID = '00f067aa0ba902b7';

const { provider, exporter, heldContext } = registerInMemoryTracing();
let instrumentations: InstrumentationBase[] = [];
/** The origin the handlers send on to, as the server asks a remote's. */
let origin: HttpFixtureServer;
let sentCount = 0;
/** The spans Express's instrumentation asked the SDK for, by name. */
let started: string[] = [];

/** `provider`, counting the spans its tracers are asked to start. */
const countingProvider: TracerProvider = {
  getTracer(...args) {
    const tracer = provider.getTracer(...args);
    return {
      startSpan: (name, options, spanContext) => (started.push(name), tracer.startSpan(name, options, spanContext)),
      startActiveSpan: tracer.startActiveSpan.bind(tracer),
    };
  },
};

function patchExpress(how: 'patch' | 'unpatch'): void {
  for (const instrumentation of instrumentations) {
    for (const definition of instrumentation.getModuleDefinitions()) {
      if (definition.name === 'express') definition[how]?.(express, undefined);
    }
  }
}

beforeAll(async () => {
  instrumentations = createInstrumentations();
  for (const instrumentation of instrumentations) instrumentation.setTracerProvider(countingProvider);
  patchExpress('patch');
  origin = await startHttpFixtureServer((_req, res) => res.end('{}'));
});
afterAll(async () => {
  patchExpress('unpatch');
  for (const instrumentation of instrumentations) instrumentation.disable();
  await origin.close();
});
afterEach(() => {
  exporter.reset();
  started = [];
});

/**
 * Sends a request on to the origin with fetch, as the server asks a remote's (outgoingTraceHeaders, fetch's
 * instrumentation): the trace headers the origin received.
 */
async function sendOn(req: http.IncomingMessage): Promise<{ traceparent?: string }> {
  const path = `/remote/${(sentCount += 1)}`;
  const answer = await fetch(`${origin.url}${path}`, { headers: outgoingTraceHeaders(traceOf(req)) });
  await answer.body?.cancel();
  const received = origin.requests.find((one) => one.url === path)!;
  return received.traceparent === undefined ? {} : { traceparent: received.traceparent };
}

/**
 * An Express app behind the server's own span per request: a router, and in it a route whose handler sends a request
 * on and answers the trace headers it was sent with, and its log fields.
 */
function tracedApp(): http.Server {
  const app = express();
  const router = express.Router();
  router.get('/remote/:name', async (req, res) => {
    res.json({ headers: await sendOn(req), log: traceLogFields(req) });
  });
  // Mounted at the root and passed through by every request, as the server's health router is.
  const health = express.Router();
  health.get('/healthz', (_req, res) => {
    res.end();
  });
  app.use(health);
  app.use('/api', router);
  return http.createServer(traceServerRequests(provider.getTracer('server-spans'), app, HTTP_SPAN_ATTRIBUTES));
}

/** The spans exported of trace `traceId`, once its server span (which ends last) is among them. */
async function spansOnceServerEnded(traceId: string): Promise<ReadableSpan[]> {
  const spans = () => exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
  await waitUntil(async () => spans().some((span) => span.kind === SpanKind.SERVER));
  return spans();
}

function traceparent(digit: string, sampled: boolean): { traceId: string; header: string } {
  const traceId = digit.repeat(32);
  return { traceId, header: `00-${traceId}-${PARENT_ID}-${sampled ? '01' : '00'}` };
}

describe('Express’s layers', () => {
  it('of a request sampled out: no span started, its trace sent on as not sampled and in its log fields', async () => {
    const left = traceparent('a', false);
    const answer = await request(tracedApp()).get('/api/remote/one').set('traceparent', left.header).expect(200);
    const body = answer.body as { headers: { traceparent: string }; log: { trace_id: string; span_id: string } };

    expect(started).toEqual([]);
    const sent = parseTraceparent(body.headers.traceparent);
    expect(sent).toEqual({ traceId: left.traceId, spanId: expect.any(String), sampled: false });
    // The request's own span (not its caller's): the one its log lines name.
    expect(sent?.spanId).not.toBe(PARENT_ID);
    expect(body.log).toEqual({ trace_id: left.traceId, span_id: sent?.spanId });
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('of a sampled request: the routers’ (named where they are mounted) and the handler’s spans, under the request’s', async () => {
    const taken = traceparent('b', true);
    const answer = await request(tracedApp()).get('/api/remote/one').set('traceparent', taken.header).expect(200);
    const sent = parseTraceparent((answer.body as { headers: { traceparent: string } }).headers.traceparent);

    // The request sent on has a span of its own (fetch's instrumentation), named by its method.
    // Each router by its mount, not by its first route: the root's is no `router - /healthz` in a trace of /api.
    expect(started).toEqual(['router - /', 'router - /api', 'request handler', 'GET']);
    const spans = await spansOnceServerEnded(taken.traceId);
    expect(
      spans
        .filter((span) => span.attributes['express.type'] === 'router')
        .map((span) => span.attributes['express.name']),
    ).toEqual(expect.arrayContaining(['/', '/api']));
    const server = spans.find((span) => span.kind === SpanKind.SERVER)!;
    const handler = spans.find((span) => span.name === 'request handler')!;
    const client = spans.find((span) => span.kind === SpanKind.CLIENT)!;
    expect(server.name).toBe('GET /api/remote/:name');
    expect(handler.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    // Sent on from inside the handler: under its span, the request's own span is the parent the remote sees, sampled.
    expect(client.parentSpanContext?.spanId).toBe(handler.spanContext().spanId);
    expect(sent).toEqual({ traceId: taken.traceId, spanId: client.spanContext().spanId, sampled: true });
  });
});

describe('sparingTracer', () => {
  const tracer = sparingTracer(provider.getTracer('sparing'));

  it('starts a span of its own at the root and under a recording span', () => {
    const root = tracer.startSpan('root', {}, ROOT_CONTEXT);
    expect(root.isRecording()).toBe(true);
    const child = tracer.startSpan('child', {}, trace.setSpan(ROOT_CONTEXT, root));
    expect(child).not.toBe(root);
    expect(child.spanContext().traceId).toBe(root.spanContext().traceId);
    child.end();
    root.end();
  });

  it('gives the span itself under a span that records nothing, unless a root is asked for', () => {
    const unsampled = trace.wrapSpanContext({ traceId: 'c'.repeat(32), spanId: PARENT_ID, traceFlags: 0 });
    const under = trace.setSpan(ROOT_CONTEXT, unsampled);
    expect(tracer.startSpan('child', {}, under)).toBe(unsampled);
    const root = tracer.startSpan('root', { root: true }, under);
    expect(root).not.toBe(unsampled);
    root.end();
  });
});

describe('parentRequiringTracer', () => {
  const tracer = parentRequiringTracer(provider.getTracer('requiring'));

  it('starts nothing without a parent span: a span that records nothing, with no ids, never exported', () => {
    for (const span of [tracer.startSpan('no parent', {}, ROOT_CONTEXT), tracer.startSpan('active none')]) {
      expect(span.isRecording()).toBe(false);
      expect(span.spanContext().traceId).toBe(INVALID_TRACEID);
      span.end();
    }
    const parent = provider.getTracer('requiring').startSpan('parent');
    const root = tracer.startSpan('root asked for', { root: true }, trace.setSpan(ROOT_CONTEXT, parent));
    expect(root.isRecording()).toBe(false);
    root.end();
    parent.end();
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['parent']);
  });

  it('starts a span of its own under a span', () => {
    const parent = provider.getTracer('requiring').startSpan('parent');
    const child = tracer.startSpan('child', {}, trace.setSpan(ROOT_CONTEXT, parent));
    expect(child.isRecording()).toBe(true);
    expect(child.spanContext().traceId).toBe(parent.spanContext().traceId);
    child.end();
    parent.end();
  });
});

describe('a request sampled out with no trace of its own, AsyncLocalStorage off while nothing holds it', () => {
  /** New traces sampled out, a caller's sampled trace recorded. */
  const sampledOut = newTracesSampledOut(exporter);
  let server: http.Server;
  let base: string;
  /** Opens what `GET /api/wait` and `GET /healthz` wait for; how many wait for it. */
  let open: () => void = () => undefined;
  let gate = Promise.resolve();
  let waiting = 0;

  type Seen = { active: string | null; headers: { traceparent: string }; log: { trace_id: string; span_id: string } };

  /** The active span's id after an asynchronous step (null for none), and the request's trace as the server has it. */
  async function seen(req: express.Request): Promise<Seen> {
    const active = trace.getSpan(context.active())?.spanContext().spanId ?? null;
    return { active, headers: (await sendOn(req)) as Seen['headers'], log: traceLogFields(req) };
  }

  /** Waits for the gate, after an asynchronous step of its own. */
  async function held(): Promise<void> {
    await nextTurn();
    waiting += 1;
    await gate;
    waiting -= 1;
  }

  beforeAll(async () => {
    const app = express();
    app.get('/api/seen', async (req, res) => {
      await nextTurn();
      res.json(await seen(req));
    });
    app.get('/api/wait', async (req, res) => {
      await held();
      res.json(await seen(req));
    });
    app.get('/healthz', async (_req, res) => {
      await held();
      res.json({ suppressed: isTracingSuppressed(context.active()) });
    });
    const listener = traceServerRequests(sampledOut.getTracer('server-spans'), app, HTTP_SPAN_ATTRIBUTES, {
      heldContext,
    });
    server = http.createServer(listener);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await sampledOut.shutdown();
  });
  beforeEach(() => {
    gate = new Promise((resolve) => (open = resolve));
  });
  afterEach(() => open());

  async function get(path: string, header?: string): Promise<Seen> {
    const sent = request(base).get(path);
    return (await (header === undefined ? sent : sent.set('traceparent', header)).expect(200)).body as Seen;
  }

  /**
   * Once one request waits at the gate (holding the context, or not), a request with no trace of its own runs in its
   * own context, its span active; then the gate opens.
   */
  async function expectOwnContextWhileOneWaits(): Promise<void> {
    await waitUntil(async () => waiting === 1);
    const during = await get('/api/seen');
    expect(during.active).toBe(during.log.span_id);
    open();
  }

  it('runs without a context; its trace, not sampled, in its log fields and in what it sends on', async () => {
    const [one, two] = [await get('/api/seen'), await get('/api/seen')];
    for (const answer of [one, two]) {
      expect(answer.active).toBeNull();
      expect(parseTraceparent(answer.headers.traceparent)).toEqual({
        traceId: answer.log.trace_id,
        spanId: expect.any(String),
        sampled: false,
      });
    }
    expect(one.log.trace_id).not.toBe(two.log.trace_id);
  });

  it('runs in its own context while a recorded request holds it; the recorded one keeps its own', async () => {
    const recorded = traceparent('d', true);
    const answered = get('/api/wait', recorded.header);
    await expectOwnContextWhileOneWaits();
    const answer = await answered;
    // The handler's span (Express's), under the request's: still active after the steps it waited through.
    const spans = await spansOnceServerEnded(recorded.traceId);
    expect(spans.map((span) => span.spanContext().spanId)).toContain(answer.active);
    // Released once answered: the next runs without a context again.
    expect((await get('/api/seen')).active).toBeNull();
  });

  it('runs in its own context while a request sampled out that brought its caller’s trace holds it', async () => {
    const caller = traceparent('e', false);
    const answered = get('/api/wait', caller.header);
    await expectOwnContextWhileOneWaits();
    // Its caller's trace still active after the steps it waited through, and sent on as not sampled.
    const answer = await answered;
    expect(answer.active).toBe(answer.log.span_id);
    expect(answer.log.trace_id).toBe(caller.traceId);
    expect(parseTraceparent(answer.headers.traceparent)).toEqual({
      traceId: caller.traceId,
      spanId: answer.log.span_id,
      sampled: false,
    });
  });

  it('runs in its own context while a probe holds it; the probe’s tracing stays suppressed', async () => {
    const probe = request(base).get('/healthz').expect(200);
    const answered = new Promise<request.Response>((resolve, reject) => void probe.then(resolve, reject));
    await expectOwnContextWhileOneWaits();
    expect((await answered).body).toEqual({ suppressed: true });
  });
});
