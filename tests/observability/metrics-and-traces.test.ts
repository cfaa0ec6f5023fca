/**
 * The real server as operators run it (`server/main.ts`, one process): `/metrics` guarded by METRICS_TOKEN or on
 * METRICS_PORT's own listener, and never served without either; a request's `traceparent` in its log line with
 * LOG_REQUESTS; with OTEL_EXPORTER_OTLP_ENDPOINT, its spans (HTTP, Express, pg, SQLite, Redis, the requests it sends)
 * exported to a real OTLP/HTTP receiver under the caller's trace id.
 */
import http2 from 'node:http2';
import https from 'node:https';
import path from 'node:path';
import { REMOTE_DESCRIPTOR_FILE } from '../../shared';
import { h2Request } from '../../testing/server/http2-client';
import { makeSelfSignedCert, type SelfSignedCert } from '../../testing/server/self-signed-cert';
import { DEMO_PASSWORD, DEMO_USERNAME, startAppServer, type AppServer } from '../../testing/system/app-server';
import { getFreePort } from '../../testing/system/free-port';
import { addToken } from '../../testing/system/npm-command';
import { DIST_DIR } from '../../testing/system/repo-root';
import { startStaticServer } from '../../testing/system/static-server';
import { startOtlpReceiver, type OtlpReceiver } from '../../testing/system/otlp-receiver';
import { parsePrometheusText, sampleValue } from '../../testing/server/prometheus-text';
import { describeWithPostgres, PostgresServer } from '../../testing/server/postgres-server';
import { RedisServerProcess } from '../../testing/system/redis-server-process';

const TOKEN = 'a-metrics-token-of-the-system-test';
const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const PARENT_ID = 'b7ad6b7169203331';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_ID}-01`;

jest.setTimeout(90_000);

let server: AppServer | undefined;
let receiver: OtlpReceiver | undefined;
/** The server sending its spans to `to` as `slots-system-test`, a batch every 100 ms, with `env` besides. */
function startTracedServer(to: OtlpReceiver, env: Record<string, string> = {}): Promise<AppServer> {
  return startAppServer({
    env: {
      OTEL_EXPORTER_OTLP_ENDPOINT: to.url,
      OTEL_BSP_SCHEDULE_DELAY: '100',
      OTEL_SERVICE_NAME: 'slots-system-test',
      ...env,
    },
  });
}

afterEach(async () => {
  await server?.stop();
  server = undefined;
  await receiver?.close();
  receiver = undefined;
});

describe('GET /metrics of the running server', () => {
  it('is not served without METRICS_TOKEN or METRICS_PORT: 404', async () => {
    server = await startAppServer();
    const response = await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('slots_');
  });

  it('with METRICS_TOKEN: 401 without the token, Prometheus text with it', async () => {
    server = await startAppServer({ env: { METRICS_TOKEN: TOKEN } });
    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    await fetch(`${server.url}/slots`);
    const response = await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const families = parsePrometheusText(await response.text());
    expect(
      sampleValue(families, 'slots_http_request_duration_seconds_count', { route: '/slots', status: '200' }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('over HTTP/2, labels a method of no standard as _OTHER: any token a client sends as its method is no new series', async () => {
    const cert = makeSelfSignedCert();
    try {
      server = await startAppServer({
        tls: { certFile: cert.certFile, keyFile: cert.keyFile },
        env: { METRICS_TOKEN: TOKEN },
      });
      const client = http2.connect(server.url, { rejectUnauthorized: false });
      try {
        for (const method of ['BREW1', 'BREW2', 'BREW3', 'GET']) {
          const answer = await h2Request(client, { ':method': method, ':path': '/slots' });
          expect([method, answer.status]).toEqual([method, method === 'GET' ? 200 : 405]);
        }
        const scrape = await h2Request(client, { ':path': '/metrics', authorization: `Bearer ${TOKEN}` });
        expect(scrape.body).not.toContain('BREW');
        const families = parsePrometheusText(scrape.body);
        expect(
          sampleValue(families, 'slots_http_request_duration_seconds_count', { method: '_OTHER', route: '/slots' }),
        ).toBe(3);
      } finally {
        client.close();
      }
    } finally {
      cert.dir.remove();
    }
  });

  it('with METRICS_PORT: served on that port only (127.0.0.1), and 404 on the visitors’ port', async () => {
    const metricsPort = await getFreePort();
    server = await startAppServer({ env: { METRICS_PORT: String(metricsPort) } });
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    await fetch(`${server.url}/slots`);
    const response = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(response.status).toBe(200);
    const families = parsePrometheusText(await response.text());
    expect(sampleValue(families, 'slots_http_request_duration_seconds_count', { route: '/slots' })).toBe(1);
    // Nothing else of the app is reachable through it.
    expect((await fetch(`http://127.0.0.1:${metricsPort}/slots`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/login`)).status).toBe(404);
  });
});

