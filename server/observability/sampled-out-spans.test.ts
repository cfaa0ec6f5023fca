/**
 * A request sampled out costs the instrumentations no span of their own (sparingTracer): Express's router and route
 * handler layers under it start no span in the SDK (no ids made, no sampler asked), yet a request the handler sends
 * on still carries the request's trace in `traceparent`, marked not sampled. A sampled request keeps its layer spans.
 *
 * The server's own server spans (traceServerRequests) and the SDK's Express instrumentation (createInstrumentations),
 * given a provider that counts the spans the SDK is asked for; Express is patched by hand (Jest's module loader is
 * not the one the instrumentation hooks).
 */
import http from 'node:http';
import { ROOT_CONTEXT, SpanKind, trace, type TracerProvider } from '@opentelemetry/api';
import type { InstrumentationBase } from '@opentelemetry/instrumentation';
import express from 'express';
import request from 'supertest';
import { registerInMemoryTracing } from '../../testing/server/in-memory-tracing';
import { waitUntil } from '../../testing/server/wait-until';
import { outgoingTraceHeaders, traceLogFields } from './request-trace';
import { parseTraceparent } from './trace-context';
import { createInstrumentations, HTTP_SPAN_ATTRIBUTES, sparingTracer, traceServerRequests } from './tracing-sdk';

const PARENT_ID = '00f067aa0ba902b7';

const { provider, exporter } = registerInMemoryTracing();
let instrumentations: InstrumentationBase[] = [];
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

beforeAll(() => {
  instrumentations = createInstrumentations();
  for (const instrumentation of instrumentations) instrumentation.setTracerProvider(countingProvider);
  patchExpress('patch');
});
afterAll(() => {
  patchExpress('unpatch');
  for (const instrumentation of instrumentations) instrumentation.disable();
});
afterEach(() => {
  exporter.reset();
  started = [];
});

/**
 * An Express app behind the server's own span per request: a router, and in it a route whose handler answers the
 * headers it would send on (outgoingTraceHeaders) and its log fields.
 */
function tracedApp(): http.Server {
  const app = express();
  const router = express.Router();
  router.get('/remote/:name', (req, res) => {
    res.json({ headers: outgoingTraceHeaders(), log: traceLogFields(req) });
  });
  app.use('/api', router);
  return http.createServer(traceServerRequests(provider.getTracer('server-spans'), app, HTTP_SPAN_ATTRIBUTES));
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

  it('of a sampled request: the router’s and the handler’s spans, under the request’s', async () => {
    const taken = traceparent('b', true);
    const answer = await request(tracedApp()).get('/api/remote/one').set('traceparent', taken.header).expect(200);
    const sent = parseTraceparent((answer.body as { headers: { traceparent: string } }).headers.traceparent);

    expect(started).toEqual(['router - /remote/:name', 'request handler']);
    const spans = () => exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === taken.traceId);
    await waitUntil(async () => spans().some((span) => span.kind === SpanKind.SERVER));
    const server = spans().find((span) => span.kind === SpanKind.SERVER)!;
    const handler = spans().find((span) => span.name === 'request handler')!;
    expect(server.name).toBe('GET /api/remote/:name');
    expect(handler.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    // Sent on from inside the handler: its span is the parent the remote sees, sampled.
    expect(sent).toEqual({ traceId: taken.traceId, spanId: handler.spanContext().spanId, sampled: true });
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
