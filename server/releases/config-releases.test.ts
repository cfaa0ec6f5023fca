/**
 * REMOTES_CONFIG entries as releases: published and activated by `REMOTES_CONFIG` on start and reload when the file's entry
 * is new, left alone (without asking the origin) when it is not, so an operator's rollout survives an unchanged
 * file and a restart never depends on the origin.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import pino from 'pino';
import request from 'supertest';
import { REMOTE_DESCRIPTOR_FILE, type RemotesPayload } from '../../shared';
import { fakeManifest } from '../../testing/fake-manifest';
import { runServerCommand } from '../../testing/server/run-server-command';
import { startHttpFixtureServer } from '../../testing/system/http-fixture-server';
import { createTestApp, type TestApp } from '../../testing/server/test-app';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { childContextOf } from '../observability/trace-context';
import type { DescriptorSource } from '../remotes/descriptor-source';
import type { PendingRemote } from '../remotes/remotes-config';
import { importConfigReleases, readConfigReleases, takeConfigReleases } from './config-releases';
import type { ReleaseFilesCheck } from './release-files-check';
import type { ReleaseSnapshot } from './release-snapshot';

let server: http.Server;
let originUrl: string;
let requests = 0;
let components = ['InvoiceBanner'];
/** Set: the origin answers as a kit's development server does (its descriptor announces rebuilds). */
let devEvents: string | undefined;
/** Set: the origin answers 503 to everything (a deploy half done, a CDN's outage). */
let unavailable = false;
/** Set: the manifests name their entry script after this absolute publicPath. */
let publicPath: string | undefined;
let dir: TempDir;
let configFile: string;
let testApp: TestApp | null = null;

