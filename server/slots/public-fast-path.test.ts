/**
 * The public fast path answers `GET /slots` before Express's router: these tests send the same requests to two
 * apps made alike, one with the fast path and one without (`publicFastPath: false`), and compare the answers byte
 * for byte (status, every header but Date, body), the log lines with LOG_REQUESTS, and the request metrics.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { Slot } from '../../shared';
import { createLogger } from '../logger';
import { createTestApp, type TestApp, type TestAppOptions } from '../../testing/server/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Probe {
  method: 'GET' | 'HEAD' | 'POST';
  path: string;
  headers?: Record<string, string>;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Two apps made with the same options and slots, the fast path on in the first only, and how Express was entered. */
interface Pair {
  fast: TestApp;
  plain: TestApp;
  /** Requests the fast app's Express application was given. */
  expressCalls: () => number;
  close(): Promise<void>;
}

async function makePair(options: TestAppOptions = {}): Promise<Pair> {
  const configure: TestAppOptions['configure'] = (app) => {
    app.registerSlots({
      'login-before-form': Slot.make('LoginNotice', { title: 'Welcome', text: 'Zoë' }),
      'login-sidebar': Slot.make('Promo', { title: 'p' }),
    });
  };
  const fast = await createTestApp({ ...options, configure });
  const plain = await createTestApp({ ...options, configure, publicFastPath: false });
  // Express's application function hands every request to its `handle`: counting those tells whether it ran.
  const express = fast.app.express as unknown as { handle: (...args: unknown[]) => unknown };
  const handle = express.handle.bind(express);
  let calls = 0;
  express.handle = (...args: unknown[]) => {
    calls += 1;
    return handle(...args);
  };
  return {
    fast,
    plain,
    expressCalls: () => calls,
    close: async () => {
      await fast.close();
      await plain.close();
    },
  };
}

async function send(testApp: TestApp, probe: Probe): Promise<Answer> {
  const base = request(testApp.app.handler);
  const pending =
    probe.method === 'GET'
      ? base.get(probe.path)
      : probe.method === 'HEAD'
        ? base.head(probe.path)
        : base.post(probe.path);
  for (const [name, value] of Object.entries(probe.headers ?? {})) pending.set(name, value);
  const response = await pending.buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
  });
  const headers = { ...(response.headers as Record<string, string>) };
  delete headers.date;
  // Without a body (HEAD, 304) supertest runs no parser and leaves `{}`.
  const body: unknown = response.body;
  return { status: response.status, headers, body: typeof body === 'string' ? body : '' };
}

/** Sends `probe` to both apps; the answers must be the same, a fresh request id apart. */
async function expectSameAnswer(pair: Pair, probe: Probe): Promise<Answer> {
  const fast = await send(pair.fast, probe);
  const plain = await send(pair.plain, probe);
  // A request without an acceptable id of its own gets a fresh one: a UUID on both sides.
  if (fast.headers['x-request-id'] !== probe.headers?.['X-Request-Id']) {
    expect(fast.headers['x-request-id']).toMatch(UUID);
    expect(plain.headers['x-request-id']).toMatch(UUID);
    delete fast.headers['x-request-id'];
    delete plain.headers['x-request-id'];
  }
  expect({ probe, ...fast }).toEqual({ probe, ...plain });
  return fast;
}

