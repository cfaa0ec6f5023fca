import request from 'supertest';
import { BACKGROUND_READ_HEADER, type SessionTimePayload } from '../../shared';
import { createDemoApp, DEMO_PASSWORD, type TestApp } from '../../testing/server/test-app';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('GET and POST /session: how long a session has left, and staying signed in (30 min idle, 12 h absolute)', () => {
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
    expect((await agent.post('/login').send({ username: 'admin', password: DEMO_PASSWORD })).status).toBe(200);
    return agent;
  }

  it('tells how long is left without extending it: asking is not using the session', async () => {
    const agent = await signIn();
    clock += 20 * MINUTE;
    const asked = await agent.get('/session');
    expect(asked.status).toBe(200);
    expect(asked.headers['cache-control']).toBe('private, no-store');
    expect(asked.body as SessionTimePayload).toEqual({
      idleEndsInMs: 10 * MINUTE,
      absoluteEndsInMs: 12 * HOUR - 20 * MINUTE,
      idleTimeoutMs: 30 * MINUTE,
    });
    clock += 9 * MINUTE;
    expect(((await agent.get('/session')).body as SessionTimePayload).idleEndsInMs).toBe(MINUTE);
    // Asking twice moved nothing: 30 minutes after the last use the session is over.
    clock += MINUTE;
    expect((await agent.get('/me')).status).toBe(401);
    expect((await agent.get('/session')).status).toBe(401);
  });

  it("counts no background read (a page's own refresh) as use, and any other read as use", async () => {
    const agent = await signIn();
    const background = (path: string) => agent.get(path).set(BACKGROUND_READ_HEADER, '1');
    // A page left open refreshes its figures every 20 s by itself: 29 minutes of that keep nothing alive.
    for (let minute = 1; minute <= 29; minute += 1) {
      clock += MINUTE;
      expect((await background('/api/remotes/releases')).status).toBe(200);
    }
    expect(((await agent.get('/session')).body as SessionTimePayload).idleEndsInMs).toBe(MINUTE);
    clock += MINUTE;
    expect((await background('/api/remotes/releases')).status).toBe(401);
    expect((await agent.get('/me')).status).toBe(401);

    // The same read made for the person is use; a change always is, whatever the header says.
    const other = await signIn();
    clock += 20 * MINUTE;
    expect((await other.get('/api/remotes/releases')).status).toBe(200);
    expect(((await other.get('/session')).body as SessionTimePayload).idleEndsInMs).toBe(30 * MINUTE);
    clock += 20 * MINUTE;
    expect((await other.post('/tenant').set(BACKGROUND_READ_HEADER, '1').send({ tenant: 'acme' })).status).toBe(200);
    expect(((await other.get('/session')).body as SessionTimePayload).idleEndsInMs).toBe(30 * MINUTE);
  });

  it('gives back the whole idle time on POST, but never moves the absolute limit', async () => {
    const agent = await signIn();
    clock += 29 * MINUTE + 30_000;
    const stayed = await agent.post('/session');
    expect(stayed.status).toBe(200);
    expect(stayed.body as SessionTimePayload).toEqual({
      idleEndsInMs: 30 * MINUTE,
      absoluteEndsInMs: 12 * HOUR - 29 * MINUTE - 30_000,
      idleTimeoutMs: 30 * MINUTE,
    });
    clock += 29 * MINUTE;
    expect((await agent.get('/me')).status).toBe(200);

    // Staying signed in every 20 minutes ends at the absolute limit all the same.
    for (let elapsed = 58 * MINUTE + 30_000; elapsed < 12 * HOUR - 20 * MINUTE; elapsed += 20 * MINUTE) {
      clock += 20 * MINUTE;
      expect((await agent.post('/session')).status).toBe(200);
    }
    clock += 20 * MINUTE;
    expect((await agent.post('/session')).status).toBe(401);
  });

  it('answers 401 to anyone not signed in, and refuses a cross-site POST', async () => {
    const http = request(testApp.app.handler);
    expect((await http.get('/session')).status).toBe(401);
    expect((await http.post('/session')).status).toBe(401);
    const agent = await signIn();
    const crossSite = await agent.post('/session').set('Origin', 'https://elsewhere.example');
    expect(crossSite.status).toBe(403);
  });
});