beforeEach(async () => {
  requests = 0;
  components = ['InvoiceBanner'];
  devEvents = undefined;
  unavailable = false;
  publicPath = undefined;
  server = http.createServer((req, res) => {
    requests++;
    // Under /legacy/: another team's remote, team_legacy, with the same components.
    const name = req.url?.startsWith('/legacy/') ? 'team_legacy' : 'team_billing';
    if (unavailable) res.writeHead(503).end();
    else if (req.url?.endsWith(REMOTE_DESCRIPTOR_FILE))
      res.writeHead(200).end(JSON.stringify({ name, components, devEvents }));
    else if (req.url?.startsWith('/no-entry/') && req.url.endsWith('/remoteEntry.js')) res.writeHead(404).end();
    else if (req.url?.endsWith('/mf-manifest.json')) {
      const manifest = fakeManifest(name, components);
      if (publicPath !== undefined) manifest.metaData.publicPath = publicPath;
      res.writeHead(200).end(JSON.stringify(manifest));
    } else if (req.url?.endsWith('/remoteEntry.js')) res.writeHead(200).end(`var ${name} = {};`);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  originUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = makeTempDir('slots-config-releases-');
  configFile = path.join(dir.path, 'remotes.json');
});
afterEach(async () => {
  await testApp?.close();
  testApp = null;
  dir.remove();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function writeEntry(version: string): string {
  const entry = `${originUrl}/${version}/mf-manifest.json`;
  fs.writeFileSync(configFile, JSON.stringify({ remotes: [{ name: 'team_billing', entry }] }));
  return entry;
}

async function start(
  appDir?: TempDir,
  logLines?: string[],
  remoteRetryIntervalMs?: number,
  nodeEnv?: 'production',
): Promise<TestApp> {
  const logger = logLines ? pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) }) : undefined;
  testApp = await createTestApp({
    env: { REMOTES_CONFIG: configFile },
    ...(nodeEnv ? { nodeEnv } : {}),
    ...(appDir ? { dir: appDir } : {}),
    ...(logger ? { logger } : {}),
    ...(remoteRetryIntervalMs ? { remoteRetryIntervalMs } : {}),
  });
  return testApp;
}

async function servedEntry(app: TestApp): Promise<string | undefined> {
  const body = (await request(app.app.handler).get('/api/remotes').expect(200)).body as RemotesPayload;
  return body.remotes.find((remote) => remote.name === 'team_billing')?.entry;
}

it('publishes and activates a new entry as config, and restarts from the stored release without the origin', async () => {
  const v1 = writeEntry('v1');
  const first = await start();
  expect(await servedEntry(first)).toBe(v1);
  const history = await first.app.releases.store.history('team_billing');
  expect(history.map((entry) => [entry.action, entry.actor])).toEqual([
    ['activate', 'REMOTES_CONFIG'],
    ['publish', 'REMOTES_CONFIG'],
  ]);
  const version = (await first.app.releases.store.rollout('team_billing')).active as string;
  expect(version).toMatch(/^config-[0-9a-f]{12}$/);

  const appDir = first.dir;
  await first.close({ keepData: true });
  testApp = null;
  components = ['SomethingElse'];
  const asked = requests;
  const again = await start(appDir);
  expect(requests).toBe(asked);
  const remotes = (await request(again.app.handler).get('/api/remotes').expect(200)).body as RemotesPayload;
  expect(remotes.remotes).toContainEqual({
    name: 'team_billing',
    entry: v1,
    components: ['InvoiceBanner'],
    formComponents: [],
    releaseTag: expect.stringMatching(new RegExp(`^${version}\\.`)),
  });
  expect((await again.app.releases.store.rollout('team_billing')).active).toBe(version);
});

it('says once that the entry answered, and once what the import made of it', async () => {
  writeEntry('v1');
  const logLines: string[] = [];
  const app = (await start(undefined, logLines)).app;
  const version = (await app.releases.store.rollout('team_billing')).active as string;
  const messages = logLines.map((line) => (JSON.parse(line) as { msg: string }).msg);
  expect(messages.filter((message) => message.includes('"team_billing" answered'))).toEqual([
    'Remote "team_billing" answered: 1 component(s).',
  ]);
  expect(messages).toContain(`REMOTES_CONFIG's entry of remote "team_billing" is now release "${version}", activated.`);
});

it('makes no release of an entry claiming a component another remote provides, which keeps it and its releases', async () => {
  writeEntry('v1');
  const logLines: string[] = [];
  const app = (await start(undefined, logLines)).app;
  const billing = (await app.releases.store.rollout('team_billing')).active;
  // Another team's remote added to the file, its component named as team_billing's (two scaffolds' `Hello`).
  const legacy = `${originUrl}/legacy/v1/mf-manifest.json`;
  const file = JSON.parse(fs.readFileSync(configFile, 'utf8')) as { remotes: unknown[] };
  fs.writeFileSync(configFile, JSON.stringify({ remotes: [...file.remotes, { name: 'team_legacy', entry: legacy }] }));
  await app.reloadRemotesConfig();

  expect((await app.releases.store.releases()).filter((release) => release.remote === 'team_legacy')).toEqual([]);
  expect((await app.releases.store.rollout('team_legacy')).active).toBeNull();
  expect((await app.releases.store.rollout('team_billing')).active).toBe(billing);
  const refused = logLines
    .map((line) => JSON.parse(line) as { msg: string })
    .find(({ msg }) => /team_legacy" is not made a release/.test(msg));
  expect(refused?.msg).toBe(
    'REMOTES_CONFIG\'s entry of remote "team_legacy" is not made a release: component "InvoiceBanner" is already ' +
      'provided by "team_billing". A component name has one remote: rename the component in one of them (its ' +
      'remote.ts and its file), or take the other remote away. The entry is not served; then reload (npm run ' +
      'remotes:reload).',
  );
  const served = (await request(app.handler).get('/api/remotes').expect(200)).body as RemotesPayload;
  expect(served.remotes.map((remote) => remote.name)).not.toContain('team_legacy');
  // team_billing's team publishes on: its component is its own still.
  const next = await app.releases.service.publish('team_billing', '2.0.0', `${originUrl}/v2/mf-manifest.json`, 'team');
  expect(next.created).toBe(true);
});

it('changes no host’s releases when a start is refused for the file’s slots, though its entry changed too', async () => {
  const v1 = writeEntry('v1');
  const running = await start();
  const before = await running.app.releases.store.history('team_billing');
  // The file's next version: a new entry, and a slot whose props the component does not take.
  components = ['InvoiceBanner', 'InvoiceNote'];
  const v2 = `${originUrl}/v2/mf-manifest.json`;
  fs.writeFileSync(
    configFile,
    JSON.stringify({
      remotes: [
        {
          name: 'team_billing',
          entry: v2,
          slots: { 'dashboard-after-cards': [{ component: 'InvoiceMissing' }] },
        },
      ],
    }),
  );
  // A second host starts with it on the same database: its slot check refuses the start...
  await expect(createTestApp({ env: { REMOTES_CONFIG: configFile }, dir: running.dir })).rejects.toThrow(
    /InvoiceMissing/,
  );
  // ...and the host running serves what it served: nothing was published or activated for every host.
  expect(await running.app.releases.store.history('team_billing')).toEqual(before);
  await running.app.releases.snapshot.refresh();
  expect(await servedEntry(running)).toBe(v1);

  // Mended (the slot names a component the new entry has), a start takes the entry, for every host.
  fs.writeFileSync(
    configFile,
    JSON.stringify({
      remotes: [
        { name: 'team_billing', entry: v2, slots: { 'dashboard-after-cards': [{ component: 'InvoiceNote' }] } },
      ],
    }),
  );
  const second = await createTestApp({ env: { REMOTES_CONFIG: configFile }, dir: running.dir });
  try {
    expect(await servedEntry(second)).toBe(v2);
    await running.app.releases.snapshot.refresh();
    expect(await servedEntry(running)).toBe(v2);
  } finally {
    await second.close({ keepData: true });
  }
});

it('gives way to a release activated since its entry was read (a reload, another host’s start, an operator)', async () => {
  writeEntry('v1');
  const { app } = await start();
  const logLines: string[] = [];
  const token = (await app.releases.teamTokens.create('team_billing', null)).token;
  // Another decision made while the file's entry is read (its origin is the slow part): the team's 2.0.0 activated.
  const activateTeamRelease = async () => {
    await request(app.handler)
      .post('/api/remotes/team_billing/releases')
      .set('Authorization', `Bearer ${token}`)
      .send({ version: '2.0.0', entry: `${originUrl}/team2/mf-manifest.json` })
      .expect(201);
    await app.releases.service.activate('team_billing', '2.0.0', 'ops', 'activate');
  };
  const parts = {
    store: app.releases.store,
    snapshot: app.releases.snapshot,
    source: {
      read: async (remote: PendingRemote) => {
        await activateTeamRelease();
        return app.remotes.descriptors.read(remote, childContextOf(null));
      },
    },
    files: { problem: async () => null } as unknown as ReleaseFilesCheck,
    clashes: () => [],
    logger: pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) }),
  };
  // A start (or a reload) reads the file's v2 while v1 is in force, and writes it after the team's decision.
  const v2 = { name: 'team_billing', entry: `${originUrl}/v2/mf-manifest.json` };
  const read = await readConfigReleases([{ ...v2, descriptorUrl: `${originUrl}/v2/${REMOTE_DESCRIPTOR_FILE}` }], parts);
  expect(read.releases.map((release) => release.entry)).toEqual([v2.entry]);
  await takeConfigReleases(read, parts);
  expect((await app.releases.store.rollout('team_billing')).active).toBe('2.0.0');
  expect((await app.releases.store.releases()).map((release) => release.entry)).not.toContain(v2.entry);
  expect(logLines.map((line) => (JSON.parse(line) as { msg: string }).msg)).toContain(
    `REMOTES_CONFIG's entry of remote "team_billing" (${v2.entry}) is not made a release: release "2.0.0" was ` +
      'activated since it was read, and stays in force.',
  );
});

