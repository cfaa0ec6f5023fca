/**
 * Several instances, one set of users: two real server processes share one Redis (sessions, sign-in rate-limit
 * counters) and one SQLite file (users, records). Every request goes to whichever instance the test picks, as a
 * load balancer without sticky sessions would send it.
 */
import { ERROR_MESSAGES } from '../../shared';
import type { MePayload, MetaPayload, SlotsPayload } from '../../shared';
import { DEMO_PASSWORD, DEMO_USERNAME, startAppServer, type AppServer } from '../../testing/system/app-server';
import { RedisServerProcess } from '../../testing/system/redis-server-process';
import { readRedisStrings } from './support/redis-inspection';
import { requestJson, signIn } from './support/session-client';

jest.setTimeout(90_000);

/** Low, so the test reaches it in a few attempts (the hardening settings' `LOGIN_RATE_LIMIT`). */
const LOGIN_LIMIT = 4;
const SHARED_ENV = {
  // Both instances must sign cookies alike; a secret generated per instance would make them strangers.
  SESSION_SECRET: 'multi-instance-test-secret-0123456789abcdef',
  LOGIN_RATE_LIMIT: String(LOGIN_LIMIT),
};

describe('two instances behind one Redis', () => {
  let redis: RedisServerProcess;
  let first: AppServer;
  let second: AppServer;

  beforeAll(async () => {
    redis = await RedisServerProcess.start();
    const env = { ...SHARED_ENV, REDIS_URL: redis.url };
    // One after the other: the first creates the database and the demo account, the second opens the same file.
    first = await startAppServer({ env });
    second = await startAppServer({ env, tempDir: first.tempDir });
  });

  afterAll(async () => {
    await second?.stop({ keepData: true });
    await first?.stop();
    await redis?.stop();
  });

  it('serves the same public slots from every instance, with the same ETag', async () => {
    const [fromFirst, fromSecond] = await Promise.all([
      requestJson(first.url, '/slots'),
      requestJson(second.url, '/slots'),
    ]);
    expect(fromFirst.status).toBe(200);
    expect(fromSecond.status).toBe(200);
    expect(fromSecond.body).toEqual(fromFirst.body);
    expect(Object.keys((fromFirst.body as SlotsPayload).slots)).toContain('login-before-form');
    expect(fromFirst.headers.get('etag')).toBeTruthy();
    expect(fromSecond.headers.get('etag')).toBe(fromFirst.headers.get('etag'));
  });

  it('keeps the session in Redis: signed in on one instance, signed in on the other', async () => {
    const cookie = await signIn(first.url, DEMO_USERNAME, DEMO_PASSWORD);

    const meta = await requestJson(second.url, '/meta', { cookie });
    expect(meta.status).toBe(200);
    const payload = meta.body as MetaPayload;
    expect(Object.keys(payload.slots)).toContain('tenant-switcher');
    expect(payload.modules.length).toBeGreaterThan(0);

    const me = await requestJson(second.url, '/me', { cookie });
    expect(me.status).toBe(200);
    expect((me.body as MePayload).user.username).toBe(DEMO_USERNAME);

    const stored = [...(await readRedisStrings(redis.url)).values()];
    expect(stored.some((value) => value.includes('"passport"'))).toBe(true);
  });

  it('carries a change of tenant made on one instance to the other', async () => {
    const cookie = await signIn(second.url, DEMO_USERNAME, DEMO_PASSWORD);
    const switched = await requestJson(first.url, '/tenant', { method: 'POST', cookie, body: { tenant: 'globex' } });
    expect(switched.status).toBe(200);
    const me = await requestJson(second.url, '/me', { cookie });
    expect((me.body as MePayload).user.currentTenant).toBe('globex');
  });

  it('signs out everywhere: signed out on the second instance, the first answers 401 for that cookie', async () => {
    const cookie = await signIn(first.url, DEMO_USERNAME, DEMO_PASSWORD);
    expect((await requestJson(first.url, '/meta', { cookie })).status).toBe(200);

    const signOut = await requestJson(second.url, '/logout', { method: 'POST', cookie });
    expect(signOut.status).toBe(204);

    const after = await requestJson(first.url, '/meta', { cookie });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ error: { code: 'unauthenticated', message: ERROR_MESSAGES.unauthenticated } });
    expect((await requestJson(second.url, '/me', { cookie })).status).toBe(401);
  });

  it('counts failed sign-ins across both instances, then refuses with 429 and Retry-After on either', async () => {
    // Another account than the demo one, so the demo account stays usable for the tests after this one.
    const username = 'multi-instance-intruder';
    const instances = [first, second];
    for (let attempt = 0; attempt < LOGIN_LIMIT; attempt += 1) {
      const target = instances[attempt % 2] as AppServer;
      const refused = await requestJson(target.url, '/login', {
        method: 'POST',
        body: { username, password: `wrong-${attempt}` },
      });
      expect(refused.status).toBe(401);
    }

    for (const target of instances) {
      const limited = await requestJson(target.url, '/login', {
        method: 'POST',
        body: { username, password: 'one-more-guess' },
      });
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ error: { code: 'too_many_requests', message: ERROR_MESSAGES.tooManyAttempts } });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    }

    // Both instances share one SQLite file too, so only the keys in Redis show where the counters live.
    const keys = [...(await readRedisStrings(redis.url)).keys()];
    expect(keys.some((key) => key.includes(username))).toBe(true);
  });

  it('keeps serving the same session on the other instance when one is killed (SIGKILL)', async () => {
    const cookie = await signIn(first.url, DEMO_USERNAME, DEMO_PASSWORD);
    expect((await requestJson(second.url, '/meta', { cookie })).status).toBe(200);

    process.kill(first.process.pid, 'SIGKILL');
    const exit = await first.process.exited;
    expect(exit.signal).toBe('SIGKILL');

    const meta = await requestJson(second.url, '/meta', { cookie });
    expect(meta.status).toBe(200);
    const me = await requestJson(second.url, '/me', { cookie });
    expect((me.body as MePayload).user.username).toBe(DEMO_USERNAME);
  });
});
