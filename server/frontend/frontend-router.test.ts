import express, { type Express } from 'express';
import request from 'supertest';
import { createFixtureDist, type FixtureDist } from '../remotes/fixture-dist';
import { createFrontendRouter, HOST_NOT_BUILT_MESSAGE } from './index';

let dist: FixtureDist;
beforeEach(() => {
  dist = createFixtureDist();
});
afterEach(() => dist.remove());

function appWith(): Express {
  const app = express();
  app.get('/slots', (_req, res) => {
    res.json({ slots: {} });
  });
  app.use(createFrontendRouter({ distDir: dist.dir }));
  app.use((_req, res) => {
    res.status(404).json({ error: { code: 'not_found', message: 'Not found.' } });
  });
  return app;
}

describe('the host shell', () => {
  it.each(['/', '/login', '/resources/articles', '/resources/articles/1', '/resources/articles/1/edit'])(
    'answers the client route %s with index.html, no-cache',
    async (route) => {
      dist.addHost();
      const response = await request(appWith()).get(route).expect(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.text).toContain('<div id="root">');
    },
  );

  it('serves hashed assets with a year of cache', async () => {
    dist.addHost();
    const response = await request(appWith()).get('/assets/main.89abcdef01.js').expect(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-type']).toMatch(/javascript/);
  });

  it.each([
    '/api/nothing',
    '/meta',
    '/remotes/team_x/remoteEntry.js',
    '/assets/missing.js',
    '/favicon.ico',
    '/unknown',
  ])('never answers %s with index.html (JSON 404 instead)', async (route) => {
    dist.addHost();
    const response = await request(appWith()).get(route).expect(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    expect(response.body.error.code).toBe('not_found');
  });

  it('leaves the API routes mounted before it alone', async () => {
    dist.addHost();
    const response = await request(appWith()).get('/slots').expect(200);
    expect(response.body).toEqual({ slots: {} });
  });

  it('answers the client routes with a 503 JSON saying how to build when the host is not built', async () => {
    const app = appWith();
    const response = await request(app).get('/login').expect(503);
    expect(response.body).toEqual({ error: { code: 'unavailable', message: HOST_NOT_BUILT_MESSAGE } });
    expect(HOST_NOT_BUILT_MESSAGE).toMatch(/npm run build/);
    // Built later: the same server serves it without a restart.
    dist.addHost();
    await request(app).get('/login').expect(200);
  });
});