it('keeps the config- versions its own: a team may not publish one, nor have one taken before made the one in force', async () => {
  writeEntry('v1');
  const logLines: string[] = [];
  const { app } = await start(undefined, logLines);
  const inForce = (await app.releases.store.rollout('team_billing')).active;
  const token = (await app.releases.teamTokens.create('team_billing', null)).token;
  const broken = `${originUrl}/team-broken/mf-manifest.json`;
  // The version the file's next entry will take can be worked out by anyone who knows the entry: refused.
  for (const version of ['config-47ca941c3cc2', 'CONFIG-1']) {
    const refused = await request(app.handler)
      .post('/api/remotes/team_billing/releases')
      .set('Authorization', `Bearer ${token}`)
      .send({ version, entry: broken })
      .expect(400);
    expect(refused.body.error.message).toBe(
      `"version" ${JSON.stringify(version)} cannot be published: versions beginning with "config-" are kept for the ` +
        'releases REMOTES_CONFIG makes.',
    );
  }

  // A database from before that refusal: the team's files published under the version the file's v2 takes.
  const parts = {
    store: app.releases.store,
    snapshot: app.releases.snapshot,
    source: app.remotes.descriptors,
    files: { problem: async () => null } as unknown as ReleaseFilesCheck,
    clashes: () => [],
    logger: pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) }),
  };
  const v2 = { name: 'team_billing', entry: `${originUrl}/v2/mf-manifest.json` };
  const read = await readConfigReleases([{ ...v2, descriptorUrl: `${originUrl}/v2/${REMOTE_DESCRIPTOR_FILE}` }], parts);
  const taken = read.releases[0]!;
  await app.releases.store.publish({ ...taken, entry: broken, publishedBy: 'token:team' });
  await takeConfigReleases(read, parts);
  expect((await app.releases.store.rollout('team_billing')).active).toBe(inForce);
  expect(logLines.map((line) => JSON.parse(line) as { level: number; msg: string })).toContainEqual(
    expect.objectContaining({
      level: 50,
      msg:
        `REMOTES_CONFIG's entry of remote "team_billing" (${v2.entry}) is not made a release: its version ` +
        `"${taken.version}" was published by token:team at ${broken}, not by REMOTES_CONFIG. Release "${inForce}" ` +
        'stays in force; publish the entry as a release of its own and activate it on the releases page.',
    }),
  );
});

