/**
 * A release of a remote without `"releaseOrigins"` kept off the server's own network (release-address-guard.ts), over
 * real HTTP, names resolved by a resolver the test gives (no DNS offline): an entry on an internal address, written
 * as one or as a name resolving to one, is refused before anything is asked there; a name that answers a public
 * address at the check and an internal one at the request (DNS rebinding) is refused at the request, nothing sent;
 * the checks of a release in force go through the same guard. Loopback is internal in production only.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import request from 'supertest';
import { REMOTE_DESCRIPTOR_FILE } from '../../shared';
import { fakeManifest } from '../../testing/fake-manifest';
import { addOperator, createTestApp, signedInAgent, type TestApp } from '../../testing/server/test-app';
import { startHttpFixtureServer, type HttpFixtureServer } from '../../testing/system/http-fixture-server';
import { getFreePort, releasePort } from '../../testing/system/free-port';
import { scriptedResolver, type ScriptedResolver } from '../../testing/server/scripted-resolver';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';

const DESCRIPTOR = { name: 'team_billing', components: ['InvoiceBanner'] };

/** Answers a release's three files under /v1/, whatever host it is asked as. */
function releaseFiles(req: http.IncomingMessage, res: http.ServerResponse): void {
  const files: Record<string, string> = {
    [`/v1/${REMOTE_DESCRIPTOR_FILE}`]: JSON.stringify(DESCRIPTOR),
    '/v1/mf-manifest.json': JSON.stringify(fakeManifest('team_billing', ['InvoiceBanner'])),
    '/v1/remoteEntry.js': 'var team_billing = {};',
  };
  const body = files[req.url ?? ''];
  if (body === undefined) res.writeHead(404).end();
  else res.writeHead(200, { 'Access-Control-Allow-Origin': '*' }).end(body);
}

/** The team's origin, on 127.0.0.1. */
let origin: HttpFixtureServer;
/**
 * An internal service on 127.0.0.2 (loopback: internal in production): it must never be asked. `connections` counts
 * every TCP connection, so that an https request sent to this plain-http server would show too.
 */
let internal: { port: number; asked: string[]; connections: number; close: () => Promise<void> };
/** The names the server resolves, and what it asked (scripted-resolver.ts). */
let dns: ScriptedResolver;
let declared: TempDir;
let testApp: TestApp | undefined;

/**
 * Starts the app, team_billing declared with its own entry down and `releaseOrigins` if any. `production`: a
 * production server others reach (HOST=0.0.0.0); false: outside production.
 */
async function start(production: boolean, releaseOrigins?: string[], dir?: TestApp['dir']): Promise<TestApp> {
  const dead = await getFreePort();
  const remote = { name: 'team_billing', entry: `http://127.0.0.1:${dead}/team_billing/mf-manifest.json` };
  const remotes = [releaseOrigins ? { ...remote, releaseOrigins } : remote];
  fs.writeFileSync(path.join(declared.path, 'remotes.json'), JSON.stringify({ remotes }));
  testApp = await createTestApp({
    ...(dir ? { dir } : {}),
    ...(production ? { nodeEnv: 'production' as const } : {}),
    env: { REMOTES_CONFIG: path.join(declared.path, 'remotes.json'), ...(production ? { HOST: '0.0.0.0' } : {}) },
    remoteDescriptorTimeoutMs: 1500,
    resolveRemoteHost: dns.resolve,
  });
  return testApp;
}

async function publish(entry: string, status: number): Promise<request.Response> {
  const { app } = testApp!;
  const { token } = await app.releases.teamTokens.create('team_billing', null);
  return request(app.handler)
    .post('/api/remotes/team_billing/releases')
    .set('Authorization', `Bearer ${token}`)
    .send({ version: '1.0.0', entry })
    .expect(status);
}

beforeEach(async () => {
  origin = await startHttpFixtureServer(releaseFiles);
  const asked: string[] = [];
  const port = await getFreePort('127.0.0.2');
  const server = http.createServer((req, res) => {
    asked.push(req.url ?? '');
    releaseFiles(req, res);
  });
  await new Promise<void>((listening) => server.listen({ host: '127.0.0.2', port }, listening));
  internal = {
    port,
    asked,
    connections: 0,
    close: () =>
      new Promise<void>((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
        releasePort(port);
      }),
  };
  server.on('connection', () => (internal.connections += 1));
  dns = scriptedResolver();
  declared = makeTempDir('slots-release-internal-');
});
afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
  await origin.close();
  await internal.close();
  declared.remove();
});

