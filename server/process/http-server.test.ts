import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type http from 'node:http';
import { ERROR_MESSAGES } from '../../shared';
import { API_SECURITY_HEADERS } from '../security/api-security-headers';
import { createHttpServer, serverTimeoutSettingsFromEnv } from './http-server';

const open: http.Server[] = [];
afterEach(async () => {
  await Promise.all(
    open.splice(0).map(
      (server) =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    ),
  );
});

async function listen(settings: Parameters<typeof createHttpServer>[1]): Promise<number> {
  // Like a JSON route: the answer comes once the whole body has arrived.
  const server = createHttpServer(
    (req, res) => {
      req.resume();
      req.on('end', () => {
        res.setHeader('Content-Type', 'application/json');
        res.end('{"ok":true}');
      });
    },
    settings,
    API_SECURITY_HEADERS,
  );
  open.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Opens a raw connection, runs `drive`, and resolves with what the server sent and when it closed the socket. */
function rawClient(
  port: number,
  drive: (socket: net.Socket) => void,
): Promise<{ received: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect({ host: '127.0.0.1', port });
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => resolve({ received, closedAfterMs: Date.now() - started }));
    socket.on('connect', () => drive(socket));
  });
}

/** The JSON error of a raw answer: its body, parsed, checked against its Content-Length. */
function jsonErrorOf(received: string): unknown {
  const [head = '', body = ''] = received.split('\r\n\r\n');
  expect(Number(/\r\nContent-Length: (\d+)/i.exec(head)?.[1])).toBe(Buffer.byteLength(body));
  return (JSON.parse(body) as { error: unknown }).error;
}

describe('createHttpServer', () => {
  it('cuts a client that sends its headers too slowly (slowloris) with 408', async () => {
    const port = await listen({ headersTimeoutMs: 500, requestTimeoutMs: 10_000, keepAliveTimeoutMs: 1_000 });
    let timer: NodeJS.Timeout | undefined;
    const result = await rawClient(port, (socket) => {
      socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
      // One more header byte every 100 ms, never the blank line that ends the headers.
      timer = setInterval(() => {
        if (!socket.destroyed) socket.write('X');
      }, 100);
    });
    clearInterval(timer);
    expect(result.received).toMatch(/^HTTP\/1\.1 408/);
    expect(jsonErrorOf(result.received)).toEqual({ code: 'request_timeout', message: ERROR_MESSAGES.requestTimeout });
    // Cut by the headers' limit, well before the request's: seconds of room for a loaded machine.
    expect(result.closedAfterMs).toBeLessThan(5_000);
  });

  it('answers headers over the limit with 431 and a JSON error, as every other refusal', async () => {
    const port = await listen({ headersTimeoutMs: 2_000, requestTimeoutMs: 4_000, keepAliveTimeoutMs: 1_000 });
    const result = await rawClient(port, (socket) => {
      socket.write(`GET / HTTP/1.1\r\nHost: x\r\nCookie: ${'a'.repeat(20 * 1024)}\r\n\r\n`);
    });
    expect(result.received).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(result.received).toMatch(/\r\nContent-Type: application\/json; charset=utf-8\r\n/);
    // The headers of every JSON answer, as a route's error would have them.
    for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) {
      expect(result.received).toContain(`\r\n${name}: ${value}\r\n`);
    }
    expect(jsonErrorOf(result.received)).toEqual({
      code: 'headers_too_large',
      message: ERROR_MESSAGES.headersTooLarge,
    });
  });

  it('answers bytes that are not HTTP with 400 and a JSON error', async () => {
    const port = await listen({ headersTimeoutMs: 2_000, requestTimeoutMs: 4_000, keepAliveTimeoutMs: 1_000 });
    const result = await rawClient(port, (socket) => socket.write('HELLO THERE\r\n\r\n'));
    expect(result.received).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(jsonErrorOf(result.received)).toEqual({ code: 'invalid_request', message: ERROR_MESSAGES.notHttp });
  });

  it('cuts a client that sends its body too slowly', async () => {
    const port = await listen({ headersTimeoutMs: 300, requestTimeoutMs: 700, keepAliveTimeoutMs: 1_000 });
    let timer: NodeJS.Timeout | undefined;
    const result = await rawClient(port, (socket) => {
      socket.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n');
      timer = setInterval(() => {
        if (!socket.destroyed) socket.write(' ');
      }, 100);
    });
    clearInterval(timer);
    expect(result.closedAfterMs).toBeLessThan(3_000);
    expect(result.received).toMatch(/^HTTP\/1\.1 408/);
    expect(result.received).not.toContain('"ok":true');
  });

  it('closes an idle keep-alive connection after keepAliveTimeout', async () => {
    const port = await listen({ headersTimeoutMs: 1_000, requestTimeoutMs: 2_000, keepAliveTimeoutMs: 300 });
    const result = await rawClient(port, (socket) => socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
    expect(result.received).toMatch(/^HTTP\/1\.1 200/);
    expect(result.closedAfterMs).toBeGreaterThanOrEqual(250);
    expect(result.closedAfterMs).toBeLessThan(1_500);
  });
});

describe('serverTimeoutSettingsFromEnv', () => {
  it('has defaults that cut slow clients within seconds', () => {
    expect(serverTimeoutSettingsFromEnv({})).toEqual({
      headersTimeoutMs: 15_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
    });
  });

  it('reads the variables and refuses a headers timeout longer than the request timeout', () => {
    expect(
      serverTimeoutSettingsFromEnv({
        HEADERS_TIMEOUT_MS: '100',
        REQUEST_TIMEOUT_MS: '200',
        KEEP_ALIVE_TIMEOUT_MS: '65000',
      }),
    ).toEqual({ headersTimeoutMs: 100, requestTimeoutMs: 200, keepAliveTimeoutMs: 65_000 });
    expect(() => serverTimeoutSettingsFromEnv({ HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '1000' })).toThrow(
      /HEADERS_TIMEOUT_MS/,
    );
    expect(() => serverTimeoutSettingsFromEnv({ REQUEST_TIMEOUT_MS: 'soon' })).toThrow(/REQUEST_TIMEOUT_MS/);
  });
});