it('judges a reload with the file’s changed entry: a component only it has may be placed at once', async () => {
  writeEntry('v1');
  const logLines: string[] = [];
  const { app } = await start(undefined, logLines);
  const before = await app.releases.store.history('team_billing');
  components = ['InvoiceBanner', 'InvoiceNote'];
  const v2 = `${originUrl}/v2/mf-manifest.json`;
  const withSlot = (component: string) =>
    fs.writeFileSync(
      configFile,
      JSON.stringify({
        remotes: [{ name: 'team_billing', entry: v2, slots: { 'dashboard-after-cards': [{ component }] } }],
      }),
    );
  // A slot no entry provides: refused, and nothing written for every host.
  withSlot('InvoiceMissing');
  await expect(app.reloadRemotesConfig()).resolves.toBe(false);
  expect(await app.releases.store.history('team_billing')).toEqual(before);
  // The new entry's own component: taken, and the entry made the release in force, with no slot said unable to
  // render while it was being written.
  withSlot('InvoiceNote');
  logLines.length = 0;
  await expect(app.reloadRemotesConfig()).resolves.toBe(true);
  const errors = logLines
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .filter((line) => line.level >= 50);
  expect(errors).toEqual([]);
  expect(await servedEntry(testApp as TestApp)).toBe(v2);
  expect(app.remotes.registry.slots().map(({ slot }) => slot.component)).toEqual(['InvoiceNote']);
});

it('leaves a kit development server live: no release, its rebuilds announced to the host', async () => {
  devEvents = '/__slots_dev_events';
  const entry = writeEntry('dev');
  const { app } = await start();
  expect(await app.releases.store.history('team_billing')).toEqual([]);
  const body = (await request(app.handler).get('/api/remotes').expect(200)).body as RemotesPayload;
  expect(body.remotes).toContainEqual(
    expect.objectContaining({ name: 'team_billing', entry, devEvents: `${originUrl}/__slots_dev_events` }),
  );
});

it('makes no release of a development server on a production server either, which passes no rebuilds on', async () => {
  devEvents = '/__slots_dev_events';
  const entry = writeEntry('dev');
  const { app } = await start(undefined, undefined, undefined, 'production');
  expect(await app.releases.store.history('team_billing')).toEqual([]);
  const body = (await request(app.handler).get('/api/remotes').expect(200)).body as RemotesPayload;
  const served = body.remotes.find((remote) => remote.name === 'team_billing');
  expect(served).toMatchObject({ entry });
  expect(served).not.toHaveProperty('devEvents');
});

it('says that a release in force is served instead of a development server the file comes to name', async () => {
  writeEntry('v1');
  const logLines: string[] = [];
  const { app } = await start(undefined, logLines);
  const released = await servedEntry(testApp as TestApp);
  const inForce = (await app.releases.store.rollout('team_billing')).active;

  devEvents = '/__slots_dev_events';
  const dev = writeEntry('dev');
  await expect(app.reloadRemotesConfig()).resolves.toBe(true);
  expect(await servedEntry(testApp as TestApp)).toBe(released);
  expect(logLines.map((line) => JSON.parse(line) as { level: number; msg: string })).toContainEqual(
    expect.objectContaining({
      level: 40,
      msg:
        `REMOTES_CONFIG's entry of remote "team_billing" (${dev}) is a development server (slots-remote dev), which ` +
        `is never made a release: release "${inForce}", in force, is served instead. To work against the ` +
        'development server, take the release away (POST /api/remotes/team_billing/deactivate), and activate a ' +
        'release again when done.',
    }),
  );

  // Taken away as said: the development server is served.
  await app.releases.service.serveOwnBuild('team_billing', 'ops');
  await app.releases.snapshot.refresh();
  expect(await servedEntry(testApp as TestApp)).toBe(dev);
});

