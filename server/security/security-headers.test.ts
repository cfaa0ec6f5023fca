import express from 'express';
import request from 'supertest';
import { createSecurityHeaders } from './security-headers';

function appWithHeaders(options: Parameters<typeof createSecurityHeaders>[0]) {
  const app = express();
  app.use(createSecurityHeaders(options));
  app.get('/slots', (_req, res) => {
    res.json({ slots: {} });
  });
  return app;
}

/** The Content-Security-Policy header of an answer; fails the test when there is none. */
function cspHeader(response: request.Response): string {
  const header = response.headers['content-security-policy'];
  expect(typeof header).toBe('string');
  expect(header).toMatch(/default-src 'self'/);
  return String(header);
}

/** `directive -> sources` of a Content-Security-Policy header. */
function parseCsp(header: string): Map<string, string[]> {
  const directives = new Map<string, string[]>();
  for (const part of header.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives.set(name, sources);
  }
  return directives;
}

describe('createSecurityHeaders', () => {
  const remotes = ['https://cdn.example.com', 'http://127.0.0.1:4001'];
  const app = appWithHeaders({ remoteOrigins: remotes });

  it('allows scripts and connections only from this origin and the configured remotes', async () => {
    const response = await request(app).get('/slots');
    const csp = parseCsp(cspHeader(response));
    expect(csp.get('script-src')).toEqual(["'self'", ...remotes]);
    expect(csp.get('connect-src')).toEqual(["'self'", ...remotes]);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('script-src-attr')).toEqual(["'none'"]);
    expect(csp.get('frame-ancestors')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'self'"]);
  });

  it('allows no inline script, no eval, no inline style anywhere in the policy', async () => {
    const header = cspHeader(await request(app).get('/slots'));
    expect(header).not.toMatch(/unsafe-|'nonce-|'sha\d+-|\*/);
    const csp = parseCsp(header);
    for (const directive of ['script-src', 'connect-src', 'style-src']) {
      // No scheme-wide source (`https:`, `data:`, `blob:`) that would let any site's code in.
      expect(csp.get(directive)?.filter((source) => /^[a-z]+:$/.test(source))).toEqual([]);
    }
  });

  it('does not upgrade insecure requests, which would break a plain-http deployment', async () => {
    const header = cspHeader(await request(app).get('/slots'));
    expect(header).not.toContain('upgrade-insecure-requests');
  });

  it('sends helmet’s other protections', async () => {
    const response = await request(app).get('/slots');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('DENY');
    expect(response.headers['referrer-policy']).toBe('same-origin');
    expect(response.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(response.headers['x-powered-by']).toBeUndefined();
  });

  it('keeps answers same-origin by default (the remotes router opens up its own files)', async () => {
    expect((await request(app).get('/slots')).headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it('sets no Cross-Origin-Embedder-Policy, which would block remotes served without CORP', async () => {
    const response = await request(app).get('/slots');
    expect(response.headers['cross-origin-embedder-policy']).toBeUndefined();
  });
});
