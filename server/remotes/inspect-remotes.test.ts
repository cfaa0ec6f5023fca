/**
 * The inspector's remotes (`GET /api/slots/inspect` `.remotes`) follow the release in force, as `GET /api/remotes`
 * does: a remote whose REMOTES_CONFIG entry answered, or that is built in, shows the release that serves it.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { REMOTE_DESCRIPTOR_FILE, type InspectedRemote, type RemotesPayload } from '../../shared';
import { fakeManifest } from '../../testing/fake-manifest';
import { createFixtureDist, type FixtureDist } from '../../testing/server/fixture-dist';
import { addOperator, createTestApp, signedInAgent, type TestApp } from '../../testing/server/test-app';
import { startHttpFixtureServer, type HttpFixtureServer } from '../../testing/system/http-fixture-server';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';

/** Each version folder of the remotes' origin: its descriptor, a manifest and the entry script it names. */
const VERSIONS: Record<string, { name: string; components: string[]; formComponents?: string[] }> = {
  '1.0.0': { name: 'team_billing', components: ['Hello', 'InvoiceBanner', 'InvoiceField'] },
  '2.0.0': { name: 'team_billing', components: ['Hello', 'InvoiceBanner', 'InvoiceChart'] },
  '3.0.0': { name: 'team_records', components: ['ProtectedNote', 'RecordsChart'] },
};

let origin: HttpFixtureServer;
let dir: TempDir;
let dist: FixtureDist;
let testApp: TestApp;

beforeEach(async () => {
  origin = await startHttpFixtureServer((req, res) => {
    const [, version = '', file = ''] = /^\/([\w.]+)\/(.+)$/.exec(req.url ?? '') ?? [];
    const descriptor = VERSIONS[version];
    if (descriptor === undefined) res.writeHead(404).end();
    else if (file === REMOTE_DESCRIPTOR_FILE) res.writeHead(200).end(JSON.stringify(descriptor));
    else if (file === 'mf-manifest.json')
      res.writeHead(200).end(JSON.stringify(fakeManifest(descriptor.name, descriptor.components)));
    else if (file === 'remoteEntry.js') res.writeHead(200).end(`var ${descriptor.name} = {};`);
    else res.writeHead(404).end();
  });
  dir = makeTempDir('slots-inspect-remotes-');
  dist = createFixtureDist();
  dist.addRemote({ name: 'team_records', components: ['ProtectedNote'], formComponents: [] });
  const configFile = path.join(dir.path, 'remotes.json');
  const entry = `${origin.url}/1.0.0/mf-manifest.json`;
  fs.writeFileSync(configFile, JSON.stringify({ remotes: [{ name: 'team_billing', entry }] }));
  testApp = await createTestApp({ env: { REMOTES_CONFIG: configFile }, distDir: dist.dir });
  await addOperator(testApp.app);
});
afterEach(async () => {
  await testApp.close();
  await origin.close();
  dist.remove();
  dir.remove();
});

async function publishAndActivate(remote: string, version: string): Promise<void> {
  const { app } = testApp;
  await request(app.handler)
    .post(`/api/remotes/${remote}/releases`)
    .set('Authorization', `Bearer ${(await app.releases.teamTokens.create(remote, null)).token}`)
    .send({ version, entry: `${origin.url}/${version}/mf-manifest.json` })
    .expect(201);
  await (await signedInAgent(app)).post(`/api/remotes/${remote}/activate`).send({ version }).expect(200);
}

async function inspected(name: string): Promise<InspectedRemote | undefined> {
  const agent = await signedInAgent(testApp.app);
  const remotes = (await agent.get('/api/slots/inspect').expect(200)).body.remotes as InspectedRemote[];
  return remotes.find((remote) => remote.name === name);
}

/** The inspector's view once the origin of a release just put in force has answered (it is asked at once). */
async function inspectedOnceAsked(name: string): Promise<InspectedRemote | undefined> {
  const deadline = Date.now() + 2_000;
  let remote = await inspected(name);
  while (remote?.status === 'released' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    remote = await inspected(name);
  }
  return remote;
}

async function served(name: string) {
  const body = (await request(testApp.app.handler).get('/api/remotes').expect(200)).body as RemotesPayload;
  return body.remotes.find((remote) => remote.name === name);
}

it('shows the release in force of a remote whose REMOTES_CONFIG entry answered, not the entry', async () => {
  // The entry's own release (REMOTES_CONFIG's, activated at start): what its request answered.
  expect(await inspected('team_billing')).toMatchObject({
    entry: `${origin.url}/1.0.0/mf-manifest.json`,
    status: 'answered',
  });
  await publishAndActivate('team_billing', '2.0.0');
  expect((await served('team_billing'))?.entry).toBe(`${origin.url}/2.0.0/mf-manifest.json`);
  expect(await inspectedOnceAsked('team_billing')).toEqual({
    name: 'team_billing',
    entry: `${origin.url}/2.0.0/mf-manifest.json`,
    status: 'answered',
    release: '2.0.0',
    components: ['Hello', 'InvoiceBanner', 'InvoiceChart'],
    formComponents: [],
    schemaComponents: [],
  });

  // The release taken away: the entry's own build, as it answered.
  await (await signedInAgent(testApp.app)).post('/api/remotes/team_billing/deactivate').expect(200);
  expect(await inspected('team_billing')).toMatchObject({
    entry: `${origin.url}/1.0.0/mf-manifest.json`,
    status: 'answered',
    components: ['Hello', 'InvoiceBanner', 'InvoiceField'],
  });
});

it('shows the release in force of a built-in remote, not its build', async () => {
  expect(await inspected('team_records')).toMatchObject({ status: 'built', components: ['ProtectedNote'] });
  await publishAndActivate('team_records', '3.0.0');
  expect(await inspectedOnceAsked('team_records')).toMatchObject({
    entry: `${origin.url}/3.0.0/mf-manifest.json`,
    status: 'answered',
    components: ['ProtectedNote', 'RecordsChart'],
  });
});