it('keeps an operator’s rollout on a reload of an unchanged file, and activates a changed entry', async () => {
  writeEntry('v1');
  const { app } = await start();
  const token = (await app.releases.teamTokens.create('team_billing', null)).token;
  const team = `${originUrl}/team2/mf-manifest.json`;
  await request(app.handler)
    .post('/api/remotes/team_billing/releases')
    .set('Authorization', `Bearer ${token}`)
    .send({ version: '2.0.0', entry: team })
    .expect(201);
  await app.releases.service.activate('team_billing', '2.0.0', 'ops', 'activate');

  await expect(app.reloadRemotesConfig()).resolves.toBe(true);
  expect(await servedEntry(testApp as TestApp)).toBe(team);

  const v3 = writeEntry('v3');
  await expect(app.reloadRemotesConfig()).resolves.toBe(true);
  expect(await servedEntry(testApp as TestApp)).toBe(v3);
});

it('refuses an entry whose entry script does not load, as a publish does: the release in force stays', async () => {
  const v1 = writeEntry('v1');
  const logLines: string[] = [];
  const { app } = await start(undefined, logLines);
  const before = await app.releases.store.history('team_billing');

  writeEntry('no-entry');
  await expect(app.reloadRemotesConfig()).resolves.toBe(true);
  expect(await servedEntry(testApp as TestApp)).toBe(v1);
  expect(await app.releases.store.history('team_billing')).toEqual(before);
  const refusal = logLines
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .find((line) => line.level === 50);
  expect(refusal?.msg).toMatch(
    /^REMOTES_CONFIG's entry of remote "team_billing" is not made a release: the remote entry script "remoteEntry\.js" its mf-manifest\.json names cannot be loaded: http:\/\/127\.0\.0\.1:\d+\/no-entry\/remoteEntry\.js answered 404\. Release "config-[0-9a-f]{12}" stays in force/,
  );

  // Fixed at the origin: the next reload takes it.
  const fixed = writeEntry('v2');
  await expect(app.reloadRemotesConfig()).resolves.toBe(true);
  expect(await servedEntry(testApp as TestApp)).toBe(fixed);
});

it('refuses an entry whose manifest names its entry script on another origin, without asking there', async () => {
  const v1 = writeEntry('v1');
  const logLines: string[] = [];
  const { app } = await start(undefined, logLines);
  const before = await app.releases.store.history('team_billing');
  const elsewhere = await startHttpFixtureServer((_req, res) => res.writeHead(200).end('var team_billing = {};'));
  try {
    publicPath = `${elsewhere.url}/internal/`;
    writeEntry('v2');
    await expect(app.reloadRemotesConfig()).resolves.toBe(true);
    expect(await servedEntry(testApp as TestApp)).toBe(v1);
    expect(await app.releases.store.history('team_billing')).toEqual(before);
    expect(elsewhere.requests).toEqual([]);
    const refusal = logLines
      .map((line) => JSON.parse(line) as { level: number; msg: string })
      .find((line) => line.level === 50);
    expect(refusal?.msg).toContain(
      `REMOTES_CONFIG's entry of remote "team_billing" is not made a release: its mf-manifest.json names its remote ` +
        `entry script at ${elsewhere.url}/internal/remoteEntry.js (after metaData.publicPath), on another origin ` +
        `than the manifest: a page loads this release's scripts from ${originUrl} only`,
    );
  } finally {
    await elsewhere.close();
  }
});

