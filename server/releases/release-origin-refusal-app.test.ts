/**
 * "releaseOrigins" as the server applies it to a team's publish, over real HTTP: origins written with capitals or an
 * international name are the origins they name (a release from there is taken), messages name them as written, and
 * a list that would allow no origin at all is refused by the reload, the configuration in use staying.
 */
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import request from 'supertest';
import { REMOTE_DESCRIPTOR_FILE } from '../../shared';
import { fakeManifest } from '../../testing/fake-manifest';
import { createTestApp, type TestApp } from '../../testing/server/test-app';
import { startHttpFixtureServer, type HttpFixtureServer } from '../../testing/system/http-fixture-server';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';

/** Declared, its own entry down (port 1): only releases would serve it. */
const DOWN_ENTRY = 'http://127.0.0.1:1/team_billing/mf-manifest.json';

/** The team's origin, answering a kit-built release at /v1/ (the descriptor, the manifest, the entry script). */
let origin: HttpFixtureServer;
let testApp: TestApp;
let declared: TempDir;
let configFile: string;
let logged: string[];

function declare(remotes: unknown[]): Promise<boolean> {
  fs.writeFileSync(configFile, JSON.stringify({ remotes }));
  return testApp.app.reloadRemotesConfig();
}

/** Publishes `version` of team_billing at `entry` with its token. */
async function publish(version: string, entry: string): Promise<request.Response> {
  const { token } = await testApp.app.releases.teamTokens.create('team_billing', null);
  return request(testApp.app.handler)
    .post('/api/remotes/team_billing/releases')
    .set('Authorization', `Bearer ${token}`)
    .send({ version, entry });
}

beforeEach(async () => {
  const files: Record<string, unknown> = {
    [`/v1/${REMOTE_DESCRIPTOR_FILE}`]: { name: 'team_billing', components: ['InvoiceBanner'] },
    '/v1/mf-manifest.json': fakeManifest('team_billing', ['InvoiceBanner']),
  };
  origin = await startHttpFixtureServer((req, res) => {
    const file = files[req.url ?? ''];
    if (file !== undefined) res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(file));
    else if (req.url === '/v1/remoteEntry.js') res.writeHead(200).end('var team_billing = {};');
    else res.writeHead(404).end();
  });
  logged = [];
  declared = makeTempDir('slots-release-origins-');
  configFile = path.join(declared.path, 'remotes.json');
  fs.writeFileSync(configFile, JSON.stringify({ remotes: [{ name: 'team_billing', entry: DOWN_ENTRY }] }));
  testApp = await createTestApp({
    env: { REMOTES_CONFIG: configFile },
    remoteDescriptorTimeoutMs: 2000,
    logger: pino({ level: 'error' }, { write: (line: string) => void logged.push(line) }),
  });
});
afterEach(async () => {
  await testApp.close();
  await origin.close();
  declared.remove();
});

it('takes a release from an origin written with capitals, and names the allowed origins as written', async () => {
  const written = origin.url.replace('http://', 'HTTP://');
  expect(await declare([{ name: 'team_billing', entry: DOWN_ENTRY, releaseOrigins: [`${written}/`] }])).toBe(true);
  expect((await publish('1.0.0', `${origin.url}/v1/mf-manifest.json`)).status).toBe(201);

  const refused = await publish('1.0.1', 'https://cdn.example.com/v1/mf-manifest.json');
  expect(refused.status).toBe(400);
  expect(refused.body.error.message).toContain(
    `they are published from http://127.0.0.1:1, ${written} (${origin.url}) only`,
  );
});

it('lets a release from an international name through the origin check, whichever way it is spelled', async () => {
  expect(await declare([{ name: 'team_billing', entry: DOWN_ENTRY, releaseOrigins: ['https://Bücher.Example'] }])).toBe(
    true,
  );
  // Past the origin check, the descriptor is asked there (a reserved name: it cannot answer).
  const taken = await publish('1.0.0', 'https://xn--bcher-kva.example/v1/mf-manifest.json');
  expect(taken.body.error.message).toMatch(/^The release's descriptor cannot be read: /);

  const refused = await publish('1.0.0', 'https://bücher.example.org/v1/mf-manifest.json');
  expect(refused.body.error.message).toBe(
    '"entry" "https://xn--bcher-kva.example.org/v1/mf-manifest.json" is on https://xn--bcher-kva.example.org ' +
      '(https://bücher.example.org), an origin the operators have not allowed for the releases of remote ' +
      '"team_billing": they are published from http://127.0.0.1:1, https://Bücher.Example ' +
      '(https://xn--bcher-kva.example) only (the origin of its REMOTES_CONFIG entry and its "releaseOrigins"), and ' +
      `nothing was asked there. Ask the operators to add the origin to the remote's "releaseOrigins" in REMOTES_CONFIG.`,
  );
});

it('refuses a reload leaving a remote no origin ("releaseOrigins": []), naming it, and keeps the list in use', async () => {
  expect(await declare([{ name: 'team_billing', entry: DOWN_ENTRY, releaseOrigins: [origin.url] }])).toBe(true);
  expect(await declare([{ name: 'team_billing', entry: '/team_billing/mf-manifest.json', releaseOrigins: [] }])).toBe(
    false,
  );
  const messages = logged.map((line) => (JSON.parse(line) as { msg: string }).msg);
  expect(messages.join('\n')).toContain(
    'Remotes configuration not reloaded, the previous one stays in use: REMOTES_CONFIG ' +
      `${configFile}, remotes[0] ("team_billing"): "releaseOrigins" is empty and the remote has no "entry" on another ` +
      'server whose origin it would allow',
  );
  expect((await publish('1.0.0', `${origin.url}/v1/mf-manifest.json`)).status).toBe(201);
});
