/**
 * The changes an operator makes to what a remote serves (activate, roll back, take out of force, a canary, a
 * progressive rollout) are each logged once, at info, with the fields the automatic ones carry: they were written to
 * the audit trail only, so an alert or a search on the log saw the server's changes and not the people's.
 */
import pino from 'pino';
import { createTestApp, type TestApp } from '../../testing/server/test-app';
import { publishAndActivate, startDescriptorOrigin, type DescriptorOrigin } from '../../testing/server/released-remote';

jest.setTimeout(60_000);

interface LogLine {
  level: number;
  msg: string;
  actor?: string;
  remote?: string;
  action?: string;
  version?: string;
}

let origin: DescriptorOrigin;
let testApp: TestApp;
let logged: LogLine[];

beforeAll(async () => {
  origin = await startDescriptorOrigin({ name: 'team_billing', components: ['InvoiceBanner'] });
});
afterAll(() => origin.close());
beforeEach(async () => {
  logged = [];
  testApp = await createTestApp({
    env: { REMOTES_CONFIG: origin.remotesConfig },
    logger: pino({ level: 'info' }, { write: (line: string) => logged.push(JSON.parse(line) as LogLine) }),
    // Publishing asks the origin for the release's files: generous, for a busy machine.
    remoteDescriptorTimeoutMs: 10_000,
  });
});
afterEach(() => testApp.close());

/** The log lines of rollout changes made by `actor`, with the fields every such line carries. */
const changesBy = (actor: string) =>
  logged
    .filter((line) => line.actor === actor && line.action !== undefined)
    .map(({ level, remote, action, version, msg }) => ({ level, remote, action, version, msg }));

it("logs each of an operator's changes once, at info, with who made it, the remote, the action and the release", async () => {
  const operator = await publishAndActivate(testApp.app, 'team_billing', origin.url, ['v1', 'v2']);
  await operator.post('/api/remotes/team_billing/activate').send({ version: 'v2' }).expect(200);
  await operator.post('/api/remotes/team_billing/rollback').send({ version: 'v1' }).expect(200);
  await operator.post('/api/remotes/team_billing/canary').send({ version: 'v2', percent: 10 }).expect(200);
  await operator.delete('/api/remotes/team_billing/canary').expect(200);
  // Nothing to end: nothing changes, nothing is logged.
  await operator.delete('/api/remotes/team_billing/canary').expect(200);
  await operator.post('/api/remotes/team_billing/deactivate').expect(200);

  const info = 30;
  const line = (action: string, version: string, msg: string) => ({
    level: info,
    remote: 'team_billing',
    action,
    version,
    msg,
  });
  expect(changesBy('operator')).toEqual([
    line('activate', 'v1', 'remote "team_billing": release v1 activated by operator'),
    line('activate', 'v2', 'remote "team_billing": release v2 activated by operator'),
    line('rollback', 'v1', 'remote "team_billing": rolled back to release v1 by operator'),
    line('canary', 'v2', 'remote "team_billing": canary v2 started by operator (10 %)'),
    line('canary-end', 'v2', 'remote "team_billing": canary v2 ended by operator'),
    line(
      'deactivate',
      'v1',
      `remote "team_billing": release v1 taken out of force by operator (the remote's own build is served again)`,
    ),
  ]);
});

it("logs an operator's start, pause, resume and abort of a progressive rollout, and a promotion", async () => {
  const operator = await publishAndActivate(testApp.app, 'team_billing', origin.url, ['v1', 'v2']);
  const steps = [
    { share: 5, minutes: 10 },
    { share: 100, minutes: 0 },
  ];
  await operator.post('/api/remotes/team_billing/rollouts').send({ version: 'v2', steps }).expect(201);
  await operator.post('/api/remotes/team_billing/rollouts/current/pause').expect(200);
  // A pause of a paused plan changes nothing: not logged.
  await operator.post('/api/remotes/team_billing/rollouts/current/pause').expect(200);
  await operator.post('/api/remotes/team_billing/rollouts/current/resume').expect(200);
  await operator.post('/api/remotes/team_billing/rollouts/current/abort').expect(200);
  await operator.post('/api/remotes/team_billing/rollouts').send({ version: 'v2', steps }).expect(201);
  await operator.post('/api/remotes/team_billing/rollouts/current/promote').expect(200);

  const rollout = (action: string, done: string) => ({
    level: 30,
    remote: 'team_billing',
    action,
    version: 'v2',
    msg: `remote "team_billing": rollout of v2 ${done}`,
  });
  expect(changesBy('operator').slice(1)).toEqual([
    rollout('rollout-start', 'started by operator (plan of 5 %, 100 %)'),
    rollout('rollout-pause', 'paused by operator'),
    rollout('rollout-resume', 'resumed by operator'),
    rollout('rollout-abort', 'aborted by operator'),
    rollout('rollout-start', 'started by operator (plan of 5 %, 100 %)'),
    rollout('rollout-promote', 'promoted: release v2 activated by operator'),
  ]);
});

it('logs a plan change once on the host that made it, and once as seen on another host', async () => {
  // Both hosts on this test's database; the first one's log is this test's `logged`, the second's its own.
  const elsewhere: LogLine[] = [];
  const second = await createTestApp({
    dir: testApp.dir,
    env: { REMOTES_CONFIG: origin.remotesConfig },
    logger: pino({ level: 'info' }, { write: (line: string) => elsewhere.push(JSON.parse(line) as LogLine) }),
    remoteDescriptorTimeoutMs: 10_000,
  });
  try {
    const operator = await publishAndActivate(testApp.app, 'team_billing', origin.url, ['v1', 'v2']);
    const steps = [
      { share: 5, minutes: 10 },
      { share: 100, minutes: 0 },
    ];
    await second.app.releases.snapshot.refresh();
    await operator.post('/api/remotes/team_billing/rollouts').send({ version: 'v2', steps }).expect(201);
    await second.app.releases.snapshot.refresh();
    await operator.post('/api/remotes/team_billing/rollouts/current/pause').expect(200);
    await second.app.releases.snapshot.refresh();

    const rolloutLines = (lines: LogLine[]) =>
      lines.filter((line) => line.msg.includes('rollout of')).map((line) => line.msg);
    // The maker's own refresh showed it the change too: it logged it a second time, as seen.
    expect(rolloutLines(logged)).toEqual([
      'remote "team_billing": rollout of v2 started by operator (plan of 5 %, 100 %)',
      'remote "team_billing": rollout of v2 paused by operator',
    ]);
    expect(rolloutLines(elsewhere)).toEqual([
      'rollout of "team_billing" v2 seen running at step 1 of 2 (5 %)',
      'rollout of "team_billing" v2 seen paused at step 1 of 2 (5 %)',
    ]);
  } finally {
    await second.close({ keepData: true });
  }
});