describe('a remote without "releaseOrigins", in production on HOST=0.0.0.0 (loopback internal too)', () => {
  it.each([
    ['127.0.0.2 (another loopback address)', () => `http://127.0.0.2:${internal.port}`, '127.0.0.2', 'loopback'],
    [
      'the IPv4-mapped form of 127.0.0.2',
      () => `https://[::ffff:127.0.0.2]:${internal.port}`,
      '[::ffff:7f00:2]',
      'loopback',
    ],
    ['a private address', () => 'https://10.1.2.3', '10.1.2.3', 'private'],
    ["a cloud's metadata address", () => 'https://169.254.169.254', '169.254.169.254', 'link-local'],
    ['a unique-local IPv6 address', () => 'https://[fd12::1]', '[fd12::1]', 'unique-local'],
    ['a CGNAT address', () => 'https://100.64.0.7', '100.64.0.7', 'shared (CGNAT)'],
  ])('refuses an entry on %s, written as an IP, asking nothing and resolving nothing', async (_, at, host, kind) => {
    await start(true);
    const entry = `${at()}/v1/mf-manifest.json`;
    const { error } = (await publish(entry, 400)).body;
    const shown = new URL(entry).origin;
    expect(error.message).toBe(
      `"entry" "${new URL(entry).href}" is on ${shown}, whose host is a ${kind} address: remote "team_billing" has no ` +
        `"releaseOrigins" in REMOTES_CONFIG, and without them a release is not taken from an address on the ` +
        `server's own network (the server would ask it), and nothing was asked there. If the team publishes from ` +
        `${shown} on purpose, ask the operators to add "${shown}" to the remote's "releaseOrigins" in REMOTES_CONFIG.`,
    );
    expect(new URL(shown).hostname).toBe(host);
    expect(internal.connections).toBe(0);
    expect(dns.looked).toEqual([]);
  });

  it.each([
    ['127.0.0.2', ['127.0.0.2'], 'loopback'],
    ['a private address among public ones', ['203.0.113.10', '10.0.0.9'], 'private'],
    ["the cloud's metadata address", ['169.254.169.254'], 'link-local'],
    ['an IPv4-mapped private address', ['::ffff:192.168.1.1'], 'private'],
  ])('refuses an entry whose name resolves to %s, asking nothing', async (_, answers, kind) => {
    await start(true);
    dns.names.set('billing.internal.test', [answers]);
    // https: production takes plain http from loopback names only (`localhost`), an entry rule of its own.
    const entry = `https://billing.internal.test:${internal.port}/v1/mf-manifest.json`;
    const { error } = (await publish(entry, 400)).body;
    const address = answers.find((each) => !each.startsWith('203.'))!;
    expect(error.message).toContain(
      `is on https://billing.internal.test:${internal.port}, whose host resolves to ${address}, a ${kind} address: ` +
        'remote "team_billing" has no "releaseOrigins"',
    );
    expect(internal.connections).toBe(0);
    expect(dns.looked).toEqual(['billing.internal.test']);
  });

  it('refuses a name answering a public address at the check and an internal one at the request (rebinding)', async () => {
    await start(true);
    dns.names.set('rebind.test', [['203.0.113.10'], ['127.0.0.2']]);
    const entry = `https://rebind.test:${internal.port}/v1/mf-manifest.json`;
    const { error } = (await publish(entry, 400)).body;
    expect(error.message).toBe(
      `The release's descriptor cannot be read: https://rebind.test:${internal.port}/v1/${REMOTE_DESCRIPTOR_FILE}: ` +
        'rebind.test resolved to 127.0.0.2, a loopback address, which a release of a remote without ' +
        '"releaseOrigins" may not reach: nothing was asked there.',
    );
    expect(internal.connections).toBe(0);
    expect(dns.looked).toEqual(['rebind.test', 'rebind.test']);
  });

  it('asks a name resolving to a public address there, and there only', async () => {
    await start(true);
    // TEST-NET-3 (documentation): public to the rule, and no team's origin here, so the request fails as any would
    // (unreachable, or whatever answers there refusing the name), not as the guard refuses.
    dns.names.set('billing.example.test', [['203.0.113.10']]);
    const { error } = (await publish('https://billing.example.test:81/v1/mf-manifest.json', 400)).body;
    expect(error.message).toMatch(
      /^The release's descriptor cannot be read: https:\/\/billing\.example\.test:81\/v1\/slots-remote\.json/,
    );
    expect(error.message).not.toMatch(/releaseOrigins|internal|nothing was asked/);
    expect(dns.looked).toEqual(['billing.example.test', 'billing.example.test']);
  });

  it('takes releases from an internal origin its "releaseOrigins" lists: the operators chose it', async () => {
    await start(true, [`http://127.0.0.2:${internal.port}`]);
    await publish(`http://127.0.0.2:${internal.port}/v1/mf-manifest.json`, 201);
    expect(internal.asked).toEqual([`/v1/${REMOTE_DESCRIPTOR_FILE}`, '/v1/mf-manifest.json', '/v1/remoteEntry.js']);
  });
});

