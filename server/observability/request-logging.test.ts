/**
 * The app's logs: JSON lines with request ids (echoed as X-Request-Id), and never a password, a cookie or an
 * Authorization header, whatever path a request takes (sign-in, failure, server error, a careless log call).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { createLogger } from '../logger';
import { createGracefulShutdown } from '../process/graceful-shutdown';
import { REQUEST_CUT_MESSAGE } from './request-logging';
import { createDemoApp, DEMO_PASSWORD, type TestApp } from '../../testing/server/test-app';
import { waitUntil } from '../../testing/server/wait-until';
import { LOG_CENSOR } from '../logger';

const WRONG_PASSWORD = 'wrong-pw-MARKER-5d1e77';
const COOKIE_MARKER = 'cookie-MARKER-a9c3';
const AUTH_MARKER = 'auth-MARKER-77f0';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface LogLine {
  level: number;
  msg: string;
  reqId?: unknown;
  req?: { id?: unknown; method?: string; url?: string };
  res?: { statusCode?: number };
  [key: string]: unknown;
}

async function appWithLogs(logRequests: boolean): Promise<{ testApp: TestApp; lines: string[] }> {
  const lines: string[] = [];
  const logger = createLogger('production', 'info', { write: (line: string) => void lines.push(line) });
  const testApp = await createDemoApp({ logger, logRequests });
  // The start's own lines (the database schema created) are no request's.
  lines.length = 0;
  return { testApp, lines };
}

function parsed(lines: readonly string[]): LogLine[] {
  return lines.map((line) => JSON.parse(line) as LogLine);
}

describe('request logging of the app', () => {
  let testApp: TestApp | undefined;

  afterEach(async () => {
    await testApp?.close();
    testApp = undefined;
  });

  it('writes one JSON line per request with its id, and never the password, cookies or Authorization', async () => {
    const logs = await appWithLogs(true);
    testApp = logs.testApp;
    const http = request(testApp.app.handler);

    const refused = await http
      .post('/login')
      .set('Cookie', `slots.sid=${COOKIE_MARKER}`)
      .set('Authorization', `Bearer ${AUTH_MARKER}`)
      .send({ username: 'admin', password: WRONG_PASSWORD });
    expect(refused.status).toBe(401);
    const signedIn = await http.post('/login').send({ username: 'admin', password: DEMO_PASSWORD });
    expect(signedIn.status).toBe(200);
    const sessionCookie = String(signedIn.headers['set-cookie']).split(';')[0] ?? '';
    await http.get('/meta').set('Cookie', sessionCookie).expect(200);

    const output = logs.lines.join('');
    for (const secret of [
      WRONG_PASSWORD,
      DEMO_PASSWORD,
      COOKIE_MARKER,
      AUTH_MARKER,
      sessionCookie.split('=')[1] ?? '',
    ]) {
      expect(secret).not.toBe('');
      expect(output).not.toContain(secret);
    }

    const completed = parsed(logs.lines).filter((line) => line.msg === 'request completed');
    expect(completed.map((line) => [line.req?.method, line.req?.url, line.res?.statusCode])).toEqual([
      ['POST', '/login', 401],
      ['POST', '/login', 200],
      ['GET', '/meta', 200],
    ]);
    expect(completed[0]?.req?.id).toBe(refused.headers['x-request-id']);
    expect(completed[1]?.req?.id).toBe(signedIn.headers['x-request-id']);
    // Whose answer it was: the client's address on each, the account once the session says it.
    expect(completed.map((line) => [line.client, line.user])).toEqual([
      ['::ffff:127.0.0.1', undefined],
      ['::ffff:127.0.0.1', 'admin'],
      ['::ffff:127.0.0.1', 'admin'],
    ]);
  });

  it('redacts secrets in logged query strings as in bodies, on request lines and error lines alike', async () => {
    const logs = await appWithLogs(true);
    testApp = logs.testApp;
    const http = request(testApp.app.handler);
    await http.get(`/slots?password=${WRONG_PASSWORD}&view=full&Secret=${AUTH_MARKER}&newPassword=${COOKIE_MARKER}`);
    await http.get(`/api/resources?pass%77ord=${WRONG_PASSWORD}`).expect(401);

    const output = logs.lines.join('');
    for (const secret of [WRONG_PASSWORD, AUTH_MARKER, COOKIE_MARKER]) expect(output).not.toContain(secret);
    const urls = parsed(logs.lines)
      .filter((line) => line.msg === 'request completed')
      .map((line) => line.req?.url);
    expect(urls).toEqual([
      '/slots?password=[redacted]&view=full&Secret=[redacted]&newPassword=[redacted]',
      '/api/resources?pass%77ord=[redacted]',
    ]);
  });

  it('echoes an acceptable X-Request-Id, replaces one that could forge log lines, and skips probes', async () => {
    const logs = await appWithLogs(true);
    testApp = logs.testApp;
    const http = request(testApp.app.handler);
    expect((await http.get('/slots').set('X-Request-Id', 'edge-7f3a.b_c:1')).headers['x-request-id']).toBe(
      'edge-7f3a.b_c:1',
    );
    expect((await http.get('/slots').set('X-Request-Id', 'x"}{"level":60')).headers['x-request-id']).toMatch(UUID);
    expect((await http.get('/slots').set('X-Request-Id', 'a'.repeat(200))).headers['x-request-id']).toMatch(UUID);
    expect((await http.get('/slots')).headers['x-request-id']).toMatch(UUID);
    await http.get('/healthz').expect(200);
    await http.get('/readyz').expect(200);
    const urls = parsed(logs.lines).map((line) => line.req?.url);
    expect(urls).toEqual(['/slots', '/slots', '/slots', '/slots']);
    expect(logs.lines.join('')).not.toContain('"level":60');
  });

  it('without request logging: still echoes request ids, and writes only the sign-in of requests', async () => {
    const logs = await appWithLogs(false);
    testApp = logs.testApp;
    const http = request(testApp.app.handler);
    expect((await http.get('/slots').set('X-Request-Id', 'edge-1')).headers['x-request-id']).toBe('edge-1');
    expect((await http.get('/slots')).headers['x-request-id']).toMatch(UUID);
    const signedIn = await http.post('/login').send({ username: 'admin', password: DEMO_PASSWORD });
    await http
      .get('/meta')
      .set('Cookie', String(signedIn.headers['set-cookie']).split(';')[0] ?? '')
      .expect(200);
    // A sign-in is an event of its own, logged whatever LOG_REQUESTS says: who, from where, into which tenant.
    expect(parsed(logs.lines).map(({ msg, user, client, tenant }) => ({ msg, user, client, tenant }))).toEqual([
      { msg: 'signed in', user: 'admin', client: '::ffff:127.0.0.1', tenant: 'acme' },
    ]);
  });

  it('says who signed in, was refused or signed out, and from where, naming no password', async () => {
    const logs = await appWithLogs(false);
    testApp = logs.testApp;
    const http = request(testApp.app.handler);
    await http.post('/login').send({ username: 'admin', password: WRONG_PASSWORD }).expect(401);
    await http.post('/login').send({ username: 'nobody-here', password: WRONG_PASSWORD }).expect(401);
    const signedIn = await http.post('/login').send({ username: 'admin', password: DEMO_PASSWORD }).expect(200);
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0] ?? '';
    await http.post('/logout').set('Cookie', cookie).expect(204);
    await http.post('/logout').expect(204);
    const events = parsed(logs.lines).map(({ level, msg, username, user, client }) => ({
      level,
      msg,
      who: username ?? user,
      client,
    }));
    expect(events).toEqual([
      { level: 40, msg: 'sign-in refused', who: 'admin', client: '::ffff:127.0.0.1' },
      { level: 40, msg: 'sign-in refused', who: 'nobody-here', client: '::ffff:127.0.0.1' },
      { level: 30, msg: 'signed in', who: 'admin', client: '::ffff:127.0.0.1' },
      { level: 30, msg: 'signed out', who: 'admin', client: '::ffff:127.0.0.1' },
    ]);
    expect(logs.lines.join('')).not.toContain(WRONG_PASSWORD);
  });

  it('stamps the request id on the error line of a failing request, still without the password', async () => {
    const logs = await appWithLogs(false);
    testApp = logs.testApp;
    // The database goes away under the app: the sign-in cannot look the user up.
    testApp.app.database.close();
    const response = await request(testApp.app.handler)
      .post('/login')
      .set('Cookie', `other=${COOKIE_MARKER}`)
      .send({ username: 'admin', password: WRONG_PASSWORD });
    expect(response.status).toBeGreaterThanOrEqual(500);
    const errors = parsed(logs.lines).filter((line) => line.level >= 50);
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.some((line) => line.req?.id === response.headers['x-request-id'])).toBe(true);
    // The URL as the client sent it, though the line was written inside a router mounted on a path.
    expect(errors.some((line) => line.req?.method === 'POST' && line.req.url === '/login')).toBe(true);
    expect(logs.lines.join('')).not.toContain(WRONG_PASSWORD);
    expect(logs.lines.join('')).not.toContain(COOKIE_MARKER);
  });

  it('says the status of a 5xx answered without an error as its request line, with no stack made up for it', async () => {
    const logs = await appWithLogs(true);
    testApp = logs.testApp;
    // Answered 503 by the sign-in, which finds the database gone: its cause is the error handler's own line.
    testApp.app.database.close();
    const response = await request(testApp.app.handler).post('/login').send({ username: 'admin', password: 'x' });
    expect(response.status).toBe(503);
    const line = parsed(logs.lines).find((entry) => entry.req?.id === response.headers['x-request-id'] && entry.res);
    expect(line).toMatchObject({ level: 50, msg: 'request answered 503', res: { statusCode: 503 } });
    expect(line).not.toHaveProperty('err');
  });

  it('writes a line for each request the shutdown’s timeout cuts: id, method, URL, trace, and that it was cut', async () => {
    const logs = await appWithLogs(true);
    testApp = logs.testApp;
    const { app } = testApp;
    const signedIn = await request(app.handler).post('/login').send({ username: 'admin', password: DEMO_PASSWORD });
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0] ?? '';
    // A frozen session store (Redis stopped): GET /me waits until the shutdown cuts it.
    const sessionRead = jest.spyOn(app.sessions.store, 'get').mockImplementation(() => undefined);
    const server = http.createServer(app.handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const traceId = 'c'.repeat(32);
    const cutShort = new Promise<string>((resolve) => {
      http
        .get({
          host: '127.0.0.1',
          port: (server.address() as AddressInfo).port,
          path: '/me',
          agent: false,
          headers: {
            Cookie: cookie,
            'X-Request-Id': 'cut-at-shutdown-1',
            traceparent: `00-${traceId}-00f067aa0ba902b7-01`,
          },
        })
        .on('response', () => resolve('answered'))
        .on('error', (error) => resolve(error.message));
    });
    // In flight once it waits for its session, whatever the machine's speed.
    await waitUntil(async () => sessionRead.mock.calls.length > 0, 10_000);
    const shutdown = createGracefulShutdown({
      server,
      lifecycle: app.lifecycle,
      logger: createLogger('test'),
      settings: { drainDelayMs: 0, timeoutMs: 100 },
      closeResources: async () => undefined,
      exit: () => undefined,
    });
    await expect(shutdown('SIGTERM')).resolves.toBe('forced');
    expect(await cutShort).toMatch(/socket hang up|ECONNRESET/);

    const linesOf = () => parsed(logs.lines).filter((line) => line.req?.id === 'cut-at-shutdown-1');
    expect(linesOf()).toEqual([
      expect.objectContaining({
        level: 40,
        msg: REQUEST_CUT_MESSAGE,
        req: { id: 'cut-at-shutdown-1', method: 'GET', url: '/me' },
        trace_id: traceId,
        cut: 'shutdown',
      }),
    ]);
    // Once its connection reports the cut, no second line ("request aborted") for the same request.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(linesOf()).toHaveLength(1);
  });

  it('redacts credentials even when code logs them by mistake', () => {
    const lines: string[] = [];
    const logger = createLogger('production', 'info', { write: (line: string) => void lines.push(line) });
    logger.info(
      {
        body: { username: 'admin', password: WRONG_PASSWORD },
        password: WRONG_PASSWORD,
        headers: { cookie: COOKIE_MARKER, authorization: AUTH_MARKER },
        req: { headers: { cookie: COOKIE_MARKER, authorization: AUTH_MARKER } },
        res: { headers: { 'set-cookie': COOKIE_MARKER } },
      },
      'careless',
    );
    const [line] = lines;
    expect(line).toContain('"username":"admin"');
    expect(line).toContain(LOG_CENSOR);
    for (const secret of [WRONG_PASSWORD, COOKIE_MARKER, AUTH_MARKER]) expect(line).not.toContain(secret);
  });
});