it('asks a changed entry whose origin does not answer again, and makes it the release in force once it does', async () => {
  const v1 = writeEntry('v1');
  const logLines: string[] = [];
  const { app } = await start(undefined, logLines, 50);
  const before = (await app.releases.store.rollout('team_billing')).active;

  unavailable = true;
  const v2 = writeEntry('v2');
  await expect(app.reloadRemotesConfig()).resolves.toBe(true);
  expect(await servedEntry(testApp as TestApp)).toBe(v1);
  const warning = logLines
    .map((line) => JSON.parse(line) as { msg: string })
    .find((line) => /v2/.test(line.msg) || /not available/.test(line.msg));
  expect(warning?.msg).toBe(
    `REMOTES_CONFIG's entry of remote "team_billing" is not available (${originUrl}/v2/${REMOTE_DESCRIPTOR_FILE} ` +
      `answered 503); release "${before}" stays in force, and the entry is asked again every 0 s: it becomes the ` +
      'release in force when it answers.',
  );
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(await servedEntry(testApp as TestApp)).toBe(v1);

  unavailable = false;
  const until = Date.now() + 5000;
  while ((await servedEntry(testApp as TestApp)) !== v2 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  expect(await servedEntry(testApp as TestApp)).toBe(v2);
  const [latest] = await app.releases.store.history('team_billing');
  expect(latest).toMatchObject({ action: 'activate', actor: 'REMOTES_CONFIG', before: { active: before } });
});

it('writes one activate when two hosts import the same entry at once: no no-op entry in the audit', async () => {
  const v1 = writeEntry('v1');
  const { app } = await start();
  const once = await app.releases.store.history('team_billing');
  // A second host whose snapshot had not seen the release yet: it reads the origin, finds the release published,
  // and finds it in force in the rollout's transaction.
  const stale = { releases: () => [], rollout: () => null, refresh: async () => undefined };
  const source = { read: (remote: PendingRemote) => app.remotes.descriptors.read(remote, childContextOf(null)) };
  const files = { problem: async () => null };
  const pending = app.remotes.registry.config.pending;
  expect(pending.map((remote) => remote.entry)).toEqual([v1]);
  const parts = {
    store: app.releases.store,
    snapshot: stale as unknown as ReleaseSnapshot,
    source: source as unknown as DescriptorSource,
    files: files as unknown as ReleaseFilesCheck,
    clashes: () => [],
    logger: pino({ level: 'silent' }),
  };
  await Promise.all([importConfigReleases(pending, parts), importConfigReleases(pending, parts)]);
  expect(await app.releases.store.history('team_billing')).toEqual(once);
  expect(once.map((entry) => entry.action)).toEqual(['activate', 'publish']);
  const version = (await app.releases.store.rollout('team_billing')).active as string;
  expect((await app.releases.store.release('team_billing', version))?.publishedBy).toBe('REMOTES_CONFIG');
});

it('stops asking an entry a later reload took back: the file in use decides what becomes a release', async () => {
  const v1 = writeEntry('v1');
  const { app } = await start(undefined, undefined, 50);
  unavailable = true;
  writeEntry('v2');
  await expect(app.reloadRemotesConfig()).resolves.toBe(true);
  writeEntry('v1');
  await expect(app.reloadRemotesConfig()).resolves.toBe(true);
  unavailable = false;
  await new Promise((resolve) => setTimeout(resolve, 300));
  expect(await servedEntry(testApp as TestApp)).toBe(v1);
  expect((await app.releases.store.releases()).map((release) => release.entry)).toEqual([v1]);
});

it('serves a remote taken out of the file no more, though its release stays active; put back, it is served again', async () => {
  const v1 = writeEntry('v1');
  const { app } = await start();
  const version = (await app.releases.store.rollout('team_billing')).active;

  fs.writeFileSync(configFile, JSON.stringify({ remotes: [] }));
  await expect(app.reloadRemotesConfig()).resolves.toBe(true);
  expect(await servedEntry(testApp as TestApp)).toBeUndefined();
  expect((await app.releases.store.rollout('team_billing')).active).toBe(version);

  writeEntry('v1');
  const asked = requests;
  await expect(app.reloadRemotesConfig()).resolves.toBe(true);
  expect(await servedEntry(testApp as TestApp)).toBe(v1);
  expect(requests).toBe(asked);
});

it('re-reads the file on every host when npm run remotes:reload asks, without a pid', async () => {
  writeEntry('v1');
  const app = await start();
  const v2 = writeEntry('v2');
  const run = await runServerCommand('remotes-reload.ts', [], { DATABASE_PATH: app.databasePath, DATABASE_URL: '' });
  expect(run.code).toBe(0);
  expect(run.stdout).toMatch(/Asked every host/);
  const until = Date.now() + 3000;
  while ((await servedEntry(app)) !== v2 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(await servedEntry(app)).toBe(v2);
});
