/**
 * Bad input on every route: malformed, oversized and wrongly typed bodies, odd query strings and headers, every
 * method, anonymous and signed in. The server must never answer 500, never go down, and every 4xx must be the
 * JSON error shape, except the app's not-found page that a browser navigation to an unknown address gets.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import request from 'supertest';
import { isErrorBody } from '../../shared';
import { createDemoApp, DEMO_PASSWORD, sessionCookieOf, type TestApp } from '../../testing/server/test-app';
import { declaredRoutes } from '../../testing/server/route-table';

jest.setTimeout(120_000);

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
type Method = (typeof METHODS)[number];

/** Routes the product must have; the walk of the router must find at least these. */
const EXPECTED_ROUTES = [
  '/healthz',
  '/readyz',
  '/slots',
  '/meta',
  '/login',
  '/logout',
  '/me',
  '/tenant',
  '/api/remotes',
  '/api/resources',
  '/api/resources/:name',
  '/api/resources/:name/records',
  '/api/resources/:name/records/:id',
];

/** Values for route parameters: real ones, missing ones, and hostile ones. */
const PARAM_VALUES: Record<string, readonly string[]> = {
  name: ['articles', 'authors', 'nope', '__proto__', '%00', 'a'.repeat(2_000), '..%2F..%2Fetc'],
  id: ['1', '0', '-1', '99999999999999999999999', '1e3', 'abc', '%F0%28%8C%BC', 'constructor'],
};

/** Paths no route declares but the app serves or refuses: static files, the shell, traversal attempts. */
const EXTRA_PATHS = [
  '/',
  '/login',
  '/resources/articles/1/edit',
  '/remotes/team_records/remoteEntry.js',
  '/remotes/%2e%2e/%2e%2e/package.json',
  '/remotes/../../package.json',
  '/%',
  '/api/resources/articles/records/1/extra',
  `/${'x'.repeat(8_000)}`,
];

const deepJson = `${'['.repeat(50_000)}${']'.repeat(50_000)}`;

interface BodyCase {
  label: string;
  body?: string | Buffer;
  type?: string;
}

const BODIES: readonly BodyCase[] = [
  { label: 'no body' },
  { label: 'malformed JSON', body: '{"username": "admin", ', type: 'application/json' },
  { label: 'JSON null', body: 'null', type: 'application/json' },
  { label: 'JSON array', body: '[1,2,3]', type: 'application/json' },
  { label: 'JSON string', body: '"admin"', type: 'application/json' },
  { label: 'JSON number', body: '12', type: 'application/json' },
  {
    label: 'wrong types',
    body: JSON.stringify({
      username: 12,
      password: { $gt: '' },
      tenant: ['acme'],
      title: { a: 1 },
      label: 7,
      group: [],
    }),
    type: 'application/json',
  },
  {
    label: 'prototype keys',
    body: '{"__proto__":{"admin":true},"constructor":{"prototype":{"polluted":true}},"tenant":"acme"}',
    type: 'application/json',
  },
  {
    label: 'oversized strings',
    body: JSON.stringify({ username: 'u'.repeat(5_000), password: 'p'.repeat(5_000), title: 't'.repeat(5_000) }),
    type: 'application/json',
  },
  { label: '1 MB body', body: JSON.stringify({ title: 'x'.repeat(1024 * 1024) }), type: 'application/json' },
  { label: 'deeply nested JSON', body: deepJson, type: 'application/json' },
  {
    label: 'invalid UTF-8',
    body: Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    type: 'application/json',
  },
  { label: 'unsupported charset', body: '{}', type: 'application/json; charset=utf-16' },
  { label: 'form encoded', body: 'username=admin&password=x', type: 'application/x-www-form-urlencoded' },
  { label: 'text', body: 'hello', type: 'text/plain' },
  {
    label: 'multipart',
    body: '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--',
    type: 'multipart/form-data; boundary=b',
  },
  { label: 'garbage content type', body: '{}', type: ';;;/' },
];

const QUERIES = [
  '',
  '?a[b][c][d]=1&a[b][c][e]=2',
  '?__proto__[polluted]=1&constructor[prototype][x]=1',
  '?%zz=%',
  `?q=${'x'.repeat(6_000)}`,
];

const HEADER_SETS: ReadonlyArray<Record<string, string>> = [
  {},
  { Cookie: 'slots.sid=s%3Agarbage.signature; other=1' },
  { Cookie: `slots.sid=${'x'.repeat(4_000)}` },
  { 'If-None-Match': '"' + 'z'.repeat(500), Accept: 'text/html', 'X-Request-Id': 'bad\t"}{' },
  { 'Content-Encoding': 'gzip' },
  { 'Accept-Encoding': 'gzip, deflate, br', Range: 'bytes=-1' },
];

function concretePaths(pattern: string): string[] {
  const names = [...pattern.matchAll(/:(\w+)/g)].map((match) => match[1] as string);
  let paths = [pattern];
  for (const name of names) {
    const values = PARAM_VALUES[name] ?? ['x'];
    paths = paths.flatMap((path) => values.map((value) => path.replace(`:${name}`, value)));
  }
  return paths;
}

interface Problem {
  request: string;
  status: number;
  body: string;
}

/** The path a pattern stands for with real parameter values (the first of each list). */
function realPath(pattern: string): string {
  return pattern.replace(/:(\w+)/g, (_match, name: string) => PARAM_VALUES[name]?.[0] ?? 'x');
}