describe('traces', () => {
  it('with LOG_REQUESTS=1 and tracing off: the request line carries the trace id of its traceparent', async () => {
    server = await startAppServer({ env: { LOG_REQUESTS: '1' } });
    const response = await fetch(`${server.url}/slots`, { headers: { traceparent: TRACEPARENT } });
    expect(response.status).toBe(200);
    const requestId = response.headers.get('x-request-id');
    const line = await server.process.waitForOutput(new RegExp(`^.*"id":"${requestId}".*$`, 'm'));
    expect(JSON.parse(line[0]) as Record<string, unknown>).toMatchObject({
      msg: 'request completed',
      trace_id: TRACE_ID,
    });
  });

  it('with OTEL_EXPORTER_OTLP_ENDPOINT: the request’s spans reach the receiver under its trace, its log line too', async () => {
    receiver = await startOtlpReceiver();
    server = await startTracedServer(receiver, { LOG_REQUESTS: '1' });
    const response = await fetch(`${server.url}/slots`, { headers: { traceparent: TRACEPARENT } });
    expect(response.status).toBe(200);

    // The HTTP server span, child of the caller's span. /slots is answered before Express's router (the public fast
    // path), which names its route on that span as Express's instrumentation names its own routes.
    const serverSpan = await receiver.waitForSpan((span) => span.traceId === TRACE_ID && span.kind === 2);
    expect(serverSpan).toMatchObject({ parentSpanId: PARENT_ID, service: 'slots-system-test', name: 'GET /slots' });
    expect(serverSpan.attributes['http.route']).toBe('/slots');
    expect(receiver.exports.every((one) => one.path === '/v1/traces')).toBe(true);

    const requestId = response.headers.get('x-request-id');
    const line = await server.process.waitForOutput(new RegExp(`^.*"id":"${requestId}".*$`, 'm'));
    // With the SDK on, the span id logged is that of a span the SDK exported in that trace (the one active when
    // the request was first logged: its HTTP span).
    const logged = JSON.parse(line[0]) as { trace_id: string; span_id: string };
    expect(logged.trace_id).toBe(TRACE_ID);
    await receiver.waitForSpan((span) => span.traceId === TRACE_ID && span.spanId === logged.span_id);

    // A route of Express's router: its spans under the HTTP span, the route named on both.
    const signInTrace = '3'.repeat(32);
    const signIn = await fetch(`${server.url}/login`, {
      method: 'POST',
      headers: { traceparent: `00-${signInTrace}-${PARENT_ID}-01`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'nobody', password: 'not the password' }),
    });
    expect(signIn.status).toBe(401);
    const handler = await receiver.waitForSpan(
      (span) => span.traceId === signInTrace && span.attributes['express.type'] === 'request_handler',
    );
    expect(handler.attributes['http.route']).toBe('/login');
    const signInSpan = await receiver.waitForSpan((span) => span.traceId === signInTrace && span.kind === 2);
    expect(signInSpan).toMatchObject({ name: 'POST /login', parentSpanId: PARENT_ID });

    // A file of a remote: named by the route every remote file shares, not by the file nor the router's mount.
    const fileTrace = '4'.repeat(32);
    const descriptor = await fetch(`${server.url}/remotes/team_records/slots-remote.json`, {
      headers: { traceparent: `00-${fileTrace}-${PARENT_ID}-01` },
    });
    expect(descriptor.status).toBe(200);
    const fileSpan = await receiver.waitForSpan((span) => span.traceId === fileTrace && span.kind === 2);
    expect(fileSpan).toMatchObject({ name: 'GET /remotes/*file', parentSpanId: PARENT_ID });
    expect(fileSpan.attributes['http.route']).toBe('/remotes/*file');

    // Probes are not traced: a probe's trace never arrives, though a request made after it does.
    const probeTrace = '1'.repeat(32);
    const laterTrace = '2'.repeat(32);
    await fetch(`${server.url}/readyz`, { headers: { traceparent: `00-${probeTrace}-${PARENT_ID}-01` } });
    await fetch(`${server.url}/slots`, { headers: { traceparent: `00-${laterTrace}-${PARENT_ID}-01` } });
    await receiver.waitForSpan((span) => span.traceId === laterTrace && span.kind === 2);
    expect(receiver.spans.filter((span) => span.traceId === probeTrace)).toEqual([]);
  });
});

