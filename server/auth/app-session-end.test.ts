/** How a session and the process end: logout wipes the site's data, a shutdown turns readiness off. */
import request from 'supertest';
import { isErrorBody, signOutNotEndedMessage, type HealthPayload } from '../../shared';
import { createDemoApp, DEMO_PASSWORD, sessionCookieOf, type TestApp } from '../../testing/server/test-app';

describe('ends', () => {
  let testApp: TestApp;

  beforeEach(async () => {
    testApp = await createDemoApp();
  });

  afterEach(async () => {
    await testApp.close();
  });

  it('logout answers Clear-Site-Data for cookies and storage, and the session is gone', async () => {
    const http = request(testApp.app.handler);
    const cookie = sessionCookieOf(
      await http.post('/login').send({ username: 'admin', password: DEMO_PASSWORD }),
    ) as string;
    const response = await request(testApp.app.handler).post('/logout').set('Cookie', cookie);
    expect(response.status).toBe(204);
    expect(response.headers['clear-site-data']).toBe('"cookies", "storage"');
    expect((await request(testApp.app.handler).get('/me').set('Cookie', cookie)).status).toBe(401);
  });

  it.each([
    ['its user cannot be read (the database not answering)', 'users'],
    ['the stored session cannot be destroyed (the store refusing writes)', 'store'],
  ] as const)('signs the browser out when %s, saying when the session ends', async (_case, failing) => {
    const http = request(testApp.app.handler);
    const cookie = sessionCookieOf(
      await http.post('/login').send({ username: 'admin', password: DEMO_PASSWORD }),
    ) as string;
    const failure =
      failing === 'users'
        ? jest.spyOn(testApp.app.users, 'findById').mockRejectedValue(new Error('database down'))
        : jest.spyOn(testApp.app.sessions.store, 'destroy').mockImplementation((_sid, callback) => {
            callback?.(new Error('read-only replica'));
          });
    try {
      const response = await request(testApp.app.handler).post('/logout').set('Cookie', cookie);
      expect(response.status).toBe(503);
      expect(response.body.error).toEqual({ code: 'unavailable', message: signOutNotEndedMessage(30) });
      expect(response.headers['set-cookie']?.[0]).toMatch(/^slots\.sid=; Path=\/; Expires=Thu, 01 Jan 1970/);
      expect(response.headers['clear-site-data']).toBe('"cookies", "storage"');
    } finally {
      failure.mockRestore();
    }
  });

  it('/readyz answers 503 JSON once the app is draining, while /healthz and the API keep answering', async () => {
    const http = () => request(testApp.app.handler);
    expect((await http().get('/readyz')).status).toBe(200);
    testApp.app.lifecycle.startDraining();
    const ready = await http().get('/readyz');
    expect(ready.status).toBe(503);
    expect((ready.body as HealthPayload).checks).toEqual({ database: 'ok', draining: 'failing' });
    expect(isErrorBody(ready.body)).toBe(true);
    const slots = await http().get('/slots');
    expect(slots.status).toBe(200);
    expect(slots.headers.connection).toBe('close');
    expect((await http().get('/healthz')).status).toBe(200);
  });
});
