/**
 * An answer the session step gives before the route runs (its store down: 503) is labelled with the route the
 * request was for, as that route's own answers are: in `slots_http_request_duration_seconds` and on the request's
 * span (its name and `http.route`), never by the session step's mount paths; a path no route serves stays `(other)`,
 * and its span is named as any request no route answers (the method alone, no `http.route`).
 *
 * The spans come from the server's own server spans (traceServerRequests, as start-server.ts wraps the listener) and
 * the SDK's Express instrumentation (createInstrumentations), with an in-memory exporter. It patches `express` by hand
 * here: Jest loads modules through its own loader, which its hooks do not see.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { SpanStatusCode } from '@opentelemetry/api';
import type { InstrumentationBase } from '@opentelemetry/instrumentation';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import express from 'express';
import request from 'supertest';
import { registerInMemoryTracing } from '../../testing/server/in-memory-tracing';
import { parsePrometheusText, sampleValue } from '../../testing/server/prometheus-text';
import { createDemoApp, DEMO_PASSWORD, signedInAgent, type DemoTestApp } from '../../testing/server/test-app';
import { waitUntil } from '../../testing/server/wait-until';
import { UNMATCHED_ROUTE } from './http-metrics';
import {
  ANSWER_CUT_SHORT,
  createInstrumentations,
  HTTP2_SPAN_ATTRIBUTES,
  HTTP_SPAN_ATTRIBUTES,
  traceServerRequests,
  type ServerSpanAttributes,
} from './tracing-sdk';

const TOKEN = 'metrics-token-for-the-tests-0123';
const RECORDS = '/api/resources/articles/records';
const PARENT_ID = '00f067aa0ba902b7';
const SERVER_SPAN = 1;
const SCOPE = 'server-spans-under-test';

const { provider, exporter } = registerInMemoryTracing();
let instrumentations: InstrumentationBase[] = [];

/** Applies the instrumentations' patches of `name` to `exports` (or removes them). */
function patch(name: string, exports: unknown, how: 'patch' | 'unpatch'): void {
  for (const instrumentation of instrumentations) {
    for (const definition of instrumentation.getModuleDefinitions()) {
      if (definition.name === name) definition[how]?.(exports, undefined);
    }
  }
}

beforeAll(() => {
  instrumentations = createInstrumentations();
  for (const instrumentation of instrumentations) instrumentation.setTracerProvider(provider);
  // Before any app is made: the instrumentation wraps the layers as they are added.
  patch('express', express, 'patch');
});
afterAll(async () => {
  patch('express', express, 'unpatch');
  for (const instrumentation of instrumentations) instrumentation.disable();
});

let testApp: DemoTestApp | undefined;
afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
  exporter.reset();
});

/** The demo app with metrics, and a signed-in client whose session the store then fails to read. */
async function appWhoseSessionStoreFails() {
  testApp = await createDemoApp({ metrics: { token: TOKEN } });
  const agent = await signedInAgent(testApp.app);
  // What the metrics label a route's own answers with: the same requests, the store up.
  await agent.get('/meta').expect(200);
  await agent.get(RECORDS).expect(200);
  jest.spyOn(testApp.app.sessions.store, 'get').mockImplementation((_sid, callback) => {
    callback(new Error('store down'));
  });
  return { app: testApp.app, agent };
}

/** The request-duration counts of a scrape: `count(labels)` of one series, and every series' labels. */
async function durations(app: DemoTestApp['app']) {
  const scrape = await request(app.handler).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
  const families = parsePrometheusText(scrape.text);
  const name = 'slots_http_request_duration_seconds_count';
  return {
    count: (labels: Record<string, string>) => sampleValue(families, name, labels),
    series: (families.get('slots_http_request_duration_seconds')?.samples ?? [])
      .filter((sample) => sample.name === name)
      .map((sample) => sample.labels),
  };
}

/** node:http's server for `handler`, with the server span of each request as start-server.ts gives it. */
function tracedServer(handler: http.RequestListener, attributes: ServerSpanAttributes = HTTP_SPAN_ATTRIBUTES) {
  return http.createServer(traceServerRequests(provider.getTracer(SCOPE), handler, attributes));
}

/** The session cookie a signed-in agent sends. */
async function cookieOf(agent: Awaited<ReturnType<typeof signedInAgent>>): Promise<string> {
  const signedIn = await agent.post('/login').send({ username: 'admin', password: DEMO_PASSWORD }).expect(200);
  return String(signedIn.headers['set-cookie']).split(';')[0] ?? '';
}

/**
 * Sends `GET path` to `server` and hangs up once `arrived` holds (the request got as far as the test froze it), before
 * any answer, as a client that gave up does. Over a bare socket: node:http's client is patched here too, and would
 * send a `traceparent` of its own span.
 */
