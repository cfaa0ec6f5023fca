import pino from 'pino';
import request from 'supertest';
import { ERROR_MESSAGES } from '../../shared';
import { createDemoApp, DEMO_PASSWORD, sessionCookieOf, type TestApp } from '../../testing/server/test-app';
import { describeWithCommand } from '../../testing/describe-with-command';
import { getFreePort } from '../../testing/system/free-port';
import { RedisServerProcess } from '../../testing/system/redis-server-process';
import { REDIS_ANSWER_DEADLINE_MS } from './redis-answer-deadline';
import { createRedisSessionStorage } from './redis-session-storage';

const silent = pino({ level: 'silent' });

describe('Redis session storage: unreachable Redis', () => {
  it('fails ready() with a message naming the URL (password hidden), reports failing, and closes cleanly', async () => {
    // A port nothing listens on: from the block no other test's listen(0) is ever given.
    const port = await getFreePort();
    const storage = createRedisSessionStorage({
      url: `redis://user:hunter2@127.0.0.1:${port}`,
      logger: silent,
      connectTimeoutMs: 300,
    });
    try {
      expect(storage.kind).toBe('redis');
      // The wait's end, and what was in the way (not only that it took too long).
      await expect(storage.ready()).rejects.toThrow(
        new RegExp(
          `^Could not connect to Redis at redis://user:\\*\\*\\*@127\\.0\\.0\\.1:${port}: .+ \\(the last attempt: .*ECONNREFUSED.*\\)$`,
        ),
      );
      expect(await storage.check()).toEqual({ redis: 'failing' });
      // How a shutdown that stops waiting names it while it is not closed (start-server.ts), password hidden.
      expect(storage.displayName).toBe(`Redis at redis://user:***@127.0.0.1:${port}`);
      expect(storage.closed).toBe(false);
    } finally {
      await storage.close();
    }
    expect(storage.closed).toBe(true);
  });
});

