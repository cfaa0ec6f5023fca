/**
 * The remotes' entries reach every visitor (GET /api/remotes, the boot data) and the page's Content-Security-Policy:
 * through the whole app, an entry a browser must not be given stops the start and is refused on reload, with the
 * previous configuration kept; a kit dev server's devEvents URL is held to the same rule.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import pino from 'pino';
import request from 'supertest';
import { REMOTE_DESCRIPTOR_FILE } from '../../shared';
import { createTestApp, type TestApp } from '../../testing/server/test-app';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { RemotesConfigError } from '../config/remotes-config-error';

let dir: TempDir;
let configFile: string;
let testApp: TestApp | null = null;

beforeEach(() => {
  dir = makeTempDir('slots-remote-entries-');
  configFile = path.join(dir.path, 'remotes.json');
});
afterEach(async () => {
  await testApp?.close();
  testApp = null;
  dir.remove();
});

function writeConfig(entry: string): void {
  fs.writeFileSync(configFile, JSON.stringify({ remotes: [{ name: 'team_billing', entry, components: ['Invoice'] }] }));
}

/** A dist folder whose host page carries the boot data, so the page can be read as a visitor gets it. */
function distWithHostPage(): string {
  const dist = path.join(dir.path, 'dist');
  fs.mkdirSync(path.join(dist, 'host'), { recursive: true });
  fs.writeFileSync(
    path.join(dist, 'host', 'index.html'),
    '<html><head><meta name="slots-remote-hints"></head><body><div id="root"></div></body></html>',
  );
  return dist;
}

describe('an entry a browser must not be given', () => {
  it('stops a production start on plain http to another machine, naming the remote and the entry', async () => {
    writeConfig('http://billing.example.com/mf-manifest.json');
    const started = createTestApp({ env: { REMOTES_CONFIG: configFile }, nodeEnv: 'production' });
    await expect(started).rejects.toThrow(RemotesConfigError);
    await expect(createTestApp({ env: { REMOTES_CONFIG: configFile }, nodeEnv: 'production' })).rejects.toThrow(
      /"team_billing"\): "entry" "http:\/\/billing\.example\.com\/mf-manifest\.json" uses plain http/,
    );

    // A development server may load a remote over plain http (a kit dev server on another machine).
    testApp = await createTestApp({ env: { REMOTES_CONFIG: configFile }, nodeEnv: 'development' });
    const remotes = await request(testApp.app.handler).get('/api/remotes').expect(200);
    expect(remotes.body.remotes.map((remote: { entry: string }) => remote.entry)).toEqual([
      'http://billing.example.com/mf-manifest.json',
    ]);
  });

  it('refuses a reload to a wildcard host or credentials, logs why, and keeps the CSP and the remotes', async () => {
    writeConfig('https://cdn.example.com/billing/mf-manifest.json');
    const lines: string[] = [];
    testApp = await createTestApp({
      env: { REMOTES_CONFIG: configFile },
      nodeEnv: 'production',
      distDir: distWithHostPage(),
      logger: pino({ level: 'info' }, { write: (line: string) => lines.push(line) }),
    });
    const { app } = testApp;
    const before = await request(app.handler).get('/login').expect(200);
    const policy = String(before.headers['content-security-policy']);
    expect(policy).toContain("script-src 'self' https://cdn.example.com");

    writeConfig('https://*.example.com/billing/mf-manifest.json');
    await expect(app.reloadRemotesConfig()).resolves.toBe(false);
    expect(lines.join('')).toMatch(
      /Remotes configuration not reloaded, the previous one stays in use: .*\(\\"team_billing\\"\): \\"entry\\" \\"https:\/\/\*\.example\.com\/billing\/mf-manifest\.json\\" has a wildcard host/,
    );

    writeConfig('https://deploy:s3cret@cdn.example.com/billing/mf-manifest.json');
    await expect(app.reloadRemotesConfig()).resolves.toBe(false);
    expect(lines.join('')).toMatch(
      /\(\\"team_billing\\"\): \\"entry\\" \\"https:\/\/\*\*\*@cdn\.example\.com\/.*carries credentials/,
    );
    expect(lines.join('')).not.toContain('s3cret');

    const after = await request(app.handler).get('/login').expect(200);
    expect(after.headers['content-security-policy']).toBe(policy);
    const remotes = await request(app.handler).get('/api/remotes').expect(200);
    expect(remotes.body.remotes).toEqual([
      {
        name: 'team_billing',
        entry: 'https://cdn.example.com/billing/mf-manifest.json',
        components: ['Invoice'],
        formComponents: [],
      },
    ]);
  });
});

describe("a kit dev server's devEvents URL", () => {
  let origin: http.Server;
  let originUrl: string;
  beforeEach(async () => {
    origin = http.createServer((req, res) => {
      if (req.url !== `/billing/${REMOTE_DESCRIPTOR_FILE}`) {
        res.writeHead(404).end();
        return;
      }
      const descriptor = {
        name: 'team_billing',
        components: ['Invoice'],
        devEvents: `http://watcher:hunter2@127.0.0.1:${(origin.address() as AddressInfo).port}/events`,
      };
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(descriptor));
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  });
  afterEach(() => new Promise<void>((resolve) => origin.close(() => resolve())));

  it('with credentials leaves the remote out: neither GET /api/remotes nor the boot data carries them', async () => {
    fs.writeFileSync(
      configFile,
      JSON.stringify({ remotes: [{ name: 'team_billing', entry: `${originUrl}/billing/mf-manifest.json` }] }),
    );
    testApp = await createTestApp({
      env: { REMOTES_CONFIG: configFile },
      nodeEnv: 'development',
      distDir: distWithHostPage(),
      remoteDescriptorTimeoutMs: 1000,
    });
    const { app } = testApp;
    await app.remotes.registry.refresh();
    expect(app.remotes.registry.stateOf('team_billing')).toEqual({
      status: 'failing',
      failure: 'bad-answer',
      reason: expect.stringMatching(/gives a devEvents URL with credentials/),
    });
    const remotes = await request(app.handler).get('/api/remotes').expect(200);
    expect(remotes.text).not.toContain('hunter2');
    expect(remotes.body.remotes).toEqual([]);
    const page = await request(app.handler).get('/login').expect(200);
    expect(page.text).not.toContain('hunter2');
  });
});
