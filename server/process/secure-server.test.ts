import https from 'node:https';
import http2, { type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import pino from 'pino';
import { ERROR_MESSAGES, type MetaPayload } from '../../shared';
import { tlsSettingsFromEnv } from '../config/tls-settings';
import { createLogger } from '../logger';
import { createFixtureDist, exposeChunk, type FixtureDist } from '../../testing/server/fixture-dist';
import { makeSelfSignedCert, type SelfSignedCert } from '../../testing/server/self-signed-cert';
import { createDemoApp, DEMO_PASSWORD, type DemoTestApp } from '../../testing/server/test-app';
import { h2Request, type Answer } from '../../testing/server/http2-client';
import { createGracefulShutdown } from './graceful-shutdown';
import { API_SECURITY_HEADERS } from '../security/api-security-headers';
import { createSecureServer, type SecureServer } from './secure-server';

const TIMEOUTS = { headersTimeoutMs: 15_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000 };

/** One request over HTTP/1.1 on TLS (ALPN offers http/1.1 only), its whole answer read. */
function h1Request(
  port: number,
  options: https.RequestOptions & tls.ConnectionOptions,
  body?: string,
): Promise<Answer & { alpn: string }> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      { host: '127.0.0.1', port, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'], agent: false, ...options },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: text,
            alpn: String((response.socket as tls.TLSSocket).alpnProtocol),
          }),
        );
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

function sessionCookie(headers: IncomingHttpHeaders): string {
  const cookie = (headers['set-cookie'] ?? []).find((value) => value.startsWith('slots.sid='));
  if (!cookie) throw new Error(`no session cookie in ${JSON.stringify(headers)}`);
  return cookie;
}

const METRICS_TOKEN = 'metrics-token-0123456789';
const RECORDS = {
  name: 'team_records',
  components: ['CopyLinkAction', 'SlugPreview'],
  formComponents: ['SlugPreview'],
};

