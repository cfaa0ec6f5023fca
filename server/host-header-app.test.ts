/**
 * An HTTP/1.1 request without a Host header, through the app on the server it is started on: refused in JSON with
 * the API's headers (Node's own refusal is an empty 400), the public /slots included; HTTP/1.0 had no Host header
 * and is answered.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import { ERROR_MESSAGES } from '../shared';
import { createTestApp, type TestApp } from '../testing/server/test-app';
import { createHttpServer } from './process/http-server';
import { API_SECURITY_HEADERS } from './security/api-security-headers';

let testApp: TestApp;
let server: http.Server;
let port: number;

beforeAll(async () => {
  testApp = await createTestApp();
  server = createHttpServer(
    testApp.app.handler,
    { headersTimeoutMs: 2_000, requestTimeoutMs: 4_000, keepAliveTimeoutMs: 1_000 },
    API_SECURITY_HEADERS,
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await testApp.close();
});

/** Sends `request` as it is and resolves with the whole answer, once the server closed the connection. */
function raw(request: string): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port }, () => socket.write(request));
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = received.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.\d (\d{3})/.exec(head)?.[1]), head, body });
    });
  });
}

it.each(['/healthz', '/slots', '/api/resources'])('refuses GET %s without a Host header in JSON', async (path) => {
  const answer = await raw(`GET ${path} HTTP/1.1\r\nConnection: close\r\n\r\n`);
  expect(answer.status).toBe(400);
  expect(JSON.parse(answer.body)).toEqual({ error: { code: 'invalid_request', message: ERROR_MESSAGES.noHost } });
  for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) {
    expect(answer.head.toLowerCase()).toContain(`\r\n${name.toLowerCase()}: ${value.toLowerCase()}\r\n`);
  }
});

it('answers HTTP/1.0, which had no Host header, and HTTP/1.1 with one', async () => {
  expect((await raw('GET /healthz HTTP/1.0\r\n\r\n')).status).toBe(200);
  expect((await raw('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')).status).toBe(200);
});
