/**
 * The sign-in limits on a Redis that stops answering (frozen: the connection stays open and nothing comes back, as
 * with a hung host or network): sign-in answers 503 `unavailable` after the same deadline as the session routes,
 * instead of waiting for ever, and works again once Redis answers.
 */
import request from 'supertest';
import { ERROR_MESSAGES } from '../../../shared';
import { describeWithCommand } from '../../../testing/describe-with-command';
import { startRedisServer, type RedisServer } from '../../../testing/server/redis-server';
import { createDemoApp, DEMO_PASSWORD, sessionCookieOf, type TestApp } from '../../../testing/server/test-app';
import { REDIS_ANSWER_DEADLINE_MS } from '../../storage/redis-session-storage';

const UNAVAILABLE = { error: { code: 'unavailable', message: ERROR_MESSAGES.unavailable } };
/** The deadline and a generous margin for a slow machine: this checks that sign-in answers at all, not how fast. */
const ANSWERS_WITHIN_MS = REDIS_ANSWER_DEADLINE_MS + 3_000;

describeWithCommand(
  'redis-server',
  ['--version'],
  'redis-server',
)('sign-in limits on a frozen Redis', () => {
  let redis: RedisServer | undefined;
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

  it('answers 503 unavailable, right or wrong password, then signs in again once Redis answers', async () => {
    redis = await startRedisServer();
    testApp = await createDemoApp({ redisUrl: redis.url });
    expect(testApp.app.sessions.kind).toBe('redis');
    const signIn = signingIn(testApp);

    redis.pause();
    for (const password of [DEMO_PASSWORD, 'wrong-password']) {
      const refused = await signIn(password);
      expect(refused.status).toBe(503);
      expect(refused.body).toEqual(UNAVAILABLE);
      expect(sessionCookieOf(refused)).toBeUndefined();
    }

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
    redis = await startRedisServer();
    testApp = await createDemoApp({ redisUrl: redis.url });
    await redis.stop();
    const refused = await signingIn(testApp)(DEMO_PASSWORD);
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual(UNAVAILABLE);
  }, 30_000);
});
