import request from 'supertest';
import type { MePayload } from '../../shared';
import { createDemoApp, DEMO_PASSWORD, sessionCookieOf } from '../../testing/server/test-app';

describe('sessions across a restart', () => {
  it('keeps the user signed in when the server is closed and started again on the same database file', async () => {
    const first = await createDemoApp();
    const login = await request(first.app.handler).post('/login').send({ username: 'admin', password: DEMO_PASSWORD });
    expect(login.status).toBe(200);
    const cookie = sessionCookieOf(login) as string;
    expect(cookie).toMatch(/^slots\.sid=/);
    const switched = await request(first.app.handler).post('/tenant').set('Cookie', cookie).send({ tenant: 'globex' });
    expect(switched.status).toBe(200);
    // Signed in, in globex, before the restart: what the second app must still know.
    const before = await request(first.app.handler).get('/me').set('Cookie', cookie);
    expect(before.status).toBe(200);
    expect((before.body as MePayload).user.currentTenant).toBe('globex');
    await first.close({ keepData: true });

    const second = await createDemoApp({ dir: first.dir });
    try {
      // The demo account and data were not created twice.
      expect(second.demoAccount?.created).toBe(false);
      expect(await second.app.records.count('acme', 'articles')).toBe(4);
      const me = await request(second.app.handler).get('/me').set('Cookie', cookie);
      expect(me.status).toBe(200);
      expect((me.body as MePayload).user.currentTenant).toBe('globex');
      expect((await request(second.app.handler).get('/meta').set('Cookie', cookie)).status).toBe(200);
    } finally {
      await second.close();
    }
  });

  it('shares sessions between two app instances open on the same file at once', async () => {
    const first = await createDemoApp();
    const second = await createDemoApp({ dir: first.dir });
    try {
      const login = await request(first.app.handler)
        .post('/login')
        .send({ username: 'admin', password: DEMO_PASSWORD });
      const cookie = sessionCookieOf(login) as string;
      expect((await request(second.app.handler).get('/meta').set('Cookie', cookie)).status).toBe(200);
      await request(second.app.handler).post('/logout').set('Cookie', cookie);
      expect((await request(first.app.handler).get('/meta').set('Cookie', cookie)).status).toBe(401);
    } finally {
      await second.close({ keepData: true });
      await first.close();
    }
  });

  it('does not accept a cookie signed with another secret after a restart', async () => {
    const first = await createDemoApp();
    const login = await request(first.app.handler).post('/login').send({ username: 'admin', password: DEMO_PASSWORD });
    const cookie = sessionCookieOf(login) as string;
    await first.close({ keepData: true });
    const second = await createDemoApp({ dir: first.dir, sessionSecret: 'a-different-secret-0123456789' });
    try {
      expect((await request(second.app.handler).get('/me').set('Cookie', cookie)).status).toBe(401);
    } finally {
      await second.close();
    }
  });

  it('accepts cookies signed with a previous secret during a rotation', async () => {
    const first = await createDemoApp({ sessionSecret: 'the-old-secret-0123456789' });
    const login = await request(first.app.handler).post('/login').send({ username: 'admin', password: DEMO_PASSWORD });
    const cookie = sessionCookieOf(login) as string;
    await first.close({ keepData: true });
    const second = await createDemoApp({
      dir: first.dir,
      sessionSecret: ['the-new-secret-0123456789', 'the-old-secret-0123456789'],
    });
    try {
      expect((await request(second.app.handler).get('/me').set('Cookie', cookie)).status).toBe(200);
    } finally {
      await second.close();
    }
  });
});
