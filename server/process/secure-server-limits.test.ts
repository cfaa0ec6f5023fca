import http2, { type ClientHttp2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { tlsSettingsFromEnv } from '../config/tls-settings';
import { h2Request } from '../../testing/server/http2-client';
import { makeSelfSignedCert, type SelfSignedCert } from '../../testing/server/self-signed-cert';
import { API_SECURITY_HEADERS } from '../security/api-security-headers';
import { createSecureServer, type SecureServer } from './secure-server';

type Timeouts = Parameters<typeof createSecureServer>[1];

describe('createSecureServer limits on HTTP/2', () => {
  let cert: SelfSignedCert;
  let server: SecureServer | undefined;
  const clients: ClientHttp2Session[] = [];

  beforeAll(() => {
    cert = makeSelfSignedCert();
  });
  afterAll(() => cert.dir.remove());
  afterEach(async () => {
    for (const client of clients.splice(0)) client.destroy();
    if (!server) return;
    const closing = server;
    server = undefined;
    closing.closeAllConnections();
    await new Promise<void>((resolve) => closing.close(() => resolve()));
  });

  async function listen(settings: Timeouts): Promise<ClientHttp2Session> {
    return connectTo(await listenOnly(settings));
  }

  async function listenOnly(settings: Timeouts): Promise<number> {
    const tls = tlsSettingsFromEnv({ TLS_CERT_FILE: cert.certFile, TLS_KEY_FILE: cert.keyFile });
    if (!tls) throw new Error('no TLS settings');
    // Like a JSON route: the answer comes once the whole body has arrived.
    server = createSecureServer(
      (req, res) => {
        req.resume();
        req.on('end', () => res.end('{"ok":true}'));
      },
      settings,
      tls,
      API_SECURITY_HEADERS,
    );
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  }

  async function connectTo(port: number): Promise<ClientHttp2Session> {
    const client = http2.connect(`https://127.0.0.1:${port}`, { rejectUnauthorized: false });
    clients.push(client);
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('error', reject);
    });
    return client;
  }

  it('answers 408 to a request whose body does not arrive within REQUEST_TIMEOUT_MS', async () => {
    const client = await listen({ headersTimeoutMs: 200, requestTimeoutMs: 300, keepAliveTimeoutMs: 10_000 });
    const stream = client.request({ ':method': 'POST', ':path': '/', 'content-type': 'application/json' });
    stream.write('{"partial":');
    const started = Date.now();
    const status = await new Promise<number>((resolve) =>
      stream.on('response', (headers) => resolve(Number(headers[':status']))),
    );
    expect(status).toBe(408);
    // Bounds here leave seconds for a loaded machine, and stay well below the limits that would cut otherwise.
    expect(Date.now() - started).toBeLessThan(5_000);
    // The connection itself stays usable for the next request.
    expect((await h2Request(client, { ':path': '/' })).status).toBe(200);
  });

  it('closes a connection with no request open for KEEP_ALIVE_TIMEOUT_MS with a GOAWAY', async () => {
    const client = await listen({ headersTimeoutMs: 10_000, requestTimeoutMs: 10_000, keepAliveTimeoutMs: 200 });
    expect((await h2Request(client, { ':path': '/' })).status).toBe(200);
    const started = Date.now();
    await new Promise<void>((resolve) => client.once('goaway', () => resolve()));
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('cuts an HTTP/1.1 client over TLS that sends its headers too slowly (slowloris) with 408', async () => {
    const port = await listenOnly({ headersTimeoutMs: 200, requestTimeoutMs: 400, keepAliveTimeoutMs: 5_000 });
    const received = await new Promise<string>((resolve, reject) => {
      const socket = tlsConnect({ host: '127.0.0.1', port, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] });
      let text = '';
      socket.on('secureConnect', () => socket.write('GET / HTTP/1.1\r\nHost: localhost\r\n'));
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      socket.on('error', reject);
      socket.on('close', () => resolve(text));
    });
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection that opens no stream within HEADERS_TIMEOUT_MS', async () => {
    const client = await listen({ headersTimeoutMs: 200, requestTimeoutMs: 10_000, keepAliveTimeoutMs: 10_000 });
    const started = Date.now();
    await new Promise<void>((resolve) => client.once('close', () => resolve()));
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