async function abandonedRequest(
  server: http.Server,
  path: string,
  headers: Record<string, string>,
  arrived: () => boolean,
): Promise<void> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const socket = net.connect(port, '127.0.0.1');
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${lines.join('')}\r\n`);
  await waitUntil(async () => arrived(), 5_000, `${path} reaching the frozen step`);
  socket.destroy();
}

/** A `traceparent` starting a trace of its own, so that a request's spans can be told from the others'. */
function traceparent(digit: string): { traceId: string; header: string } {
  const traceId = digit.repeat(32);
  return { traceId, header: `00-${traceId}-${PARENT_ID}-01` };
}

async function serverSpanOf(traceId: string, scope?: string): Promise<ReadableSpan> {
  const find = () =>
    exporter
      .getFinishedSpans()
      .find(
        (span) =>
          span.spanContext().traceId === traceId &&
          span.kind === SERVER_SPAN &&
          (scope === undefined || span.instrumentationScope.name === scope),
      );
  await waitUntil(async () => find() !== undefined);
  return find()!;
}

describe('an answer of the session step, its store down', () => {
  it('is counted under the route it was for, as that route’s own answers are', async () => {
    const { app, agent } = await appWhoseSessionStoreFails();
    await agent.get('/meta').expect(503);
    await agent.get(RECORDS).expect(503);
    await agent.post('/logout').expect(503);

    const { count, series } = await durations(app);
    expect(count({ method: 'GET', route: '/meta', status: '200' })).toBe(1);
    expect(count({ method: 'GET', route: '/meta', status: '503' })).toBe(1);
    const records = '/api/resources/:name/records';
    expect(count({ method: 'GET', route: records, status: '200' })).toBe(1);
    expect(count({ method: 'GET', route: records, status: '503' })).toBe(1);
    expect(count({ method: 'POST', route: '/logout', status: '503' })).toBe(1);
    expect(series.filter((labels) => labels.status === '503').map((labels) => labels.route)).toEqual(
      expect.not.arrayContaining([UNMATCHED_ROUTE, expect.stringContaining(',')]),
    );
  });

  it('of a page is counted under that page’s path, never all the pages’ joined', async () => {
    const { app, agent } = await appWhoseSessionStoreFails();
    await agent.get('/login').set('Accept', 'text/html');
    await agent.get('/resources/articles/7/edit').set('Accept', 'text/html');
    await agent.get('/resources/authors').set('Accept', 'text/html');
    const { count, series } = await durations(app);
    // The host is not built here: each page route answers its 503 saying so, as it would the page.
    expect(count({ method: 'GET', route: '/login', status: '503' })).toBe(1);
    expect(count({ method: 'GET', route: '/resources/*splat', status: '503' })).toBe(2);
    expect(series.map((labels) => labels.route)).toEqual(expect.not.arrayContaining([expect.stringContaining('|')]));
  });

  it('keeps (other) for a path no route serves', async () => {
    const { app, agent } = await appWhoseSessionStoreFails();
    // Under a path the session step is mounted at, so the store is asked, and fails.
    await agent.post('/me/nothing-here').expect(503);
    expect((await durations(app)).count({ method: 'POST', route: UNMATCHED_ROUTE, status: '503' })).toBe(1);
  });
});

describe('the span of an answer of the session step, its store down', () => {
  describe('over node:http (traceServerRequests, with the HTTP instrumentation’s attributes)', () => {
    it('is named by the route it was for, with that route as http.route', async () => {
      const { app } = await appWhoseSessionStoreFails();
      const agent = await signedInAgent(tracedServer(app.handler));
      const meta = traceparent('a');
      await agent.get('/meta').set('traceparent', meta.header).expect(503);
      const metaSpan = await serverSpanOf(meta.traceId);
      expect(metaSpan.name).toBe('GET /meta');
      expect(metaSpan.attributes['http.route']).toBe('/meta');

      const records = traceparent('b');
      await agent.get(RECORDS).set('traceparent', records.header).expect(503);
      const recordsSpan = await serverSpanOf(records.traceId);
      expect(recordsSpan.name).toBe('GET /api/resources/:name/records');
      expect(recordsSpan.attributes['http.route']).toBe('/api/resources/:name/records');

      // A route ran before the session step here (the sign-out counter): the span is still named by the route.
      const logout = traceparent('c');
      await agent.post('/logout').set('traceparent', logout.header).expect(503);
      const logoutSpan = await serverSpanOf(logout.traceId);
      expect(logoutSpan.name).toBe('POST /logout');
      expect(logoutSpan.attributes['http.route']).toBe('/logout');
    });

    it('is named as other unrouted requests are for a path no route serves, without http.route', async () => {
      const { app } = await appWhoseSessionStoreFails();
      const agent = await signedInAgent(tracedServer(app.handler));
      // Not under a path of the session step: how the instrumentation names a request no route answers.
      const elsewhere = traceparent('6');
      await agent.post('/nothing-here').set('traceparent', elsewhere.header).expect(404);
      const unrouted = await serverSpanOf(elsewhere.traceId);
      expect(unrouted.name).toBe('POST');
      expect(unrouted.attributes['http.route']).toBeUndefined();

      const me = traceparent('7');
      await agent.post('/me/nothing-here').set('traceparent', me.header).expect(503);
      const span = await serverSpanOf(me.traceId);
      expect(span.name).toBe(unrouted.name);
      expect(span.attributes['http.route']).toBeUndefined();
    });

    it('of a request its client gave up on: named by its route, with no status code it never sent', async () => {
      testApp = await createDemoApp();
      const agent = await signedInAgent(testApp.app);
      const cookie = await cookieOf(agent);
      // A frozen store (Redis stopped): the session never loads, and the client gives up waiting.
      const frozen = jest.spyOn(testApp.app.sessions.store, 'get').mockImplementation(() => undefined);
      const server = tracedServer(testApp.app.handler);
      try {
        const me = traceparent('9');
        await abandonedRequest(
          server,
          '/me',
          { Cookie: cookie, traceparent: me.header },
          () => frozen.mock.calls.length > 0,
        );
        const span = await serverSpanOf(me.traceId);
        expect(span.name).toBe('GET /me');
        expect(span.attributes['http.route']).toBe('/me');
        expect(span.attributes['http.response.status_code']).toBeUndefined();
        expect(span.attributes['http.status_code']).toBeUndefined();
        expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: ANSWER_CUT_SHORT });
      } finally {
        server.close();
      }
    });

    it('of a page: named by that page’s path, never by all the pages’ joined', async () => {
      testApp = await createDemoApp();
      const agent = await signedInAgent(tracedServer(testApp.app.handler));
      for (const [digit, path, route] of [
        ['1', '/login', '/login'],
        ['2', '/resources/articles/7/edit', '/resources/*splat'],
      ] as const) {
        const page = traceparent(digit);
        // The host is not built here: each page route answers its 503 saying so, as it would the page.
        await agent.get(path).set('Accept', 'text/html').set('traceparent', page.header);
        const span = await serverSpanOf(page.traceId);
        expect(span.name).toBe(`GET ${route}`);
        expect(span.attributes['http.route']).toBe(route);
      }
    });

    it('leaves the spans of the route’s own answers as the instrumentation names them', async () => {
      testApp = await createDemoApp();
      const agent = await signedInAgent(tracedServer(testApp.app.handler));
      const meta = traceparent('d');
      await agent.get('/meta').set('traceparent', meta.header).expect(200);
      const span = await serverSpanOf(meta.traceId);
      expect(span.name).toBe('GET /meta');
      expect(span.attributes['http.route']).toBe('/meta');
    });
  });

  it('over HTTP/2 (traceServerRequests), its client gone: named by its route, with no status code', async () => {
    testApp = await createDemoApp();
    const cookie = await cookieOf(await signedInAgent(testApp.app));
    const frozen = jest.spyOn(testApp.app.sessions.store, 'get').mockImplementation(() => undefined);
    const server = tracedServer(testApp.app.handler, HTTP2_SPAN_ATTRIBUTES);
    try {
      const me = traceparent('5');
      await abandonedRequest(
        server,
        '/me',
        { Cookie: cookie, traceparent: me.header },
        () => frozen.mock.calls.length > 0,
      );
      const span = await serverSpanOf(me.traceId, SCOPE);
      expect(span.name).toBe('GET /me');
      expect(span.attributes['http.route']).toBe('/me');
      expect(span.attributes['http.status_code']).toBeUndefined();
      expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: ANSWER_CUT_SHORT });
    } finally {
      server.close();
    }
  });

  it('over HTTP/2 (the server’s own span, traceServerRequests): named by the route it was for, if any', async () => {
    const { app } = await appWhoseSessionStoreFails();
    const agent = await signedInAgent(tracedServer(app.handler, HTTP2_SPAN_ATTRIBUTES));
    const meta = traceparent('e');
    await agent.get('/meta').set('traceparent', meta.header).expect(503);
    const span = await serverSpanOf(meta.traceId, SCOPE);
    expect(span.name).toBe('GET /meta');
    expect(span.attributes['http.route']).toBe('/meta');

    const me = traceparent('8');
    await agent.post('/me/nothing-here').set('traceparent', me.header).expect(503);
    const unrouted = await serverSpanOf(me.traceId, SCOPE);
    expect(unrouted.name).toBe('POST');
    expect(unrouted.attributes['http.route']).toBeUndefined();
  });
});
