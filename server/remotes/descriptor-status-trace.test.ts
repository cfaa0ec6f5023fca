/**
 * The server's trace goes along to a remote's origin in a W3C `traceparent`: a new trace for each poll, named in the
 * log line of a failure, and the trace of the request it reads a descriptor for continued. The statuses the requests
 * come to: descriptor-status.test.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import pino from 'pino';
import { REMOTE_DESCRIPTOR_FILE } from '../../shared';
import { fakeManifest } from '../../testing/fake-manifest';
import { createTestApp, type TestApp } from '../../testing/server/test-app';
import { startHttpFixtureServer, type HttpFixtureServer } from '../../testing/system/http-fixture-server';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';

const TOKEN = 'metrics-token-for-the-tests-0123';
const TIMEOUT_MS = 250;

let dir: TempDir;
let testApp: TestApp | undefined;
const origins: HttpFixtureServer[] = [];

beforeEach(() => {
  dir = makeTempDir('slots-descriptor-status-trace-');
});
afterEach(async () => {
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

describe('the trace of a descriptor request', () => {
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
