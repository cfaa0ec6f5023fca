/**
 * Two hosts on one database look for the same rollout step at the same moment: the step is made, and audited, once,
 * and both serve its share. On one SQLite file and on one PostgreSQL.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
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
import { parsePrometheusText, sampleValue } from '../../testing/server/prometheus-text';
import { startDescriptorOrigin, type DescriptorOrigin } from '../../testing/server/released-remote';
import { waitUntil } from '../../testing/server/wait-until';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';

jest.setTimeout(60_000);

const DESCRIPTOR = { name: 'team_billing', components: ['InvoiceBanner'] };

let origin: DescriptorOrigin;
let originUrl: string;
let declared: TempDir;
let hostOptions: TestAppOptions;

beforeAll(async () => {
  // The releases' files; the hosts' REMOTES_CONFIG below is this test's own, not the origin's.
  origin = await startDescriptorOrigin(DESCRIPTOR);
  originUrl = origin.url;
  declared = makeTempDir('slots-rollouts-two-hosts-');
  const configFile = path.join(declared.path, 'remotes.json');
  const remotes = [{ name: 'team_billing', entry: 'http://127.0.0.1:9/team_billing/mf-manifest.json' }];
  fs.writeFileSync(configFile, JSON.stringify({ remotes }));
  // No poll during the test: each host looks for a step when the test says, from its own copy.
  hostOptions = { env: { REMOTES_CONFIG: configFile }, releasePollMs: 600_000, remoteDescriptorTimeoutMs: 500 };
});
afterAll(async () => {
  declared.remove();
  await origin.close();
});

async function stepsMadeOnce([first, second]: [TestApp, TestApp], concurrent: boolean): Promise<void> {
  await addOperator(first.app);
  const token = (await first.app.releases.teamTokens.create('team_billing', null)).token;
  for (const version of ['v1', 'v2']) {
    await request(first.app.handler)
      .post('/api/remotes/team_billing/releases')
      .set('Authorization', `Bearer ${token}`)
      .send({ version, entry: `${originUrl}/${version}/mf-manifest.json` })
      .expect(201);
  }
  await first.app.releases.service.activate('team_billing', 'v1', 'admin', 'activate');
  for (const host of [first, second]) host.app.releases.judgeRolloutsWith({ canaryHealth: () => 'no-worse' });
  const operator = await signedInAgent(first.app);
  const steps = [
    { share: 5, minutes: 1 },
    { share: 50, minutes: 1 },
    { share: 100, minutes: 0 },
  ];
  await operator.post('/api/remotes/team_billing/rollouts').send({ version: 'v2', steps }).expect(201);

  let at = Date.now();
  for (const share of [50, 100]) {
    at += 2 * 60_000;
    // Both copies say the same step is due; both look.
    await Promise.all([first.app.releases.snapshot.refresh(), second.app.releases.snapshot.refresh()]);
    const looks = [first.app.releases.rollouts, second.app.releases.rollouts].map(
      (rollouts) => () => rollouts.check(at),
    );
    // On PostgreSQL at the same moment. Two SQLite apps in one process cannot: better-sqlite3 waits for the file's
    // lock synchronously, blocking the event loop of the app holding it; so one after the other, the second deciding
    // from the same copy as the first (as a host whose check began before the first's change).
    if (concurrent) await Promise.all(looks.map((look) => look()));
    else for (const look of looks) await look();
    const plan = await second.app.releases.rollouts.current('team_billing');
    expect(plan?.share).toBe(share);
    await second.app.releases.snapshot.refresh();
    const served = second.app.releases.snapshot.rollout('team_billing');
    expect(share === 100 ? served?.active : served?.canary?.percent).toBe(share === 100 ? 'v2' : share);
  }
  const trail = await first.app.releases.store.history('team_billing');
  expect(
    trail
      .filter((entry) => entry.action.startsWith('rollout-'))
      .map((entry) => entry.action)
      .reverse(),
  ).toEqual(['rollout-start', 'rollout-step', 'rollout-step']);
}

describe('two hosts on one SQLite file', () => {
  it('make a rollout step due on both once, and audit it once', async () => {
    const hosts = await createTwoHosts(createTestApp, hostOptions);
    try {
      await stepsMadeOnce(hosts, false);
    } finally {
      await closeTwoHosts(hosts);
    }
  });
});

describe('the rollout gauges', () => {
  it('show a plan started through one host on the other, within two seconds, and no series once it ends', async () => {
    const TOKEN = 'a-metrics-token-long-enough';
    const options: TestAppOptions = { ...hostOptions, releasePollMs: 1000, metrics: { token: TOKEN } };
    const [first, second] = await createTwoHosts(createTestApp, options);
    try {
      await addOperator(first.app);
      const token = (await first.app.releases.teamTokens.create('team_billing', null)).token;
      for (const version of ['v1', 'v2']) {
        await request(first.app.handler)
          .post('/api/remotes/team_billing/releases')
          .set('Authorization', `Bearer ${token}`)
          .send({ version, entry: `${originUrl}/${version}/mf-manifest.json` })
          .expect(201);
      }
      await first.app.releases.service.activate('team_billing', 'v1', 'admin', 'activate');
      const gauges = async (host: TestApp) =>
        parsePrometheusText(
          (await request(host.app.handler).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200)).text,
        );
      const labels = { remote: 'team_billing', version: 'v2', state: 'running' };
      const operator = await signedInAgent(first.app);
      const steps = [
        { share: 5, minutes: 60 },
        { share: 100, minutes: 0 },
      ];
      await operator.post('/api/remotes/team_billing/rollouts').send({ version: 'v2', steps }).expect(201);
      const started = Date.now();
      expect(sampleValue(await gauges(first), 'slots_rollout_share', labels)).toBe(5);
      await waitUntil(async () => {
        const families = await gauges(second);
        return families.get('slots_rollout_share')?.samples.length === 1;
      }, 2000);
      expect(Date.now() - started).toBeLessThan(2000);
      const seen = await gauges(second);
      expect(sampleValue(seen, 'slots_rollout_share', labels)).toBe(5);
      expect(sampleValue(seen, 'slots_rollout_step', labels)).toBe(1);

      await operator.post('/api/remotes/team_billing/rollouts/current/abort').expect(200);
      await waitUntil(async () => (await gauges(second)).get('slots_rollout_share')?.samples.length === 0, 2000);
    } finally {
      await closeTwoHosts([first, second]);
    }
  });
});

describeWithPostgres()('two hosts on one PostgreSQL', () => {
  const databases = usePostgresDatabases('rollouts_hosts', { poolSize: 4, statementTimeoutMs: 5000 });

  it('make a rollout step due on both once, and audit it once', async () => {
    const hosts = await createTwoHosts(createTestApp, { ...hostOptions, storage: await databases.create() });
    try {
      await stepsMadeOnce(hosts, true);
    } finally {
      await closeTwoHosts(hosts);
    }
  });
});
