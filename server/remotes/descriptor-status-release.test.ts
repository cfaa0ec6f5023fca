/**
 * The status of a remote served from a release follows the release's origin: the one put in force at run time at
 * once, and then, on every host alike, as its origin goes down, silent and back, in the inspector
 * (`GET /api/slots/inspect`), `/metrics` and the log. A remote declared by entry: descriptor-status.test.ts.
 */
import request from 'supertest';
import pino from 'pino';
import { type InspectedRemote, type RemotesPayload } from '../../shared';
import { holdRequestDeadlines } from '../../testing/server/held-deadlines';
import { parsePrometheusText } from '../../testing/server/prometheus-text';
import { METRICS_TOKEN, remoteOriginsPerTest, type OriginAnswer } from '../../testing/server/remote-origins';
import { signedInOperator } from '../../testing/server/test-app';

const remotes = remoteOriginsPerTest('slots-descriptor-status-release-');
const { origin, startWith } = remotes;

afterEach(() => {
  jest.restoreAllMocks();
});

describe('the status of a remote served from a release', () => {
  it('follows the origin of a release put in force at run time at once, alike in the inspector and /metrics', async () => {
    const answering = await origin('descriptor', 'team_up');
    // The release's files: the same remote, served from another origin than REMOTES_CONFIG's entry.
    const releasing = await origin('descriptor', 'team_up');
    const { app } = await startWith([{ name: 'team_up', origin: answering.url }]);
    const operator = await signedInOperator(app);
    const statuses = async () => {
      const inspected = (await operator.get('/api/slots/inspect').expect(200)).body.remotes as InspectedRemote[];
      const metrics = await request(app.handler)
        .get('/metrics')
        .set('Authorization', `Bearer ${METRICS_TOKEN}`)
        .expect(200);
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

  it('follows its origin once served from a release: down, timed out and back, alike on two hosts, and logged', async () => {
    // Only a silent origin's requests time out, when it has them: with 250 ms of real time, the load of a busy machine
    // timed out requests the origin was answering (the first host's import of the entry, a check while it answered).
    const deadlines = holdRequestDeadlines();
    let answer: OriginAnswer = 'descriptor';
    const changing = await origin(() => {
      if (answer === 'silent') deadlines.expire();
      return answer;
    }, 'team_up');
    const logged: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void logged.push(line) });
    // REMOTES_CONFIG's entry, made a release by the first host; the second finds the release.
    const first = await startWith([{ name: 'team_up', origin: changing.url }]);
    const second = await remotes.start({ dir: remotes.dir, logger });
    // Signed in once on each host: a sign-in is a password hash, of the time a loaded machine has least of.
    const operators = await Promise.all([first, second].map(({ app }) => signedInOperator(app)));
    const statuses = async () =>
      Promise.all(
        [first, second].map(async ({ app }, host) => {
          const agent = operators[host]!;
          const inspected = (await agent.get('/api/slots/inspect').expect(200)).body.remotes as InspectedRemote[];
          const remote = inspected.find((each) => each.name === 'team_up');
          const metrics = await request(app.handler).get('/metrics').set('Authorization', `Bearer ${METRICS_TOKEN}`);
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
  });
});