describe('the public fast path (GET /slots before Express)', () => {
  let pair: Pair | undefined;

  afterEach(async () => {
    await pair?.close();
    pair = undefined;
  });

  it('answers GET and HEAD /slots, any query string and any validator, as the Express route does, without Express', async () => {
    pair = await makePair();
    const etag = (await send(pair.plain, { method: 'GET', path: '/slots' })).headers.etag as string;
    const probes: Probe[] = [
      { method: 'GET', path: '/slots' },
      { method: 'HEAD', path: '/slots' },
      { method: 'GET', path: '/slots?' },
      { method: 'GET', path: '/slots?%zz&a[b]=1&&=x&tenant=acme' },
      { method: 'GET', path: '/slots', headers: { 'If-None-Match': etag } },
      { method: 'HEAD', path: '/slots', headers: { 'If-None-Match': etag } },
      { method: 'GET', path: '/slots', headers: { 'If-None-Match': `"other", W/${etag}` } },
      { method: 'GET', path: '/slots', headers: { 'If-None-Match': '*' } },
      { method: 'GET', path: '/slots', headers: { 'If-None-Match': '"stale"' } },
      { method: 'GET', path: '/slots', headers: { 'X-Request-Id': 'proxy-id.42' } },
      { method: 'GET', path: '/slots', headers: { 'X-Request-Id': 'forged id with spaces' } },
      // Proxy headers from a client that is no trusted proxy: ignored alike.
      { method: 'GET', path: '/slots', headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '1.2.3.4' } },
      // Cross-site or not, a GET changes nothing and is answered.
      { method: 'GET', path: '/slots', headers: { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' } },
    ];
    const answers: Answer[] = [];
    for (const probe of probes) answers.push(await expectSameAnswer(pair, probe));
    expect(pair.expressCalls()).toBe(0);

    // What the comparison covered: a 200 with the API's security headers, a 304, a HEAD without body.
    expect(answers[0]).toMatchObject({
      status: 200,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-cache',
        etag,
        'x-content-type-options': 'nosniff',
        'cross-origin-resource-policy': 'same-origin',
        'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      },
    });
    expect(answers[0]!.body).toContain('Zoë');
    expect(answers[1]).toMatchObject({ status: 200, body: '' });
    expect(answers[4]).toMatchObject({ status: 304, body: '' });
    expect(answers[4]!.headers['content-type']).toBeUndefined();
    expect(answers[9]!.headers['x-request-id']).toBe('proxy-id.42');
  });

  it('leaves every other method and spelling of the path to Express, which answers them alike', async () => {
    pair = await makePair();
    const probes: Probe[] = [
      { method: 'POST', path: '/slots' },
      { method: 'GET', path: '/slots/' },
      { method: 'GET', path: '/SLOTS' },
      { method: 'GET', path: '/slotsx' },
      { method: 'GET', path: '/slots/extra' },
      { method: 'GET', path: '/healthz' },
    ];
    for (const probe of probes) await expectSameAnswer(pair, probe);
    expect(pair.expressCalls()).toBe(probes.length);
  });

  it('adds HSTS when a trusted proxy says the request came over HTTPS, as req.secure does', async () => {
    pair = await makePair({ trustProxy: 'loopback' });
    const secure = await expectSameAnswer(pair, {
      method: 'GET',
      path: '/slots',
      headers: { 'X-Forwarded-Proto': 'https' },
    });
    expect(secure.headers['strict-transport-security']).toBeDefined();
    await expectSameAnswer(pair, { method: 'GET', path: '/slots', headers: { 'X-Forwarded-Proto': 'https, http' } });
    const plain = await expectSameAnswer(pair, {
      method: 'GET',
      path: '/slots',
      headers: { 'X-Forwarded-Proto': 'http' },
    });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
    expect(pair.expressCalls()).toBe(0);
  });

  it('asks a keep-alive client to close its connection once draining, and still answers (no database needed)', async () => {
    pair = await makePair();
    const connectionHeaders = async (testApp: TestApp): Promise<Array<string | undefined>> => {
      const server = http.createServer(testApp.app.handler);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const agent = new http.Agent({ keepAlive: true });
      try {
        const { port } = server.address() as AddressInfo;
        const ask = () =>
          new Promise<string | undefined>((resolve, reject) => {
            http
              .get({ host: '127.0.0.1', port, path: '/slots', agent }, (res) => {
                res.resume();
                res.on('end', () => resolve(`${res.statusCode} ${res.headers.connection}`));
              })
              .on('error', reject);
          });
        const before = await ask();
        testApp.app.lifecycle.startDraining();
        return [before, await ask()];
      } finally {
        agent.destroy();
        server.close();
      }
    };
    const fast = await connectionHeaders(pair.fast);
    expect(fast).toEqual(['200 keep-alive', '200 close']);
    expect(fast).toEqual(await connectionHeaders(pair.plain));
  });

  it('writes the same log line per request with LOG_REQUESTS, trace id included', async () => {
    const fastLines: string[] = [];
    const plainLines: string[] = [];
    const fast = await createTestApp({
      logRequests: true,
      logger: createLogger('production', 'info', { write: (line: string) => void fastLines.push(line) }),
    });
    const plain = await createTestApp({
      logRequests: true,
      publicFastPath: false,
      logger: createLogger('production', 'info', { write: (line: string) => void plainLines.push(line) }),
    });
    pair = { fast, plain, expressCalls: () => 0, close: async () => (await fast.close(), await plain.close()) };
    const traceparent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    await expectSameAnswer(pair, {
      method: 'GET',
      path: '/slots?x=1',
      headers: { 'X-Request-Id': 'req-1', traceparent },
    });
    const comparable = (lines: string[]) =>
      lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line.msg === 'request completed')
        .map(({ time: _time, pid: _pid, hostname: _hostname, responseTime: _took, span_id: _span, ...rest }) => rest);
    expect(comparable(fastLines)).toHaveLength(1);
    expect(comparable(fastLines)).toEqual(comparable(plainLines));
    expect(comparable(fastLines)[0]).toMatchObject({
      trace_id: '0af7651916cd43dd8448eb211c80319c',
      req: { id: 'req-1', method: 'GET', url: '/slots?x=1' },
      res: { statusCode: 200 },
    });
  });

  it('times its answers under the route /slots, by status, as the Express route is labelled', async () => {
    pair = await makePair({ metrics: {} });
    const etag = (await send(pair.plain, { method: 'GET', path: '/slots' })).headers.etag as string;
    await send(pair.fast, { method: 'GET', path: '/slots' });
    for (const probe of [
      { method: 'GET', path: '/slots' },
      { method: 'HEAD', path: '/slots?a=1' },
      { method: 'GET', path: '/slots', headers: { 'If-None-Match': etag } },
    ] as Probe[]) {
      await expectSameAnswer(pair, probe);
    }
    const lines = async (testApp: TestApp, series: 'count' | 'sum') =>
      (await testApp.app.metrics.text())
        .split('\n')
        .filter((line) => line.startsWith(`slots_http_request_duration_seconds_${series}`));
    expect(await lines(pair.fast, 'count')).toEqual([
      'slots_http_request_duration_seconds_count{method="GET",route="/slots",status="200"} 2',
      'slots_http_request_duration_seconds_count{method="HEAD",route="/slots",status="200"} 1',
      'slots_http_request_duration_seconds_count{method="GET",route="/slots",status="304"} 1',
    ]);
    expect(await lines(pair.fast, 'count')).toEqual(await lines(pair.plain, 'count'));
    // Each answer's time is measured: above nothing, and far below the seconds a test waits.
    for (const line of await lines(pair.fast, 'sum')) expect(Number(line.split(' ')[1])).toBeGreaterThan(0);
    for (const line of await lines(pair.fast, 'sum')) expect(Number(line.split(' ')[1])).toBeLessThan(1);
    expect(pair.expressCalls()).toBe(0);
  });

  it('is off when an embedding application adds middleware before the routes: that middleware sees /slots too', async () => {
    const seen: string[] = [];
    const testApp = await createTestApp({
      middleware: { beforeRoutes: [(req, _res, next) => (seen.push(req.url), next())] },
    });
    try {
      expect((await request(testApp.app.handler).get('/slots')).status).toBe(200);
      expect(seen).toEqual(['/slots']);
    } finally {
      await testApp.close();
    }
  });
});
