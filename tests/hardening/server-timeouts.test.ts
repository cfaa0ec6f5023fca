/** The real server process cuts clients that send too slowly (slowloris), with the timeouts it was given. */
import { startAppServer, type AppServer } from '../../testing/system/app-server';
import { openRawConnection, sleep } from './support/raw-http';

jest.setTimeout(60_000);

describe('server/main.ts timeouts', () => {
  let server: AppServer;

  beforeAll(async () => {
    server = await startAppServer({
      env: { HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000', KEEP_ALIVE_TIMEOUT_MS: '1000' },
    });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it('cuts a client that sends its headers slowly, with 408, soon after HEADERS_TIMEOUT_MS', async () => {
    const client = await openRawConnection(server.url);
    const started = Date.now();
    client.write('GET /slots HTTP/1.1\r\nHost: x\r\n');
    const trickle = setInterval(() => client.write('X'), 100);
    const { received, atMs } = await client.closed;
    clearInterval(trickle);
    expect(received).toMatch(/^HTTP\/1\.1 408/);
    expect(atMs - started).toBeLessThan(4_000);
  });

  it('cuts a client that sends its body slowly, soon after REQUEST_TIMEOUT_MS', async () => {
    const client = await openRawConnection(server.url);
    const started = Date.now();
    client.write('POST /login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{');
    const trickle = setInterval(() => client.write(' '), 100);
    const { received, atMs } = await client.closed;
    clearInterval(trickle);
    expect(received).not.toMatch(/^HTTP\/1\.1 200/);
    expect(atMs - started).toBeLessThan(5_000);
  });

  it('closes an idle keep-alive connection after KEEP_ALIVE_TIMEOUT_MS and keeps serving others', async () => {
    const client = await openRawConnection(server.url);
    const started = Date.now();
    client.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    const { received, atMs } = await client.closed;
    expect(received).toMatch(/^HTTP\/1\.1 200/);
    expect(atMs - started).toBeLessThan(3_000);
    await sleep(10);
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
  });
});
