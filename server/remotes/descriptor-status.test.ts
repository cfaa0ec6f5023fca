/**
 * The server's own view of a remote tells the truth: what the last request for its descriptor came to (answered,
 * down, timed out, a bad answer), from real HTTP origins, as the inspector (`GET /api/slots/inspect`) and
 * `/metrics` show it; and the server's trace goes along to the remote in a `traceparent`.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import pino from 'pino';
import { REMOTE_DESCRIPTOR_FILE, type InspectedRemote, type RemotesPayload } from '../../shared';
import { fakeManifest } from '../../testing/fake-manifest';
import { createFixtureDist } from '../../testing/server/fixture-dist';
import { holdRequestDeadlines } from '../../testing/server/held-deadlines';
import { parsePrometheusText, sampleValue } from '../../testing/server/prometheus-text';
import { addUser, createTestApp, signedInAgent, signedInOperator, type TestApp } from '../../testing/server/test-app';
import { getFreePort } from '../../testing/system/free-port';
import { startHttpFixtureServer, type HttpFixtureServer } from '../../testing/system/http-fixture-server';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { REMOTE_METRIC_STATUSES } from './remote-descriptor-metrics';

const TOKEN = 'metrics-token-for-the-tests-0123';
const TIMEOUT_MS = 250;

let dir: TempDir;
let testApp: TestApp | undefined;
const origins: HttpFixtureServer[] = [];

beforeEach(() => {
  dir = makeTempDir('slots-descriptor-status-');
});
afterEach(async () => {
  jest.restoreAllMocks();
  await testApp?.close();
  testApp = undefined;
  await Promise.all(origins.splice(0).map((origin) => origin.close()));
  dir.remove();
});

/** An origin that serves `name`'s descriptor (with a manifest and entry script), answers 404, or never answers. */
async function origin(answer: 'descriptor' | '404' | 'silent', name: string): Promise<HttpFixtureServer> {
  const server = await startHttpFixtureServer((req, res) => {
    if (answer === 'silent') return; // closed by the fixture's close()
    if (answer !== '404' && req.url === `/${name}/mf-manifest.json`) {
      res.writeHead(200).end(JSON.stringify(fakeManifest(name, ['Banner'])));
      return;
    }
    if (answer !== '404' && req.url === `/${name}/remoteEntry.js`) {
      res.writeHead(200).end(`var ${name} = {};`);
      return;
    }
    if (answer === '404' || req.url !== `/${name}/${REMOTE_DESCRIPTOR_FILE}`) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ name, components: ['Banner'] }));
  });
  origins.push(server);
  return server;
}

/** A port nothing listens on, and that no other test's server takes meanwhile (see free-port.ts). */
async function deadOrigin(): Promise<string> {
  return `http://127.0.0.1:${await getFreePort()}`;
}

async function startWith(remotes: Array<{ name: string; origin: string }>): Promise<TestApp> {
  const configFile = path.join(dir.path, 'remotes.json');
  const entries = remotes.map(({ name, origin: url }) => ({ name, entry: `${url}/${name}/mf-manifest.json` }));
  fs.writeFileSync(configFile, JSON.stringify({ remotes: entries }));
  testApp = await createTestApp({
    env: { REMOTES_CONFIG: configFile },
    remoteDescriptorTimeoutMs: TIMEOUT_MS,
    metrics: { token: TOKEN },
  });
  return testApp;
}

