import express from 'express';
import request from 'supertest';
import { ERROR_MESSAGES, isErrorBody, undeclaredAddressMessage } from '../../shared';
import { createErrorHandler } from '../http/error-handler';
import { createCrossSiteGuard } from './cross-site-guard';
import { createLogger } from '../logger';

function appWithGuard(options: { trustProxy?: boolean; publicOrigin?: string } = {}) {
  const app = express();
  // One proxy hop in front, as TRUST_PROXY=1 configures it.
  if (options.trustProxy) app.set('trust proxy', 1);
  app.use(
    createCrossSiteGuard({
      allowedOrigins: ['https://admin.example.com/', 'not a url'],
      publicOrigin: options.publicOrigin,
    }),
  );
  app.all('/*splat', (_req, res) => {
    res.status(200).json({ ok: true });
  });
  app.use(createErrorHandler(createLogger('test')));
  return app;
}

async function expectRefused(response: request.Response): Promise<void> {
  expect(response.status).toBe(403);
  expect(response.headers['content-type']).toMatch(/application\/json/);
  expect(isErrorBody(response.body)).toBe(true);
  expect(response.body).toEqual({ error: { code: 'forbidden', message: ERROR_MESSAGES.crossSite } });
}

describe('createCrossSiteGuard', () => {
  const app = appWithGuard();

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'] as const)(
    'refuses a cross-site %s, whatever Origin claims',
    async (method) => {
      const response = await request(app)
        [method.toLowerCase() as 'post' | 'put' | 'patch' | 'delete']('/login')
        .set('Sec-Fetch-Site', 'cross-site')
        .set('Host', 'app.test');
      await expectRefused(response);
    },
  );

  it("lets a bearer token through (a team's CI publishing a release), but not with a cookie riding along", async () => {
    const ci = await request(app)
      .post('/api/remotes/team_billing/releases')
      .set('Host', 'app.test')
      .set('Origin', 'https://ci.example.com')
      .set('Authorization', 'Bearer slt_0123456789');
    expect(ci.status).toBe(200);
    const withCookie = await request(app)
      .post('/api/remotes/team_billing/activate')
      .set('Host', 'app.test')
      .set('Sec-Fetch-Site', 'cross-site')
      .set('Authorization', 'Bearer anything')
      .set('Cookie', 'slots.sid=s%3Aabc');
    await expectRefused(withCookie);
  });

  it('refuses a cross-site request even when it names this server as its origin', async () => {
    const response = await request(app)
      .post('/logout')
      .set('Host', 'app.test')
      .set('Sec-Fetch-Site', 'cross-site')
      .set('Origin', 'http://app.test');
    await expectRefused(response);
  });

  it.each(['GET', 'HEAD', 'OPTIONS'] as const)('lets a cross-site %s through: it changes nothing', async (method) => {
    const response = await request(app)
      [method.toLowerCase() as 'get' | 'head' | 'options']('/slots')
      .set('Sec-Fetch-Site', 'cross-site');
    expect(response.status).toBe(200);
  });

  it('accepts same-origin requests and navigations the user started', async () => {
    for (const site of ['same-origin', 'none', 'SAME-ORIGIN']) {
      const response = await request(app).post('/login').set('Sec-Fetch-Site', site);
      expect(response.status).toBe(200);
    }
  });

  describe('without Sec-Fetch-Site (older browsers)', () => {
    it('refuses a foreign Origin', async () => {
      await expectRefused(
        await request(app).post('/login').set('Host', 'app.test').set('Origin', 'https://evil.example'),
      );
    });

    it('refuses the same host on another scheme or port', async () => {
      await expectRefused(await request(app).post('/login').set('Host', 'app.test').set('Origin', 'https://app.test'));
      await expectRefused(
        await request(app).post('/login').set('Host', 'app.test').set('Origin', 'http://app.test:8080'),
      );
    });

    it('refuses an opaque Origin (sandboxed frame, file:) and a garbled one', async () => {
      await expectRefused(await request(app).post('/login').set('Origin', 'null'));
      await expectRefused(await request(app).post('/login').set('Origin', '%%%'));
      await expectRefused(await request(app).post('/login').set('Origin', 'file:///etc/passwd'));
    });

    it('refuses a foreign Referer when Origin is absent', async () => {
      await expectRefused(
        await request(app).post('/logout').set('Host', 'app.test').set('Referer', 'https://evil.example/page?x=1'),
      );
    });

    it('accepts its own origin, by Origin or by Referer, default port or not', async () => {
      const byOrigin = await request(app).post('/login').set('Host', 'app.test').set('Origin', 'http://app.test');
      expect(byOrigin.status).toBe(200);
      const byReferer = await request(app)
        .post('/login')
        .set('Host', 'app.test')
        .set('Referer', 'http://app.test/login');
      expect(byReferer.status).toBe(200);
      const withPort = await request(app).post('/login').set('Host', 'app.test:80').set('Origin', 'http://app.test');
      expect(withPort.status).toBe(200);
    });

    it('accepts a configured allowed origin (normalised) and ignores unusable configuration', async () => {
      const response = await request(app)
        .post('/login')
        .set('Host', 'app.test')
        .set('Origin', 'https://ADMIN.example.com');
      expect(response.status).toBe(200);
    });

    it('accepts a client that is no browser page (neither Origin nor Referer)', async () => {
      const response = await request(app).post('/login').send({ username: 'a', password: 'b' });
      expect(response.status).toBe(200);
    });
  });

  describe('same-site requests (a sibling subdomain)', () => {
    it('refuses one that hides its origin or comes from a sibling that is not allowed', async () => {
      await expectRefused(await request(app).post('/login').set('Sec-Fetch-Site', 'same-site'));
      await expectRefused(
        await request(app)
          .post('/login')
          .set('Host', 'api.example.com')
          .set('Sec-Fetch-Site', 'same-site')
          .set('Origin', 'https://blog.example.com'),
      );
    });

    it('accepts one from a configured allowed origin', async () => {
      const response = await request(app)
        .post('/login')
        .set('Host', 'api.example.com')
        .set('Sec-Fetch-Site', 'same-site')
        .set('Origin', 'https://admin.example.com');
      expect(response.status).toBe(200);
    });
  });

  describe('behind a TLS-terminating proxy', () => {
    it('takes its own origin from X-Forwarded-Proto only when trust proxy is on', async () => {
      const send = (target: express.Express) =>
        request(target)
          .post('/login')
          .set('Host', 'app.test')
          .set('X-Forwarded-Proto', 'https')
          .set('Origin', 'https://app.test');
      expect((await send(appWithGuard({ trustProxy: true }))).status).toBe(200);
      await expectRefused(await send(appWithGuard({ trustProxy: false })));
    });
  });

  describe("with PUBLIC_URL (the product's address declared)", () => {
    const PUBLIC = 'https://slots.example.com';
    const declared = appWithGuard({ publicOrigin: PUBLIC });
    const REBOUND = undeclaredAddressMessage(PUBLIC);

    it('refuses a page at another address that calls itself this server (DNS rebinding), saying where the product is', async () => {
      for (const browser of [
        { 'Sec-Fetch-Site': 'same-origin', Origin: 'http://evil.example' },
        { Origin: 'http://evil.example' },
        { Referer: 'http://evil.example/rebind.html' },
        { 'Sec-Fetch-Site': 'same-origin', Origin: 'null' },
        { 'Sec-Fetch-Site': 'none', Origin: 'http://evil.example' },
      ]) {
        const response = await request(declared).post('/login').set('Host', 'evil.example').set(browser);
        expect([response.status, response.body]).toEqual([403, { error: { code: 'forbidden', message: REBOUND } }]);
      }
      // Said the same of an address of the server itself that the operators did not declare.
      const direct = await request(declared)
        .post('/tenant')
        .set('Host', '10.0.0.5:3000')
        .set('Origin', 'http://10.0.0.5:3000');
      expect([direct.status, direct.body.error.message]).toEqual([403, REBOUND]);
    });

    it('refuses a rebound page that adds a made-up bearer token: to the browser it is same-origin, any header goes', async () => {
      for (const browser of [
        { 'Sec-Fetch-Site': 'same-origin', Origin: 'http://evil.example' },
        { Origin: 'http://evil.example' },
        { Referer: 'http://evil.example/rebind.html' },
      ]) {
        const response = await request(declared)
          .post('/login')
          .set('Host', 'evil.example')
          .set('Authorization', 'Bearer x')
          .set(browser);
        expect([response.status, response.body]).toEqual([403, { error: { code: 'forbidden', message: REBOUND } }]);
      }
      // A team's CI is still let through, from wherever its requests say they come.
      for (const origin of [undefined, 'https://ci.example.com']) {
        const ci = request(declared)
          .post('/api/remotes/team_billing/releases')
          .set('Host', 'slots.example.com')
          .set('Authorization', 'Bearer slt_0123456789');
        expect((await (origin === undefined ? ci : ci.set('Origin', origin))).status).toBe(200);
      }
    });

    it('takes PUBLIC_URL and the allowed origins as its own, whatever Host a proxy sent', async () => {
      for (const origin of [PUBLIC, 'https://admin.example.com']) {
        for (const host of ['host-a:3000', 'slots.example.com', 'evil.example']) {
          const response = await request(declared)
            .post('/login')
            .set('Host', host)
            .set('Sec-Fetch-Site', 'same-origin')
            .set('Origin', origin);
          expect(response.status).toBe(200);
        }
      }
    });

    it('still refuses other sites as cross-site, and lets clients that are no browser page and reads through', async () => {
      await expectRefused(
        await request(declared).post('/login').set('Host', 'host-a:3000').set('Origin', 'https://blog.example.com'),
      );
      await expectRefused(
        await request(declared).post('/login').set('Host', 'evil.example').set('Sec-Fetch-Site', 'cross-site'),
      );
      expect((await request(declared).post('/login').set('Host', 'evil.example')).status).toBe(200);
      const read = await request(declared)
        .get('/slots')
        .set('Host', 'evil.example')
        .set('Origin', 'http://evil.example');
      expect(read.status).toBe(200);
    });
  });

  it('without PUBLIC_URL, takes a page at the address in Host as its own: the server knows no other', async () => {
    const response = await request(app)
      .post('/login')
      .set('Host', 'evil.example')
      .set('Sec-Fetch-Site', 'same-origin')
      .set('Origin', 'http://evil.example');
    expect(response.status).toBe(200);
  });
});