describe('every route under bad input', () => {
  let testApp: TestApp;
  let server: http.Server;
  let cookie: string;
  const problems: Problem[] = [];
  let sent = 0;

  beforeAll(async () => {
    testApp = await createDemoApp();
    // A built host shell, so its routes answer as in production (HTML for the client routes).
    const hostDir = path.join(testApp.dir.path, 'dist', 'host');
    fs.mkdirSync(hostDir, { recursive: true });
    fs.writeFileSync(path.join(hostDir, 'index.html'), '<!doctype html><div id="root"></div>');
    server = http.createServer(testApp.app.handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await testApp.close();
  });

  async function signIn(): Promise<string> {
    const response = await request(server).post('/login').send({ username: 'admin', password: DEMO_PASSWORD });
    const value = sessionCookieOf(response);
    if (response.status !== 200 || !value) throw new Error(`sign-in failed: ${response.status}`);
    return value;
  }

  async function send(
    method: Method,
    path: string,
    body: BodyCase,
    headers: Record<string, string>,
    session: string | null,
  ) {
    let call = request(server)[method.toLowerCase() as 'get'](path);
    for (const [name, value] of Object.entries(headers)) call = call.set(name, value);
    if (session) call = call.set('Cookie', headers.Cookie ? `${headers.Cookie}; ${session}` : session);
    if (body.type) call = call.set('Content-Type', body.type);
    if (body.body !== undefined) call = call.send(body.body);
    const response = await call.buffer(true).parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => done(null, Buffer.concat(chunks).toString('utf8')));
    });
    sent++;
    const text = typeof response.body === 'string' ? response.body : '';
    const label = `${session ? 'signed-in' : 'anonymous'} ${method} ${path.slice(0, 80)} [${body.label}] ${JSON.stringify(headers).slice(0, 60)}`;
    if (response.status >= 500) {
      problems.push({ request: label, status: response.status, body: text.slice(0, 200) });
      return;
    }
    // A browser navigation (asking for HTML) to an address the app does not have gets the app's own not-found
    // page, an HTML 404; the API namespaces keep JSON whatever is asked.
    const appNotFoundPage =
      response.status === 404 &&
      method === 'GET' &&
      /text\/html/.test(headers.Accept ?? '') &&
      /text\/html/.test(String(response.headers['content-type'])) &&
      !/^\/(api|remotes)(\/|$)/.test(path);
    if (response.status >= 400 && method !== 'HEAD' && !appNotFoundPage) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined;
      }
      if (!isErrorBody(parsed) || !/application\/json/.test(String(response.headers['content-type']))) {
        problems.push({ request: label, status: response.status, body: text.slice(0, 200) });
      }
    }
  }

  /** Runs `attack` as an anonymous caller, then signed in (signing in again whenever /logout ended the session). */
  async function asBoth(attack: (session: string | null, path: string) => Promise<void>, paths: readonly string[]) {
    const ordered = [...paths].sort((a, b) => Number(a === '/logout') - Number(b === '/logout'));
    for (const path of ordered) await attack(null, path);
    cookie = await signIn();
    for (const path of ordered) {
      await attack(cookie, path);
      if (path === '/logout') cookie = await signIn();
    }
  }

  it('finds every route of the product by walking the router', () => {
    const found = declaredRoutes(testApp.app.express).map((route) => route.path);
    expect(found).toEqual(expect.arrayContaining(EXPECTED_ROUTES));
  });

  describe('never answers 500, and answers every 4xx with a JSON error body', () => {
    let patterns: string[];

    beforeAll(() => {
      patterns = declaredRoutes(testApp.app.express).map((route) => route.path);
    });

    afterAll(async () => {
      // Still up and serving, and nothing leaked into Object.prototype.
      expect((await request(server).get('/healthz')).status).toBe(200);
      expect((await request(server).get('/readyz')).status).toBe(200);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
    });

    it('for malformed, oversized and wrongly typed bodies on every route and method', async () => {
      await asBoth(async (session, path) => {
        for (const method of METHODS) {
          const bodies = method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? BODIES.slice(0, 3) : BODIES;
          for (const body of bodies) await send(method, path, body, {}, session);
        }
      }, patterns.map(realPath));
      expect(problems.slice(0, 20)).toEqual([]);
    });

    it('for hostile path parameters and paths no route declares', async () => {
      const paths = [...new Set([...patterns.flatMap(concretePaths), ...EXTRA_PATHS])];
      await asBoth(async (session, path) => {
        for (const method of METHODS) await send(method, path, BODIES[6] as BodyCase, {}, session);
      }, paths);
      expect(problems.slice(0, 20)).toEqual([]);
    });

    it('for odd query strings and headers', async () => {
      await asBoth(
        async (session, path) => {
          for (const method of METHODS) {
            for (const query of QUERIES.slice(1))
              await send(method, `${path}${query}`, BODIES[6] as BodyCase, {}, session);
            for (const headers of HEADER_SETS.slice(1))
              await send(method, path, BODIES[2] as BodyCase, headers, session);
          }
        },
        [...patterns.map(realPath), '/'],
      );
      expect(problems.slice(0, 20)).toEqual([]);
      expect(sent).toBeGreaterThan(2_000);
    });
  });
});
