import express from 'express';
import request from 'supertest';
import { API_SECURITY_HEADERS, createApiSecurityHeaders } from './api-security-headers';

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

  it('sets nosniff and CORP same-origin, and none of the document headers', async () => {
    const response = await request(app).get('/data');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
    for (const header of ['content-security-policy', 'strict-transport-security', 'x-frame-options']) {
      expect(response.headers[header]).toBeUndefined();
    }
  });

  it('keeps them on answers that went through the error path', async () => {
    const response = await request(app).get('/fails');
    expect(response.status).toBe(500);
    for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) {
      expect(response.headers[name.toLowerCase()]).toBe(value);
    }
  });
});
