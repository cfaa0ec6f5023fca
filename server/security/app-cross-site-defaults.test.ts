/**
 * The cross-site guard as the product ships: `npm start` configures no allow-list, so these tests build the app
 * with none. Every state-changing route the app declares (found by walking its router, so a route added later is
 * covered without being listed here) refuses a request from another site, with and without `Sec-Fetch-Site`, and
 * the refused request changes nothing: no session cookie, no signed-in session, no write.
 */
import request from 'supertest';
import { ERROR_MESSAGES, type MePayload, type RecordListPayload } from '../../shared';
import { declaredRoutes } from '../../testing/server/route-table';
import { createDemoApp, DEMO_PASSWORD, sessionCookieOf, type DemoTestApp } from '../../testing/server/test-app';

const CROSS_SITE = { error: { code: 'forbidden', message: ERROR_MESSAGES.crossSite } };
const HOST = 'admin.example.test';
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** From another site: the modern browser's header with its Origin, an older browser's Origin or Referer alone. */
const ATTACKS: ReadonlyArray<[label: string, headers: Record<string, string>]> = [
  ['Sec-Fetch-Site: cross-site with Origin', { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' }],
  ['Sec-Fetch-Site: cross-site alone', { 'Sec-Fetch-Site': 'cross-site' }],
  ['Origin alone (no Sec-Fetch-Site)', { Origin: 'https://evil.example' }],
  ['Referer alone (no Sec-Fetch-Site)', { Referer: 'https://evil.example/attack.html' }],
  ['Origin: null (no Sec-Fetch-Site)', { Origin: 'null' }],
];

describe('cross-site requests with the default configuration (no allow-list)', () => {
  let testApp: DemoTestApp;
  let cookie: string;
  let articleId: number;

  beforeAll(async () => {
    testApp = await createDemoApp();
    const login = await request(testApp.app.handler)
      .post('/login')
      .send({ username: 'admin', password: DEMO_PASSWORD });
    cookie = sessionCookieOf(login) as string;
    const list = await request(testApp.app.handler).get('/api/resources/articles/records').set('Cookie', cookie);
    articleId = (list.body as RecordListPayload).records[0]!.id;
  });

  afterAll(async () => {
    await testApp.close();
  });

  /** Every state-changing route of the app, with real parameters so that only the guard can refuse it. */
  function unsafeRoutes(): Array<{ method: string; path: string }> {
    const routes: Array<{ method: string; path: string }> = [];
    for (const route of declaredRoutes(testApp.app.express)) {
      const path = route.path.replace(':name', 'articles').replace(':id', String(articleId));
      for (const method of route.methods) if (UNSAFE_METHODS.has(method)) routes.push({ method, path });
    }
    return routes;
  }

  it('knows the state-changing routes it must guard', () => {
    const found = unsafeRoutes().map((route) => `${route.method} ${route.path}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'POST /login',
        'POST /logout',
        'POST /tenant',
        `PUT /api/resources/articles/records/${articleId}`,
      ]),
    );
  });

  it.each(ATTACKS)('refuses every state-changing route from another site: %s', async (_label, headers) => {
    for (const { method, path } of unsafeRoutes()) {
      const response = await request(testApp.app.handler)
        [method.toLowerCase() as 'post' | 'put' | 'patch' | 'delete'](path)
        .set('Host', HOST)
        .set('Cookie', cookie)
        .set(headers)
        .send({ username: 'admin', password: DEMO_PASSWORD, tenant: 'globex', title: 'defaced' });
      expect({ route: `${method} ${path}`, status: response.status, body: response.body }).toEqual({
        route: `${method} ${path}`,
        status: 403,
        body: CROSS_SITE,
      });
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    // Nothing the refused requests asked for happened: still signed in, same tenant, the record unchanged.
    const me = await request(testApp.app.handler).get('/me').set('Cookie', cookie);
    expect(me.status).toBe(200);
    expect((me.body as MePayload).user.currentTenant).toBe('acme');
    const record = await request(testApp.app.handler)
      .get(`/api/resources/articles/records/${articleId}`)
      .set('Cookie', cookie);
    expect((record.body as { record: { title: string } }).record.title).not.toBe('defaced');
  });

  it('refuses a forged cross-site sign-in with the right password: no cookie, and no session is made', async () => {
    const before = testApp.app.sessions.store;
    const sessionsBefore = await countSessions(before);
    const response = await request(testApp.app.handler)
      .post('/login')
      .set('Host', HOST)
      .set('Origin', 'https://evil.example')
      .send({ username: 'admin', password: DEMO_PASSWORD });
    expect(response.status).toBe(403);
    expect(response.body).toEqual(CROSS_SITE);
    expect(response.headers['set-cookie']).toBeUndefined();
    expect(await countSessions(before)).toBe(sessionsBefore);
  });

  it("accepts the server's own pages and clients that are no browser page", async () => {
    const own = await request(testApp.app.handler)
      .post('/login')
      .set('Host', HOST)
      .set('Origin', `http://${HOST}`)
      .send({ username: 'admin', password: DEMO_PASSWORD });
    expect(own.status).toBe(200);
    const sameOrigin = await request(testApp.app.handler)
      .post('/tenant')
      .set('Cookie', cookie)
      .set('Sec-Fetch-Site', 'same-origin')
      .send({ tenant: 'acme' });
    expect(sameOrigin.status).toBe(200);
    const script = await request(testApp.app.handler)
      .post('/login')
      .send({ username: 'admin', password: DEMO_PASSWORD });
    expect(script.status).toBe(200);
  });
});

/** How many sessions the store holds (express-session's optional `length`, which the SQLite and Redis stores have). */
function countSessions(store: { length?: (callback: (error: unknown, length?: number) => void) => void }) {
  return new Promise<number>((resolve, reject) => {
    if (!store.length) {
      reject(new Error('The session store cannot count its sessions.'));
      return;
    }
    store.length((error, length) => (error ? reject(error) : resolve(length ?? 0)));
  });
}
