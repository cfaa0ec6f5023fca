import { Writable } from 'node:stream';
import pino from 'pino';
import request from 'supertest';
import { ERROR_MESSAGES, ERROR_STATUS, isErrorBody } from '../../shared';
import { createDemoApp, signedInAgent, type TestApp } from '../../testing/server/test-app';
import { toHttpError } from './error-handler';
import { HttpError } from './http-error';
import { JSON_BODY_MESSAGES } from './require-json-body';

describe('errors as JSON', () => {
  let testApp: TestApp;
  let logged: string;

  beforeAll(async () => {
    logged = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged += chunk.toString();
        done();
      },
    });
    testApp = await createDemoApp({ logger: pino({ level: 'error' }, sink) });
  });

  afterAll(async () => {
    await testApp.close();
  });

  const http = () => request(testApp.app.handler);

  it.each([['/nope'], ['/api/nope'], ['/api/resources-x'], ['/remotes-x/file.js']])(
    'unknown route %s: 404 JSON',
    async (path) => {
      const response = await http().get(path);
      expect(response.status).toBe(404);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.body).toEqual({ error: { code: 'not_found', message: ERROR_MESSAGES.notFound } });
    },
  );

  it('the resource API answers 401 before anything else to an anonymous caller, whatever the method', async () => {
    for (const path of ['/api/resources', '/api/resources/articles', '/api/resources/articles/records/1']) {
      for (const method of ['get', 'post', 'put', 'patch', 'delete'] as const) {
        const response = await http()[method](path).send({ title: 'x' });
        expect({ path, method, status: response.status, body: response.body }).toEqual({
          path,
          method,
          status: 401,
          body: { error: { code: 'unauthenticated', message: ERROR_MESSAGES.unauthenticated } },
        });
      }
    }
  });

  it('a path parameter that is not valid percent-encoding: 400 saying so', async () => {
    const agent = await signedInAgent(testApp.app);
    const response = await agent.get('/api/resources/%E0%A4%A');
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ error: { code: 'invalid_request', message: ERROR_MESSAGES.undecodablePath } });
  });

  it('unknown route with another method: 404 JSON too', async () => {
    const response = await http().post('/nope').send({});
    expect(response.status).toBe(404);
    expect(isErrorBody(response.body)).toBe(true);
  });

  it.each<[string, 'get' | 'post' | 'put' | 'delete' | 'patch', string]>([
    ['/slots', 'put', 'GET, HEAD'],
    ['/meta', 'delete', 'GET, HEAD'],
    ['/me', 'post', 'GET, HEAD'],
    ['/logout', 'get', 'POST'],
    ['/tenant', 'get', 'POST'],
    ['/api/resources', 'patch', 'GET, HEAD'],
    ['/api/remotes', 'post', 'GET, HEAD'],
    ['/api/remotes', 'delete', 'GET, HEAD'],
  ])('wrong method on %s (%s): 405 JSON with Allow', async (path, method, allow) => {
    const agent = await signedInAgent(testApp.app);
    const response = await agent[method](path);
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe(allow);
    expect(response.body.error.code).toBe('method_not_allowed');
    expect(response.body.error.message).toContain(method.toUpperCase());
  });

  it('an unexpected failure is 500 internal with a fixed message; the details and stack only reach the log', async () => {
    // A failure nothing expects, deep in a route (a store's bug, a driver's error).
    jest
      .spyOn(testApp.app.meta.body, 'body')
      .mockRejectedValue(new Error('secret detail: connection string postgres://admin:pw@db'));
    const agent = await signedInAgent(testApp.app);
    const response = await agent.get('/meta');
    expect(response.status).toBe(500);
    expect(response.body).toEqual({ error: { code: 'internal', message: ERROR_MESSAGES.internal } });
    expect(response.text).not.toContain('secret detail');
    expect(response.text).not.toMatch(/\bat \S+ \(/);
    expect(logged).toContain('secret detail');
    expect(logged).toContain('"stack"');
  });

  it('never answers with HTML, even for a body the parser rejects', async () => {
    const response = await http()
      .post('/login')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'x-unknown')
      .send('{}');
    expect(response.status).toBe(415);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(isErrorBody(response.body)).toBe(true);
  });

  it('sends no X-Powered-By', async () => {
    expect((await http().get('/healthz')).headers['x-powered-by']).toBeUndefined();
  });
});

describe('toHttpError', () => {
  it('keeps an HttpError as it is', () => {
    const error = HttpError.invalidRequest('bad', { a: 'b' });
    expect(toHttpError(error)).toBe(error);
    expect(error.toBody()).toEqual({ error: { code: 'invalid_request', message: 'bad', fields: { a: 'b' } } });
  });

  it("gives the body parser's unsupported charset and content coding each its own 415 message", () => {
    const charset = Object.assign(new Error('unsupported charset "LATIN1"'), {
      status: 415,
      type: 'charset.unsupported',
    });
    const coding = Object.assign(new Error('unsupported content encoding "zstd"'), {
      status: 415,
      type: 'encoding.unsupported',
    });
    expect(toHttpError(charset).toBody()).toEqual({
      error: { code: 'unsupported_media_type', message: JSON_BODY_MESSAGES.unsupportedCharset },
    });
    expect(toHttpError(coding).toBody()).toEqual({
      error: { code: 'unsupported_media_type', message: JSON_BODY_MESSAGES.unsupportedCoding },
    });
  });

  it('maps client errors of other libraries by status, with a generic message', () => {
    const error = Object.assign(new Error('internal words'), { status: 404 });
    expect(toHttpError(error).toBody()).toEqual({ error: { code: 'not_found', message: ERROR_MESSAGES.notFound } });
  });

  it('turns anything else into internal, including statuses without a code of their own', () => {
    for (const error of [
      new Error('boom'),
      'string',
      null,
      { status: 502 },
      Object.assign(new Error('x'), { status: 418 }),
    ]) {
      const mapped = toHttpError(error);
      expect(mapped.code).toBe('internal');
      expect(mapped.status).toBe(ERROR_STATUS.internal);
      expect(mapped.message).toBe(ERROR_MESSAGES.internal);
    }
  });
});
