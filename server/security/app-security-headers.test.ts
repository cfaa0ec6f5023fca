/**
 * The headers of the real app: helmet on documents and files, a CSP that allows scripts and connections from this
 * origin and the configured remotes' origins only, a small set on JSON API answers, and remote bundles that stay
 * loadable from another origin.
 */
import request from 'supertest';
import { createFixtureDist, type FixtureDist } from '../../testing/server/fixture-dist';
import { createDemoApp, type TestApp } from '../../testing/server/test-app';

function csp(response: request.Response): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of String(response.headers['content-security-policy']).split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name, sources);
  }
  return directives;
}

describe('security headers of the app', () => {
  let dist: FixtureDist;
  let testApp: TestApp;

  beforeEach(async () => {
    dist = createFixtureDist();
    dist.addHost();
    dist.addRemote({ name: 'team_records', components: ['CopyLinkAction'], formComponents: [] });
    const config = dist.write(
      'remotes.json',
      JSON.stringify({
        remotes: [
          {
            name: 'team_billing',
            entry: 'https://billing.example.test/remote/mf-manifest.json',
            components: ['InvoiceBadge'],
          },
          { name: 'team_maps', entry: 'http://127.0.0.1:4100/mf-manifest.json', components: ['MapPreview'] },
        ],
        allowedOrigins: ['https://other-host.example.test'],
      }),
    );
    // The fixture remotes provide few of the demo's components: what is tested here is headers, not slots.
    testApp = await createDemoApp({ distDir: dist.dir, env: { REMOTES_CONFIG: config }, slotProblems: 'log' });
  });

  afterEach(async () => {
    await testApp.close();
    dist.remove();
  });

  const http = () => request(testApp.app.handler);

  it('allows scripts and connections from this origin and the remotes’ origins only, on every document and file', async () => {
    for (const path of ['/', '/login', '/api/remotes', '/no-such-page']) {
      const policy = csp(await http().get(path));
      expect(policy.get('script-src')).toEqual(["'self'", 'http://127.0.0.1:4100', 'https://billing.example.test']);
      expect(policy.get('connect-src')).toEqual(["'self'", 'http://127.0.0.1:4100', 'https://billing.example.test']);
      expect(policy.get('object-src')).toEqual(["'none'"]);
      expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
    }
    const header = String((await http().get('/')).headers['content-security-policy']);
    expect(header).not.toMatch(/unsafe-|\*/);
  });

  it('gives JSON API answers (errors included) the REST set: nosniff, CORP, a policy allowing nothing, a cache rule', async () => {
    for (const path of ['/slots', '/healthz', '/meta', '/me', '/api/resources', '/api/resources/articles']) {
      const response = await http().get(path);
      expect(response.headers['content-type']).toMatch(/^application\/json/);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(response.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      // The route's own rule where it has one (/slots revalidates, /meta is private), no-store otherwise.
      expect(response.headers['cache-control']).toMatch(path === '/slots' ? /^no-cache$/ : /no-store/);
      // Only documents are navigated from; over plain HTTP there is no HTTPS to pin.
      for (const header of [
        'strict-transport-security',
        'x-frame-options',
        'cross-origin-opener-policy',
        'origin-agent-cluster',
        'referrer-policy',
        'x-xss-protection',
      ]) {
        expect(response.headers[header]).toBeUndefined();
      }
    }
  });

  it('pins HTTPS (HSTS) on documents and JSON answers that came over HTTPS, and on nothing over plain HTTP', async () => {
    const behindProxy = await createDemoApp({ distDir: dist.dir, trustProxy: 1, slotProblems: 'log' });
    try {
      for (const path of ['/', '/slots', '/healthz']) {
        const secure = await request(behindProxy.app.handler).get(path).set('X-Forwarded-Proto', 'https');
        expect(secure.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
        const plain = await request(behindProxy.app.handler).get(path);
        expect(plain.headers['strict-transport-security']).toBeUndefined();
      }
    } finally {
      await behindProxy.close();
    }
  });

  it('serves the host shell with the CSP, nosniff and frame protection', async () => {
    const page = await http().get('/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(page.headers['cross-origin-embedder-policy']).toBeUndefined();
  });

  it('keeps the remotes’ bundles loadable from another origin (CORP cross-origin, CORS for allowed hosts)', async () => {
    for (const file of ['remoteEntry.js', 'mf-manifest.json']) {
      const response = await http()
        .get(`/remotes/team_records/${file}`)
        .set('Origin', 'https://other-host.example.test');
      expect(response.status).toBe(200);
      expect(response.headers['cross-origin-resource-policy']).toBe('cross-origin');
      expect(response.headers['access-control-allow-origin']).toBe('https://other-host.example.test');
      expect(response.headers['cross-origin-embedder-policy']).toBeUndefined();
    }
  });

  it('keeps API answers same-origin', async () => {
    expect((await http().get('/slots')).headers['cross-origin-resource-policy']).toBe('same-origin');
    expect((await http().get('/api/remotes')).headers['cross-origin-resource-policy']).toBe('same-origin');
  });
});
