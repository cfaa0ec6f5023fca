/**
 * The requests the server sends with fetch get spans of their own (fetch-spans.ts): under a recorded request, a
 * CLIENT span with the HTTP client attributes (a signed query redacted), whose trace the origin receives, once;
 * under a request sampled out, no span, the request's trace sent on as not sampled; outside any request (the
 * descriptor poll), no span and a trace of its own.
 *
 * Real HTTP on both sides: the server's own span per request (traceServerRequests) over node:http, a handler that
 * sends on with Node's fetch as the server's descriptor and file checks do (outgoingTraceHeaders), and an origin that
 * records what it received; the SDK's instrumentations as the server creates them (createInstrumentations), fetch's
 * seen through Node's diagnostics channels, each span exported at once to memory.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind, type TracerProvider } from '@opentelemetry/api';
import type { InstrumentationBase } from '@opentelemetry/instrumentation';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { newTracesSampledOut, registerInMemoryTracing } from '../../testing/server/in-memory-tracing';
import { waitUntil } from '../../testing/server/wait-until';
import { startHttpFixtureServer, type HttpFixtureServer } from '../../testing/system/http-fixture-server';
import { redactedUrlAttributes } from './fetch-spans';
import { outgoingTraceHeaders, traceLogFields, traceOf } from './request-trace';
import { parseTraceparent } from './trace-context';
import { createInstrumentations, HTTP_SPAN_ATTRIBUTES, traceServerRequests } from './tracing-sdk';

const CALLER_SPAN = '00f067aa0ba902b7';

const { provider, exporter, heldContext } = registerInMemoryTracing();
/** New traces sampled out (a caller's sampled trace recorded). */
const sampledOut = newTracesSampledOut(exporter);
let instrumentations: InstrumentationBase[] = [];
let origin: HttpFixtureServer;
const servers: http.Server[] = [];

beforeAll(async () => {
  instrumentations = createInstrumentations();
  for (const instrumentation of instrumentations) instrumentation.setTracerProvider(provider as TracerProvider);
  origin = await startHttpFixtureServer((req, res) => {
    res.writeHead(req.url?.startsWith('/missing') ? 404 : 200, { 'Content-Type': 'application/json' });
    res.end('{}');
  });
});
afterAll(async () => {
  for (const instrumentation of instrumentations) instrumentation.disable();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  await origin.close();
  await sampledOut.shutdown();
});
afterEach(() => exporter.reset());

/**
 * A server whose every request fetches `path` from the origin (after an asynchronous step, as the server's own
 * requests come after a read) and answers the request's log fields once the origin answered.
 */
async function sendingServer(tracerProvider: TracerProvider = provider): Promise<string> {
  const listener = traceServerRequests(
    tracerProvider.getTracer('server-spans'),
    (req, res) => {
      const path = new URL(req.url ?? '/', 'http://server').searchParams.get('path') ?? '/';
      void (async () => {
        await new Promise((resolve) => setImmediate(resolve));
        const answer = await fetch(`${origin.url}${path}`, { headers: outgoingTraceHeaders(traceOf(req)) });
        await answer.body?.cancel();
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify(traceLogFields(req)));
      })();
    },
    HTTP_SPAN_ATTRIBUTES,
    { heldContext },
  );
  const server = http.createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Asks `server` to send on to `path`; what it logged, and what the origin received from it. */
async function sendOn(server: string, path: string, headers: Record<string, string> = {}) {
  const before = origin.requests.length;
  const answer = await fetch(`${server}/?path=${encodeURIComponent(path)}`, { headers });
  expect(answer.status).toBe(200);
  const log = (await answer.json()) as { trace_id: string; span_id: string };
  expect(origin.requests.length).toBe(before + 1);
  return { log, received: origin.requests[before]! };
}

/** The spans exported of trace `traceId`, once its server span (which ends last) is among them. */
async function spansOnceServerEnded(traceId: string): Promise<ReadableSpan[]> {
  const spans = () => exporter.getFinishedSpans().filter((span) => span.spanContext().traceId === traceId);
  await waitUntil(async () => spans().some((span) => span.kind === SpanKind.SERVER));
  return spans();
}

/** One `traceparent` as W3C writes it (two, joined by Node, would not match). */
const ONE_TRACEPARENT = /^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/;

