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

  it.each<['get' | 'options', string]>([
    ['get', '/nope'],
    ['get', '/api/nope'],
    ['get', '/api/resources-x'],
    ['get', '/remotes-x/file.js'],
    // Express answered these 200 "GET, HEAD" as text (for the host's catch-all page route).
    ['options', '/api/nope'],
    ['options', '/nope'],
    ['options', '/assets/nope.js'],
    ['options', '/favicon.ico'],
  ])('unknown route (%s %s): 404 JSON', async (method, path) => {
    const response = await http()[method](path);
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.body).toEqual({ error: { code: 'not_found', message: ERROR_MESSAGES.notFound } });
  });

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

  it.each<[string, 'options' | 'post' | 'put' | 'delete']>([
    ['/', 'options'],
    ['/releases', 'post'],
    ['/placements', 'put'],
    ['/resources/articles', 'post'],
    ['/resources/articles/6/edit', 'delete'],
  ])("a page's address asked with another method than GET (%s, %s): 405 JSON with Allow", async (path, method) => {
    const response = await http()[method](path);
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, HEAD');
    expect(response.body.error).toEqual({
      code: 'method_not_allowed',
      message: `${method.toUpperCase()} is not allowed here. Allowed: GET, HEAD.`,
    });
  });

  it("leaves the remotes' files their CORS answer to OPTIONS (a page of another origin asks before it reads one)", async () => {
    const response = await http().options('/remotes/team_records/remoteEntry.js');
    expect(response.status).toBe(204);
    expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });

  it.each([
    ['?q=%ff', 'q'],
    ['?q=%E0%A4%A', 'q'],
    ['?sort=title&q=caf%C3', 'q'],
    ['?filter.group=%', 'filter.group'],
  ])('an API query parameter that is not valid percent-encoding (%s): 400 naming it', async (query, name) => {
    const agent = await signedInAgent(testApp.app);
    const response = await agent.get(`/api/resources/articles/records${query}`);
    expect(response.status).toBe(400);
    expect(response.body.error).toEqual({
      code: 'invalid_request',
      message:
        `The query parameter "${name}" is not valid percent-encoding: send its text as UTF-8, each byte outside ` +
        'letters and digits written %XX.',
    });
  });

  it('an API query parameter whose name is not valid percent-encoding: 400 saying so', async () => {
    const agent = await signedInAgent(testApp.app);
    const response = await agent.get('/meta?%ff=1');
    expect(response.status).toBe(400);
    expect(response.body.error.message).toBe('A query parameter\'s name ("%ff") is not valid percent-encoding.');
  });

  it('reads a query that decodes as it did: UTF-8 escapes, "+" for a space, an escaped "%"', async () => {
    const agent = await signedInAgent(testApp.app);
    const response = await agent.get('/api/resources/articles/records?q=caf%C3%A9+cr%C3%A8me%25').expect(200);
    expect(response.body.page.q).toBe('café crème%');
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
