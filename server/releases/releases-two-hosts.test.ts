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

/** Activates a release on `first`; resolves to how long `second` took to serve it (ms), or rejects after 2 s. */
async function activationSeenAcross(first: TestApp, second: TestApp): Promise<number> {
  await addOperator(first.app);
  const token = (await first.app.teamTokens.create('team_billing', null)).token;
  for (const version of ['v1', 'v2']) {
    await request(first.app.handler)
      .post('/api/remotes/team_billing/releases')
      .set('Authorization', `Bearer ${token}`)
      .send({ version, entry: `${originUrl}/${version}/mf-manifest.json` })
      .expect(201);
  }
  const operator = await signedInAgent(first.app);
  await operator.post('/api/remotes/team_billing/activate').send({ version: 'v1' }).expect(200);
  const entryOn = async (testApp: TestApp) =>
    ((await request(testApp.app.handler).get('/api/remotes').expect(200)).body as RemotesPayload).remotes.find(
      (remote) => remote.name === 'team_billing',
    )?.entry;
  await waitUntil(async () => (await entryOn(second)) === `${originUrl}/v1/mf-manifest.json`);

  const started = Date.now();
  await operator.post('/api/remotes/team_billing/activate').send({ version: 'v2' }).expect(200);
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
