import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { ERROR_MESSAGES } from '../../shared';
import { createErrorHandler, databaseUnavailableMessage } from './error-handler';
import { HttpError } from './http-error';

/** An app whose one route fails with `error`, and the lines its error handler logged. */
function failingWith(error: unknown) {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  const app = express();
  app.get('/records', () => {
    throw error;
  });
  app.use(createErrorHandler(logger));
  return { app, lines };
}

describe('the error handler’s log', () => {
  it('says a database-unavailable 503 in one warning naming the request and the reason, without a stack', async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const { app, lines } = failingWith(refused);
    const response = await request(app).get('/records?page=2');
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ error: { code: 'unavailable', message: ERROR_MESSAGES.unavailable } });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 40,
      method: 'GET',
      url: '/records?page=2',
      reason: 'connect ECONNREFUSED 127.0.0.1:5432',
      msg: databaseUnavailableMessage('GET', '/records?page=2', 'connect ECONNREFUSED 127.0.0.1:5432'),
    });
    expect(lines[0]).not.toHaveProperty('err');
    expect(JSON.stringify(lines[0])).not.toMatch(/\n\s+at /);
  });

  it('names the refused addresses of a host none of whose addresses answered (an AggregateError says nothing itself)', async () => {
    const address = (host: string) =>
      Object.assign(new Error(`connect ECONNREFUSED ${host}:5432`), { code: 'ECONNREFUSED' });
    const { app, lines } = failingWith(new AggregateError([address('::1'), address('127.0.0.1')]));
    expect((await request(app).get('/records')).status).toBe(503);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        reason: 'connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432',
      }),
    ]);
  });

  it('says a 503 the server chose (an HttpError: the session store not answering) in one warning, without a stack', async () => {
    const { app, lines } = failingWith(new HttpError('unavailable', ERROR_MESSAGES.unavailable));
    const response = await request(app).get('/records');
    expect(response.status).toBe(503);
    expect(response.body).toEqual({ error: { code: 'unavailable', message: ERROR_MESSAGES.unavailable } });
    expect(lines).toEqual([
      expect.objectContaining({
        level: 40,
        method: 'GET',
        url: '/records',
        code: 'unavailable',
        msg: `GET /records answered 503: ${ERROR_MESSAGES.unavailable}`,
      }),
    ]);
    expect(lines[0]).not.toHaveProperty('err');
  });

  it('logs anything else unexpected as an error with its stack', async () => {
    const { app, lines } = failingWith(new Error('a bug'));
    expect((await request(app).get('/records')).status).toBe(500);
    expect(lines).toEqual([
      expect.objectContaining({
        level: 50,
        msg: 'request failed',
        err: expect.objectContaining({ message: 'a bug', stack: expect.stringContaining('\n    at ') }),
      }),
    ]);
  });
});