describe('traces of the requests the server sends', () => {
  it('a release published: its files asked under CLIENT spans of its trace, each sent on with its own span', async () => {
    receiver = await startOtlpReceiver();
    // An origin serving team_marketing's build, as a team serves a release of it.
    const origin = await startStaticServer(path.join(DIST_DIR, 'remotes', 'team_marketing'));
    try {
      server = await startTracedServer(receiver);
      const token = await addToken(server, 'team_marketing');
      const published = await fetch(`${server.url}/api/remotes/team_marketing/releases`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', traceparent: TRACEPARENT },
        body: JSON.stringify({ version: '1.0.0', entry: `${origin.url}/mf-manifest.json` }),
      });
      expect(published.status).toBe(201);

      // Its descriptor, its manifest and the entry script the manifest names.
      const asked = origin.requests;
      expect(asked.map((one) => one.url)).toEqual([
        `/${REMOTE_DESCRIPTOR_FILE}`,
        '/mf-manifest.json',
        expect.stringMatching(/^\/remoteEntry[.\w]*\.js$/),
      ]);
      const request = await receiver.waitForSpan((span) => span.traceId === TRACE_ID && span.kind === 2);
      expect(request.parentSpanId).toBe(PARENT_ID);
      for (const one of asked) {
        const client = await receiver.waitForSpan(
          (span) => span.kind === 3 && span.attributes['url.full'] === `${origin.url}${one.url}`,
        );
        expect(client).toMatchObject({ traceId: TRACE_ID, name: 'GET', service: 'slots-system-test' });
        expect(client.attributes).toMatchObject({ 'http.request.method': 'GET', 'http.response.status_code': 200 });
        // Under the request's span, or a span of its (Express's handler): in its trace, never a trace of its own.
        const parent = await receiver.waitForSpan((span) => span.spanId === client.parentSpanId);
        expect(parent.traceId).toBe(TRACE_ID);
        // The origin saw the client span as its caller, once, sampled.
        expect(one.traceparent).toBe(`00-${TRACE_ID}-${client.spanId}-01`);
      }
    } finally {
      await origin.close();
    }
  });
});

