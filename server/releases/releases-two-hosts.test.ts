/**
 * A rollout change made through one host is served by another host on the same database within about two seconds,
 * without a signal or a restart: two apps on one SQLite file (another process, such as the CLI, writes alike) and
 * on one PostgreSQL.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import request from 'supertest';
import { REMOTE_DESCRIPTOR_FILE, type RemotesPayload } from '../../shared';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import {
  addOperator,
  closeTwoHosts,
  createTestApp,
  createTwoHosts,
  signedInAgent,
  type TestApp,
  type TestAppOptions,
} from '../../testing/server/test-app';
import { waitUntil } from '../../testing/server/wait-until';
import { fakeManifest } from '../../testing/fake-manifest';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';

jest.setTimeout(60_000);

const DESCRIPTOR = { name: 'team_billing', components: ['InvoiceBanner'] };

let origin: http.Server;
let originUrl: string;
/** REMOTES_CONFIG listing team_billing: releases are new versions of a declared remote. */
let declared: TempDir;
let hostOptions: TestAppOptions;

beforeAll(async () => {
  origin = http.createServer((req, res) => {
    if (req.url?.endsWith(REMOTE_DESCRIPTOR_FILE)) res.writeHead(200).end(JSON.stringify(DESCRIPTOR));
    else if (req.url?.endsWith('/mf-manifest.json'))
      res.writeHead(200).end(JSON.stringify(fakeManifest(DESCRIPTOR.name, DESCRIPTOR.components)));
    else if (req.url?.endsWith('/remoteEntry.js')) res.writeHead(200).end('var team_billing = {};');
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
  originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
  declared = makeTempDir('slots-two-hosts-declared-');
  const configFile = path.join(declared.path, 'remotes.json');
  const listed = { ...DESCRIPTOR, entry: `${originUrl}/listed/remoteEntry.js` };
  fs.writeFileSync(configFile, JSON.stringify({ remotes: [listed] }));
  hostOptions = { env: { REMOTES_CONFIG: configFile } };
});
afterAll(async () => {
  declared.remove();
  await new Promise<void>((resolve) => origin.close(() => resolve()));
});

/** Publishes `versions` of team_billing through `host`, as its team does (a token of its own each time). */
async function publishReleases(host: TestApp, versions: readonly string[]): Promise<void> {
  const token = (await host.app.releases.teamTokens.create('team_billing', null)).token;
  for (const version of versions) {
    await request(host.app.handler)
      .post('/api/remotes/team_billing/releases')
      .set('Authorization', `Bearer ${token}`)
      .send({ version, entry: `${originUrl}/${version}/mf-manifest.json` })
      .expect(201);
  }
}

/**
 * Activates a release on `first`; resolves to how long `second` took to serve it once the activation answered (ms),
 * or rejects after 2 s.
 */
async function activationSeenAcross(first: TestApp, second: TestApp): Promise<number> {
  await addOperator(first.app);
  await publishReleases(first, ['v1', 'v2']);
  const operator = await signedInAgent(first.app);
  await operator.post('/api/remotes/team_billing/activate').send({ version: 'v1' }).expect(200);
  const entryOn = async (testApp: TestApp) =>
    ((await request(testApp.app.handler).get('/api/remotes').expect(200)).body as RemotesPayload).remotes.find(
      (remote) => remote.name === 'team_billing',
    )?.entry;
  await waitUntil(async () => (await entryOn(second)) === `${originUrl}/v1/mf-manifest.json`);

  await operator.post('/api/remotes/team_billing/activate').send({ version: 'v2' }).expect(200);
  // Counted from the activation's answer: what it takes the other host to see it, not the activation itself.
  const started = Date.now();
  expect(await entryOn(first)).toBe(`${originUrl}/v2/mf-manifest.json`);
  await waitUntil(async () => (await entryOn(second)) === `${originUrl}/v2/mf-manifest.json`);
  return Date.now() - started;
}

describe('two hosts on one SQLite file', () => {
  it('serve a release activated on one from the other within two seconds', async () => {
    const hosts = await createTwoHosts(createTestApp, hostOptions);
    try {
      expect(await activationSeenAcross(...hosts)).toBeLessThan(2000);
    } finally {
      await closeTwoHosts(hosts);
    }
  });
});

describe('two hosts whose copies of the rollout are behind the database', () => {
  it('change it from what the database holds: a canary keeps the active release, a rollback goes back from it', async () => {
    // A poll far longer than the test: each host's copy changes only with its own changes.
    const options: TestAppOptions = { ...hostOptions, releasePollMs: 600_000 };
    const first = await createTestApp(options);
    await addOperator(first.app);
    await publishReleases(first, ['v1', 'v2', 'v3']);
    const one = await signedInAgent(first.app);
    await one.post('/api/remotes/team_billing/activate').send({ version: 'v1' }).expect(200);
    const second = await createTestApp({ ...options, dir: first.dir });
    try {
      const two = await signedInAgent(second.app);
      const inDatabase = () => first.app.releases.store.rollout('team_billing');

      // The second host's copy still says v1 is active: its canary must keep v2, which the first just activated.
      await one.post('/api/remotes/team_billing/activate').send({ version: 'v2' }).expect(200);
      const canary = await two
        .post('/api/remotes/team_billing/canary')
        .send({ version: 'v3', percent: 10 })
        .expect(200);
      expect(canary.body).toMatchObject({ active: 'v2', canary: { version: 'v3' } });
      expect(await inDatabase()).toMatchObject({ active: 'v2', canary: { version: 'v3' } });

      // v3 activated on the second; the first's copy says v2 is active, yet a rollback to v2 goes back from v3.
      await two.post('/api/remotes/team_billing/activate').send({ version: 'v3' }).expect(200);
      await one.post('/api/remotes/team_billing/rollback').send({ version: 'v2' }).expect(200);
      await one.post('/api/remotes/team_billing/rollback').send({ version: 'v1' }).expect(200);

      // The second's copy says v3: a "rollback" to v2 would go forward from v1, and is refused.
      const forward = await two.post('/api/remotes/team_billing/rollback').send({ version: 'v2' }).expect(400);
      expect(forward.body.error.message).toMatch(/"v2" of "team_billing" is not earlier than the active release "v1"/);
      expect(await inDatabase()).toMatchObject({ active: 'v1', canary: null });
      const trail = await first.app.releases.store.history('team_billing');
      expect(trail.slice(0, 4).map((entry) => [entry.action, entry.before, entry.after])).toEqual([
        ['rollback', { active: 'v2', canary: null }, { active: 'v1', canary: null }],
        ['rollback', { active: 'v3', canary: null }, { active: 'v2', canary: null }],
        [
          'activate',
          { active: 'v2', canary: { version: 'v3', percent: 10, tenants: [] } },
          { active: 'v3', canary: null },
        ],
        [
          'canary',
          { active: 'v2', canary: null },
          { active: 'v2', canary: { version: 'v3', percent: 10, tenants: [] } },
        ],
      ]);

      // A release published through the first is found by the second, whose copy does not list it yet.
      await publishReleases(first, ['v4']);
      await two.post('/api/remotes/team_billing/canary').send({ version: 'v4', percent: 5 }).expect(200);
    } finally {
      await closeTwoHosts([first, second]);
    }
  });
});

describeWithPostgres()('two hosts on one PostgreSQL', () => {
  const databases = usePostgresDatabases('releases_hosts', { poolSize: 4, statementTimeoutMs: 5000 });

  it('serve a release activated on one from the other within two seconds', async () => {
    const options: TestAppOptions = { ...hostOptions, storage: await databases.create() };
    const hosts = await createTwoHosts(createTestApp, options);
    try {
      expect(await activationSeenAcross(...hosts)).toBeLessThan(2000);
    } finally {
      await closeTwoHosts(hosts);
    }
  });
});