describe('createSecureServer', () => {
  let cert: SelfSignedCert;
  let dist: FixtureDist;
  let host: DemoTestApp;
  let logLines: string[];
  let server: SecureServer;
  let port: number;
  let origin: string;
  const clients: ClientHttp2Session[] = [];
  // node:http2 warns (once per process) when an answer sets what HTTP/2 has no place for: Connection, a status text.
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);

  beforeAll(() => {
    cert = makeSelfSignedCert();
    process.on('warning', onWarning);
  });
  afterAll(() => {
    process.off('warning', onWarning);
    cert.dir.remove();
    expect(warnings).toEqual([]);
  });

  beforeEach(async () => {
    dist = createFixtureDist();
    dist.addHost();
    dist.addRemote(RECORDS);
    // A remote of the demo with two of its components only: the demo's other slots are logged, not fatal.
    logLines = [];
    host = await createDemoApp({
      distDir: dist.dir,
      slotProblems: 'log',
      logger: createLogger('production', 'info', { write: (line: string) => void logLines.push(line) }),
      logRequests: true,
      metrics: { token: METRICS_TOKEN },
    });
    const tls = tlsSettingsFromEnv({ TLS_CERT_FILE: cert.certFile, TLS_KEY_FILE: cert.keyFile });
    if (!tls) throw new Error('no TLS settings');
    server = createSecureServer(host.app.handler, TIMEOUTS, tls, API_SECURITY_HEADERS);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    origin = `https://127.0.0.1:${port}`;
  });

  afterEach(async () => {
    for (const client of clients.splice(0)) client.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await host.close();
    dist.remove();
  });

  function connect(): Promise<ClientHttp2Session> {
    const client = http2.connect(origin, { rejectUnauthorized: false });
    clients.push(client);
    return new Promise((resolve, reject) => {
      client.once('connect', () => resolve(client));
      client.once('error', reject);
    });
  }

  it('signs in, answers /meta and /slots (then 304 on its ETag) over HTTP/2, with a Secure session cookie', async () => {
    const client = await connect();
    expect(client.alpnProtocol).toBe('h2');

    const login = await h2Request(
      client,
      { ':method': 'POST', ':path': '/login', 'content-type': 'application/json' },
      JSON.stringify({ username: 'admin', password: DEMO_PASSWORD }),
    );
    expect(login.status).toBe(200);
    const cookie = sessionCookie(login.headers);
    // Over TLS the cookie is Secure though no proxy says so (TRUST_PROXY unset): the connection is encrypted.
    expect(cookie).toMatch(/;\s*Secure/i);
    expect(cookie).toMatch(/;\s*HttpOnly/i);

    const meta = await h2Request(client, { ':path': '/meta', cookie: cookie.split(';')[0] });
    expect(meta.status).toBe(200);
    expect(meta.headers['content-type']).toMatch(/^application\/json/);
    const payload = JSON.parse(meta.body) as MetaPayload;
    expect(payload.dashboards.length).toBeGreaterThan(0);
    expect(payload.modules.length).toBeGreaterThan(0);

    const anonymousMeta = await h2Request(client, { ':path': '/meta' });
    expect(anonymousMeta.status).toBe(401);

    const slots = await h2Request(client, { ':path': '/slots' });
    expect(slots.status).toBe(200);
    const etag = slots.headers.etag;
    expect(etag).toEqual(expect.any(String));
    // HSTS: the answer came over HTTPS.
    expect(slots.headers['strict-transport-security']).toEqual(expect.any(String));
    const again = await h2Request(client, { ':path': '/slots', 'if-none-match': String(etag) });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
  });

  it('gives Express the host from :authority, so a same-origin form post passes the CSRF check', async () => {
    const client = await connect();
    const login = await h2Request(
      client,
      { ':method': 'POST', ':path': '/login', 'content-type': 'application/json', origin },
      JSON.stringify({ username: 'admin', password: DEMO_PASSWORD }),
    );
    expect(login.status).toBe(200);
    const crossSite = await h2Request(
      client,
      { ':method': 'POST', ':path': '/login', 'content-type': 'application/json', origin: 'https://evil.example' },
      JSON.stringify({ username: 'admin', password: DEMO_PASSWORD }),
    );
    expect(crossSite.status).toBe(403);
  });

  it('answers a bad request over HTTP/2 with the JSON error and the right status', async () => {
    const client = await connect();
    const answer = await h2Request(
      client,
      { ':method': 'POST', ':path': '/login', 'content-type': 'application/json' },
      '{"username": ',
    );
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: expect.anything() });
    const missing = await h2Request(client, { ':path': '/api/no-such-route' });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^application\/json/);
  });

  it("serves the host's document and a remote's files over HTTP/2, with their validators", async () => {
    const client = await connect();
    const page = await h2Request(client, { ':path': '/login' });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toEqual(expect.any(String));

    const manifest = await h2Request(client, { ':path': '/remotes/team_records/mf-manifest.json' });
    expect(manifest.status).toBe(200);
    expect(JSON.parse(manifest.body)).toMatchObject({ name: 'team_records' });
    const chunkPath = `/remotes/team_records/${exposeChunk('SlugPreview')}`;
    const chunk = await h2Request(client, { ':path': chunkPath });
    expect(chunk.status).toBe(200);
    expect(chunk.headers['content-type']).toMatch(/javascript/);
    const validator = chunk.headers.etag ?? chunk.headers['last-modified'];
    expect(validator).toEqual(expect.any(String));
    const revalidated = await h2Request(
      client,
      chunk.headers.etag
        ? { ':path': chunkPath, 'if-none-match': String(chunk.headers.etag) }
        : { ':path': chunkPath, 'if-modified-since': String(chunk.headers['last-modified']) },
    );
    expect(revalidated.status).toBe(304);
    expect((await h2Request(client, { ':path': '/remotes/team_records/missing.js' })).status).toBe(404);
  });

  it('logs and measures HTTP/2 requests as it does HTTP/1.1 ones', async () => {
    const client = await connect();
    expect((await h2Request(client, { ':path': '/slots' })).status).toBe(200);
    expect((await h2Request(client, { ':path': '/meta' })).status).toBe(401);
    const logged = logLines
      .map((line) => JSON.parse(line) as { req?: { url?: string }; res?: { statusCode?: number } })
      .filter((line) => line.res !== undefined)
      .map((line) => `${line.req?.url} ${line.res?.statusCode}`);
    expect(logged).toEqual(expect.arrayContaining(['/slots 200', '/meta 401']));
    const metrics = await h2Request(client, { ':path': '/metrics', authorization: `Bearer ${METRICS_TOKEN}` });
    expect(metrics.status).toBe(200);
    expect(metrics.body).toMatch(/slots_http_request_duration_seconds_count\{[^}]*route="\/slots"[^}]*\} 1/);
    expect(metrics.body).toMatch(
      /slots_http_request_duration_seconds_count\{[^}]*route="\/meta"[^}]*status="401"[^}]*\} 1/,
    );
  });

  it('still serves HTTP/1.1 over TLS to a client that offers only it, with the same Secure cookie', async () => {
    const slots = await h1Request(port, { path: '/slots' });
    expect(slots.alpn).toBe('http/1.1');
    expect(slots.status).toBe(200);
    expect(
      (await h1Request(port, { path: '/slots', headers: { 'If-None-Match': String(slots.headers.etag) } })).status,
    ).toBe(304);

    const login = await h1Request(
      port,
      { path: '/login', method: 'POST', headers: { 'Content-Type': 'application/json' } },
      JSON.stringify({ username: 'admin', password: DEMO_PASSWORD }),
    );
    expect(login.status).toBe(200);
    const cookie = sessionCookie(login.headers);
    expect(cookie).toMatch(/;\s*Secure/i);
    const meta = await h1Request(port, { path: '/meta', headers: { Cookie: cookie.split(';')[0] } });
    expect(meta.status).toBe(200);
  });

  it('answers HTTP/1.1 headers over the limit with 431 and the JSON error, as the plain server does', async () => {
    const answer = await h1Request(port, { path: '/slots', headers: { Cookie: 'a'.repeat(20 * 1024) } });
    expect(answer.status).toBe(431);
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: 'headers_too_large', message: ERROR_MESSAGES.headersTooLarge },
    });
  });

  it('refuses an HTTP/1.1 request without a Host header in JSON, as the plain server does', async () => {
    const received = await new Promise<string>((resolve, reject) => {
      const socket = tls.connect(
        { host: '127.0.0.1', port, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] },
        () => socket.write('GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n'),
      );
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    expect(received).toMatch(/^HTTP\/1\.1 400 /);
    expect(received.toLowerCase()).toContain(
      "\r\ncontent-security-policy: default-src 'none'; frame-ancestors 'none'\r\n",
    );
    expect(JSON.parse(received.split('\r\n\r\n')[1] ?? '')).toEqual({
      error: { code: 'invalid_request', message: ERROR_MESSAGES.noHost },
    });
  });

  it('once draining, answers over HTTP/2 with a GOAWAY instead of a Connection header', async () => {
    const client = await connect();
    const goaway = new Promise<void>((resolve) => client.once('goaway', () => resolve()));
    host.app.lifecycle.startDraining();
    const slots = await h2Request(client, { ':path': '/slots' });
    expect(slots.status).toBe(200);
    expect(slots.headers.connection).toBeUndefined();
    await goaway;
    const meta = await h2Request(await connect(), { ':path': '/meta' });
    // Answered through Express too (not only the /slots fast path), and still answered: the request was in flight.
    expect(meta.status).toBe(401);
  });

  it('shuts down gracefully: a GOAWAY to every HTTP/2 connection, the stream in flight finished, then closed', async () => {
    const client = await connect();
    const goaway = new Promise<void>((resolve) => client.once('goaway', () => resolve()));
    // A request in flight when the shutdown begins (the server has it): its body is still to come.
    const arrived = new Promise((resolve) => server.once('request', resolve));
    const inFlight = h2RequestWithLateBody(client);
    await arrived;
    const exit = jest.fn();
    const shutdown = createGracefulShutdown({
      server,
      lifecycle: host.app.lifecycle,
      logger: pino({ level: 'silent' }),
      settings: { drainDelayMs: 0, timeoutMs: 5_000 },
      closeResources: async () => undefined,
      exit,
    });
    const outcome = shutdown('SIGTERM');
    await goaway;
    inFlight.sendBody();
    expect((await inFlight.answer).status).toBe(400);
    expect(await outcome).toBe('clean');
    expect(exit).toHaveBeenCalledWith(0);
  });

  function h2RequestWithLateBody(client: ClientHttp2Session): { sendBody(): void; answer: Promise<Answer> } {
    const stream = client.request({ ':method': 'POST', ':path': '/login', 'content-type': 'application/json' });
    let headers: IncomingHttpHeaders = {};
    let text = '';
    stream.setEncoding('utf8');
    stream.on('response', (received) => (headers = received));
    stream.on('data', (chunk: string) => (text += chunk));
    const answer = new Promise<Answer>((resolve, reject) => {
      stream.on('end', () => resolve({ status: Number(headers[':status']), headers, body: text }));
      stream.on('error', reject);
    });
    stream.write('{"username":');
    return { sendBody: () => stream.end('"admin"}'), answer };
  }
});
