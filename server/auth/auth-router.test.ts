/**
 * The sign-in routes through the whole app: POST /login, GET /me, POST /logout, POST /tenant, a refused sign-in's
 * timing and Secure cookies behind a proxy. Above 300 lines for one reason: one file per router, as for the others.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { ERROR_MESSAGES, notInTenantMessage, STAFF_PERMISSIONS, type MePayload } from '../../shared';
import {
  addUser,
  createDemoApp,
  createTestApp,
  DEMO_PASSWORD,
  sessionCookieOf,
  signedInAgent,
  type TestApp,
} from '../../testing/server/test-app';
import { LOGIN_REQUEST_MESSAGES } from './login-request';

const INVALID_CREDENTIALS = { error: { code: 'unauthenticated', message: ERROR_MESSAGES.invalidCredentials } };
const UNAUTHENTICATED = { error: { code: 'unauthenticated', message: ERROR_MESSAGES.unauthenticated } };

describe('sign-in, session and tenants', () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createDemoApp();
  });

  afterAll(async () => {
    await testApp.close();
  });

  const http = () => request(testApp.app.handler);

  describe('POST /login', () => {
    it('starts in the tenant the page asks for when the account is in it, and refuses one it is not in', async () => {
      const asked = await http().post('/login').send({ username: 'admin', password: DEMO_PASSWORD, tenant: 'globex' });
      expect((asked.body as MePayload).user.currentTenant).toBe('globex');
      const agent = request.agent(testApp.app.handler);
      await agent.post('/login').send({ username: 'admin', password: DEMO_PASSWORD, tenant: 'globex' }).expect(200);
      expect(((await agent.get('/me').expect(200)).body as MePayload).user.currentTenant).toBe('globex');

      // It signed in to the account's first tenant without a word, the user taking it for the one asked.
      const outsider = request.agent(testApp.app.handler);
      const notAMember = await outsider
        .post('/login')
        .send({ username: 'admin', password: DEMO_PASSWORD, tenant: 'initech' });
      expect([notAMember.status, notAMember.body]).toEqual([
        403,
        { error: { code: 'not_in_tenant', message: notInTenantMessage('initech') } },
      ]);
      expect(notAMember.headers['set-cookie']).toBeUndefined();
      await outsider.get('/me').expect(401);
      const withoutTenant = await outsider.post('/login').send({ username: 'admin', password: DEMO_PASSWORD });
      expect((withoutTenant.body as MePayload).user.currentTenant).toBe('acme');

      const notAnId = await http().post('/login').send({ username: 'admin', password: DEMO_PASSWORD, tenant: 7 });
      expect(notAnId.status).toBe(400);
      expect(notAnId.body.error.fields).toEqual({
        tenant: 'The tenant must be a tenant id (a string of at most 64 characters).',
      });
    });

    it('signs in with the right password: MePayload and a session cookie named slots.sid, HttpOnly, SameSite=Lax', async () => {
      const response = await http().post('/login').send({ username: 'admin', password: DEMO_PASSWORD });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({
        user: {
          username: 'admin',
          displayName: 'Demo administrator',
          tenants: [
            { id: 'acme', name: 'Acme Corp' },
            { id: 'globex', name: 'Globex' },
          ],
          currentTenant: 'acme',
          // The demo account is the demo's operator (releases of remotes), and may do everything there is.
          roles: ['operator'],
          permissions: [...STAFF_PERMISSIONS],
        },
        // A fresh session: the whole of both limits (30 minutes unused, 12 hours in all) is left, less the
        // milliseconds between the session's stamp and the answer (the clock is the real one here).
        session: {
          idleEndsInMs: expect.any(Number),
          absoluteEndsInMs: expect.any(Number),
          idleTimeoutMs: 30 * 60_000,
        },
      });
      const { session } = response.body as MePayload;
      expect(30 * 60_000 - (session?.idleEndsInMs ?? 0)).toBeGreaterThanOrEqual(0);
      expect(30 * 60_000 - (session?.idleEndsInMs ?? 0)).toBeLessThan(5_000);
      expect(12 * 3_600_000 - (session?.absoluteEndsInMs ?? 0)).toBeGreaterThanOrEqual(0);
      expect(12 * 3_600_000 - (session?.absoluteEndsInMs ?? 0)).toBeLessThan(5_000);
      const cookie = (response.headers['set-cookie'] as unknown as string[])[0] as string;
      expect(cookie).toMatch(/^slots\.sid=s%3A/);
      expect(cookie).toMatch(/; HttpOnly/);
      expect(cookie).toMatch(/; SameSite=Lax/);
      expect(cookie).toMatch(/; Path=\//);
      expect(cookie).toMatch(/; Expires=/);
      expect(cookie).not.toMatch(/; Secure/);
      expect(response.headers['cache-control']).toBe('private, no-store');
    });

    it('gives the same answer for an unknown user and a wrong password, and sets no cookie', async () => {
      const unknown = await http().post('/login').send({ username: 'nobody', password: 'whatever-password' });
      const wrong = await http().post('/login').send({ username: 'admin', password: 'whatever-password' });
      for (const response of [unknown, wrong]) {
        expect(response.status).toBe(401);
        expect(response.body).toEqual(INVALID_CREDENTIALS);
        expect(response.headers['set-cookie']).toBeUndefined();
      }
      expect(unknown.text).toBe(wrong.text);
      expect(Object.keys(unknown.headers).sort()).toEqual(Object.keys(wrong.headers).sort());
    });

    it('accepts usernames case-insensitively', async () => {
      const response = await http().post('/login').send({ username: 'ADMIN', password: DEMO_PASSWORD });
      expect(response.status).toBe(200);
      expect((response.body as MePayload).user.username).toBe('admin');
    });

    it('accepts long passwords: 64 and 1024 characters', async () => {
      for (const length of [64, 1024]) {
        const password = 'p'.repeat(length - 4) + `${length}`.padStart(4, '0');
        await addUser(testApp.app, `long${length}`, password, ['acme']);
        const response = await http()
          .post('/login')
          .send({ username: `long${length}`, password });
        expect(response.status).toBe(200);
        const wrong = await http()
          .post('/login')
          .send({ username: `long${length}`, password: `${password.slice(0, -1)}x` });
        expect(wrong.status).toBe(401);
      }
    });

    it.each<[string, unknown, Record<string, string> | undefined]>([
      [
        'an empty object',
        {},
        { username: LOGIN_REQUEST_MESSAGES.usernameMissing, password: LOGIN_REQUEST_MESSAGES.passwordMissing },
      ],
      ['no password', { username: 'admin' }, { password: LOGIN_REQUEST_MESSAGES.passwordMissing }],
      ['an empty username', { username: '', password: 'x' }, { username: LOGIN_REQUEST_MESSAGES.usernameMissing }],
      ['a numeric username', { username: 42, password: 'x' }, { username: LOGIN_REQUEST_MESSAGES.usernameType }],
      [
        'an object password',
        { username: 'admin', password: { $gt: '' } },
        { password: LOGIN_REQUEST_MESSAGES.passwordType },
      ],
      ['an array username', { username: ['admin'], password: 'x' }, { username: LOGIN_REQUEST_MESSAGES.usernameType }],
      [
        'a username over 64 characters',
        { username: 'a'.repeat(65), password: 'x' },
        { username: LOGIN_REQUEST_MESSAGES.usernameTooLong },
      ],
      [
        'a password over 1024 characters',
        { username: 'admin', password: 'p'.repeat(1025) },
        { password: LOGIN_REQUEST_MESSAGES.passwordTooLong },
      ],
      ['an array body', [{ username: 'admin', password: 'x' }], undefined],
    ])('refuses %s with 400 invalid_request', async (_what, body, fields) => {
      const response = await http()
        .post('/login')
        .send(body as object);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_request');
      if (fields) expect(response.body.error.fields).toEqual(fields);
      expect(response.headers['set-cookie']).toBeUndefined();
    });

    it.each([['null'], ['"admin"'], ['42'], ['true']])('refuses the JSON body %s with 400', async (body) => {
      const response = await http().post('/login').set('Content-Type', 'application/json').send(body);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('invalid_request');
    });

    it('refuses malformed JSON with 400 and the fixed message', async () => {
      const response = await http()
        .post('/login')
        .set('Content-Type', 'application/json')
        .send('{"username": "admin",');
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: { code: 'invalid_request', message: ERROR_MESSAGES.malformedJson } });
    });

    it.each(['null', '"admin"', '42'])('refuses the JSON value %s, which is no object, saying so', async (body) => {
      const response = await http().post('/login').set('Content-Type', 'application/json').send(body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ error: { code: 'invalid_request', message: ERROR_MESSAGES.jsonNotObject } });
    });

    it('refuses a body over 16 KB with 413', async () => {
      const response = await http()
        .post('/login')
        .send({ username: 'admin', password: 'x'.repeat(17 * 1024) });
      expect(response.status).toBe(413);
      expect(response.body).toEqual({
        error: {
          code: 'payload_too_large',
          message: 'Request body too large: this request carries at most 16 KiB of JSON (this one: 18 KiB).',
        },
      });
    });

    it('refuses a huge body (1 MB) with 413, not 500', async () => {
      const response = await http()
        .post('/login')
        .set('Content-Type', 'application/json')
        .send(`"${'x'.repeat(1024 * 1024)}"`);
      expect(response.status).toBe(413);
      expect(response.body.error.code).toBe('payload_too_large');
    });

    it.each([
      ['a form post', 'application/x-www-form-urlencoded', 'username=admin&password=x'],
      ['plain text', 'text/plain', '{"username":"admin","password":"x"}'],
      ['multipart', 'multipart/form-data; boundary=x', '--x--'],
    ])('refuses %s with 415', async (_what, type, body) => {
      const response = await http().post('/login').set('Content-Type', type).send(body);
      expect(response.status).toBe(415);
      expect(response.body).toEqual({
        error: { code: 'unsupported_media_type', message: ERROR_MESSAGES.unsupportedMediaType },
      });
    });

    it('refuses a request without a content type with 415', async () => {
      const response = await http().post('/login');
      expect(response.status).toBe(415);
    });

    it('accepts application/json with a charset', async () => {
      const response = await http()
        .post('/login')
        .set('Content-Type', 'application/json; charset=utf-8')
        .send(JSON.stringify({ username: 'admin', password: DEMO_PASSWORD }));
      expect(response.status).toBe(200);
    });

    it('refuses an account that belongs to no tenant with 403 after a right password', async () => {
      await addUser(testApp.app, 'loner', 'loner-password-1', []);
      const response = await http().post('/login').send({ username: 'loner', password: 'loner-password-1' });
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('forbidden');
      expect(response.headers['set-cookie']).toBeUndefined();
    });

    it('leaves GET /login to the host shell (its sign-in page) and answers 405 for other methods', async () => {
      const hostDir = path.join(testApp.dir.path, 'dist', 'host');
      fs.mkdirSync(hostDir, { recursive: true });
      fs.writeFileSync(path.join(hostDir, 'index.html'), '<!doctype html><title>host shell</title>');
      const page = await http().get('/login');
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.text).toContain('host shell');
      const put = await http().put('/login').send({});
      expect(put.status).toBe(405);
      expect(put.headers.allow).toBe('POST, GET, HEAD');
    });
  });

  describe('GET /me', () => {
    it('is 401 without a session', async () => {
      const response = await http().get('/me');
      expect(response.status).toBe(401);
      expect(response.body).toEqual(UNAUTHENTICATED);
    });

    it('returns the user with their tenants when signed in', async () => {
      const agent = await signedInAgent(testApp.app);
      const response = await agent.get('/me');
      expect(response.status).toBe(200);
      expect((response.body as MePayload).user.tenants.map((tenant) => tenant.id)).toEqual(['acme', 'globex']);
      expect(response.headers['cache-control']).toBe('private, no-store');
    });
  });

  describe('POST /logout', () => {
    it('destroys the session and clears the cookie', async () => {
      const agent = await signedInAgent(testApp.app);
      expect((await agent.get('/me')).status).toBe(200);
      const response = await agent.post('/logout');
      expect(response.status).toBe(204);
      const cleared = (response.headers['set-cookie'] as unknown as string[])[0] as string;
      expect(cleared).toMatch(/^slots\.sid=;/);
      expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970/);
      expect((await agent.get('/me')).status).toBe(401);
    });

    it('makes the old cookie useless even when replayed by hand', async () => {
      const login = await http().post('/login').send({ username: 'admin', password: DEMO_PASSWORD });
      const cookie = sessionCookieOf(login) as string;
      expect((await http().get('/me').set('Cookie', cookie)).status).toBe(200);
      expect((await http().post('/logout').set('Cookie', cookie)).status).toBe(204);
      expect((await http().get('/me').set('Cookie', cookie)).status).toBe(401);
    });

    it('answers 204 without a session too', async () => {
      expect((await http().post('/logout')).status).toBe(204);
    });
  });

  describe('POST /tenant', () => {
    it('switches the current tenant of the session', async () => {
      const agent = await signedInAgent(testApp.app);
      const response = await agent.post('/tenant').send({ tenant: 'globex' });
      expect(response.status).toBe(200);
      expect((response.body as MePayload).user.currentTenant).toBe('globex');
      expect(((await agent.get('/me')).body as MePayload).user.currentTenant).toBe('globex');
    });

    it('is 403 forbidden for a tenant the user does not belong to (existing or not)', async () => {
      await addUser(testApp.app, 'acme-only', 'acme-only-password', ['acme']);
      const agent = await signedInAgent(testApp.app, 'acme-only', 'acme-only-password');
      for (const tenant of ['globex', 'initech']) {
        const response = await agent.post('/tenant').send({ tenant });
        expect(response.status).toBe(403);
        expect(response.body).toEqual({ error: { code: 'forbidden', message: ERROR_MESSAGES.forbiddenTenant } });
      }
      expect(((await agent.get('/me')).body as MePayload).user.currentTenant).toBe('acme');
    });

    it('is 400 for a bad body, 415 for a wrong content type, 401 without a session', async () => {
      const agent = await signedInAgent(testApp.app);
      expect((await agent.post('/tenant').send({})).status).toBe(400);
      expect((await agent.post('/tenant').send({ tenant: 7 })).status).toBe(400);
      expect((await agent.post('/tenant').set('Content-Type', 'text/plain').send('globex')).status).toBe(415);
      expect((await http().post('/tenant').send({ tenant: 'acme' })).status).toBe(401);
    });
  });
});

describe('timing of a refused sign-in', () => {
  /** Costly enough (about 40 ms) that skipping the hash for unknown users would show. */
  const SLOW = { N: 2 ** 14, r: 8, p: 1 };
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp({ passwordHashParams: SLOW });
    await addUser(testApp.app, 'someone', 'someone-password-1', ['acme'], SLOW);
  });

  afterAll(async () => {
    await testApp.close();
  });

  it('verifies a dummy hash for an unknown user, so it takes as long as a wrong password', async () => {
    const time = async (username: string) => {
      const start = process.hrtime.bigint();
      const response = await request(testApp.app.handler)
        .post('/login')
        .send({ username, password: 'not-the-password' });
      expect(response.status).toBe(401);
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    await time('warm-up');
    const unknown: number[] = [];
    const wrong: number[] = [];
    for (let i = 0; i < 5; i++) {
      unknown.push(await time(`nobody-${i}`));
      wrong.push(await time('someone'));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[2] as number;
    expect(median(wrong)).toBeGreaterThan(10);
    expect(median(unknown)).toBeGreaterThan(median(wrong) * 0.5);
    expect(median(unknown)).toBeLessThan(median(wrong) * 2);
  });
});

describe('Secure cookies behind a TLS proxy', () => {
  let testApp: TestApp;

  afterEach(async () => {
    await testApp.close();
  });

  it('marks the cookie Secure when a trusted proxy says the request came over https', async () => {
    testApp = await createDemoApp({ trustProxy: 'loopback' });
    const response = await request(testApp.app.handler)
      .post('/login')
      .set('X-Forwarded-Proto', 'https')
      .send({ username: 'admin', password: DEMO_PASSWORD });
    expect(response.status).toBe(200);
    expect((response.headers['set-cookie'] as unknown as string[])[0]).toMatch(/; Secure/);
  });

  it('ignores X-Forwarded-Proto when no proxy is trusted', async () => {
    testApp = await createDemoApp();
    const response = await request(testApp.app.handler)
      .post('/login')
      .set('X-Forwarded-Proto', 'https')
      .send({ username: 'admin', password: DEMO_PASSWORD });
    expect(response.status).toBe(200);
    expect((response.headers['set-cookie'] as unknown as string[])[0]).not.toMatch(/; Secure/);
  });
});
