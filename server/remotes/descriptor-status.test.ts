/**
 * The server's own view of a remote tells the truth: what the last request for its descriptor came to (answered,
 * down, timed out, a bad answer), from real HTTP origins, as the inspector (`GET /api/slots/inspect`) and
 * `/metrics` show it, and the status of the remotes it does not ask (built, listed, disabled). A remote served from a
 * release: descriptor-status-release.test.ts; the trace its requests go with: descriptor-status-trace.test.ts.
 */
import request from 'supertest';
import { type InspectedRemote } from '../../shared';
import { createFixtureDist } from '../../testing/server/fixture-dist';
import { parsePrometheusText, sampleValue } from '../../testing/server/prometheus-text';
import { DESCRIPTOR_TIMEOUT_MS, METRICS_TOKEN, remoteOriginsPerTest } from '../../testing/server/remote-origins';
import { addUser, signedInAgent, signedInOperator } from '../../testing/server/test-app';
import { getFreePort } from '../../testing/system/free-port';
import { startHttpFixtureServer } from '../../testing/system/http-fixture-server';
import { REMOTE_METRIC_STATUSES } from './remote-descriptor-metrics';

const remotes = remoteOriginsPerTest('slots-descriptor-status-');
const { origin, startWith } = remotes;

/** A port nothing listens on, and that no other test's server takes meanwhile (see free-port.ts). */
async function deadOrigin(): Promise<string> {
  return `http://127.0.0.1:${await getFreePort()}`;
}

describe('the status of every other configured remote', () => {
  it('is built, listed or disabled, one series each, alike in the inspector and /metrics', async () => {
    const dist = createFixtureDist();
    try {
      for (const name of ['team_records', 'team_marketing', 'team_off']) {
        dist.addRemote({ name, components: [`${name}_Banner`], formComponents: [] });
      }
      remotes.declare([
        // A built-in remote re-pointed by entry alone: its build's components, its entry not asked.
        { name: 'team_marketing', entry: 'https://cdn.example.com/team_marketing/remoteEntry.js' },
        { name: 'team_plain', entry: 'https://cdn.example.com/team_plain/remoteEntry.js', components: ['Plain'] },
        { name: 'team_off', enabled: false },
        { name: 'team_billing', entry: `${await deadOrigin()}/team_billing/mf-manifest.json` },
      ]);
      const { app } = await remotes.start({ distDir: dist.dir });
      const operator = await signedInOperator(app);
      const inspected = (await operator.get('/api/slots/inspect').expect(200)).body.remotes as InspectedRemote[];
      const metrics = await request(app.handler)
        .get('/metrics')
        .set('Authorization', `Bearer ${METRICS_TOKEN}`)
        .expect(200);
      const samples = parsePrometheusText(metrics.text).get('slots_remote_descriptor_status')?.samples ?? [];
      const measured = (remote: string) =>
        samples
          .filter((sample) => sample.labels.remote === remote && sample.value === 1)
          .map(({ labels }) => labels.status);

      const expected = {
        team_records: 'built',
        team_marketing: 'listed',
        team_plain: 'listed',
        team_off: 'disabled',
        team_billing: 'down',
      };
      expect(Object.fromEntries(inspected.map((remote) => [remote.name, remote.status]))).toEqual(expected);
      for (const [remote, status] of Object.entries(expected)) {
        expect({ remote, metrics: measured(remote) }).toEqual({ remote, metrics: [status] });
        // Every status of each remote, its own at 1 and the others at 0: a series per value, as for the others.
        expect(samples.filter((sample) => sample.labels.remote === remote)).toHaveLength(REMOTE_METRIC_STATUSES.length);
      }
    } finally {
      dist.remove();
    }
  });
});

describe('the status of a remote declared by entry', () => {
  it('is answered, down, timed out or a bad answer, as its last request came to, in the inspector and /metrics', async () => {
    const answering = await origin('descriptor', 'team_up');
    const silent = await origin('silent', 'team_slow');
    const missing = await origin('404', 'team_missing');
    const { app } = await startWith([
      { name: 'team_up', origin: answering.url },
      { name: 'team_down', origin: await deadOrigin() },
      { name: 'team_slow', origin: silent.url },
      { name: 'team_missing', origin: missing.url },
    ]);
    await addUser(app, 'ada', 'correct horse battery', ['acme']);
    const agent = await signedInAgent(app, 'ada', 'correct horse battery');
    const inspected = (await agent.get('/api/slots/inspect').expect(200)).body.remotes as InspectedRemote[];
    const byName = new Map(inspected.map((remote) => [remote.name, remote]));
    expect(byName.get('team_up')?.status).toBe('answered');
    expect(byName.get('team_down')).toMatchObject({ status: 'down', reason: expect.stringMatching(/ECONNREFUSED/) });
    expect(byName.get('team_slow')).toMatchObject({
      status: 'timed-out',
      reason: expect.stringMatching(new RegExp(`did not answer within ${DESCRIPTOR_TIMEOUT_MS} ms$`)),
    });
    expect(byName.get('team_missing')).toMatchObject({ status: 'bad-answer', reason: expect.stringMatching(/404$/) });

    const metrics = await request(app.handler)
      .get('/metrics')
      .set('Authorization', `Bearer ${METRICS_TOKEN}`)
      .expect(200);
    const families = parsePrometheusText(metrics.text);
    const status = (remote: string, value: string) =>
      sampleValue(families, 'slots_remote_descriptor_status', { remote, status: value });
    expect(status('team_up', 'answered')).toBe(1);
    expect(status('team_up', 'down')).toBe(0);
    expect(status('team_down', 'down')).toBe(1);
    expect(status('team_down', 'timed-out')).toBe(0);
    expect(status('team_slow', 'timed-out')).toBe(1);
    expect(status('team_slow', 'down')).toBe(0);
    expect(status('team_missing', 'bad-answer')).toBe(1);
    expect(status('team_missing', 'answered')).toBe(0);
  });

  it('follows the next request: a remote that timed out and then answers is answered', async () => {
    let silent = true;
    const flaky = await startHttpFixtureServer((req, res) => {
      if (silent) return;
      res.writeHead(200).end(JSON.stringify({ name: 'team_flaky', components: ['Banner'] }));
    });
    remotes.closing(flaky);
    const { app } = await startWith([{ name: 'team_flaky', origin: flaky.url }]);
    expect(app.remotes.registry.stateOf('team_flaky')).toMatchObject({ status: 'failing', failure: 'timed-out' });
    silent = false;
    await app.remotes.registry.refresh();
    expect(app.remotes.registry.stateOf('team_flaky').status).toBe('ready');
  });
});
