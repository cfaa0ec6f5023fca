import request from 'supertest';
import type { MePayload } from '../../shared';
import { createDemoApp, DEMO_PASSWORD, sessionCookieOf, type TestApp } from '../../testing/server/test-app';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('session timeouts on a controlled clock (defaults: 30 min idle, 12 h absolute)', () => {
  let testApp: TestApp;
  let clock: number;

  beforeEach(async () => {
    clock = Date.now();
    testApp = await createDemoApp({ now: () => clock });
  });

  afterEach(async () => {
    await testApp.close();
  });

  async function signIn() {
    const agent = request.agent(testApp.app.handler);
    const response = await agent.post('/login').send({ username: 'admin', password: DEMO_PASSWORD });
    expect(response.status).toBe(200);
    return { agent, cookie: sessionCookieOf(response) as string };
  }

  it('keeps a session that is used within the idle time', async () => {
    const { agent } = await signIn();
    for (let i = 0; i < 4; i++) {
      clock += 29 * MINUTE;
      expect((await agent.get('/me')).status).toBe(200);
    }
  });

  it('writes nothing while the idle deadline has not moved by a step, and saves once it has', async () => {
    const agent = request.agent(testApp.app.handler);
    expect((await agent.post('/login').send({ username: 'admin', password: DEMO_PASSWORD })).status).toBe(200);
    // express-session would touch the store on every unchanged answer; nothing moved, nothing is written.
    const store = testApp.app.sessions.store;
    const touch = jest.spyOn(store, 'touch');
    const set = jest.spyOn(store, 'set');
    for (let i = 0; i < 3; i++) {
      clock += 10_000;
      expect((await agent.get('/meta')).status).toBe(200);
      expect((await agent.get('/me')).status).toBe(200);
    }
    expect(touch).not.toHaveBeenCalled();
    expect(set).not.toHaveBeenCalled();
    // A minute on (the step of a 30-minute idle time): lastSeenAt moves, and the session is saved with it.
    clock += MINUTE;
    expect((await agent.get('/meta')).status).toBe(200);
    expect(set).toHaveBeenCalledTimes(1);
    expect(touch).not.toHaveBeenCalled();
  });

  it('ends a session left idle for 30 minutes: 401, the stored session is gone, the request is anonymous', async () => {
    const { agent, cookie } = await signIn();
    clock += 10 * MINUTE;
    expect((await agent.get('/me')).status).toBe(200);
    clock += 30 * MINUTE;
    const expired = await agent.get('/meta');
    expect(expired.status).toBe(401);
    expect(expired.body.error.code).toBe('unauthenticated');
    // Even when the old cookie is replayed by hand, going back in time changes nothing: it was destroyed.
    clock -= 30 * MINUTE;
    expect((await request(testApp.app.handler).get('/me').set('Cookie', cookie)).status).toBe(401);
  });

  it('ends a busy session after 12 hours however active it is', async () => {
    const { agent } = await signIn();
    for (let elapsed = 0; elapsed < 12 * HOUR - 20 * MINUTE; elapsed += 20 * MINUTE) {
      clock += 20 * MINUTE;
      expect((await agent.get('/me')).status).toBe(200);
    }
    clock += 20 * MINUTE;
    expect((await agent.get('/me')).status).toBe(401);
  });

  it('lets the user sign in again after a timeout, with a new session', async () => {
    const { agent, cookie } = await signIn();
    clock += 31 * MINUTE;
    expect((await agent.get('/me')).status).toBe(401);
    const again = await agent.post('/login').send({ username: 'admin', password: DEMO_PASSWORD });
    expect(again.status).toBe(200);
    expect(sessionCookieOf(again)).not.toBe(cookie);
    expect(((await agent.get('/me')).body as MePayload).user.username).toBe('admin');
  });
});

describe('the session cookie’s own expiry', () => {
  let testApp: TestApp;
  let clock: number;

  beforeEach(async () => {
    clock = Date.now();
    testApp = await createDemoApp({ now: () => clock });
  });

  afterEach(async () => {
    await testApp.close();
  });

  /** Seconds from now until the session cookie a response set expires (express-session sends `Expires`). */
  function lifetimeOf(response: request.Response): number | undefined {
    const header = response.headers['set-cookie'] as string[] | undefined;
    const cookie = header?.find((line) => line.startsWith('slots.sid='));
    const expires = cookie === undefined ? undefined : /;\s*Expires=([^;]+)/i.exec(cookie)?.[1];
    return expires === undefined ? undefined : Math.round((Date.parse(expires) - Date.now()) / 1000);
  }

  it('is one idle period from sign-in, and is sent again only when the idle deadline moves, not on every answer', async () => {
    const http = request(testApp.app.handler);
    const login = await http.post('/login').send({ username: 'admin', password: DEMO_PASSWORD });
    expect(lifetimeOf(login)).toBeGreaterThan(30 * 60 - 5);
    const cookie = sessionCookieOf(login) as string;

    // Within the step (a minute at most), the deadline does not move: no Set-Cookie, no signature to compute.
    clock += 20_000;
    const quiet = await http.get('/meta').set('Cookie', cookie);
    expect(quiet.status).toBe(200);
    expect(quiet.headers['set-cookie']).toBeUndefined();

    // Past the step the server moves the deadline, and the browser's cookie moves with it (same session id).
    clock += 60_000;
    const moved = await http.get('/meta').set('Cookie', cookie);
    expect(moved.status).toBe(200);
    expect(lifetimeOf(moved)).toBeGreaterThan(30 * 60 - 5);
    expect(sessionCookieOf(moved)).toBe(cookie);
    expect((await http.get('/me').set('Cookie', cookie)).headers['set-cookie']).toBeUndefined();
  });
});

describe('session timeouts on the real clock, with short configured limits', () => {
  let testApp: TestApp;

  afterEach(async () => {
    await testApp.close();
  });

  const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('idle: a cookie replayed after the idle time is refused by the server (not just expired in the browser)', async () => {
    // Each pause sits well inside or well past the limit: a loaded machine's slow request must not cross it.
    testApp = await createDemoApp({ sessionIdleMs: 2_400 });
    const login = await request(testApp.app.handler)
      .post('/login')
      .send({ username: 'admin', password: DEMO_PASSWORD });
    const cookie = sessionCookieOf(login) as string;
    await pause(1_000);
    expect((await request(testApp.app.handler).get('/me').set('Cookie', cookie)).status).toBe(200);
    await pause(1_000);
    // Rolling: the previous request moved the deadline (together the two pauses pass the idle time).
    expect((await request(testApp.app.handler).get('/me').set('Cookie', cookie)).status).toBe(200);
    await pause(3_400);
    expect((await request(testApp.app.handler).get('/me').set('Cookie', cookie)).status).toBe(401);
  });

  it('absolute: a session in constant use ends at the absolute limit', async () => {
    testApp = await createDemoApp({ sessionAbsoluteMs: 3_000 });
    const login = await request(testApp.app.handler)
      .post('/login')
      .send({ username: 'admin', password: DEMO_PASSWORD });
    const cookie = sessionCookieOf(login) as string;
    const started = Date.now();
    while (Date.now() - started < 2_000) {
      expect((await request(testApp.app.handler).get('/me').set('Cookie', cookie)).status).toBe(200);
      await pause(200);
    }
    await pause(1_500);
    expect((await request(testApp.app.handler).get('/me').set('Cookie', cookie)).status).toBe(401);
  });
});
