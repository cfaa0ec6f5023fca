import express from 'express';
import request from 'supertest';
import { API_SECURITY_HEADERS, createApiSecurityHeaders, HSTS } from './api-security-headers';

describe('createApiSecurityHeaders', () => {
  const app = express();
  app.use(createApiSecurityHeaders());
  app.get('/data', (_req, res) => {
    res.json({ ok: true });
  });
  app.get('/fails', () => {
    throw new Error('boom');
  });
  // Like the app's error handler: it answers on the same response, whose headers are already set.
  app.use((_error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(500).json({ error: { code: 'internal', message: 'Something went wrong.' } });
  });

  it('sets nosniff, CORP same-origin, a policy that allows nothing, no-store, and no HSTS over plain HTTP', async () => {
    const response = await request(app).get('/data');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect(response.headers['x-frame-options']).toBeUndefined();
  });

  it('adds HSTS to answers that came over HTTPS (behind a trusted proxy)', async () => {
    const behindProxy = express();
    behindProxy.set('trust proxy', 1);
    behindProxy.use(createApiSecurityHeaders());
    behindProxy.get('/data', (_req, res) => {
      res.json({ ok: true });
    });
    const secure = await request(behindProxy).get('/data').set('X-Forwarded-Proto', 'https');
    expect(secure.headers['strict-transport-security']).toBe(HSTS);
    const plain = await request(behindProxy).get('/data').set('X-Forwarded-Proto', 'http');
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });

  it('keeps them on answers that went through the error path', async () => {
    const response = await request(app).get('/fails');
    expect(response.status).toBe(500);
    for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) {
      expect(response.headers[name.toLowerCase()]).toBe(value);
    }
  });
});
