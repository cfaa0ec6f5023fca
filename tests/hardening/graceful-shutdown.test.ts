/**
 * SIGTERM on the real server process (`server/main.ts`): readiness goes off first, a request already in flight is
 * answered, then the process closes its stores and exits 0.
 */
import type { HealthPayload, MePayload } from '../../shared';
import { DEMO_PASSWORD, DEMO_USERNAME, startAppServer, type AppServer } from '../../testing/system/app-server';
import { waitUntil } from '../../testing/server/wait-until';
import { getFreePort } from '../../testing/system/free-port';
import { openRawConnection, parseRawResponse, sleep } from './support/raw-http';

jest.setTimeout(60_000);

const DRAIN_DELAY_MS = 1_500;

describe('graceful shutdown of server/main.ts', () => {
  let server: AppServer | undefined;

  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  it('answers 503 on /readyz, finishes the in-flight sign-in, then exits 0', async () => {
    server = await startAppServer({ env: { SHUTDOWN_DELAY_MS: String(DRAIN_DELAY_MS) } });
    const { url } = server;

    // A sign-in whose body is still arriving when SIGTERM comes: a request in flight, with production code only.
    const body = JSON.stringify({ username: DEMO_USERNAME, password: DEMO_PASSWORD });
    const half = Math.floor(body.length / 2);
    const client = await openRawConnection(url);
    client.write(
      `POST /login HTTP/1.1\r\nHost: ${new URL(url).host}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
    );
    await sleep(200);

    process.kill(server.process.pid, 'SIGTERM');
    // Readiness goes off once the process has handled the signal, which a loaded machine does later.
    await waitUntil(
      async () => (await fetch(`${url}/readyz`)).status === 503,
      10_000,
      '/readyz answering 503 after SIGTERM',
      100,
    );
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('content-type')).toMatch(/application\/json/);
    expect(((await ready.json()) as HealthPayload).status).toBe('unavailable');
    expect(ready.headers.get('connection')).toBe('close');

    // Past the drain delay the listener is closed, but the process waits for the request still arriving.
    await waitUntil(
      () =>
        fetch(`${url}/healthz`).then(
          () => false,
          () => true,
        ),
      DRAIN_DELAY_MS + 10_000,
      'the listener closed after the drain delay',
      250,
    );
    expect(await Promise.race([server.process.exited, sleep(0).then(() => 'running')])).toBe('running');

    client.write(body.slice(half));
    const { received } = await client.closed;
    const answer = parseRawResponse(received);
    expect(answer.status).toBe(200);
    expect((answer.body as MePayload).user.username).toBe(DEMO_USERNAME);
    expect(answer.headers.connection).toBe('close');

    const exit = await server.process.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(server.process.stdout()).toMatch(/"msg":"stopped"/);
  });

  it('exits 0 at once on SIGTERM when nothing is in flight, even with keep-alive connections open', async () => {
    server = await startAppServer();
    // fetch keeps its connection alive after this answer.
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
    const started = Date.now();
    process.kill(server.process.pid, 'SIGTERM');
    const exit = await server.process.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('exits 0 when the trace collector does not answer, once the last spans had their time', async () => {
    // Nothing listens there: the exporter's connections are refused, and it tries again until it is given up on.
    const collector = `http://127.0.0.1:${await getFreePort()}`;
    server = await startAppServer({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector } });
    for (let n = 0; n < 3; n++) expect((await fetch(`${server.url}/slots`)).status).toBe(200);
    process.kill(server.process.pid, 'SIGTERM');
    const exit = await server.process.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    const stdout = server.process.stdout();
    expect(stdout).toMatch(/"reason":"no answer within 2000 ms","msg":"shutdown: the last spans were not sent"/);
    expect(stdout).toMatch(/"outcome":"clean","msg":"stopped"/);
  });
});
