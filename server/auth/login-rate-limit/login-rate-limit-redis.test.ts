/**
 * The sign-in limits on a Redis that stops answering (frozen: the connection stays open and nothing comes back, as
 * with a hung host or network): sign-in answers 503 `unavailable` after the same deadline as the session routes,
 * instead of waiting for ever, and works again once Redis answers. The deadline's timers never hold the process (a
 * shutdown would wait for them) and end with the answer. Each refused sign-in is told in warnings of one line, as the
 * session routes' are: a stack per attempt during an outage said nothing more.
 */
import pino from 'pino';
import { createClient } from 'redis';
import request from 'supertest';
import { ERROR_MESSAGES } from '../../../shared';
import { describeWithCommand } from '../../../testing/describe-with-command';
import { waitUntil } from '../../../testing/server/wait-until';
import { RedisServerProcess } from '../../../testing/system/redis-server-process';
import { createDemoApp, DEMO_PASSWORD, sessionCookieOf, type TestApp } from '../../../testing/server/test-app';
import { REDIS_ANSWER_DEADLINE_MS } from '../../storage/redis-answer-deadline';
import { LoginRateLimiter } from './login-rate-limiter';

const UNAVAILABLE = { error: { code: 'unavailable', message: ERROR_MESSAGES.unavailable } };
/** The deadline and a generous margin for a slow machine: this checks that sign-in answers at all, not how fast. */
const ANSWERS_WITHIN_MS = REDIS_ANSWER_DEADLINE_MS + 3_000;

describeWithCommand(
  'redis-server',
  ['--version'],
  'redis-server',
)('sign-in limits on a frozen Redis', () => {
  let redis: RedisServerProcess | undefined;
  let testApp: TestApp | undefined;

  afterEach(async () => {
    // Continued first whatever the test did: a frozen server would keep close() waiting and ignore SIGTERM.
    redis?.resume();
    await testApp?.close();
    await redis?.stop();
    testApp = undefined;
    redis = undefined;
  });

  const signingIn = (app: TestApp) => (password: string) =>
    request(app.app.handler).post('/login').timeout(ANSWERS_WITHIN_MS).send({ username: 'admin', password });

  /** The app's log lines, and those of its requests from a moment on (the Redis client's own left out). */
  function capturedLog() {
    const lines: Array<{ level: number; msg: string; err?: unknown }> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    let from = 0;
    return {
      logger,
      mark: () => (from = lines.length),
      requestLines: () => lines.slice(from).filter((line) => !/^Redis |redis client error/.test(line.msg)),
    };
  }

  it('answers 503 unavailable, right or wrong password, then signs in again once Redis answers', async () => {
    redis = await RedisServerProcess.start();
    const log = capturedLog();
    testApp = await createDemoApp({ redisUrl: redis.url, logger: log.logger });
    expect(testApp.app.sessions.kind).toBe('redis');
    const signIn = signingIn(testApp);

    redis.pause();
    log.mark();
    for (const password of [DEMO_PASSWORD, 'wrong-password']) {
      const refused = await signIn(password);
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual(UNAVAILABLE);
      expect(sessionCookieOf(refused)).toBeUndefined();
    }
    expect(log.requestLines().filter((line) => line.level >= 50 || line.err !== undefined)).toEqual([]);
    expect(log.requestLines().map((line) => line.msg)).toContain(
      `sign-in refused (503): reading the sign-in counters failed: Redis did not answer within ${REDIS_ANSWER_DEADLINE_MS} ms`,
    );

    // The commands cut off by the deadline get their late answers now, before the sign-in's own (Redis answers in
    // order): a late answer that threw would fail this test (Jest fails a test on an unhandled rejection).
    redis.resume();
    const login = await signIn(DEMO_PASSWORD);
    expect(login.status).toBe(200);
    const me = await request(testApp.app.handler)
      .get('/me')
      .set('Cookie', sessionCookieOf(login) as string);
    expect(me.status).toBe(200);
    expect((await signIn('wrong-password')).status).toBe(401);
  }, 30_000);

  it('gives the same answer as a Redis that is gone', async () => {
    redis = await RedisServerProcess.start();
    const log = capturedLog();
    testApp = await createDemoApp({ redisUrl: redis.url, logger: log.logger });
    const client = testApp.app.sessions.redisClient as { isReady: boolean };
    await redis.stop();
    await waitUntil(async () => !client.isReady);
    log.mark();
    for (const password of [DEMO_PASSWORD, 'wrong-password']) {
      const refused = await signingIn(testApp)(password);
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual(UNAVAILABLE);
    }
    // Warnings of one line, no stack: it wrote an error with the limiter's stack at each attempt.
    expect(log.requestLines().filter((line) => line.level >= 50 || line.err !== undefined)).toEqual([]);
    expect(log.requestLines().map((line) => line.msg)).toContain(
      'sign-in refused (503): reading the sign-in counters failed: Redis is not connected (reconnecting)',
    );
  }, 30_000);
});

describeWithCommand(
  'redis-server',
  ['--version'],
  'redis-server',
)('the deadline of the sign-in counters in Redis', () => {
  it('keeps no process up while Redis does not answer, and is cleared once it answers', async () => {
    const redis = await RedisServerProcess.start();
    // A client of its own, without the session store's command timeout: the deadline's are the only timers of its length.
    const client = createClient({ url: redis.url });
    await client.connect();
    const deadlines: NodeJS.Timeout[] = [];
    const cleared = new Set<unknown>();
    const { setTimeout: realSetTimeout, clearTimeout: realClearTimeout } = global;
    const setTimer = jest.spyOn(global, 'setTimeout').mockImplementation(((callback: () => void, ms?: number) => {
      const timer = realSetTimeout(callback, ms);
      if (ms === REDIS_ANSWER_DEADLINE_MS) deadlines.push(timer);
      return timer;
    }) as typeof setTimeout);
    const clearTimer = jest.spyOn(global, 'clearTimeout').mockImplementation((timer) => {
      cleared.add(timer);
      realClearTimeout(timer);
    });
    let attempt: ReturnType<LoginRateLimiter['attempt']> | undefined;
    try {
      const limiter = LoginRateLimiter.create(
        { perAccountAndIp: 3, perIp: 5, windowSeconds: 60 },
        { kind: 'redis', client },
      );
      redis.pause();
      attempt = limiter.attempt({ username: 'admin', ip: '10.0.0.1' });
      await waitUntil(async () => deadlines.length > 0);
      // What a shutdown waits for: a timer that holds the process keeps it up until the deadline.
      expect(deadlines.map((timer) => timer.hasRef())).toEqual(deadlines.map(() => false));

      redis.resume();
      expect((await attempt).allowed).toBe(true);
      // Each ended with its answer, not left to run out.
      expect(deadlines.filter((timer) => !cleared.has(timer))).toEqual([]);
    } finally {
      setTimer.mockRestore();
      clearTimer.mockRestore();
      redis.resume();
      // Answered before the client goes: a command the client drops would reject it unobserved.
      await attempt?.catch(() => undefined);
      client.destroy();
      await redis.stop();
    }
  }, 30_000);
});