describe('traces as OTLP/HTTP protobuf', () => {
  it('with OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf: the same spans reach the receiver, encoded as protobuf', async () => {
    receiver = await startOtlpReceiver();
    server = await startTracedServer(receiver, { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf' });
    expect((await fetch(`${server.url}/slots`, { headers: { traceparent: TRACEPARENT } })).status).toBe(200);
    const serverSpan = await receiver.waitForSpan((span) => span.traceId === TRACE_ID && span.kind === 2);
    expect(serverSpan).toMatchObject({ parentSpanId: PARENT_ID, service: 'slots-system-test', name: 'GET /slots' });
    expect(serverSpan.attributes).toMatchObject({ 'http.route': '/slots', 'http.response.status_code': 200 });
    expect(receiver.exports.length).toBeGreaterThan(0);
    expect(receiver.exports.every((one) => one.contentType === 'application/x-protobuf')).toBe(true);
    // The traces-only variable wins over the general one, as the specification orders them.
    await server.stop();
    server = await startTracedServer(receiver, {
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
    });
    const jsonTrace = '5'.repeat(32);
    await fetch(`${server.url}/slots`, { headers: { traceparent: `00-${jsonTrace}-${PARENT_ID}-01` } });
    await receiver.waitForSpan((span) => span.traceId === jsonTrace && span.kind === 2);
    expect(receiver.exports.at(-1)?.contentType).toBe('application/json');
  });

  it.each([
    [
      { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
      'OTEL_EXPORTER_OTLP_PROTOCOL="grpc" is not valid: expected "http/protobuf" or "http/json" (gRPC is not supported).',
    ],
    // The SDK would trace every request for these, and say so nowhere.
    [
      { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0,1' },
      'OTEL_TRACES_SAMPLER_ARG="0,1" is not valid: expected the share of requests traced, a number from 0 to 1 with a ' +
        'dot: 0.1 for one in ten.',
    ],
    [
      { OTEL_TRACES_SAMPLER: 'parentbased_traceid_ratio' },
      'OTEL_TRACES_SAMPLER="parentbased_traceid_ratio" is not valid',
    ],
  ])(
    'refuses to start with %j (a protocol it cannot send in, a sampling it cannot read), naming the variable',
    async (env, said) => {
      receiver = await startOtlpReceiver();
      await expect(startAppServer({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...env } })).rejects.toThrow(
        `The server could not start: ${said}`,
      );
    },
  );
});

describe('traces sampled by the server (parentbased_traceidratio)', () => {
  it('every new trace recorded by the server itself, as the SDK records it; a caller’s sampled trace followed', async () => {
    receiver = await startOtlpReceiver();
    server = await startTracedServer(receiver, {
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '1',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    });
    // A new trace: its server span a root, with its request's attributes, route and status.
    const slots = await fetch(`${server.url}/slots?view=full`);
    expect(slots.status).toBe(200);
    const root = await receiver.waitForSpan((span) => span.kind === 2 && span.attributes['url.query'] === 'view=full');
    expect(root).toMatchObject({ name: 'GET /slots', service: 'slots-system-test' });
    expect(root.parentSpanId ?? '').toBe('');
    expect(root.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.path': '/slots',
      'http.route': '/slots',
      'http.response.status_code': 200,
    });

    // A route of Express's router in a new trace: its handler's span (the SDK's) under the server's span.
    const signIn = await fetch(`${server.url}/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'nobody', password: 'not the password' }),
    });
    expect(signIn.status).toBe(401);
    const signInSpan = await receiver.waitForSpan((span) => span.kind === 2 && span.name === 'POST /login');
    const handler = await receiver.waitForSpan(
      (span) => span.traceId === signInSpan.traceId && span.attributes['express.type'] === 'request_handler',
    );
    expect(handler.parentSpanId).toBe(signInSpan.spanId);
    expect(signInSpan.attributes['http.response.status_code']).toBe(401);

    // A caller's sampled trace: the server span its child.
    await fetch(`${server.url}/slots`, { headers: { traceparent: TRACEPARENT } });
    const child = await receiver.waitForSpan((span) => span.traceId === TRACE_ID && span.kind === 2);
    expect(child).toMatchObject({ parentSpanId: PARENT_ID, name: 'GET /slots' });
  });
});

describe('traces over HTTP/2', () => {
  let cert: SelfSignedCert | undefined;
  afterEach(() => {
    cert?.dir.remove();
    cert = undefined;
  });

  it('with TLS_CERT_FILE and OTEL_EXPORTER_OTLP_ENDPOINT: each request, HTTP/2 or HTTP/1.1, is a server span of its trace', async () => {
    receiver = await startOtlpReceiver();
    cert = makeSelfSignedCert();
    server = await startAppServer({
      tls: { certFile: cert.certFile, keyFile: cert.keyFile },
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100' },
    });
    const client = http2.connect(server.url, { rejectUnauthorized: false });
    try {
      // A secret sent by mistake in a query is redacted in the span, as in the logs.
      await h2Request(client, {
        ':path': '/slots?password=hunter2',
        traceparent: `00-${'8'.repeat(32)}-${PARENT_ID}-01`,
      });
      const queried = await receiver.waitForSpan((span) => span.traceId === '8'.repeat(32) && span.kind === 2);
      expect(queried.attributes['http.target']).toBe('/slots?password=[redacted]');

      // The public fast path, over HTTP/2: its server span names the route, as over HTTP/1.1.
      const slots = await h2Request(client, { ':path': '/slots', traceparent: TRACEPARENT });
      expect(slots.status).toBe(200);
      const slotsSpan = await receiver.waitForSpan((span) => span.traceId === TRACE_ID && span.kind === 2);
      expect(slotsSpan).toMatchObject({ parentSpanId: PARENT_ID, name: 'GET /slots' });
      expect(slotsSpan.attributes).toMatchObject({
        'http.route': '/slots',
        'http.method': 'GET',
        'http.status_code': 200,
        'http.flavor': '2.0',
      });

      // A route of Express's router, over HTTP/2: Express's spans under the server span, the route named on it.
      const signInTrace = '4'.repeat(32);
      const signIn = await h2Request(
        client,
        {
          ':method': 'POST',
          ':path': '/login',
          traceparent: `00-${signInTrace}-${PARENT_ID}-01`,
          'content-type': 'application/json',
        },
        JSON.stringify({ username: 'nobody', password: 'not the password' }),
      );
      expect(signIn.status).toBe(401);
      const signInSpan = await receiver.waitForSpan((span) => span.traceId === signInTrace && span.kind === 2);
      expect(signInSpan).toMatchObject({ name: 'POST /login', parentSpanId: PARENT_ID });
      expect(signInSpan.attributes['http.status_code']).toBe(401);
      const handler = await receiver.waitForSpan(
        (span) => span.traceId === signInTrace && span.attributes['express.type'] === 'request_handler',
      );
      expect(handler.parentSpanId).toBe(signInSpan.spanId);
    } finally {
      client.close();
    }

    // HTTP/1.1 on the same TLS port (clients without HTTP/2): traced the same way.
    const http1Trace = '5'.repeat(32);
    const answer = await httpsGet(`${server.url}/slots`, { traceparent: `00-${http1Trace}-${PARENT_ID}-01` });
    expect(answer).toBe(200);
    const http1Span = await receiver.waitForSpan((span) => span.traceId === http1Trace && span.kind === 2);
    expect(http1Span).toMatchObject({ name: 'GET /slots', parentSpanId: PARENT_ID });
    expect(http1Span.attributes['http.flavor']).toBe('1.1');

    // Probes are not traced here either.
    const probeTrace = '6'.repeat(32);
    const laterTrace = '7'.repeat(32);
    await httpsGet(`${server.url}/readyz`, { traceparent: `00-${probeTrace}-${PARENT_ID}-01` });
    await httpsGet(`${server.url}/slots`, { traceparent: `00-${laterTrace}-${PARENT_ID}-01` });
    await receiver.waitForSpan((span) => span.traceId === laterTrace && span.kind === 2);
    expect(receiver.spans.filter((span) => span.traceId === probeTrace)).toEqual([]);
    // One server span per request: the HTTP instrumentation does not see node:http2's server, so none twice.
    expect(receiver.spans.filter((span) => span.traceId === TRACE_ID && span.kind === 2)).toHaveLength(1);
  });
});

/** A GET over HTTPS with HTTP/1.1 (node:https speaks nothing else), the certificate not checked; its status. */
function httpsGet(url: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { headers, rejectUnauthorized: false }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      })
      .on('error', reject);
  });
}

describe('where the spans go, in the log', () => {
  it('the start names the URL the spans are posted to, and a receiver refusing them is named by that URL', async () => {
    // A collector behind a proxy's path: the base endpoint is the proxy's /otlp, the spans go to /otlp/v1/traces,
    // which this receiver (a collector at its root) answers 404.
    receiver = await startOtlpReceiver();
    const url = `${receiver.url}/otlp/v1/traces`;
    server = await startTracedServer(receiver, { OTEL_EXPORTER_OTLP_ENDPOINT: `${receiver.url}/otlp` });
    const started = await server.process.waitForOutput(/^.*"tracing: spans sent to .*$/m);
    expect(JSON.parse(started[0]) as Record<string, unknown>).toMatchObject({
      endpoint: url,
      protocol: 'http/json',
      sampler: 'parentbased_always_on',
      msg: `tracing: spans sent to ${url} (http/json), sampler parentbased_always_on`,
    });

    expect((await fetch(`${server.url}/slots`)).status).toBe(200);
    const refused = await server.process.waitForOutput(/^.*"tracing: spans could not be sent to .*$/m);
    expect(JSON.parse(refused[0]) as Record<string, unknown>).toMatchObject({
      endpoint: url,
      msg: expect.stringContaining(`tracing: spans could not be sent to ${url} (Not Found)`),
    });
    expect(receiver.exports.some((one) => one.path === '/otlp/v1/traces')).toBe(true);
  });
});

describe('traces at shutdown', () => {
  it('sends the spans not sent yet before the process ends (SIGTERM)', async () => {
    receiver = await startOtlpReceiver();
    // Batches a minute apart: only the shutdown's flush can send this request's spans in time.
    server = await startAppServer({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '60000' },
    });
    expect((await fetch(`${server.url}/slots`, { headers: { traceparent: TRACEPARENT } })).status).toBe(200);
    expect(receiver.spans.filter((span) => span.traceId === TRACE_ID)).toEqual([]);
    const exit = await server.process.stop({ graceMs: 10_000 });
    expect(exit.code).toBe(0);
    expect(receiver.spans.some((span) => span.traceId === TRACE_ID && span.kind === 2)).toBe(true);
  });
});

/** Signs the demo user in to `app` under TRACEPARENT: the session's cookie (`name=value`) and its id. */
async function signInTraced(app: AppServer): Promise<{ cookie: string; sessionId: string }> {
  const signedIn = await fetch(`${app.url}/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', traceparent: TRACEPARENT, Origin: app.url },
    body: JSON.stringify({ username: DEMO_USERNAME, password: DEMO_PASSWORD }),
  });
  expect(signedIn.status).toBe(200);
  const cookie = signedIn.headers
    .getSetCookie()
    .find((one) => one.startsWith('slots.sid='))!
    .split(';')[0]!;
  const sessionId = decodeURIComponent(cookie.split('=')[1]!).slice(2).split('.')[0]!;
  expect(sessionId.length).toBeGreaterThan(16);
  return { cookie, sessionId };
}

/**
 * Asks `app` for `GET /meta` with the session `cookie`, once in a trace its caller sampled out, then once in a
 * sampled one: their trace ids.
 */
async function askMetaSampledOutThenRecorded(
  app: AppServer,
  cookie: string,
): Promise<{ unsampled: string; later: string }> {
  const unsampled = '6'.repeat(32);
  const later = '7'.repeat(32);
  for (const [trace, flags] of [
    [unsampled, '00'],
    [later, '01'],
  ]) {
    const meta = await fetch(`${app.url}/meta`, {
      headers: { Cookie: cookie, traceparent: `00-${trace}-${PARENT_ID}-${flags}` },
    });
    expect(meta.status).toBe(200);
  }
  return { unsampled, later };
}

describe('traces with Redis', () => {
  it('exports the Redis commands a request makes as spans of its trace, each written as its name alone', async () => {
    const redis = await RedisServerProcess.start();
    try {
      receiver = await startOtlpReceiver();
      server = await startTracedServer(receiver, { REDIS_URL: redis.url });
      // A sign-in keeps its session in Redis.
      const { cookie, sessionId } = await signInTraced(server);

      const command = await receiver.waitForSpan(
        (span) => span.traceId === TRACE_ID && span.attributes['db.system.name'] === 'redis',
      );
      expect(command.kind).toBe(3); // client
      const parent = await receiver.waitForSpan((span) => span.spanId === command.parentSpanId);
      expect(parent.traceId).toBe(TRACE_ID);
      await receiver.waitForSpan((span) => span.traceId === TRACE_ID && span.kind === 2);
      const commands = receiver.spans.filter((span) => span.attributes['db.system.name'] === 'redis');
      expect(commands.map((span) => span.name)).toEqual(expect.arrayContaining(['redis-GET', 'redis-SET']));
      // The command's name alone: never its key (a session id), its value (the session) or a username.
      for (const one of commands) {
        expect(JSON.stringify(one)).not.toContain(sessionId);
        expect(JSON.stringify(one)).not.toContain(DEMO_USERNAME);
      }
      // A pipeline's text is its commands' names, a line each.
      for (const one of commands) expect(one.attributes['db.query.text']).toMatch(/^[A-Z]+(\n[A-Z]+)*$/);
      // A request sampled out reads its session without a span; a recorded one after it has its own.
      const { unsampled, later } = await askMetaSampledOutThenRecorded(server, cookie);
      await receiver.waitForSpan((span) => span.traceId === later && span.attributes['db.system.name'] === 'redis');
      expect(receiver.spans.filter((span) => span.traceId === unsampled)).toEqual([]);
      // Nothing outside a request starts a trace: not the client's connection at the start, not the commands of the
      // sessions counted for the metrics.
      const redisSpans = receiver.spans.filter((span) => span.attributes['db.system.name'] === 'redis');
      expect(redisSpans.filter((span) => !span.parentSpanId)).toEqual([]);
      expect(redisSpans.map((span) => span.name)).not.toContain('redis-connect');
    } finally {
      await server?.stop();
      server = undefined;
      await redis.stop();
    }
  });
});

describe('traces with SQLite', () => {
  it('exports the statements a request runs on the embedded file as spans of its trace, no value in them', async () => {
    receiver = await startOtlpReceiver();
    server = await startTracedServer(receiver);
    // A sign-in reads the user and writes the session, both on the SQLite file.
    const { cookie, sessionId } = await signInTraced(server);

    const write = await receiver.waitForSpan(
      (span) =>
        span.traceId === TRACE_ID && span.name === 'INSERT sessions' && span.attributes['db.system.name'] === 'sqlite',
    );
    expect(write.kind).toBe(3); // client
    expect(write.attributes['db.query.text']).toMatch(
      /^INSERT INTO sessions \(sid, sess, expires_at\) VALUES \(\?, \?, \?\)/,
    );
    const parent = await receiver.waitForSpan((span) => span.spanId === write.parentSpanId);
    expect(parent.traceId).toBe(TRACE_ID);
    await receiver.waitForSpan((span) => span.traceId === TRACE_ID && span.kind === 2);
    const statements = receiver.spans.filter((span) => span.attributes['db.system.name'] === 'sqlite');
    expect(statements.map((span) => span.name)).toEqual(expect.arrayContaining(['SELECT users', 'INSERT sessions']));
    // Values are bound, never in the text: no session id, username or password in any span.
    for (const one of statements) {
      for (const secret of [sessionId, DEMO_USERNAME, DEMO_PASSWORD]) expect(JSON.stringify(one)).not.toContain(secret);
    }
    // A request sampled out reads its session without a span; a recorded one after it has its own.
    const { unsampled, later } = await askMetaSampledOutThenRecorded(server, cookie);
    await receiver.waitForSpan((span) => span.traceId === later && span.name === 'SELECT sessions');
    expect(receiver.spans.filter((span) => span.traceId === unsampled)).toEqual([]);
    // Statements outside any request (migrations at the start, the sessions counted for the metrics) start no trace.
    expect(
      receiver.spans.filter((span) => span.attributes['db.system.name'] === 'sqlite' && !span.parentSpanId),
    ).toEqual([]);
  });
});

describeWithPostgres()('traces with PostgreSQL', () => {
  let postgres: PostgresServer;
  beforeAll(async () => {
    postgres = await PostgresServer.start();
  }, 60_000);
  afterAll(() => postgres?.remove(), 30_000);

  it('exports the pg queries a request makes as spans of its trace', async () => {
    receiver = await startOtlpReceiver();
    server = await startAppServer({
      env: {
        DATABASE_URL: await postgres.createDatabase('traced'),
        SESSION_SECRET: 'a-session-secret-of-the-system-test',
        DATABASE_PATH: undefined,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_BSP_SCHEDULE_DELAY: '100',
      },
    });
    // A sign-in reads the user from PostgreSQL.
    const response = await fetch(`${server.url}/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', traceparent: TRACEPARENT, Origin: server.url },
      body: JSON.stringify({ username: 'nobody-here', password: 'wrong password' }),
    });
    expect(response.status).toBe(401);
    const query = await receiver.waitForSpan((span) => span.traceId === TRACE_ID && span.name.startsWith('pg.query'));
    expect(query.kind).toBe(3); // client
    // Queries outside any request (the releases poll) start no trace of their own.
    expect(receiver.spans.filter((span) => span.name.startsWith('pg.') && !span.parentSpanId)).toEqual([]);
  });
});