describeWithCommand(
  'redis-server',
  ['--version'],
  'redis-server',
)('Redis session storage with a real redis-server', () => {
  let redis: RedisServerProcess;
  let testApp: TestApp;

  beforeAll(async () => {
    redis = await RedisServerProcess.start();
  });

  afterAll(async () => {
    await redis?.stop();
  });

  afterEach(async () => {
    await testApp?.close();
  });

  it('keeps sessions in Redis: sign in, /meta, sign out; readiness includes Redis', async () => {
    testApp = await createDemoApp({ redisUrl: redis.url });
    expect(testApp.app.sessions.kind).toBe('redis');
    const ready = await request(testApp.app.handler).get('/readyz');
    expect(ready.body).toEqual({ status: 'ok', checks: { database: 'ok', redis: 'ok' } });

    const login = await request(testApp.app.handler)
      .post('/login')
      .send({ username: 'admin', password: DEMO_PASSWORD });
    const cookie = sessionCookieOf(login) as string;
    expect((await request(testApp.app.handler).get('/meta').set('Cookie', cookie)).status).toBe(200);
    // Nothing went to the SQLite sessions table.
    expect(testApp.app.database.db.prepare('SELECT COUNT(*) FROM sessions').pluck().get()).toBe(0);

    await request(testApp.app.handler).post('/logout').set('Cookie', cookie);
    expect((await request(testApp.app.handler).get('/meta').set('Cookie', cookie)).status).toBe(401);
  });

  it('shares sessions between two apps on one Redis', async () => {
    testApp = await createDemoApp({ redisUrl: redis.url });
    const other = await createDemoApp({ redisUrl: redis.url, dir: testApp.dir });
    try {
      const login = await request(testApp.app.handler)
        .post('/login')
        .send({ username: 'admin', password: DEMO_PASSWORD });
      const cookie = sessionCookieOf(login) as string;
      expect((await request(other.app.handler).get('/me').set('Cookie', cookie)).status).toBe(200);
    } finally {
      await other.close({ keepData: true });
    }
  });

  it('says once that Redis stopped answering, and once that it answers again, not at each reconnect', async () => {
    const ownRedis = await RedisServerProcess.start();
    const lines: Array<{ level: number; msg: string }> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const storage = createRedisSessionStorage({ url: ownRedis.url, logger });
    let back: RedisServerProcess | undefined;
    try {
      await storage.ready();
      expect(lines).toEqual([]);
      await ownRedis.kill();
      // Several reconnect attempts (100 ms, then doubling) meet the port closed.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      back = await RedisServerProcess.start({ port: ownRedis.port });
      const deadline = Date.now() + 10_000;
      while ((await storage.check()).redis !== 'ok' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(lines.map(({ level, msg }) => [level, msg])).toEqual([
        [50, 'Redis stopped answering: signed-in requests and sign-ins answer 503 until it answers again (retrying)'],
        [30, expect.stringMatching(/^Redis answers again, after \d+(\.\d)? s$/)],
      ]);
    } finally {
      await storage.close();
      await back?.stop();
      await ownRedis.stop();
    }
  }, 30_000);

  it('answers 503 for session routes and not-ready when Redis stops answering, and closes without hanging', async () => {
    // Paused rather than killed: the connection stays open and nothing answers, the case where only timeouts help
    // (and no other test's server can take over a freed port while the client retries).
    const ownRedis = await RedisServerProcess.start();
    try {
      testApp = await createDemoApp({ redisUrl: ownRedis.url });
      const login = await request(testApp.app.handler)
        .post('/login')
        .send({ username: 'admin', password: DEMO_PASSWORD });
      const cookie = sessionCookieOf(login) as string;
      ownRedis.pause();
      const ready = await request(testApp.app.handler).get('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({ status: 'unavailable', checks: { database: 'ok', redis: 'failing' } });
      const meta = await request(testApp.app.handler).get('/meta').set('Cookie', cookie);
      expect(meta.status).toBe(503);
      expect(meta.body.error.code).toBe('unavailable');
      // /slots needs no session and keeps working.
      expect((await request(testApp.app.handler).get('/slots')).status).toBe(200);
      // Closing waits a bounded time for Redis, then drops the connection (the test's time limit catches a hang).
      await testApp.close();
    } finally {
      await ownRedis.stop();
    }
  }, 30_000);

  it('answers a signed-in request 503 at once while Redis refuses connections, within the deadline while it is frozen', async () => {
    const ownRedis = await RedisServerProcess.start();
    let back: RedisServerProcess | undefined;
    const http = () => request(testApp.app.handler);
    const signIn = async () =>
      sessionCookieOf(await http().post('/login').send({ username: 'admin', password: DEMO_PASSWORD })) as string;
    /** The status and the time of a signed-in request. */
    const timed = async (path: string, cookie: string) => {
      const asked = Date.now();
      const response = await http().get(path).set('Cookie', cookie);
      return { status: response.status, code: response.body?.error?.code, ms: Date.now() - asked };
    };
    const redisCheck = async (wanted: 'ok' | 'failing') => {
      const deadline = Date.now() + 10_000;
      while ((await http().get('/readyz')).body.checks?.redis !== wanted && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const lines: Array<{ level: number; msg: string; err?: unknown }> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    try {
      testApp = await createDemoApp({ redisUrl: ownRedis.url, logger });
      let cookie = await signIn();

      // Gone (killed, to be started again on its port): the connection is lost and every reconnect is refused.
      await ownRedis.kill();
      await redisCheck('failing');
      const before = lines.length;
      for (const path of ['/me', '/meta', '/me']) {
        const answer = await timed(path, cookie);
        expect({ path, status: answer.status, code: answer.code }).toEqual({ path, status: 503, code: 'unavailable' });
        // Not the 2 s of the answer's deadline: nothing can be sent, so nothing is waited for.
        expect(answer.ms).toBeLessThan(1_000);
      }
      // Each request says so in warnings without a stack (the outage itself is told once, by the store): it wrote two
      // errors with their stacks, the store's failure and the 503's.
      const requestLines = lines.slice(before).filter((line) => !/^Redis |redis client error/.test(line.msg));
      expect(requestLines.map(({ level, msg }) => [level, msg])).toEqual(
        ['/me', '/meta', '/me'].flatMap((path) => [
          [40, 'session store unavailable'],
          [40, `GET ${path} answered 503: ${ERROR_MESSAGES.unavailable}`],
        ]),
      );
      expect(requestLines.filter((line) => line.err !== undefined)).toEqual([]);

      // Back (empty: no persistence): the store answers again, the session is gone.
      back = await RedisServerProcess.start({ port: ownRedis.port });
      await redisCheck('ok');
      expect((await timed('/me', cookie)).status).toBe(401);

      // Frozen, its connection open: the deadline bounds the wait.
      cookie = await signIn();
      back.pause();
      const frozen = await timed('/me', cookie);
      expect(frozen).toMatchObject({ status: 503, code: 'unavailable' });
      expect(frozen.ms).toBeGreaterThanOrEqual(REDIS_ANSWER_DEADLINE_MS - 50);
      expect(frozen.ms).toBeLessThan(REDIS_ANSWER_DEADLINE_MS + 2_000);
      back.resume();
    } finally {
      await testApp?.close();
      await back?.stop();
      await ownRedis.stop();
    }
  }, 30_000);
});
