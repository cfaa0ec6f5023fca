import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import express from 'express';
import request from 'supertest';
import { ERROR_MESSAGES, isErrorBody } from '../../../shared';
import { createErrorHandler } from '../../http/error-handler';
import { pino, type Logger } from 'pino';
import { waitUntil } from '../../../testing/server/wait-until';
import { createLogger } from '../../logger';
import { LoginRateLimiter } from './login-rate-limiter';
import { createLoginThrottle } from './login-throttle';

const PASSWORD = 'correct horse battery staple';

/**
 * A sign-in route shaped like the real one: JSON body, 200 on the right password, 503 when the password checks are
 * busy (here: the password `busy`), 401 otherwise.
 */
async function appWithThrottle(
  settings = { perAccountAndIp: 3, perIp: 10, windowSeconds: 60 },
  limiter = LoginRateLimiter.create(settings, { kind: 'memory' }),
  logger?: Logger,
) {
  const app = express();
  // As pino-http gives each request its logger in the app.
  if (logger) app.use((req, _res, next) => (Object.assign(req, { log: logger }), next()));
  app.post('/login', express.json(), createLoginThrottle(limiter), (req, res) => {
    const body = req.body as { password?: unknown };
    if (body.password === PASSWORD) res.status(200).json({ ok: true });
    else if (body.password === 'busy') res.status(503).json({ error: { code: 'unavailable', message: 'busy' } });
    else res.status(401).json({ error: { code: 'unauthenticated', message: ERROR_MESSAGES.invalidCredentials } });
  });
  app.use(createErrorHandler(createLogger('test')));
  return app;
}

describe('createLoginThrottle', () => {
  it('answers 429 too_many_requests with Retry-After once the account+IP has used its attempts', async () => {
    const app = await appWithThrottle();
    for (let i = 0; i < 3; i++) {
      const response = await request(app).post('/login').send({ username: 'admin', password: 'wrong' });
      expect(response.status).toBe(401);
    }
    const limited = await request(app).post('/login').send({ username: 'admin', password: PASSWORD });
    expect(limited.status).toBe(429);
    expect(isErrorBody(limited.body)).toBe(true);
    expect(limited.body).toEqual({ error: { code: 'too_many_requests', message: ERROR_MESSAGES.tooManyAttempts } });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it('counts parallel guesses: at most the limit get through', async () => {
    const app = await appWithThrottle();
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => request(app).post('/login').send({ username: 'admin', password: 'wrong' })),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(9);
  });

  it('resets the account+IP count after a successful sign-in', async () => {
    const app = await appWithThrottle();
    for (let i = 0; i < 2; i++) await request(app).post('/login').send({ username: 'admin', password: 'wrong' });
    expect((await request(app).post('/login').send({ username: 'admin', password: PASSWORD })).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      expect((await request(app).post('/login').send({ username: 'admin', password: 'wrong' })).status).toBe(401);
    }
    expect((await request(app).post('/login').send({ username: 'admin', password: 'wrong' })).status).toBe(429);
  });

  it('counts only failures: neither successes nor attempts turned away unchecked (503) add up', async () => {
    const app = await appWithThrottle({ perAccountAndIp: 3, perIp: 4, windowSeconds: 60 });
    const send = (password: string) => request(app).post('/login').send({ username: 'admin', password });
    for (let i = 0; i < 10; i++) expect((await send(PASSWORD)).status).toBe(200);
    for (let i = 0; i < 10; i++) expect((await send('busy')).status).toBe(503);
    for (let i = 0; i < 3; i++) expect((await send('wrong')).status).toBe(401);
    expect((await send('wrong')).status).toBe(429);
  });

  it('still counts requests whose body has no usable username', async () => {
    const app = await appWithThrottle({ perAccountAndIp: 2, perIp: 100, windowSeconds: 60 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await request(app).post('/login').send({ username: 42 })).status);
    expect(statuses).toEqual([401, 401, 429]);
  });

  it('refuses with 503 JSON, not a free pass, when the counter store fails', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'login-throttle-'));
    try {
      const db = new BetterSqlite3(path.join(dir, 'app.db'));
      const limiter = LoginRateLimiter.create(
        { perAccountAndIp: 3, perIp: 10, windowSeconds: 60 },
        { kind: 'sqlite', db },
      );
      const app = express();
      let reachedHandler = false;
      app.post('/login', express.json(), createLoginThrottle(limiter), (_req, res) => {
        reachedHandler = true;
        res.status(200).json({ ok: true });
      });
      app.use(createErrorHandler(createLogger('test')));
      db.close();
      const response = await request(app).post('/login').send({ username: 'admin', password: PASSWORD });
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ error: { code: 'unavailable', message: ERROR_MESSAGES.unavailable } });
      expect(reachedHandler).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    [
      'its store out, as one line with the reason (the outage is logged once each way)',
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      { reason: 'terminating connection due to administrator command' },
    ],
    [
      'anything else, whole',
      new Error('counter table dropped'),
      { err: expect.objectContaining({ stack: expect.any(String) }) },
    ],
  ])('logs a failed give-back of a sign-in’s points: %s', async (_, failure, fields) => {
    const limiter = LoginRateLimiter.create({ perAccountAndIp: 3, perIp: 10, windowSeconds: 60 }, { kind: 'memory' });
    jest.spyOn(limiter, 'succeeded').mockRejectedValue(failure);
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const app = await appWithThrottle(undefined, limiter, logger);
    await request(app).post('/login').send({ username: 'admin', password: PASSWORD }).expect(200);
    await waitUntil(() => Promise.resolve(lines.length > 0), 2000, 'the give-back’s line');
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        msg: 'could not give back the login rate limit points of an attempt',
        ...fields,
      }),
    ]);
    if ('reason' in fields) expect(lines[0]).not.toHaveProperty('err');
  });
});
