/**
 * The server's trace goes along to a remote's origin in a W3C `traceparent`: a new trace for each poll, named in the
 * log line of a failure, and the trace of the request it reads a descriptor for continued. The statuses the requests
 * come to: descriptor-status.test.ts.
 */
import request from 'supertest';
import pino from 'pino';
import { REMOTE_DESCRIPTOR_FILE } from '../../shared';
import { remoteOriginsPerTest } from '../../testing/server/remote-origins';

const remotes = remoteOriginsPerTest('slots-descriptor-status-trace-');
const { origin, startWith } = remotes;

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
    await startWith([{ name: 'team_traced', origin: missing.url }], {
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
    remotes.declare([{ name: 'v1', entry: `${versioned.url}/listed/remoteEntry.js`, components: ['Banner'] }]);
    const { app } = await remotes.start();
    const { token } = await app.releases.teamTokens.create('v1', null);
    const traceId = '5d8f0a7b3c2e41f6a9b8c7d6e5f40312';
    const published = await request(app.handler)
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
