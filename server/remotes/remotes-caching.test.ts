import request from 'supertest';
import { createDemoApp, signedInAgent, type DemoTestApp } from '../../testing/server/test-app';

/**
 * `GET /api/remotes` is answered to anyone, and chosen per user when signed in (a canary, a preview): a signed-in
 * answer is marked as every other signed-in JSON answer is (`/meta`, `/api/locations`), so that no shared cache keeps
 * what was made for a session, nor a Set-Cookie the session step sent with it.
 */
describe('GET /api/remotes caching', () => {
  let testApp: DemoTestApp;
  beforeAll(async () => {
    testApp = await createDemoApp();
  });
  afterAll(async () => {
    await testApp.close();
  });

  it('is `no-cache` for an anonymous visitor, the same answer for everyone', async () => {
    const response = await request(testApp.app.handler).get('/api/remotes').expect(200);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it('is `private, no-store` signed in, as /meta and /api/locations are', async () => {
    const agent = await signedInAgent(testApp.app);
    const meta = await agent.get('/meta').expect(200);
    const locations = await agent.get('/api/locations').expect(200);
    const remotes = await agent.get('/api/remotes').expect(200);
    expect(meta.headers['cache-control']).toBe('private, no-store');
    expect(locations.headers['cache-control']).toBe('private, no-store');
    expect(remotes.headers['cache-control']).toBe('private, no-store');
  });
});
