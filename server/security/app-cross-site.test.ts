/**
 * CSRF on the real app: a page of another site cannot sign a visitor in or out, nor change a record, even with the
 * visitor's cookies. The server's own pages, configured origins and non-browser clients keep working.
 */
import request from 'supertest';
import { ERROR_MESSAGES, undeclaredAddressMessage, type RecordListPayload, type RecordPayload } from '../../shared';
import { createDemoApp, DEMO_PASSWORD, sessionCookieOf, type TestApp } from '../../testing/server/test-app';

const CROSS_SITE = { code: 'forbidden', message: ERROR_MESSAGES.crossSite };
const HOST = 'admin.example.test';
const OWN_ORIGIN = `http://${HOST}`;

describe('cross-site requests to the app', () => {
  let testApp: TestApp;
  let cookie: string;

  beforeEach(async () => {
    testApp = await createDemoApp({ allowedOrigins: ['https://console.example.test'] });
    const response = await request(testApp.app.handler)
      .post('/login')
      .send({ username: 'admin', password: DEMO_PASSWORD });
    cookie = sessionCookieOf(response) as string;
  });

  afterEach(async () => {
    await testApp.close();
  });

  const http = () => request(testApp.app.handler);

  it('refuses a cross-site sign-in with the right password: 403, no session cookie', async () => {
    for (const attack of [
      { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' },
      { Origin: 'https://evil.example' },
      { Referer: 'https://evil.example/login-csrf.html' },
      { Origin: 'null' },
    ]) {
      const response = await http()
        .post('/login')
        .set('Host', HOST)
        .set(attack)
        .send({ username: 'admin', password: DEMO_PASSWORD });
      expect(response.status).toBe(403);
      expect(response.body).toEqual({ error: CROSS_SITE });
      expect(response.headers['set-cookie']).toBeUndefined();
    }
  });

  it('refuses a cross-site sign-out: the session survives', async () => {
    const response = await http()
      .post('/logout')
      .set('Host', HOST)
      .set('Cookie', cookie)
      .set('Sec-Fetch-Site', 'cross-site')
      .set('Origin', 'https://evil.example');
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ error: CROSS_SITE });
    expect((await http().get('/me').set('Cookie', cookie)).status).toBe(200);
  });

  it('refuses a cross-site record change and a cross-site tenant switch: nothing changes', async () => {
    const list = (await http().get('/api/resources/articles/records').set('Cookie', cookie)).body as RecordListPayload;
    const id = list.records[0]?.id;
    const before = (await http().get(`/api/resources/articles/records/${id}`).set('Cookie', cookie))
      .body as RecordPayload;
    expect(before.record.title).toEqual(expect.any(String));
    const change = await http()
      .put(`/api/resources/articles/records/${id}`)
      .set('Host', HOST)
      .set('Cookie', cookie)
      .set('Origin', 'https://evil.example')
      .send({ ...before.record, title: 'defaced' });
    expect(change.status).toBe(403);
    const after = (await http().get(`/api/resources/articles/records/${id}`).set('Cookie', cookie))
      .body as RecordPayload;
    expect(after.record.title).toBe(before.record.title);

    const switched = await http()
      .post('/tenant')
      .set('Cookie', cookie)
      .set('Sec-Fetch-Site', 'cross-site')
      .send({ tenant: 'globex' });
    expect(switched.status).toBe(403);
    expect(
      ((await http().get('/me').set('Cookie', cookie)).body as { user: { currentTenant: string } }).user.currentTenant,
    ).toBe('acme');
  });

  it('accepts the same requests from its own pages, a configured origin, and clients that are no browser page', async () => {
    const own = await http()
      .post('/login')
      .set('Host', HOST)
      .set('Sec-Fetch-Site', 'same-origin')
      .set('Origin', OWN_ORIGIN)
      .send({ username: 'admin', password: DEMO_PASSWORD });
    expect(own.status).toBe(200);
    const oldBrowser = await http()
      .post('/login')
      .set('Host', HOST)
      .set('Origin', OWN_ORIGIN)
      .send({ username: 'admin', password: DEMO_PASSWORD });
    expect(oldBrowser.status).toBe(200);
    const configured = await http()
      .post('/tenant')
      .set('Cookie', cookie)
      .set('Sec-Fetch-Site', 'same-site')
      .set('Origin', 'https://console.example.test')
      .send({ tenant: 'globex' });
    expect(configured.status).toBe(200);
    const script = await http().post('/logout').set('Cookie', cookie);
    expect(script.status).toBe(204);
  });

  it('takes its pages at PUBLIC_URL as its own, reached through a proxy that rewrites Host', async () => {
    await testApp.close();
    testApp = await createDemoApp({ publicOrigin: 'https://slots.example.com' });
    const signIn = () =>
      http()
        .post('/login')
        .set('Host', 'host-a:3000')
        .set('Sec-Fetch-Site', 'same-site')
        .send({ username: 'admin', password: DEMO_PASSWORD });
    expect((await signIn().set('Origin', 'https://slots.example.com')).status).toBe(200);
    const other = await signIn().set('Origin', 'https://other.example.com');
    expect([other.status, other.body.error]).toEqual([403, CROSS_SITE]);
  });

  it('with PUBLIC_URL, refuses a page at a name made to point at the server (DNS rebinding): no session', async () => {
    await testApp.close();
    testApp = await createDemoApp({ publicOrigin: 'https://slots.example.com' });
    const rebound = await http()
      .post('/login')
      .set('Host', 'evil.example')
      .set('Sec-Fetch-Site', 'same-origin')
      .set('Origin', 'http://evil.example')
      .send({ username: 'admin', password: DEMO_PASSWORD });
    expect([rebound.status, rebound.body]).toEqual([
      403,
      { error: { code: 'forbidden', message: undeclaredAddressMessage('https://slots.example.com') } },
    ]);
    expect(rebound.headers['set-cookie']).toBeUndefined();
    // The product's own page, and a script, still sign in.
    const own = await http()
      .post('/login')
      .set('Host', 'slots.example.com')
      .set('Sec-Fetch-Site', 'same-origin')
      .set('Origin', 'https://slots.example.com')
      .send({ username: 'admin', password: DEMO_PASSWORD });
    expect(own.status).toBe(200);
    const script = await http()
      .post('/login')
      .set('Host', 'evil.example')
      .send({ username: 'admin', password: DEMO_PASSWORD });
    expect(script.status).toBe(200);
  });

  it('lets cross-site reads through (they change nothing; CORS keeps their answers from the other site)', async () => {
    const response = await http()
      .get('/slots')
      .set('Sec-Fetch-Site', 'cross-site')
      .set('Origin', 'https://evil.example');
    expect(response.status).toBe(200);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
  });
});