describe('under a recorded request', () => {
  it('a CLIENT span under the request’s, with its attributes; the origin receives its trace, once', async () => {
    const server = await sendingServer();
    const { log, received } = await sendOn(server, '/remote/slots-remote.json', { baggage: 'team=checkout' });

    const spans = await spansOnceServerEnded(log.trace_id);
    const request = spans.find((span) => span.kind === SpanKind.SERVER)!;
    const client = spans.find((span) => span.kind === SpanKind.CLIENT)!;
    expect(client).toBeDefined();
    expect(client.name).toBe('GET');
    expect(client.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
    expect(client.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.full': `${origin.url}/remote/slots-remote.json`,
      'server.address': '127.0.0.1',
      'server.port': origin.port,
      'http.response.status_code': 200,
    });
    // No query, no `url.query` (the instrumentation's own is an empty string).
    expect(Object.keys(client.attributes)).not.toContain('url.query');
    expect(client.endTime[0] + client.endTime[1] / 1e9).toBeGreaterThan(
      client.startTime[0] + client.startTime[1] / 1e9,
    );

    expect(received.traceparent).toMatch(ONE_TRACEPARENT);
    expect(parseTraceparent(received.traceparent)).toEqual({
      traceId: log.trace_id,
      spanId: client.spanContext().spanId,
      sampled: true,
    });
    // The caller's baggage goes on with it, once.
    expect(received.baggage).toBe('team=checkout');
  });

  it('an error answer marks the span: its status code and error type', async () => {
    const server = await sendingServer();
    const { log } = await sendOn(server, '/missing/remoteEntry.js');

    const client = (await spansOnceServerEnded(log.trace_id)).find((span) => span.kind === SpanKind.CLIENT)!;
    expect(client.attributes).toMatchObject({ 'http.response.status_code': 404, 'error.type': '404' });
  });

  it('a signed address: its signatures read REDACTED in the span, the origin asked at the address given', async () => {
    const server = await sendingServer();
    const path = '/files/remoteEntry.js?X-Amz-Credential=key-id&X-Amz-Signature=secret-value&v=2';
    const { log, received } = await sendOn(server, path);

    expect(received.url).toBe(path);
    const client = (await spansOnceServerEnded(log.trace_id)).find((span) => span.kind === SpanKind.CLIENT)!;
    expect(client.attributes['url.full']).toBe(
      `${origin.url}/files/remoteEntry.js?X-Amz-Credential=REDACTED&X-Amz-Signature=REDACTED&v=2`,
    );
    expect(client.attributes['url.query']).toBe('X-Amz-Credential=REDACTED&X-Amz-Signature=REDACTED&v=2');
    expect(JSON.stringify(client.attributes)).not.toMatch(/secret-value|key-id/);
  });
});

describe('under a request sampled out', () => {
  it('that brought its caller’s trace: no span; the request’s trace goes on, not sampled, once', async () => {
    const server = await sendingServer();
    const traceId = 'a'.repeat(32);
    const { log, received } = await sendOn(server, '/remote/slots-remote.json', {
      traceparent: `00-${traceId}-${CALLER_SPAN}-00`,
    });

    expect(received.traceparent).toMatch(ONE_TRACEPARENT);
    expect(parseTraceparent(received.traceparent)).toEqual({ traceId, spanId: log.span_id, sampled: false });
    expect(log.span_id).not.toBe(CALLER_SPAN);
    expect(exporter.getFinishedSpans()).toEqual([]);
  });

  it('with no trace of its own (run without a context): no span; its trace goes on, not sampled, once', async () => {
    const server = await sendingServer(sampledOut);
    const { log, received } = await sendOn(server, '/remote/slots-remote.json');

    expect(received.traceparent).toMatch(ONE_TRACEPARENT);
    expect(parseTraceparent(received.traceparent)).toEqual({
      traceId: log.trace_id,
      spanId: expect.any(String),
      sampled: false,
    });
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});

it('outside any request (the descriptor poll): no span, a new trace sent each time', async () => {
  const before = origin.requests.length;
  for (const _poll of [1, 2]) {
    const answer = await fetch(`${origin.url}/remote/slots-remote.json`, { headers: outgoingTraceHeaders() });
    await answer.body?.cancel();
  }

  const sent = origin.requests.slice(before).map((received) => received.traceparent);
  expect(sent).toEqual([expect.stringMatching(ONE_TRACEPARENT), expect.stringMatching(ONE_TRACEPARENT)]);
  expect(parseTraceparent(sent[0])?.traceId).not.toBe(parseTraceparent(sent[1])?.traceId);
  expect(exporter.getFinishedSpans()).toEqual([]);
});

describe('redactedUrlAttributes', () => {
  it('leaves an address without a query to the instrumentation, but for its empty `url.query`', () => {
    // Given as undefined, so that the span does not get the instrumentation's empty one.
    expect(Object.entries(redactedUrlAttributes({ origin: 'https://cdn.example', path: '/team/entry.js' }))).toEqual([
      ['url.query', undefined],
    ]);
    expect(Object.entries(redactedUrlAttributes({ origin: 'https://cdn.example', path: '/team/entry.js?' }))).toEqual([
      ['url.full', 'https://cdn.example/team/entry.js?'],
      ['url.query', undefined],
    ]);
  });

  it('redacts the keys the incoming spans redact, keeps the others and the order', () => {
    expect(
      redactedUrlAttributes({ origin: 'https://cdn.example', path: '/a.js?sig=s1&b=1&Signature=s2&AWSAccessKeyId=k' }),
    ).toEqual({
      'url.full': 'https://cdn.example/a.js?sig=REDACTED&b=1&Signature=REDACTED&AWSAccessKeyId=REDACTED',
      'url.query': 'sig=REDACTED&b=1&Signature=REDACTED&AWSAccessKeyId=REDACTED',
    });
  });
});
