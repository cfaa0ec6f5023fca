/**
 * `slots_remote_descriptor_status` has a series for every remote the host serves, released ones included (a built-in
 * remote with no REMOTES_CONFIG entry too), each at 1 for the status the slot inspector says; and none for a remote
 * the host no longer serves, its release kept. Real releases, published over HTTP with a team token and read from
 * their origins.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import type { InspectedRemote, RemotesPayload } from '../../shared';
import { createFixtureDist, type FixtureDist } from '../../testing/server/fixture-dist';
import { parsePrometheusText } from '../../testing/server/prometheus-text';
import { publishAndActivate, startDescriptorOrigin, type DescriptorOrigin } from '../../testing/server/released-remote';
import { createTestApp, signedInOperator, type TestApp } from '../../testing/server/test-app';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';

jest.setTimeout(30_000);

const TOKEN = 'metrics-token-for-the-tests-0123';

let dist: FixtureDist;
let dir: TempDir;
let testApp: TestApp | undefined;
const origins: DescriptorOrigin[] = [];

beforeEach(() => {
  dist = createFixtureDist();
  dir = makeTempDir('slots-remote-status-series-');
});
afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
  await Promise.all(origins.splice(0).map((origin) => origin.close()));
  dist.remove();
  dir.remove();
});

/** Every remote `/api/remotes` serves, the inspector's status of each, and the status `/metrics` has at 1 for each. */
async function views(app: TestApp['app']) {
  const served = ((await request(app.handler).get('/api/remotes').expect(200)).body as RemotesPayload).remotes
    .map((remote) => remote.name)
    .sort();
  const operator = await signedInOperator(app);
  const inspected = (await operator.get('/api/slots/inspect').expect(200)).body.remotes as InspectedRemote[];
  const metrics = await request(app.handler).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
  const samples = parsePrometheusText(metrics.text).get('slots_remote_descriptor_status')?.samples ?? [];
  const measured: Record<string, string[]> = {};
  for (const { labels, value } of samples) {
    const at = (measured[labels.remote ?? ''] ??= []);
    if (value === 1) at.push(labels.status ?? '');
  }
  return {
    served,
    inspected: Object.fromEntries(inspected.map((remote) => [remote.name, [remote.status]])),
    measured,
  };
}

describe('slots_remote_descriptor_status of released remotes', () => {
  it('has every served remote, a released one as the inspector says, and none once its entry is removed', async () => {
    dist.addRemote({ name: 'team_records', components: ['RecordsBanner'], formComponents: [] });
    const billing = await startDescriptorOrigin({ name: 'team_billing', components: ['InvoiceBanner'] });
    const records = await startDescriptorOrigin({ name: 'team_records', components: ['RecordsBanner'] });
    origins.push(billing, records);
    const configFile = path.join(dir.path, 'remotes.json');
    const billingEntry = {
      name: 'team_billing',
      entry: `${billing.url}/listed/remoteEntry.js`,
      components: ['InvoiceBanner'],
    };
    fs.writeFileSync(configFile, JSON.stringify({ remotes: [billingEntry] }));
    testApp = await createTestApp({
      env: { REMOTES_CONFIG: configFile },
      distDir: dist.dir,
      remoteDescriptorTimeoutMs: 10_000,
      metrics: { token: TOKEN },
    });
    const { app } = testApp;
    // team_billing from REMOTES_CONFIG, team_records from the build (no entry of its own in the file): each released
    // through the team platform.
    await publishAndActivate(app, 'team_billing', billing.url, ['1.0.0']);
    const token = (await app.releases.teamTokens.create('team_records', null)).token;
    await request(app.handler)
      .post('/api/remotes/team_records/releases')
      .set('Authorization', `Bearer ${token}`)
      .send({ version: '2.0.0', entry: `${records.url}/2.0.0/mf-manifest.json` })
      .expect(201);
    await app.releases.service.activate('team_records', '2.0.0', 'operator', 'activate');
    await app.releases.snapshot.refresh();
    const released = await views(app);
    expect(Object.keys(released.measured).sort()).toEqual(released.served);
    expect(released.served).toEqual(['team_billing', 'team_records']);
    expect(released.measured).toEqual(released.inspected);
    // Its origin asked once the release is in force, or not yet: what the inspector says either way.
    for (const remote of released.served) expect(['answered', 'released']).toContain(released.measured[remote]?.[0]);

    fs.writeFileSync(configFile, JSON.stringify({ remotes: [] }));
    expect(await app.remotes.reloadConfig()).toBe(true);
    await app.releases.snapshot.refresh();
    // A release of a remote taken out of REMOTES_CONFIG is not served (its releases stay, in force again when it is
    // put back): no series, as the inspector does not list it.
    const removed = await views(app);
    expect(removed.served).toEqual(['team_records']);
    expect(Object.keys(removed.measured)).toEqual(removed.served);
    expect(removed.measured).toEqual(removed.inspected);
  });
});