describe('the status of every other configured remote', () => {
  it('is built, listed or disabled, one series each, alike in the inspector and /metrics', async () => {
    const dist = createFixtureDist();
    try {
      for (const name of ['team_records', 'team_marketing', 'team_off']) {
        dist.addRemote({ name, components: [`${name}_Banner`], formComponents: [] });
      }
      const configFile = path.join(dir.path, 'remotes.json');
      fs.writeFileSync(
        configFile,
        JSON.stringify({
          remotes: [
            // A built-in remote re-pointed by entry alone: its build's components, its entry not asked.
            { name: 'team_marketing', entry: 'https://cdn.example.com/team_marketing/remoteEntry.js' },
            { name: 'team_plain', entry: 'https://cdn.example.com/team_plain/remoteEntry.js', components: ['Plain'] },
            { name: 'team_off', enabled: false },
            { name: 'team_billing', entry: `${await deadOrigin()}/team_billing/mf-manifest.json` },
          ],
        }),
      );
      testApp = await createTestApp({
        env: { REMOTES_CONFIG: configFile },
        distDir: dist.dir,
        remoteDescriptorTimeoutMs: TIMEOUT_MS,
        metrics: { token: TOKEN },
      });
      const { app } = testApp;
      const operator = await signedInOperator(app);
      const inspected = (await operator.get('/api/slots/inspect').expect(200)).body.remotes as InspectedRemote[];
      const metrics = await request(app.handler).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
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
      reason: expect.stringMatching(new RegExp(`did not answer within ${TIMEOUT_MS} ms$`)),
    });
    expect(byName.get('team_missing')).toMatchObject({ status: 'bad-answer', reason: expect.stringMatching(/404$/) });

    const metrics = await request(app.handler).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
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

  it('follows the origin of a release put in force at run time at once, alike in the inspector and /metrics', async () => {
    const answering = await origin('descriptor', 'team_up');
    // The release's files: the same remote, served from another origin than REMOTES_CONFIG's entry.
    const releasing = await origin('descriptor', 'team_up');
    const { app } = await startWith([{ name: 'team_up', origin: answering.url }]);
    const operator = await signedInOperator(app);
    const statuses = async () => {
      const inspected = (await operator.get('/api/slots/inspect').expect(200)).body.remotes as InspectedRemote[];
      const metrics = await request(app.handler).get('/metrics').set('Authorization', `Bearer ${TOKEN}`).expect(200);
      const families = parsePrometheusText(metrics.text);
      const measured = (families.get('slots_remote_descriptor_status')?.samples ?? []).filter(
        (sample) => sample.labels.remote === 'team_up' && sample.value === 1,
      );
      return {
        inspector: inspected.find((remote) => remote.name === 'team_up')?.status,
        metrics: measured.map((sample) => sample.labels.status),
      };
    };
    expect(await statuses()).toEqual({ inspector: 'answered', metrics: ['answered'] });

    const { token } = await app.releases.teamTokens.create('team_up', null);
    await request(app.handler)
      .post('/api/remotes/team_up/releases')
      .set('Authorization', `Bearer ${token}`)
      .send({ version: '2.0.0', entry: `${releasing.url}/team_up/mf-manifest.json` })
      .expect(201);
    // The release's origin stops answering before it is put in force: REMOTES_CONFIG's entry still answers.
    await releasing.close();
    await operator.post('/api/remotes/team_up/activate').send({ version: '2.0.0' }).expect(200);
    expect(app.remotes.registry.stateOf('team_up').status).toBe('ready');
    // Asked at once, not at the next round of checks (30 s here): the status is the release's origin's.
    const deadline = Date.now() + 2_000;
    let seen = await statuses();
    while (seen.inspector !== 'down' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = await statuses();
    }
    expect(seen).toEqual({ inspector: 'down', metrics: ['down'] });
  });

  it('follows the next request: a remote that timed out and then answers is answered', async () => {
    let silent = true;
    const flaky = await startHttpFixtureServer((req, res) => {
      if (silent) return;
      res.writeHead(200).end(JSON.stringify({ name: 'team_flaky', components: ['Banner'] }));
    });
    origins.push(flaky);
    const { app } = await startWith([{ name: 'team_flaky', origin: flaky.url }]);
    expect(app.remotes.registry.stateOf('team_flaky')).toMatchObject({ status: 'failing', failure: 'timed-out' });
    silent = false;
    await app.remotes.registry.refresh();
    expect(app.remotes.registry.stateOf('team_flaky').status).toBe('ready');
  });

  it('follows its origin once served from a release: down, timed out and back, alike on two hosts, and logged', async () => {
    // Only a silent origin's requests time out, when it has them: with 250 ms of real time, the load of a busy machine
    // timed out requests the origin was answering (the first host's import of the entry, a check while it answered).
    const deadlines = holdRequestDeadlines();
    let answer: 'descriptor' | 'silent' | '404' = 'descriptor';
    const changing = await startHttpFixtureServer((req, res) => {
      if (answer === 'silent') return deadlines.expire();
      if (answer === 'descriptor' && req.url === '/team_up/mf-manifest.json') {
        res.writeHead(200).end(JSON.stringify(fakeManifest('team_up', ['Banner'])));
      } else if (answer === 'descriptor' && req.url === '/team_up/remoteEntry.js') {
        res.writeHead(200).end('var team_up = {};');
      } else if (answer === 'descriptor' && req.url === `/team_up/${REMOTE_DESCRIPTOR_FILE}`) {
        res.writeHead(200).end(JSON.stringify({ name: 'team_up', components: ['Banner'] }));
      } else {
        res.writeHead(404).end();
      }
    });
    origins.push(changing);
    const logged: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(line) });
    // REMOTES_CONFIG's entry, made a release by the first host; the second finds the release.
    const first = await startWith([{ name: 'team_up', origin: changing.url }]);
    const second = await createTestApp({
      dir,
      env: { REMOTES_CONFIG: path.join(dir.path, 'remotes.json') },
      remoteDescriptorTimeoutMs: TIMEOUT_MS,
      metrics: { token: TOKEN },
      logger,
    });
    try {
      // Signed in once on each host: a sign-in is a password hash, of the time a loaded machine has least of.
      const operators = await Promise.all([first, second].map(({ app }) => signedInOperator(app)));
      const statuses = async () =>
        Promise.all(
          [first, second].map(async ({ app }, host) => {
            const agent = operators[host]!;
            const inspected = (await agent.get('/api/slots/inspect').expect(200)).body.remotes as InspectedRemote[];
            const remote = inspected.find((each) => each.name === 'team_up');
            const metrics = await request(app.handler).get('/metrics').set('Authorization', `Bearer ${TOKEN}`);
            const measured = (parsePrometheusText(metrics.text).get('slots_remote_descriptor_status')?.samples ?? [])
              .filter((sample) => sample.labels.remote === 'team_up' && sample.value === 1)
              .map((sample) => sample.labels.status);
            return { inspector: remote?.status, release: remote?.release, metrics: measured };
          }),
        );
      const checkBoth = () => Promise.all([first, second].map(({ app }) => app.remotes.registry.checkOrigins()));
      const release = first.app.remotes.registry.releaseOf('team_up')!.version;
      expect(release).toMatch(/^config-/);
      await checkBoth();
      expect(await statuses()).toEqual([
        { inspector: 'answered', release, metrics: ['answered'] },
        { inspector: 'answered', release, metrics: ['answered'] },
      ]);

      answer = 'silent';
      await checkBoth();
      const slow = { inspector: 'timed-out', release, metrics: ['timed-out'] };
      expect(await statuses()).toEqual([slow, slow]);
      expect(logged.join('')).toContain('Remote \\"team_up\\" stopped answering at its origin');

      answer = 'descriptor';
      await checkBoth();
      expect((await statuses()).map((status) => status.inspector)).toEqual(['answered', 'answered']);
      const again = logged
        .map((line) => JSON.parse(line) as { msg: string; trace_id?: string })
        .find((line) => line.msg === 'Remote "team_up" answers at its origin again.');
      // With the trace its request went with, as the origin received it.
      expect(changing.requests.map((asked) => asked.traceparent?.slice(3, 35))).toContain(again?.trace_id);

      answer = '404';
      await checkBoth();
      expect((await statuses()).map((status) => status.inspector)).toEqual(['bad-answer', 'bad-answer']);

      await changing.close();
      await checkBoth();
      const down = { inspector: 'down', release, metrics: ['down'] };
      expect(await statuses()).toEqual([down, down]);
      // Still served from its release: pages meet the outage slot by slot, and load it again once it is back.
      const served = (await request(second.app.handler).get('/api/remotes').expect(200)).body as RemotesPayload;
      expect(served.remotes.map((remote) => remote.name)).toContain('team_up');
    } finally {
      await second.close();
    }
  });

  it('sends a W3C traceparent with every descriptor request, a new trace for each poll', async () => {
    const answering = await origin('404', 'team_traced');
    const { app } = await startWith([{ name: 'team_traced', origin: answering.url }]);
    await app.remotes.registry.refresh();
    // Asked by the import of REMOTES_CONFIG, by the start's refresh, then by this one.
    const sent = answering.requests.map((one) => one.traceparent);
    expect(sent).toHaveLength(3);
    for (const header of sent) expect(header).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(new Set(sent.map((header) => header!.slice(3, 35))).size).toBe(3);
  });

  it('names in its log line of a failure the trace its request went with, so the origin’s logs can be matched', async () => {
    const missing = await origin('404', 'team_traced');
    const logged: string[] = [];
    const configFile = path.join(dir.path, 'remotes.json');
    const entry = `${missing.url}/team_traced/mf-manifest.json`;
    fs.writeFileSync(configFile, JSON.stringify({ remotes: [{ name: 'team_traced', entry }] }));
    testApp = await createTestApp({
      env: { REMOTES_CONFIG: configFile },
      remoteDescriptorTimeoutMs: TIMEOUT_MS,
      logger: pino({ level: 'info' }, { write: (line: string) => void logged.push(line) }),
    });
    const warning = logged
      .map((line) => JSON.parse(line) as { msg: string; trace_id?: string })
      .find((line) => line.msg.startsWith('Remote "team_traced" is not available'));
    const sent = missing.requests.map((asked) => asked.traceparent!.slice(3, 35));
    expect(warning?.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(sent).toContain(warning?.trace_id);
  });

  it('continues the trace of the request it reads a descriptor for (a release being published)', async () => {
    const versioned = await origin('descriptor', 'v1');
    // Declared, as a release's remote must be: listed, so that nothing asks its origin before the release does.
    const configFile = path.join(dir.path, 'remotes.json');
    const listed = { name: 'v1', entry: `${versioned.url}/listed/remoteEntry.js`, components: ['Banner'] };
    fs.writeFileSync(configFile, JSON.stringify({ remotes: [listed] }));
    testApp = await createTestApp({ env: { REMOTES_CONFIG: configFile }, remoteDescriptorTimeoutMs: TIMEOUT_MS });
    const { token } = await testApp.app.releases.teamTokens.create('v1', null);
    const traceId = '5d8f0a7b3c2e41f6a9b8c7d6e5f40312';
    const published = await request(testApp.app.handler)
      .post('/api/remotes/v1/releases')
      .set('Authorization', `Bearer ${token}`)
      .set('traceparent', `00-${traceId}-00f067aa0ba902b7-01`)
      .send({ version: '1.0.0', entry: `${versioned.url}/v1/mf-manifest.json` });
    expect(published.status).toBe(201);
    // The descriptor, then the manifest and the entry script it names: each continues the trace.
    expect(versioned.requests.map((asked) => asked.url)).toEqual([
      `/v1/${REMOTE_DESCRIPTOR_FILE}`,
      '/v1/mf-manifest.json',
      '/v1/remoteEntry.js',
    ]);
    for (const asked of versioned.requests) {
      expect(asked.traceparent).toMatch(new RegExp(`^00-${traceId}-(?!00f067aa0ba902b7)[0-9a-f]{16}-01$`));
    }
  });
});