describe('a remote without "releaseOrigins", in development (one machine: loopback allowed)', () => {
  it('publishes from a name resolving to loopback, connecting where the guard resolved it', async () => {
    await start(false);
    dns.names.set('billing.test', [['127.0.0.1']]);
    await publish(`http://billing.test:${origin.port}/v1/mf-manifest.json`, 201);
    expect(origin.requests.map(({ url }) => url)).toEqual([
      `/v1/${REMOTE_DESCRIPTOR_FILE}`,
      '/v1/mf-manifest.json',
      '/v1/remoteEntry.js',
    ]);
    // The check, then one look-up per request.
    expect(dns.looked).toEqual(['billing.test', 'billing.test', 'billing.test', 'billing.test']);
  });

  it('refuses a private address, and the checks of a release in force once its name resolves to one', async () => {
    const { app } = await start(false);
    await addOperator(app);
    expect((await publish('http://10.0.0.5/v1/mf-manifest.json', 400)).body.error.message).toContain(
      'whose host is a private address: remote "team_billing" has no "releaseOrigins"',
    );
    dns.names.set('billing.test', [['127.0.0.1']]);
    const entry = `http://billing.test:${origin.port}/v1/mf-manifest.json`;
    await publish(entry, 201);
    await (await signedInAgent(app)).post('/api/remotes/team_billing/activate').send({ version: '1.0.0' }).expect(200);
    await app.remotes.registry.checkOrigins();
    expect(app.remotes.registry.originCheckOf('team_billing')).toEqual({ entry, status: 'answered' });
    const asked = origin.requests.length;

    // The name now points into the network: the next check (every 30 s) asks nothing.
    dns.names.set('billing.test', [['10.0.0.9']]);
    await app.remotes.registry.checkOrigins();
    expect(app.remotes.registry.originCheckOf('team_billing')).toEqual({
      entry,
      status: 'down',
      reason:
        `http://billing.test:${origin.port}/v1/${REMOTE_DESCRIPTOR_FILE}: billing.test resolved to 10.0.0.9, a ` +
        'private address, which a release of a remote without "releaseOrigins" may not reach: nothing was asked there',
    });
    expect(origin.requests.length).toBe(asked);
  });
});

describe('an upgrade', () => {
  it('refuses putting in force, in production, a release published from loopback before, asking nothing', async () => {
    const before = await start(false);
    dns.names.set('billing.test', [['127.0.0.1']]);
    await publish(`http://billing.test:${origin.port}/v1/mf-manifest.json`, 201);
    const asked = origin.requests.length;
    const { dir } = before;
    await before.close({ keepData: true });
    testApp = undefined;

    const { app } = await start(true, undefined, dir);
    await addOperator(app, 'opal', 'opal-password-123');
    const refused = await (await signedInAgent(app, 'opal', 'opal-password-123'))
      .post('/api/remotes/team_billing/activate')
      .send({ version: '1.0.0' })
      .expect(400);
    expect(refused.body.error.message).toContain(
      'Release "1.0.0" of "team_billing" cannot be loaded: its mf-manifest.json cannot be read: ' +
        `http://billing.test:${origin.port}/v1/mf-manifest.json: billing.test resolved to 127.0.0.1, a loopback ` +
        'address, which a release of a remote without "releaseOrigins" may not reach: nothing was asked there. ' +
        'Nothing changed: no release is in force.',
    );
    expect(origin.requests.length).toBe(asked);
  });
});

describe('a product in production reached from its own machine only (HOST on loopback, no PUBLIC_URL elsewhere)', () => {
  async function startOnLoopback(publicOrigin?: string): Promise<TestApp> {
    const remotes = [{ name: 'team_billing', entry: `http://127.0.0.1:${await getFreePort()}/team_billing/x.json` }];
    fs.writeFileSync(path.join(declared.path, 'remotes.json'), JSON.stringify({ remotes }));
    testApp = await createTestApp({
      nodeEnv: 'production',
      ...(publicOrigin ? { publicOrigin } : {}),
      env: { REMOTES_CONFIG: path.join(declared.path, 'remotes.json'), HOST: '127.0.0.1' },
      resolveRemoteHost: dns.resolve,
    });
    return testApp;
  }

  it('takes releases from loopback: whoever holds a token reaches it already', async () => {
    await startOnLoopback();
    await publish(`http://127.0.0.2:${internal.port}/v1/mf-manifest.json`, 201);
    expect(internal.asked).toEqual([`/v1/${REMOTE_DESCRIPTOR_FILE}`, '/v1/mf-manifest.json', '/v1/remoteEntry.js']);
    expect((await publish('https://10.1.2.3/v2/mf-manifest.json', 400)).body.error.message).toContain(
      'whose host is a private address',
    );
  });

  it('refuses loopback behind a proxy: PUBLIC_URL names an address others reach', async () => {
    await startOnLoopback('https://admin.example.com');
    const { error } = (await publish(`http://127.0.0.2:${internal.port}/v1/mf-manifest.json`, 400)).body;
    expect(error.message).toContain('whose host is a loopback address');
    expect(internal.connections).toBe(0);
  });
});
